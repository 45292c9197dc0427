import CVision

/// Yoonit's on-screen overlays drawn into a copy of the frame: the detection box (setDetectionBox), the face
/// contours (setFaceContours) and the region of interest (setROIAreaOffset), in their ARGB colours.
public struct Annotation: Sendable {
    public var detectionBoxColor = ARGBColor()
    public var faceContoursColor = ARGBColor()
    public var roiColor = ARGBColor()
    /// The ROI to draw, when it is on.
    public var region: RegionCheck.Options?

    public init() {}

    /// The frame with the overlays; `box` is the enlarged detection box, `landmarks` the face's 68 points.
    public func draw(on frame: Frame, box: Box?, landmarks: [Point2D]?) throws(FrameProbeError) -> BGRImage {
        let canvas = frame.image.copy()
        let thickness = Int32(max(2, frame.width / 400))
        if let region {
            let w = Double(frame.width), h = Double(frame.height)
            let area = Box(x: region.roiLeftOffset * w, y: region.roiTopOffset * h,
                           width: w * (1 - region.roiLeftOffset - region.roiRightOffset),
                           height: h * (1 - region.roiTopOffset - region.roiBottomOffset))
            try rectangle(area, on: canvas, color: roiColor, thickness: thickness)
        }
        if let box { try rectangle(box, on: canvas, color: detectionBoxColor, thickness: thickness) }
        if let landmarks {
            for (name, indices) in FaceGeometry.contourGroups {
                let xy = indices.flatMap { [Float(landmarks[$0].x), Float(landmarks[$0].y)] }
                let closed: Int32 = ["leftEye", "rightEye", "outerLips", "innerLips"].contains(name) ? 1 : 0
                try CVisionCall.check("drawing contours") {
                    cvision_draw_polyline(canvas.pixels, Int32(canvas.width), Int32(canvas.height), Int32(canvas.stride), xy,
                                          Int32(indices.count), closed, native(faceContoursColor), max(1, thickness / 2))
                }
            }
        }
        return canvas
    }

    private func rectangle(_ box: Box, on canvas: BGRImage, color: ARGBColor, thickness: Int32) throws(FrameProbeError) {
        try CVisionCall.check("drawing a box") {
            cvision_draw_rectangle(canvas.pixels, Int32(canvas.width), Int32(canvas.height), Int32(canvas.stride),
                                   box.x, box.y, box.width, box.height, native(color), thickness)
        }
    }

    private func native(_ color: ARGBColor) -> cvision_color {
        cvision_color(b: color.blue, g: color.green, r: color.red, alpha: color.alpha)
    }
}
