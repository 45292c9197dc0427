import Foundation

/// Runs many inputs, `jobs` at a time, and delivers their events (with the input's position in `items`) grouped
/// per input and in input order:
/// the input at the head of the list streams live, the ones running ahead are held until their turn.
public struct BatchRunner: Sendable {
    public let runner: InputRunner
    public let jobs: Int

    public init(runner: InputRunner, jobs: Int) {
        self.runner = runner
        self.jobs = max(jobs, 1)
    }

    /// Returns the number of inputs that failed. `folders` are the inputs' folders under `--output-dir`
    /// (`OutputLayout.folders`, computed over the whole run); nil names them alone.
    public func run(_ items: [InputItem], folders: [String]? = nil, stop: StopSignal,
                    deliver: @escaping @Sendable (Event, Int) -> Void) -> Int {
        let order = InputOrder(count: items.count, deliver: deliver)
        let next = Counter()
        let failures = Counter()
        let group = DispatchGroup()
        for _ in 0..<min(jobs, max(items.count, 1)) {
            let worker = Thread { [runner] in
                while !stop.isRaised, let index = next.take(below: items.count) {
                    let succeeded = runner.run(items[index], outputFolder: folders?[index], stop: stop) { order.emit($0, from: index) }
                    if !succeeded { failures.increment() }
                    order.finish(index)
                }
                group.leave()
            }
            worker.name = "frameprobe.input"
            group.enter()
            worker.start()
        }
        group.wait()
        return failures.value
    }
}

/// A shared counter handing out increasing numbers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0

    var value: Int { lock.withLock { current } }

    func increment() { lock.withLock { current += 1 } }

    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard current < limit else { return nil }
            defer { current += 1 }
            return current
        }
    }
}

/// Keeps events in input order while inputs finish in any order.
final class InputOrder: @unchecked Sendable {
    private let lock = NSLock()
    private let deliver: @Sendable (Event, Int) -> Void
    private var head = 0
    private var held: [[Event]]
    private var finished: [Bool]

    init(count: Int, deliver: @escaping @Sendable (Event, Int) -> Void) {
        self.deliver = deliver
        held = Array(repeating: [], count: count)
        finished = Array(repeating: false, count: count)
    }

    func emit(_ event: Event, from index: Int) {
        lock.withLock {
            if index == head { deliver(event, index) } else { held[index].append(event) }
        }
    }

    func finish(_ index: Int) {
        lock.withLock {
            finished[index] = true
            while head < finished.count && finished[head] {
                head += 1
                if head < held.count {
                    for event in held[head] { deliver(event, head) }
                    held[head] = []
                }
            }
        }
    }
}
