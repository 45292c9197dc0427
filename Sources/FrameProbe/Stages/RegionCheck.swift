/// Yoonit's detection-box rules, shared by faces and QR codes (SPEC §4): enlarge the box, then validate it
/// against the frame, the region of interest and the minimum / maximum sizes.
public struct RegionCheck: Sendable {
    public struct Options: Sendable, Equatable {
        /// Fractions of the half-width/half-height added on each side (negative shrinks).
        public var detectionTopSize = 0.0
        public var detectionRightSize = 0.0
        public var detectionBottomSize = 0.0
        public var detectionLeftSize = 0.0
        /// The region of interest: on with `roi` or any offset; offsets are fractions of the frame.
        public var roi = false
        public var roiTopOffset = 0.0
        public var roiRightOffset = 0.0
        public var roiBottomOffset = 0.0
        public var roiLeftOffset = 0.0
        /// Box width relative to the frame (or the ROI) width.
        public var detectionMinSize = 0.0
        public var detectionMaxSize = 1.0

        public init() {}

        var roiIsOn: Bool { roi || roiTopOffset > 0 || roiRightOffset > 0 || roiBottomOffset > 0 || roiLeftOffset > 0 }

        /// The rules across settings (each setting's own bounds are in its row).
        public func validate() throws(FrameProbeError) {
            if detectionMinSize > detectionMaxSize {
                throw FrameProbeError("INVALID_MINIMUM_SIZE", "detectionMinSize (\(detectionMinSize)) is above detectionMaxSize (\(detectionMaxSize))")
            }
            if roiTopOffset + roiBottomOffset >= 1 {
                throw FrameProbeError("INVALID_ROI_BOTTOM_OFFSET", "roi top + bottom offsets leave no region (\(roiTopOffset) + \(roiBottomOffset) ≥ 1)")
            }
            if roiLeftOffset + roiRightOffset >= 1 {
                throw FrameProbeError("INVALID_ROI_RIGHT_OFFSET", "roi left + right offsets leave no region (\(roiLeftOffset) + \(roiRightOffset) ≥ 1)")
            }
        }
    }

    public enum Verdict: Sendable, Equatable {
        /// The enlarged box, valid.
        case valid(Box)
        /// Invalid, with the seed's message key when there is one (none for a box outside the frame).
        case invalid(message: String?)
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// The box enlarged (or shrunk) per side by the detection sizes.
    public func enlarged(_ box: Box) -> Box {
        let centre = box.centre
        let left = centre.x - (1 + options.detectionLeftSize) * box.width / 2
        let top = centre.y - (1 + options.detectionTopSize) * box.height / 2
        let right = centre.x + (1 + options.detectionRightSize) * box.width / 2
        let bottom = centre.y + (1 + options.detectionBottomSize) * box.height / 2
        return Box(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// SPEC §4 step 2, in its order: outside the frame; ROI then the minimum against the ROI width; or, without
    /// ROI, the minimum and maximum against the frame width.
    public func check(_ box: Box, frameWidth: Int, frameHeight: Int) -> Verdict {
        let box = enlarged(box)
        let width = Double(frameWidth), height = Double(frameHeight)
        // Yoonit's isOutOfTheScreen (SPEC §4.2): any edge of the enlarged box outside the frame is no valid
        // capture — a face cut by the frame's edge — and has no message.
        guard box.width > 0, box.height > 0, box.x >= 0, box.y >= 0, box.right <= width, box.bottom <= height else {
            return .invalid(message: nil)
        }
        if options.roiIsOn {
            let faceOffsets = [box.y / height, (width - box.right) / width, (height - box.bottom) / height, box.x / width]
            let roiOffsets = [options.roiTopOffset, options.roiRightOffset, options.roiBottomOffset, options.roiLeftOffset]
            if zip(roiOffsets, faceOffsets).contains(where: { $0 > $1 }) { return .invalid(message: "INVALID_OUT_OF_ROI") }
            let roiWidth = width * (1 - options.roiLeftOffset - options.roiRightOffset)
            if options.detectionMinSize > box.width / roiWidth { return .invalid(message: "INVALID_MINIMUM_SIZE") }
            return .valid(box)
        }
        let ratio = box.width / width
        if ratio < options.detectionMinSize { return .invalid(message: "INVALID_MINIMUM_SIZE") }
        if ratio > options.detectionMaxSize { return .invalid(message: "INVALID_MAXIMUM_SIZE") }
        return .valid(box)
    }
}

/// Valid→invalid transitions: the seed emits `message` and `faceUndetected` once per transition (and once when
/// the very first frame has nothing valid), not on every invalid frame.
struct ValidityTransitions: Sendable {
    private var wasValid: Bool?

    /// Records this frame's validity; true when it is a transition into "invalid".
    mutating func record(valid: Bool) -> Bool {
        defer { wasValid = valid }
        return !valid && wasValid != false
    }
}
