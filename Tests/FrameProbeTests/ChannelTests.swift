import Foundation
import Synchronization
import Testing
@testable import FrameProbe

/// The one concurrency primitive: order, back-pressure, close, cancel, many senders and receivers. No test
/// waits on the clock: every wait is on the channel or on a thread's end.
struct ChannelTests {
    final class Counts: Sendable {
        let sent = Atomic(0)
        let worstLead = Atomic(0)
    }

    @Test func deliversInOrderAndHoldsTheSenderWithinItsCapacity() {
        let channel = Channel<Int>(capacity: 3)
        let counts = Counts()
        let sender = Worker(name: "test.sender") {
            for value in 0..<2000 {
                channel.send(value)
                counts.sent.add(1, ordering: .relaxed)
            }
            channel.close()
        }
        var received: [Int] = []
        while let value = channel.receive() {
            received.append(value)
            // The sender can be at most the capacity (plus the one it is handing over) ahead of the receiver.
            let lead = counts.sent.load(ordering: .relaxed) - received.count
            if lead > counts.worstLead.load(ordering: .relaxed) { counts.worstLead.store(lead, ordering: .relaxed) }
        }
        sender.join()
        #expect(received == Array(0..<2000))
        #expect(counts.worstLead.load(ordering: .relaxed) <= 4)
    }

    @Test func closeLetsReceiversDrainThenEnds() {
        let channel = Channel<String>(capacity: 4)
        #expect(channel.send("a") && channel.send("b"))
        channel.close()
        #expect(!channel.send("c"))
        #expect(channel.receive() == "a")
        #expect(channel.receive() == "b")
        #expect(channel.receive() == nil)
        #expect(channel.receive() == nil)
    }

    @Test func cancelReleasesABlockedSenderAndEveryReceiver() {
        let full = Channel<Int>(capacity: 1)
        let results = Mutex<[Bool]>([])
        let sender = Worker(name: "test.blocked") {
            let first = full.send(1)
            let second = full.send(2)  // blocks: the channel is full and nobody receives
            results.withLock { $0 = [first, second] }
        }
        let empty = Channel<Int>(capacity: 1)
        let receivers = (0..<3).map { _ in Worker(name: "test.receiver") { #expect(empty.receive() == nil) } }
        full.cancel()
        empty.cancel()
        sender.join()
        receivers.forEach { $0.join() }
        #expect(results.withLock { $0 }.last == false)
        #expect(full.receive() == nil)
        #expect(!full.send(3))
    }

    @Test func manySendersAndReceiversSeeEveryElementOnce() {
        let channel = Channel<Int>(capacity: 5)
        let done = Channel<Int>(capacity: 8)
        let senders = (0..<4).map { part in
            Worker(name: "test.sender") { for value in stride(from: part, to: 4000, by: 4) { channel.send(value) } }
        }
        let receivers = (0..<3).map { _ in
            Worker(name: "test.receiver") { while let value = channel.receive() { done.send(value) } }
        }
        let closer = Worker(name: "test.closer") {
            senders.forEach { $0.join() }
            channel.close()
            receivers.forEach { $0.join() }
            done.close()
        }
        var seen: [Int] = []
        while let value = done.receive() { seen.append(value) }
        closer.join()
        #expect(seen.sorted() == Array(0..<4000))
    }

    @Test func aChannelFreedWithElementsInsideIsFine() {
        for _ in 0..<100 {
            let channel = Channel<[UInt8]>(capacity: 4)
            channel.send([1, 2, 3])
            channel.send([4])
        }
    }

    /// The batch runner in process, on a split pipeline (detection ahead of landmarks): any number of jobs
    /// gives the same events in the same order.
    @Test func anyNumberOfJobsGivesTheSameEventsInProcess() throws {
        var options = AnalysisOptions()
        options.frameQuality = true
        options.decode.sampleEvery = 4
        let stages = try StageRegistry.builtIn.resolve(options)
        let items = InputDiscovery.expand(["selfie.mp4", "portrait.jpg", "dark.mp4", "group-720p.mp4"].map(Fixtures.path))
        func run(jobs: Int) -> [String] {
            var lines: [String] = []
            let failures = BatchRunner(runner: InputRunner(options: options, stages: stages), jobs: jobs)
                .run(items, stop: StopSignal()) { event, _ in
                    if !(event.payload is InputClosed) { lines.append(event.json.serialized()) }
                }
            #expect(failures == 0)
            return lines
        }
        let one = run(jobs: 1)
        #expect(one.count > 100 && one.contains { $0.contains("\"faceDetected\"") })
        #expect(run(jobs: 3) == one)
    }
}
