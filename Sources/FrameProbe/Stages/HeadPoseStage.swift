import CVision

/// Head Euler angles (solvePnP on the landmarks) for every face.
public struct HeadPoseStage: Stage {
    public static let descriptor = StageDescriptor(
        HeadPoseStage.self, name: "headPose", summary: "head Euler angles (solvePnP on the landmarks)",
        // Behind the landmarks, on a thread of its own: with few whole-frame scans (`--max-faces`) following and
        // fitting is the longest chain of a frame's work, and pose and the stages after it need not wait in it.
        requires: [.landmarks], provides: [.headPose], runsBehind: true,
        selection: StageSelection(analyzeWhen: { $0.captureType == .face }, report: true, acquire: true), report: HeadPoseReport.self)

    public init() {}
    public init(options: NoOptions, context: StageContext) {}

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        for index in analysis.faces.indices {
            guard let points = analysis.faces[index].landmarks else { continue }
            analysis.faces[index].headPose = try Self.pose(points, width: frame.width, height: frame.height)
        }
    }

    /// Head rotation from 68 landmarks in a `width` × `height` frame.
    public static func pose(_ points: [Point2D], width: Int, height: Int) throws(FrameProbeError) -> HeadPose {
        precondition(points.count == 68, "head pose needs the 68 landmarks")
        var pose = cvision_pose()
        let native = points.map { cvision_point(x: Float($0.x), y: Float($0.y)) }
        try CVisionCall.check("head pose") { cvision_head_pose(native, Int32(width), Int32(height), &pose) }
        return HeadPose(x: pose.pitch, y: pose.yaw, z: pose.roll)
    }
}
