import Foundation

/// Names each input's folder under `--output-dir` (SPEC §10): the input's path relative to the deepest folder all
/// file inputs of the run share, extension kept (`day1/cam.mp4`), `stdin` for `-`, the URL for a stream. Every
/// part is sanitised (letters, digits, `-`, `_`, `.`; no leading dot), and a name two inputs would share (the same
/// file named twice) gets `~2`, `~3` … in input order — so two inputs never share a folder and a rerun of the
/// same command writes to the same places.
public enum OutputLayout {
    /// One folder name per item (an empty name for items that are not media).
    public static func folders(for items: [InputItem]) -> [String] {
        let paths: [[String]?] = items.map { item in
            guard case .media(_, let location) = item, let path = location.filePath else { return nil }
            return absoluteComponents(path)
        }
        let parents = paths.compactMap { $0?.dropLast() }
        var common = parents.first.map(Array.init) ?? []
        for parent in parents.dropFirst() {
            common = Array(zip(common, parent).prefix { $0 == $1 }.map(\.0))
        }
        var taken: Set<String> = []
        return zip(items, paths).map { item, components in
            let base: String
            switch item {
            case .media(let source, _):
                if let components {
                    base = components.dropFirst(common.count).map { fitted(sanitised($0)) }.joined(separator: "/")
                } else {
                    base = source == "-" ? "stdin" : fitted(sanitised(source))
                }
            case .skipped, .failed: return ""
            }
            var name = base
            var copy = 1
            while !taken.insert(name).inserted {
                copy += 1
                let parent = (base as NSString).deletingLastPathComponent, last = (base as NSString).lastPathComponent
                name = (parent.isEmpty ? "" : parent + "/") + fitted(last, suffix: "~\(copy)")
            }
            return name
        }
    }

    /// The longest name a file system takes for one path component, in bytes.
    public static let nameLimit = 255

    /// `name` + `suffix` within `nameLimit` bytes: a name too long keeps its beginning and gets `-` and a hash of the
    /// whole name (stable: a rerun names it alike; distinct: two long names sharing a beginning stay apart).
    public static func fitted(_ name: String, suffix: String = "") -> String {
        guard name.utf8.count + suffix.utf8.count > nameLimit else { return name + suffix }
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let tag = "-" + String(String(hash, radix: 16).suffix(8))
        return prefix(of: name, bytes: nameLimit - tag.utf8.count - suffix.utf8.count) + tag + suffix
    }

    /// The longest beginning of `text` of at most `bytes` UTF-8 bytes, cut between characters.
    public static func prefix(of text: String, bytes: Int) -> String {
        var kept = "", count = 0
        for character in text {
            count += character.utf8.count
            guard count <= bytes else { break }
            kept.append(character)
        }
        return kept
    }

    /// The path's components from the root, made absolute against the working directory, `.` and `..` resolved
    /// by name (symbolic links are not followed: the folder mirrors what the user named).
    static func absoluteComponents(_ path: [UInt8]) -> [String] {
        let text = String(decoding: path, as: UTF8.self)
        let absolute = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
        var components: [String] = []
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(String(part))
            }
        }
        return components
    }

    /// A name safe in any file system: characters outside letters, digits, `-`, `_`, `.` become `_`; no leading dot.
    static func sanitised(_ name: String) -> String {
        let safe = String(name.unicodeScalars.map { scalar -> Character in
            let allowed = (CharacterSet.alphanumerics.contains(scalar) && scalar != "\u{FFFD}") || "-_.".unicodeScalars.contains(scalar)
            return allowed ? Character(scalar) : "_"
        })
        let trimmed = String(safe.drop { $0 == "." })
        return trimmed.isEmpty ? "input" : trimmed
    }
}
