import Foundation

/// Recycles pixel buffers of the sizes a stream keeps asking for, so that decoding a long video does not map
/// and fault in fresh memory for every frame (and memory stays flat). Buffers are raw: a user overwrites them.
enum PixelBufferPool {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var free: [Int: [UnsafeMutablePointer<UInt8>]] = [:]
    /// Buffers kept per size: the decode queue, the frame being analysed and a little slack.
    static let keptPerSize = 8

    static func take(capacity: Int) -> UnsafeMutablePointer<UInt8> {
        lock.withLock { free[capacity]?.popLast() } ?? .allocate(capacity: capacity)
    }

    static func give(_ buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let kept = lock.withLock { () -> Bool in
            guard free[capacity, default: []].count < keptPerSize else { return false }
            free[capacity, default: []].append(buffer)
            return true
        }
        if !kept { buffer.deallocate() }
    }
}
