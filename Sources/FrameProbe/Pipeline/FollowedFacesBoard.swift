/// What the landmark follower followed on each frame, handed back to the detection stage that runs ahead of it on
/// the head thread, so that under `--max-faces` the stage counts a face the follower holds (by its landmarks, or by
/// the correlation tracker) although its own scans no longer see it.
///
/// The detection stage reads frame n − `lag`'s entry while it analyses frame n, and waits for it if need be, so what
/// it reads never depends on which thread is ahead: `lag` is the handoff's capacity plus the frame in each thread's
/// hands, so the entry is always there already and the wait never happens. An entry that will never come — the
/// follower's segment failed, was stopped, or ended the input — closes the board (`InputRunner`), and the stage counts
/// its own faces from then on.
public final class FollowedFacesBoard: Sendable {
    /// The faces the follower returned for one frame: how many, and the narrowest one's width (nil: none).
    public struct Entry: Sendable, Equatable {
        public let count: Int
        public let narrowestWidth: Double?
    }

    /// How many frames behind the detection stage reads.
    public let lag: Int
    /// The entries in frame order; at most `lag` are ever waiting to be read.
    private let entries: Channel<Entry>

    public init(lag: Int) {
        self.lag = max(lag, 1)
        entries = Channel(capacity: self.lag + 1)
    }

    /// The board for a pipeline whose head hands frames on through a channel of `handoffCapacity`.
    public convenience init(handoffCapacity: Int) {
        self.init(lag: handoffCapacity + 2)
    }

    /// Posts the faces the follower returned for its next frame.
    public func post(_ faces: [FaceObservation]) {
        entries.send(Entry(count: faces.count, narrowestWidth: faces.map(\.box.width).min()))
    }

    /// The entry for the frame `lag` before the one the reader analyses now (the reader calls this once per frame
    /// from its `lag`-th frame on), waiting for it; nil once the board is closed and drained.
    public func entryLagBehind() -> Entry? { entries.receive() }

    /// No more entries will be posted (the follower stopped short): the reader gets what is left, then nil.
    public func close() { entries.close() }

    /// The reader is done: a post never waits for it.
    public func cancel() { entries.cancel() }
}
