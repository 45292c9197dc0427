import Synchronization

/// Recycles pixel buffers of the sizes a stream keeps asking for, so that decoding a long video does not map
/// and fault in fresh memory for every frame (and memory stays flat). Buffers are raw: a user overwrites them.
enum PixelBufferPool {
    /// Free buffers by size, as addresses (a pointer is not Sendable; the pool hands each one to one owner).
    private static let free = Mutex<[Int: [UInt]]>([:])
    /// Buffers kept per size: the decode queue, the frame being analysed and a little slack.
    static let keptPerSize = 8

    static func take(capacity: Int) -> UnsafeMutablePointer<UInt8> {
        free.withLock { $0[capacity]?.popLast() }.flatMap { UnsafeMutablePointer(bitPattern: $0) } ?? .allocate(capacity: capacity)
    }

    static func give(_ buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let kept = free.withLock { free -> Bool in
            guard free[capacity, default: []].count < keptPerSize else { return false }
            free[capacity, default: []].append(UInt(bitPattern: buffer))
            return true
        }
        if !kept { buffer.deallocate() }
    }
}
