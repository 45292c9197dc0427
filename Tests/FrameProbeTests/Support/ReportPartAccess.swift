@testable import FrameProbe

// The built-in report parts' fields, read (and, for made-up reports, set) on an input's report as they were before
// reports were made of parts: `input.darkness` is `input[QualityReport.self]?.darkness`.
extension InputReport {
    private func value<Part: ReportPart, Value>(_ part: Part.Type, _ path: KeyPath<Part, Value>, _ otherwise: Value) -> Value {
        self[part].map { $0[keyPath: path] } ?? otherwise
    }

    var darkness: ScoreStats? { value(QualityReport.self, \.darkness, nil) }
    var lightness: ScoreStats? { value(QualityReport.self, \.lightness, nil) }
    var sharpness: ScoreStats? { value(QualityReport.self, \.sharpness, nil) }
    var tooDarkFrames: Int { value(QualityReport.self, \.tooDarkFrames, 0) }
    var scoredFrames: Int? { value(QualityReport.self, \.scoredFrames, nil) }
    var faceFrames: Int {
        get { value(FaceReport.self, \.faceFrames, 0) }
        set { self[FaceReport.self]?.faceFrames = newValue }
    }
    var faceCounts: [String: Int] { value(FaceReport.self, \.faceCounts, [:]) }
    var headPose: [String: [String: Int]] { value(HeadPoseReport.self, \.headPose, [:]) }
    var faceImageQuality: [String: ScoreStats]? { value(FaceImageQualityReport.self, \.faceImageQuality, nil) }
    var qrCodes: [CodeFinding] { value(QRCodeReport.self, \.qrCodes, []) }
    var acquisition: AcquisitionCheck? { value(AcquisitionReport.self, \.acquisition, nil) }
    var thumbnail: String? { value(FaceThumbnailReport.self, \.thumbnail, nil) }
}

extension ReportTotals {
    var qrCodeCount: Int { self[QRCodeReport.self]?.qrCodeCount ?? 0 }
    var acquisitionsSucceeded: Int { self[AcquisitionReport.self]?.acquisitionsSucceeded ?? 0 }
}

extension Series {
    /// The face plot's points: 1 with the valid face, 0 without.
    var face: [Int] { (columns["face"] ?? []).map { Int($0 ?? 0) } }
}
