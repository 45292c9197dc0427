/// Every failure frameprobe reports: a stable `key` (SPEC's keys, e.g. `INPUT_UNREADABLE`) and a human message.
public struct FrameProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: String
    public let message: String

    public init(_ key: String, _ message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key): \(message)" }
}
