import Foundation

/// One input to analyse, as found from the command line.
public enum InputItem: Sendable, Equatable {
    /// `source` is how events name it; `location` is what libavformat opens.
    case media(source: String, location: MediaLocation)
    /// A file a directory walk passes over (not media by its extension, not a regular file).
    case skipped(source: String, reason: String)
    /// Something that cannot be an input at all (missing path, unreadable directory).
    case failed(source: String, error: FrameProbeError)

    public var source: String {
        switch self {
        case .media(let source, _), .skipped(let source, _), .failed(let source, _): source
        }
    }
}

/// Where libavformat opens an input: a URL, a device, standard input or a file — as bytes, because a file name
/// need not be UTF-8 (SPEC §10: such files are analysed like any other; `source` shows them repaired).
public struct MediaLocation: Sendable, Equatable {
    /// What `avformat_open_input` gets (without the terminating NUL).
    public let bytes: [UInt8]
    /// The file system path, for a file (nil for URLs, devices and standard input).
    public let filePath: [UInt8]?

    /// A URL, a device or `pipe:0`, handed over as it is.
    public init(url: String) {
        bytes = Array(url.utf8)
        filePath = nil
    }

    /// A regular file, opened through the `file:` protocol so that a name with a colon stays a file name.
    public init(filePath path: [UInt8]) {
        bytes = Array("file:".utf8) + path
        filePath = path
    }

    /// The bytes as a C string.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        InputDiscovery.withCPath(bytes, body)
    }
}

/// Turns command-line inputs into the list of inputs to analyse: files, images, directories (walked
/// recursively, sorted by path), `-` for standard input, URLs and devices.
public enum InputDiscovery {
    /// Extensions a directory walk treats as media. Files named explicitly are always tried, whatever their name.
    public static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mts", "m2ts", "mpg", "mpeg", "nut", "flv", "wmv", "3gp",
        "ogv", "y4m", "gif", "jpg", "jpeg", "png", "bmp", "webp", "tif", "tiff", "heic", "avif", "mjpeg", "h264", "hevc",
    ]

    /// How a directory walk treats links and the run's own output folder.
    public struct WalkRules: Sendable {
        /// Follow symbolic links out of the folder being walked (off: a walk stays in it, as `find` without -L).
        public var followLinks: Bool
        /// Folders never walked (real paths): the run's output folder, so its captures are never its inputs.
        public var excluded: [[UInt8]]

        public init(followLinks: Bool = false, excluded: [String] = []) {
            self.followLinks = followLinks
            self.excluded = excluded.compactMap { InputDiscovery.realPath(Array($0.utf8)) }
        }

        public func isExcluded(_ real: [UInt8]) -> Bool { excluded.contains { InputDiscovery.isSameOrInside(real, $0) } }
    }

    /// `rawBytes` gives an argument's bytes as the shell passed them (a name that is not UTF-8 reaches Swift repaired).
    public static func expand(_ arguments: [String], rawBytes: (String) -> [UInt8] = { Array($0.utf8) },
                              rules: WalkRules = WalkRules()) -> [InputItem] {
        arguments.flatMap { expand(argument: $0, bytes: rawBytes($0), rules: rules) }
    }

    static func expand(argument: String, bytes: [UInt8], rules: WalkRules) -> [InputItem] {
        if argument == "-" { return [.media(source: "-", location: MediaLocation(url: "pipe:0"))] }
        guard let kind = FileKind(bytes) else {
            if argument.contains("://") || argument.hasPrefix("/dev/") {
                return [.media(source: argument, location: MediaLocation(url: argument))]
            }
            return [.failed(source: argument, error: FrameProbeError("INPUT_UNREADABLE", whyUnreachable(bytes)))]
        }
        switch kind {
        case .directory:
            var visited: Set<[UInt8]> = []
            guard let root = realPath(bytes) else { return walk(bytes, root: bytes, visited: &visited, rules: rules) }
            return walk(bytes, root: root, visited: &visited, rules: rules)
        case .regular: return [.media(source: argument, location: MediaLocation(filePath: bytes))]
        // Named explicitly, a FIFO, socket or device is opened as it is: that is how live sources arrive.
        case .other: return [.media(source: argument, location: MediaLocation(url: String(decoding: bytes, as: UTF8.self)))]
        }
    }

    /// Walks `directory`, staying within `root` (the real path of the folder given) unless the rules follow links.
    private static func walk(_ directory: [UInt8], root: [UInt8], visited: inout Set<[UInt8]>, rules: WalkRules) -> [InputItem] {
        let source = String(decoding: directory, as: UTF8.self)
        guard let real = realPath(directory), visited.insert(real).inserted else {
            return [.skipped(source: source, reason: "directory already visited (symbolic link loop)")]
        }
        guard let names = entries(of: directory) else {
            return [.failed(source: source, error: FrameProbeError("INPUT_UNREADABLE", "cannot list directory: \(String(cString: strerror(errno)))"))]
        }
        var items: [InputItem] = []
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where name.first != UInt8(ascii: ".") {
            let path = directory.last == UInt8(ascii: "/") ? directory + name : directory + [UInt8(ascii: "/")] + name
            let pathSource = String(decoding: path, as: UTF8.self)
            if let reason = passedOver(path, root: root, rules: rules) {
                items.append(.skipped(source: pathSource, reason: reason))
                continue
            }
            switch FileKind(path) {
            case nil:
                items.append(.skipped(source: pathSource, reason: "broken symbolic link"))
            case .directory?:
                items += walk(path, root: root, visited: &visited, rules: rules)
            case .other?:
                items.append(.skipped(source: pathSource, reason: "not a regular file (FIFO, socket or device)"))
            case .regular?:
                let extensionName = String(decoding: name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).last ?? [], as: UTF8.self)
                if name.contains(UInt8(ascii: ".")) && mediaExtensions.contains(extensionName.lowercased()) {
                    guard !transportStreamExtensions.contains(extensionName.lowercased()) || isTransportStream(path) else {
                        items.append(.skipped(source: pathSource, reason: "not an MPEG transport stream (a TypeScript source?)"))
                        continue
                    }
                    items.append(.media(source: pathSource, location: MediaLocation(filePath: path)))
                } else {
                    items.append(.skipped(source: pathSource, reason: "not a media file (by extension)"))
                }
            }
        }
        return items
    }

    /// Why a walk passes over `path` without looking into it: a link out of the folder, or the run's output folder.
    private static func passedOver(_ path: [UInt8], root: [UInt8], rules: WalkRules) -> String? {
        guard let real = realPath(path) else { return nil }  // broken links are reported as such
        if rules.isExcluded(real) { return "the run's own output folder" }
        if !rules.followLinks && isLink(path) && !isSameOrInside(real, root) {
            return "symbolic link out of the folder (--follow-links follows it)"
        }
        return nil
    }

    /// Whether `path` is `folder` or lies inside it (real paths).
    static func isSameOrInside(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        path == folder || folder == [UInt8(ascii: "/")] || path.starts(with: folder + [UInt8(ascii: "/")])
    }

    private static func isLink(_ path: [UInt8]) -> Bool {
        var status = stat()
        let found = withCPath(path) { lstat($0, &status) == 0 }
        return found && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Extensions MPEG-TS shares with TypeScript (`.ts`, `.mts`): a walk takes such a file only when its bytes are a
    /// transport stream. Named explicitly, it is always tried.
    static let transportStreamExtensions: Set<String> = ["ts", "mts", "m2ts"]

    /// MPEG-TS packets begin with the sync byte 0x47 every 188 bytes (192 in M2TS, after a 4-byte time code).
    private static func isTransportStream(_ path: [UInt8]) -> Bool {
        let handle = withCPath(path) { fopen($0, "rb") }
        guard let handle else { return false }
        defer { fclose(handle) }
        var head = [UInt8](repeating: 0, count: 197)
        let count = fread(&head, 1, head.count, handle)
        let sync: UInt8 = 0x47
        let plain = count >= 1 && head[0] == sync && (count < 189 || head[188] == sync)
        let timecoded = count >= 5 && head[4] == sync && (count < 197 || head[196] == sync)
        return plain || timecoded
    }

    /// Why `path` cannot be reached, in the system's words ("too many levels of symbolic links" for a link loop).
    private static func whyUnreachable(_ path: [UInt8]) -> String {
        var status = stat()
        let failed = withCPath(path) { stat($0, &status) != 0 }
        return failed ? String(cString: strerror(errno)).lowercased() : "no such file or directory"
    }

    /// What a path is, following symbolic links; nil when nothing is there.
    enum FileKind {
        case regular, directory, other

        init?(_ path: [UInt8]) {
            var status = stat()
            let found = withCPath(path) { stat($0, &status) == 0 }
            guard found else { return nil }
            switch status.st_mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            default: self = .other
            }
        }
    }

    /// The names in a directory, as bytes (nil when it cannot be listed).
    private static func entries(of directory: [UInt8]) -> [[UInt8]]? {
        let handle = withCPath(directory) { opendir($0) }
        guard let handle else { return nil }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
        }
        return names
    }

    public static func realPath(_ path: [UInt8]) -> [UInt8]? {
        withCPath(path) { pointer -> [UInt8]? in
            guard let resolved = realpath(pointer, nil) else { return nil }
            defer { free(resolved) }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
        }
    }

    /// A path's bytes as the C string the system calls take.
    static func withCPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
