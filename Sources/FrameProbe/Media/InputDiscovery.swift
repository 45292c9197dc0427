import Foundation

/// One input to analyse, as found from the command line.
public enum InputItem: Sendable, Equatable {
    /// `source` is how events name it; `url` is what libavformat opens.
    case media(source: String, url: String)
    /// A non-media file met while walking a directory.
    case skipped(source: String, reason: String)
    /// Something that cannot be an input at all (missing path, unreadable directory).
    case failed(source: String, error: FrameProbeError)

    public var source: String {
        switch self {
        case .media(let source, _), .skipped(let source, _), .failed(let source, _): source
        }
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

    public static func expand(_ arguments: [String]) -> [InputItem] {
        arguments.flatMap(expand(argument:))
    }

    static func expand(argument: String) -> [InputItem] {
        if argument == "-" { return [.media(source: "-", url: "pipe:0")] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            if argument.contains("://") || argument.hasPrefix("/dev/") {
                return [.media(source: argument, url: argument)]
            }
            return [.failed(source: argument, error: FrameProbeError("INPUT_UNREADABLE", "no such file or directory"))]
        }
        if isDirectory.boolValue {
            var visited: Set<String> = []
            return walk(argument, visited: &visited)
        }
        return [.media(source: argument, url: libavformatURL(forFile: argument))]
    }

    /// Regular files are opened through the `file:` protocol so that a name with a colon stays a file name;
    /// devices and other special files are handed over as they are.
    static func libavformatURL(forFile path: String) -> String {
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
        return type == .typeRegular || type == .typeSymbolicLink ? "file:" + path : path
    }

    private static func walk(_ directory: String, visited: inout Set<String>) -> [InputItem] {
        let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        guard visited.insert(real).inserted else {
            return [.skipped(source: directory, reason: "directory already visited (symbolic link loop)")]
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            return [.failed(source: directory, error: FrameProbeError("INPUT_UNREADABLE", "cannot list directory: \(error.localizedDescription)"))]
        }
        var items: [InputItem] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                items.append(.skipped(source: path, reason: "broken symbolic link"))
                continue
            }
            if isDirectory.boolValue {
                items += walk(path, visited: &visited)
            } else if mediaExtensions.contains((name as NSString).pathExtension.lowercased()) {
                items.append(.media(source: path, url: libavformatURL(forFile: path)))
            } else {
                items.append(.skipped(source: path, reason: "not a media file (by extension)"))
            }
        }
        return items
    }
}
