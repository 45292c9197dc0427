/// What the thumbnail stage reports about an input: its best face crop, shown at the head of its HTML card.
public struct FaceThumbnailReport: ReportPart {
    /// The best face crop, as a `data:image/jpeg;base64,…` URI.
    public var thumbnail: String?

    public init() {}

    public static let reads: [any ReadableEvent.Type] = [FaceThumbnail.self]

    public mutating func read(_ event: Event, frame: inout FrameValues) {
        if let crop = event.payload as? FaceThumbnail { thumbnail = "data:image/jpeg;base64,\(crop.jpegBase64)" }
    }

    /// Without a crop, why there is none.
    public func htmlRows(_ fields: [String: Double]) -> [ReportRow] {
        guard htmlImage == nil else { return [] }
        if (fields["faceFrames"] ?? 0) > 0 {
            return [ReportRow("face crop", "none: the events read hold no faceThumbnail (analyze writes none; <code>report</code> on the media does)")]
        }
        return [ReportRow("face crop", "none: no face was found")]
    }

    /// Shown only when it is what frameprobe writes: a base64 JPEG data URL (anything else in a merged report is
    /// dropped, never written into the page).
    public var htmlImage: String? {
        thumbnail.flatMap { isJPEGDataURL($0) ? "<img class=\"thumb\" alt=\"best face\" src=\"\($0)\">" : nil }
    }
}
