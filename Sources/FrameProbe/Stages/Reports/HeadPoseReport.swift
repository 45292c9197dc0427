/// What head pose reports about an input: the Euler angles per frame (plotted), how many frames had each label,
/// and when the face was not frontal.
public struct HeadPoseReport: ReportPart {
    /// Frames by head-pose label, per axis (vertical / horizontal / tilt; "none" between two classes).
    public var headPose: [String: [String: Int]] = [:]
    private var reading = Transient(FaceTimeline())

    enum CodingKeys: String, CodingKey { case headPose }

    public init() {}

    /// A face turned or tilted beyond the seed's frontal band (|yaw| or |pitch| > 12°).
    static let frontalLimit = 12.0
    static let plot = "head angles (°)"
    static let bands = [ReferenceLine(0, "0°"), ReferenceLine(-frontalLimit, "frontal band ±12°"), ReferenceLine(frontalLimit, "frontal band ±12°"),
                        ReferenceLine(-36, "±36°"), ReferenceLine(36, "±36°")]

    public static let values = [
        ReportedValue("headX", label: "pitch (X)", unit: "°", range: -60...60, help: "pitch: > 0 looks up", plot: plot, color: "#d9480f",
                      references: bands, decimals: 1, precision: 2),
        ReportedValue("headY", label: "yaw (Y)", unit: "°", range: -60...60, help: "yaw: > 0 turns toward the image's right", plot: plot,
                      color: "#2b8a3e", references: bands, decimals: 1, precision: 2),
        ReportedValue("headZ", label: "roll (Z)", unit: "°", range: -60...60, help: "roll: > 0 counter-clockwise", plot: plot, color: "#5f3dc4",
                      references: bands, decimals: 1, precision: 2),
    ]
    public static let conditions = [
        ReportedCondition("notFrontal", label: "not frontal", color: "#d9480f", plot: plot, missingReason: FaceReport.noAnalysis),
    ]
    public static let reads: [any ReadableEvent.Type] = [FaceDetected.self, FaceUndetected.self]
    public static let frameEvents = reads

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        reading.value.read(event)
        guard let detected = event.payload as? FaceDetected else { return }
        let angles = detected.angles
        for (value, angle) in zip(Self.values, [angles.x, angles.y, angles.z]) { frame.values[value.name] = angle }
        guard let labels = detected.labels else { return }
        for (axis, label) in [("vertical", labels.vertical), ("horizontal", labels.horizontal), ("tilt", labels.tilt)] {
            headPose[axis, default: [:]][label ?? "none", default: 0] += 1
        }
    }

    /// How many frames had each label, per axis: "vertical: FRONTAL 80 · UP 12".
    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        ["vertical", "horizontal", "tilt"].compactMap { axis in
            guard let labels = headPose[axis], !labels.isEmpty else { return nil }
            let counts = labels.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\(escapeMarkup($0.key)) \($0.value)" }
            return ReportRow("head pose, \(axis)", counts.joined(separator: " · "))
        }
    }

    public mutating func endFrame(_ frame: inout FrameValues) {
        guard let seen = reading.value.endFrame() else { return }
        frame.conditions["notFrontal"] = [seen.angles?.x, seen.angles?.y].contains { abs($0 ?? 0) > Self.frontalLimit }
    }
}
