/// A stable 64-bit FNV-1a digest, written as 16 hex digits: the same bytes give the same text on every machine
/// and in every process (Swift's `Hasher` is seeded per process). It tells runs and inputs apart; it is not a
/// defence against someone forging a collision.
public struct Digest: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
    }

    /// Adds `text` and a separator, so that ["ab", "c"] and ["a", "bc"] differ.
    public mutating func add(field text: String) {
        add(text.utf8)
        add(CollectionOfOne(0))
    }

    public var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The digest of a list of texts.
    public static func of(_ fields: [String]) -> String {
        var digest = Digest()
        for field in fields { digest.add(field: field) }
        return digest.hex
    }
}
