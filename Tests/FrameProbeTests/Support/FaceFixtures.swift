import Foundation
@testable import FrameProbe

/// dlib's labelled example photos and helpers to run the face stages on a single image.
enum FaceFixtures {
    static let examples = "/usr/share/doc/libdlib19.1/examples/faces"

    static func photo(_ name: String) -> String { name.hasPrefix("/") ? name : "\(examples)/\(name)" }

    /// The boxes of dlib's `training.xml` / `testing.xml`, per image file.
    static func labelledBoxes(_ file: String) -> [(image: String, boxes: [Box])] {
        guard let xml = try? String(contentsOfFile: "\(examples)/\(file)", encoding: .isoLatin1) else { return [] }
        var result: [(String, [Box])] = []
        for chunk in xml.components(separatedBy: "<image file='").dropFirst() {
            let image = String(chunk.prefix { $0 != "'" })
            let boxes = chunk.components(separatedBy: "<box ").dropFirst().map { box -> Box in
                func value(_ name: String) -> Double {
                    guard let range = box.range(of: "\(name)='") else { return 0 }
                    return Double(box[range.upperBound...].prefix { $0 != "'" }) ?? 0
                }
                return Box(x: value("left"), y: value("top"), width: value("width"), height: value("height"))
            }
            result.append((image, boxes))
        }
        return result
    }

    /// The first frame of an image or clip.
    static func firstFrame(_ path: String) throws -> Frame {
        let source = try FrameSource(url: path, options: DecodeOptions())
        defer { _ = source.finish() }
        guard let frame = source.next() else { throw FrameProbeError("TEST", "no frame in \(path)") }
        return frame
    }

    /// Detection, landmarks, head pose and expressions on one frame.
    static func faces(in frame: Frame, minFaceSize: Double = 0.1) throws -> [FaceObservation] {
        var options = FaceDetectionStage.Options()
        options.minFaceSize = minFaceSize
        var pipeline = Pipeline(stages: [try FaceDetectionStage(options: options), FaceLandmarksStage(), HeadPoseStage(), FaceExpressionStage()])
        return try pipeline.process(frame) { _ in }.faces
    }

    /// `frame` turned by `degrees` counter-clockwise (ffmpeg's rotate filter turns clockwise for positive angles).
    static func rotatedPhoto(_ name: String, counterClockwise degrees: Double, mirrored: Bool = false) throws -> Frame {
        let out = Fixtures.temporaryDirectory().appendingPathComponent("rotated.png").path
        let radians = -degrees * .pi / 180
        let flip = mirrored ? "hflip," : ""
        let result = Shell.run("ffmpeg -nostdin -v error -y -i \(Shell.quote(photo(name))) -vf \"\(flip)rotate=\(radians):ow=rotw(\(radians)):oh=roth(\(radians)):c=gray\" \(Shell.quote(out))")
        guard result.status == 0 else { throw FrameProbeError("TEST", result.stderr) }
        return try firstFrame(out)
    }
}
