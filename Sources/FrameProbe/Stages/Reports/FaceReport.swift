import Foundation

/// What face detection reports about an input: on which frames the valid face was there (plotted; the face ratio),
/// how many faces each frame had, and when there was no face or several.
public struct FaceReport: ReportPart {
    public var faceFrames = 0
    /// Analysed frames by number of faces found ("0", "1", "2" …).
    public var faceCounts: [String: Int] = [:]
    private var reading = Transient(FaceTimeline())

    enum CodingKeys: String, CodingKey { case faceFrames, faceCounts }

    public init() {}

    static let plot = "face present"
    static let noAnalysis = "no face analysis ran on this input, or the report predates intervals"

    public static let values = [
        ReportedValue("face", label: "face", range: 0...1, help: "1 on frames with the valid face, 0 without", plot: plot,
                      color: "#3c58e8", absentValue: 0, decimals: 0, precision: 0, meanField: "faceFrameRatio"),
    ]
    public static let conditions = [
        ReportedCondition("noFace", label: "no face", color: "#c0262d", plot: plot, missingReason: noAnalysis),
        ReportedCondition("severalFaces", label: "several faces", color: "#7048e8", plot: plot, missingReason: noAnalysis),
    ]
    public static let gateFields = [GateField("faceFrames", missing: "the report has no value for faceFrames"),
                                    GateField("faceFrameRatio", missing: "no frame was analysed")]
    public static let reads: [any ReadableEvent.Type] = [FaceDetected.self, FaceUndetected.self]
    public static let frameEvents = reads
    public static let headlines = [(label: "face", field: "faceFrameRatio")]
    public static let columns = [ReportColumn("face")]

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        reading.value.read(event)
        guard let detected = event.payload as? FaceDetected else { return }
        frame.values["face"] = 1
        faceFrames += 1
        faceCounts[String(detected.faceCount), default: 0] += 1
    }

    public mutating func endFrame(_ frame: inout FrameValues) {
        guard let seen = reading.value.endFrame() else { return }
        frame.conditions["noFace"] = seen.faceCount == nil && seen.faceAbsent
        frame.conditions["severalFaces"] = (seen.faceCount ?? 0) > 1
    }

    public mutating func finish(_ input: InputCounts) {
        faceCounts["0"] = max(0, input.framesAnalysed - faceFrames)
    }

    public func fields(_ input: InputCounts) -> [String: Double] { Self.fields(of: Total(faceFrames: faceFrames), input) }

    public var fieldOutOfRange: String? {
        ([("faceFrames", faceFrames)] + faceCounts.sorted { $0.key < $1.key }.map { ("faceCounts.\($0.key)", $0.value) })
            .first { !(0...InputReport.countLimit).contains($0.1) }?.0
    }

    public struct Total: Codable, Sendable, Equatable {
        public var faceFrames = 0
    }

    public static func total(_ parts: [FaceReport]) -> Total { Total(faceFrames: parts.reduce(0) { $0 + $1.faceFrames }) }

    public static func fields(of total: Total, _ input: InputCounts) -> [String: Double] {
        var fields = ["faceFrames": Double(total.faceFrames)]
        if input.framesAnalysed > 0 { fields["faceFrameRatio"] = Double(total.faceFrames) / Double(input.framesAnalysed) }
        return fields
    }

    public func cells(_ fields: [String: Double]) -> [String] { [percent(fields["faceFrameRatio"])] }
    public static func totalCells(_ total: Total, _ fields: [String: Double], inputs: Int) -> [String] { [percent(fields["faceFrameRatio"])] }
    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        let counts = faceCounts.sorted { $0.key.compare($1.key, options: .numeric) == .orderedAscending }
            .map { "\($0.key): \($0.value)" }.joined(separator: " · ")
        return [ReportRow("face on", percent(fields["faceFrameRatio"]), fields: ["faceFrameRatio"], ratio: true)]
            + (counts.isEmpty ? [] : [ReportRow("frames by number of faces", counts)])
    }
}

/// Whether face analysis ran and the valid face is there, frame by frame: a face is valid from its `faceDetected`
/// on, absent from a `faceUndetected` until the next one. The face and head-pose parts read it alike.
struct FaceTimeline: Sendable {
    /// What the frame being read said: its face's count and angles, whether it lost the face.
    struct Frame {
        var faceCount: Int?
        var angles: (x: Double?, y: Double?, z: Double?)?
        var lost = false
        /// After this frame: no valid face since the last transition.
        var faceAbsent = false
    }

    private var frame = Frame()
    /// A face event came (face analysis ran); the last transition said there is no valid face.
    private var analysed = false, absent = false

    mutating func read(_ event: Event) {
        switch event.payload {
        case let detected as FaceDetected:
            frame.faceCount = detected.faceCount
            frame.angles = detected.angles
        case is FaceUndetected:
            frame.lost = true
        default: break
        }
    }

    /// The frame's events are read: what it said, once face analysis has run (nil before).
    mutating func endFrame() -> Frame? {
        defer { frame = Frame() }
        if frame.faceCount != nil || frame.lost {
            analysed = true
            absent = frame.faceCount == nil
        }
        guard analysed else { return nil }
        frame.faceAbsent = absent
        return frame
    }
}
