import Foundation

/// Finds a key given twice in one object of a JSON document. JSONDecoder keeps one of them silently, so a settings
/// file with `{"sampleEvery": 2, "sampleEvery": 0}` would mean whichever it kept; frameprobe refuses it instead.
/// Runs on documents JSONDecoder has accepted, so it only follows their structure.
enum DuplicateJSONKeys {
    private struct Container {
        let isObject: Bool
        let path: String
        var keys: Set<String> = []
        var expectingKey: Bool
    }

    /// The dotted path of the first repeated key (`roi.top`), or nil.
    static func first(in data: Data) -> String? {
        let bytes = [UInt8](data)
        var stack: [Container] = []
        var lastKeyPath = ""
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard var top = stack.last, top.isObject, top.expectingKey else { break }
                let raw = Data(bytes[start...min(index, bytes.count - 1)])
                let key = (try? JSONDecoder().decode(String.self, from: raw)) ?? String(decoding: raw, as: UTF8.self)
                let path = top.path.isEmpty ? key : "\(top.path).\(key)"
                if top.keys.contains(key) { return path }
                top.keys.insert(key)
                top.expectingKey = false
                stack[stack.count - 1] = top
                lastKeyPath = path
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let parent = stack.last
                let path = parent.map { $0.isObject ? lastKeyPath : "\($0.path)[]" } ?? ""
                stack.append(Container(isObject: bytes[index] == UInt8(ascii: "{"), path: path, expectingKey: true))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if stack.last?.isObject == true { stack[stack.count - 1].expectingKey = true }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
