import Foundation
import Dispatch
import Synchronization

/// frameprobe's one concurrency primitive: a bounded, blocking channel between threads. `send` waits while it
/// is full (back-pressure: memory stays flat whatever the input's length), `receive` waits while it is empty.
/// `close` lets receivers drain what is left; `cancel` drops it and releases every waiting sender and receiver.
/// It carries frames from decoding to analysis, a split pipeline's head results to its tail, inputs to the
/// `--jobs` workers and their events back, in order.
public final class Channel<Element: Sendable>: Sendable {
    private struct State {
        /// Few (at most the capacity): removing the first is cheap, and a received element is released at once
        /// (a frame's pixels go back to the pool).
        var items: [Element] = []
        var closed = false
        var cancelled = false
    }

    private let state = Mutex(State())
    /// Counts free places (senders wait on it) and waiting elements (receivers wait on it). After close or
    /// cancel, a woken waiter signals again, so that every other waiter wakes in turn.
    private let places = DispatchSemaphore(value: 0)
    private let waiting = DispatchSemaphore(value: 0)

    public init(capacity: Int) {
        // Created at 0 and raised: libdispatch refuses to free a semaphore below its initial value.
        for _ in 0..<max(capacity, 1) { places.signal() }
    }

    /// Adds an element, waiting for a free place; false once the channel is cancelled (or closed).
    @discardableResult
    public func send(_ item: Element) -> Bool {
        places.wait()
        let accepted = state.withLock { state -> Bool in
            guard !state.cancelled, !state.closed else { return false }
            state.items.append(item)
            return true
        }
        if accepted { waiting.signal() } else { places.signal() }
        return accepted
    }

    /// The next element, waiting for one; nil once the channel is closed and drained, or cancelled.
    public func receive() -> Element? {
        waiting.wait()
        let item = state.withLock { state -> Element? in
            guard !state.cancelled, !state.items.isEmpty else { return nil }
            return state.items.removeFirst()
        }
        if item == nil { waiting.signal() } else { places.signal() }
        return item
    }

    /// No more elements will be sent; receivers get what is left, then nil.
    public func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if first { waiting.signal() }
    }

    /// Drops what is queued; every sender and receiver returns at once, now and later.
    public func cancel() {
        let first = state.withLock { state -> Bool in
            defer {
                state.cancelled = true
                state.items.removeAll()
            }
            return !state.cancelled
        }
        if first {
            waiting.signal()
            places.signal()
        }
    }
}

/// A thread that runs `body` once; `join` waits for it to end.
public final class Worker: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [ended] in
            body()
            ended.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits until the body has returned (once; later calls return at once).
    public func join() {
        ended.wait()
        ended.signal()
    }
}
