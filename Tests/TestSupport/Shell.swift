import Foundation

/// Runs commands for end-to-end tests: the built `frameprobe` and shell pipelines around it.
public enum Shell {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        /// stdout parsed as JSON Lines.
        public var events: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }

        public func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    }

    /// The executable under test: $FRAMEPROBE_BIN, or the debug build next to the tests.
    public static let frameprobe: String = ProcessInfo.processInfo.environment["FRAMEPROBE_BIN"]
        ?? Fixtures.packageRoot.appendingPathComponent(".build/debug/frameprobe").path

    public static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// `frameprobe ARGS...`, with optional bytes on standard input.
    public static func frameprobe(_ arguments: [String], stdin: Data? = nil) -> Result {
        run(executable: frameprobe, arguments, stdin: stdin)
    }

    /// A `bash -o pipefail -c` command line; `$FP` is the frameprobe executable.
    public static func run(_ command: String) -> Result {
        run(executable: "/bin/bash", ["-o", "pipefail", "-c", "FP=\(quote(frameprobe)); \(command)"], stdin: nil)
    }

    public static func run(executable: String, _ arguments: [String], stdin: Data?) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        do { try process.run() } catch { return Result(status: -1, stdout: "", stderr: "\(error)") }
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = readAll(out.fileHandleForReading.fileDescriptor) }
        DispatchQueue.global().async(group: group) { errData = readAll(err.fileHandleForReading.fileDescriptor) }
        if let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Reads a descriptor to its end, retrying on EINTR (Foundation's readDataToEndOfFile traps on it).
    public static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { data.append(contentsOf: buffer[0..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            return data
        }
    }

    /// Validates JSON Lines against schema/events.schema.json (or the schema file given) with Debian's python3-jsonschema.
    public static func validateAgainstSchema(_ jsonl: String, schema: String? = nil) -> Result {
        run(executable: "/usr/bin/python3", [Fixtures.packageRoot.appendingPathComponent("schema/validate.py").path] + (schema.map { [$0] } ?? []),
            stdin: Data(jsonl.utf8))
    }
}

extension Dictionary where Key == String, Value == Any {
    public func double(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    public func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    public func string(_ key: String) -> String? { self[key] as? String }
}
