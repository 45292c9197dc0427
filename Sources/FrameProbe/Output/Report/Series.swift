/// Per-frame values for the HTML plots (at most `Series.limit` points, evenly picked).
public struct Series: Codable, Sendable, Equatable {
    public static let limit = 600
    public var pts: [Double] = []
    public var face: [Int] = []
    public var headX: [Double?] = []
    public var headY: [Double?] = []
    public var headZ: [Double?] = []
    public var darkness: [Double?] = []
    /// `unifiedQuality` of the face (with `--face-image-quality`); nil in reports from before.
    public var faceImageQuality: [Double?]?
    public var lightness: [Double?] = []
    public var sharpness: [Double?] = []

    /// Every other point (when a growing series passes its limit).
    mutating func halve() {
        func pick<T>(_ values: [T]) -> [T] { stride(from: 0, to: values.count, by: 2).map { values[$0] } }
        self = Series(pts: pick(pts), face: pick(face), headX: pick(headX), headY: pick(headY), headZ: pick(headZ),
                      darkness: pick(darkness), faceImageQuality: faceImageQuality.map(pick), lightness: pick(lightness),
                      sharpness: pick(sharpness))
    }
}

/// Builds a `Series` as frames come, with flat memory: every point up to `Series.limit`, then every 2nd, 4th, …
/// frame, evenly spread over the whole input.
struct SeriesBuilder {
    private(set) var series = Series()
    private var seen = 0
    private var step = 1

    mutating func add(pts: Double, face: Int, head: (Double?, Double?, Double?), quality: (Double, Double, Double)?,
                      faceImageQuality: Double?) {
        defer { seen += 1 }
        guard seen % step == 0 else { return }
        series.pts.append(pts)
        series.face.append(face)
        series.headX.append(head.0)
        series.headY.append(head.1)
        series.headZ.append(head.2)
        series.darkness.append(quality?.0)
        series.lightness.append(quality?.1)
        series.sharpness.append(quality?.2)
        if faceImageQuality != nil && series.faceImageQuality == nil { series.faceImageQuality = Array(repeating: nil, count: series.pts.count - 1) }
        series.faceImageQuality?.append(faceImageQuality)
        if series.pts.count > Series.limit {
            series.halve()
            step *= 2
        }
    }
}
