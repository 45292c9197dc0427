import Foundation

/// Runs many inputs, `jobs` at a time, and delivers their events (with the input's position in `items`) on the
/// calling thread, grouped per input and in input order: the input at the head of the list streams live, the
/// ones running ahead are held until their turn.
public struct BatchRunner: Sendable {
    public let runner: InputRunner
    public let jobs: Int

    public init(runner: InputRunner, jobs: Int) {
        self.runner = runner
        self.jobs = min(max(jobs, 1), Self.workerLimit)
    }

    /// The most inputs run at once, whatever `--jobs` asks: four per core (inputs wait on decoding and writing, so a
    /// few more than the cores keep them busy; past that, threads only cost memory), and one per 256 MiB of memory
    /// (a worker's decoder, frames in flight and detector). `--jobs 100000` used to start a thread per input.
    public static let workerLimit: Int = {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Int(min(ProcessInfo.processInfo.physicalMemory / (256 << 20), UInt64(Int.max)))
        return max(1, min(4 * cores, memory))
    }()

    /// What a worker reports: an event of an input, that the input is done (and whether it succeeded), or that
    /// the worker has no more inputs to take.
    private enum Report: Sendable {
        case events([Event], input: Int)
        case finished(input: Int, succeeded: Bool)
        /// How far an input is: frames analysed, and the media time reached.
        case progress(input: Int, frames: Int, time: Double)
        case idle
        /// The run was stopped: inputs that finished are written now, whatever an earlier one waits on.
        case stopped
        /// Stopped a while ago: inputs still not done wait on something that may never come (a FIFO nobody
        /// writes): the run ends without them, so that what was done is still written before the signal's
        /// watchdog ends the process.
        case giveUp
    }

    /// How long a stopped run waits for inputs to wind down before it ends without them: within the signal
    /// watchdog's 1.5 s, leaving time to write what was done.
    static let windDown = 0.75

    /// Returns the number of inputs that failed. `folders` are the inputs' folders under `--output-dir`
    /// (`OutputLayout.folders`, computed over the whole run); nil names them alone. `progress` hears every tenth
    /// analysed frame of each input (its position, frames analysed, media time reached), on the calling thread;
    /// `completed` hears each input whose events have all been delivered.
    public func run(_ items: [InputItem], folders: [String]? = nil, stop: StopSignal,
                    progress: ((Int, Int, Double) -> Void)? = nil, completed: ((Int) -> Void)? = nil,
                    deliver: (Event, Int) -> Void) -> Int {
        let wantsProgress = progress != nil
        let queue = Channel<Int>(capacity: max(items.count, 1))
        for index in items.indices { queue.send(index) }
        queue.close()
        let reports = Channel<Report>(capacity: 256)
        let workers = (0..<min(jobs, max(items.count, 1))).map { _ in
            Worker(name: "frameprobe.input") { [runner] in
                while !stop.isRaised, let index = queue.receive() {
                    // A frame's events travel together: one hand-over per frame, not per event.
                    var pending: [Event] = []
                    var analysed = 0
                    let counter: ((Frame) -> Void)? = wantsProgress ? { frame in
                        analysed += 1
                        if analysed % 10 == 0 { reports.send(.progress(input: index, frames: analysed, time: frame.time)) }
                    } : nil
                    let succeeded = runner.run(items[index], outputFolder: folders?[index], stop: stop, analysed: counter) { event in
                        if let last = pending.last, last.frame != event.frame || last.frame == nil {
                            reports.send(.events(pending, input: index))
                            pending.removeAll(keepingCapacity: true)
                        }
                        pending.append(event)
                    }
                    if !pending.isEmpty { reports.send(.events(pending, input: index)) }
                    reports.send(.finished(input: index, succeeded: succeeded))
                }
                reports.send(.idle)
            }
        }
        // Told from a thread of its own: the raiser may be this thread (an output that failed), and must not wait.
        stop.onRaise {
            _ = Worker(name: "frameprobe.stopped") {
                reports.send(.stopped)
                Thread.sleep(forTimeInterval: Self.windDown)
                reports.send(.giveUp)
            }
        }
        var order = InputOrder(count: items.count)
        var failures = 0
        var idle = 0
        var gaveUp = false
        withoutActuallyEscaping(deliver) { deliver in
            withoutActuallyEscaping(completed ?? { _ in }) { completed in
                // Lives only within this loop.
                let output = InputOrder.Output(deliver: deliver, completed: completed)
                while idle < workers.count, !gaveUp, let report = reports.receive() {
                    switch report {
                    case .events(let events, let input):
                        for event in events { order.add(event, from: input, to: output) }
                    case .finished(let input, let succeeded):
                        if !succeeded { failures += 1 }
                        order.finish(input, to: output)
                    case .progress(let input, let frames, let time):
                        progress?(input, frames, time)
                    case .idle:
                        idle += 1
                    case .stopped:
                        order.release(to: output)
                    case .giveUp:
                        gaveUp = true
                    }
                }
            }
        }
        reports.cancel()  // a late `.stopped` finds nobody waiting
        // A worker stuck in a blocking open is left behind: the process is about to end.
        if !gaveUp { workers.forEach { $0.join() } }
        return failures
    }
}

/// Keeps events in input order while inputs finish in any order: the head input's events pass at once, the
/// others' are held until every input before theirs has finished. Once the run is stopped (`release`), an input
/// waiting on something that never comes (a FIFO without a writer) no longer holds back the others: every input
/// that finished is written at once, in input order, and each one finishing later as it finishes — each whole,
/// never interleaved with another. `Output.completed` hears each input once its last event has been delivered.
struct InputOrder {
    /// Where events and completions go.
    struct Output {
        let deliver: (Event, Int) -> Void
        let completed: (Int) -> Void
    }

    private var head = 0
    private var held: [[Event]]
    private var finished: [Bool]
    private var delivered: [Bool]
    private var released = false

    init(count: Int) {
        held = Array(repeating: [], count: count)
        finished = Array(repeating: false, count: count)
        delivered = Array(repeating: false, count: count)
    }

    mutating func add(_ event: Event, from input: Int, to output: Output) {
        if input == head { output.deliver(event, input) } else { held[input].append(event) }
    }

    mutating func release(to output: Output) {
        released = true
        for input in finished.indices where finished[input] && input > head { flush(input, to: output) }
    }

    /// Delivers what `input` holds; once it has finished, it is complete.
    private mutating func flush(_ input: Int, to output: Output) {
        for event in held[input] { output.deliver(event, input) }
        held[input] = []
        if finished[input] && !delivered[input] {
            delivered[input] = true
            output.completed(input)
        }
    }

    mutating func finish(_ input: Int, to output: Output) {
        finished[input] = true
        if released && input > head { flush(input, to: output) }
        while head < finished.count && finished[head] {
            flush(head, to: output)
            head += 1
            guard head < held.count else { break }
            flush(head, to: output)
        }
    }
}
