import Foundation

/// A small blocking queue between two threads: `push` waits while it is full (back-pressure, flat memory), `pop`
/// waits while it is empty. `finish` lets the reader drain what is left; `cancel` drops it and releases both sides.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var finished = false
    private var cancelled = false

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Adds an element, waiting for room; false once the queue was cancelled.
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next element, waiting for one; nil once the queue is finished and empty, or cancelled.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished && !cancelled { condition.wait() }
        guard !cancelled, !items.isEmpty else { return nil }
        condition.broadcast()
        return items.removeFirst()
    }

    /// No more elements will come.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
