import Foundation
@testable import FrameProbe

/// dlib's labelled example photos and helpers to run the face stages on a single image.
enum FaceFixtures {
    static let examples = "/usr/share/doc/libdlib19.1/examples/faces"

    static func photo(_ name: String) -> String { name.hasPrefix("/") ? name : "\(examples)/\(name)" }

    /// The boxes of dlib's `training.xml` / `testing.xml`, per image file.
    static func labelledBoxes(_ file: String) -> [(image: String, boxes: [Box])] {
        labelledFaces(file).map { ($0.image, $0.faces.map(\.box)) }
    }

    /// The faces of dlib's labelled XML files, per image file: each box with its landmarks (`*_with_face_landmarks.xml`:
    /// 68 points; none in the box-only files).
    static func labelledFaces(_ file: String) -> [(image: String, faces: [(box: Box, landmarks: [Point2D])])] {
        guard let xml = try? String(contentsOfFile: "\(examples)/\(file)", encoding: .isoLatin1) else { return [] }
        func value(_ name: String, in text: Substring) -> Double {
            guard let range = text.range(of: " \(name)='") else { return 0 }
            return Double(text[range.upperBound...].prefix { $0 != "'" }) ?? 0
        }
        return xml.components(separatedBy: "<image file='").dropFirst().map { chunk in
            let image = String(chunk.prefix { $0 != "'" })
            let faces = chunk.components(separatedBy: "<box ").dropFirst().map { box in
                let head = Substring(" " + box.prefix { $0 != ">" })
                let parts = box.components(separatedBy: "<part ").dropFirst().map { part in
                    Point2D(x: value("x", in: Substring(" " + part)), y: value("y", in: Substring(" " + part)))
                }
                return (Box(x: value("left", in: head), y: value("top", in: head), width: value("width", in: head),
                            height: value("height", in: head)), parts)
            }
            return (image, faces)
        }
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
