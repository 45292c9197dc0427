/// Yoonit's face events: the primary (widest) face's box is enlarged and validated (`RegionCheck`); a valid face
/// gives `faceDetected` on every frame, and the valid→invalid transition gives `message` (when there is a
/// reason) then `faceUndetected`, once.
public struct FaceRegionStage: Stage {
    public static let descriptor = StageDescriptor(
        FaceRegionStage.self, name: "faceRegion",
        summary: "enlarges and validates the primary face (ROI, min/max size); faceDetected/faceUndetected/message",
        requires: [.faces], provides: [.validFace], emits: [FaceDetected.self, FaceUndetected.self, Message.self],
        options: [
            .toggle("face-contours", "faceContours", "add the named landmark groups to faceDetected",
                    invalid: "INVALID_FACE_CONTOURS", \Options.faceContours),
            .toggle("face-quality", "faceQuality", "add the face crop's darkness/lightness/sharpness to faceDetected",
                    invalid: "INVALID_FACE_QUALITY", \Options.faceQuality),
        ] + regionRows,
        selection: StageSelection(analyzeWhen: { $0.captureType == .face }, report: true))

    /// The rows of `RegionCheck.Options` (the bounds are the seed's: SPEC §4).
    private static var regionRows: [OptionSpec] {
        func side(_ name: String, _ field: OptionSpec.Field<Options, Double>) -> OptionSpec {
            .number("detection-\(name)-size", "detection\(name.prefix(1).uppercased() + name.dropFirst())Size", "FRACTION",
                    "enlarge (+) or shrink (−) the box's \(name) side", invalid: "INVALID_DETECTION_\(name.uppercased())_SIZE", field)
        }
        func offset(_ name: String, _ field: OptionSpec.Field<Options, Double>) -> OptionSpec {
            .number("roi-\(name)-offset", "roi.\(name)", "FRACTION", "region of interest: distance from the \(name)",
                    invalid: "INVALID_ROI_\(name.uppercased())_OFFSET", field, bounds: .within(0...1))
        }
        return [
            side("top", \.region.detectionTopSize), side("right", \.region.detectionRightSize),
            side("bottom", \.region.detectionBottomSize), side("left", \.region.detectionLeftSize),
            .number("detection-min-size", "detectionMinSize", "FRACTION", "minimum box width / frame (or ROI) width",
                    invalid: "INVALID_MINIMUM_SIZE", \Options.region.detectionMinSize, bounds: .within(0...1)),
            .number("detection-max-size", "detectionMaxSize", "FRACTION", "maximum box width / frame width",
                    invalid: "INVALID_MAXIMUM_SIZE", \Options.region.detectionMaxSize, bounds: .within(0...1)),
            .toggle("roi", "roi", "turn the region of interest on (also on with any offset)", invalid: "INVALID_ROI", \Options.region.roi),
            offset("top", \.region.roiTopOffset), offset("right", \.region.roiRightOffset), offset("bottom", \.region.roiBottomOffset),
            offset("left", \.region.roiLeftOffset),
        ]
    }

    public struct Options: StageOptions {
        /// The detection-box rules; the QR stage applies the same ones to codes.
        public var region = RegionCheck.Options()
        /// Add the named landmark groups to `faceDetected`.
        public var faceContours = false
        /// Add the quality of the face crop (elliptical mask) to `faceDetected`.
        public var faceQuality = false

        public init() {}

        public func validate() throws(FrameProbeError) { try region.validate() }
    }

    private let options: Options
    private let check: RegionCheck
    private var transitions = ValidityTransitions()

    public init(options: Options) throws(FrameProbeError) {
        self.options = try Self.validated(options)
        check = RegionCheck(options: options.region)
    }

    public init(options: Options, context: StageContext) throws(FrameProbeError) { try self.init(options: options) }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        let verdict = analysis.faces.first.map { check.check($0.box, frameWidth: frame.width, frameHeight: frame.height) }
            ?? .invalid(message: nil)
        switch verdict {
        case .valid(let box):
            _ = transitions.record(valid: true)
            analysis.validFaceBox = box
            let face = analysis.faces[0]
            let quality = options.faceQuality ? try FaceCrop.quality(of: box, in: frame) : nil
            emit(FaceDetected(face: face, box: box, faceCount: analysis.faces.count,
                                          includeContours: options.faceContours, quality: quality))
        case .invalid(let message):
            if transitions.record(valid: false) {
                if let message { emit(Message(message)) }
                emit(FaceUndetected())
            }
        }
    }
}

/// Crops of a face box (clamped to the frame).
enum FaceCrop {
    static func image(of box: Box, in frame: Frame) throws(FrameProbeError) -> BGRImage? {
        guard let area = box.clamped(toWidth: frame.width, height: frame.height) else { return nil }
        return frame.image.cropped(x: area.x, y: area.y, width: area.width, height: area.height)
    }

    static func quality(of box: Box, in frame: Frame) throws(FrameProbeError) -> QualityScores? {
        guard let crop = try image(of: box, in: frame) else { return nil }
        return try QualityScores(of: crop, ellipticalMask: true)
    }
}

/// `faceUndetected`: the primary face stopped being valid.
public struct FaceUndetected: ReadableEvent {
    public static let eventName = "faceUndetected"
    public static let schema = EventSchema(.frame, [])
    public var fields: [(String, JSONValue)] { [] }

    public init() {}
    public init?(reading fields: EventFields) {}
}

/// `faceDetected`: the valid primary face, Yoonit's and ML Kit's fields.
public struct FaceDetected: ReadableEvent {
    public static let eventName = "faceDetected"
    public var face: FaceObservation
    /// The enlarged, validated box.
    public var box: Box
    public var faceCount: Int
    public var includeContours: Bool
    public var quality: QualityScores?
    /// The head-pose labels as a read-back event gave them (nil: from the angles, which it gives rounded).
    var readLabels: HeadPose.Labels??

    /// The head angles as the event gives them: a face seen only in profile has no landmarks, so its yaw is the
    /// profile's rough estimate and the rest unknown.
    public var angles: (x: Double?, y: Double?, z: Double?) {
        let pose = face.headPose
        return (pose?.x, pose?.y ?? face.profile.map(\.yawEstimate), pose?.z)
    }

    /// The head-pose labels as the event gives them; nil without a pose.
    public var labels: HeadPose.Labels? {
        if let readLabels { return readLabels }
        if let pose = face.headPose { return pose.labels }
        return face.profile.map { HeadPose.Labels(vertical: nil, horizontal: HeadPose.label($0.yawEstimate, HeadPose.horizontalLabels), tilt: nil) }
    }

    public static let schema: EventSchema = {
        let probability = JSONSchema.unit.orNull
        let angle = JSONSchema.number(minimum: -180, maximum: 180).orNull
        func labels(_ names: [String]) -> JSONSchema { .oneOf(names, nullable: true) }
        return EventSchema(.frame, [
            .init("x", .integer()), .init("y", .integer()), .init("width", .integer(minimum: 1)), .init("height", .integer(minimum: 1)),
            .init("trackingId", .integer(minimum: 1)), .init("faceCount", .integer(minimum: 1)),
            .init("leftEyeOpenProbability", probability), .init("rightEyeOpenProbability", probability),
            .init("smilingProbability", probability),
            .init("headEulerAngleX", angle), .init("headEulerAngleY", angle), .init("headEulerAngleZ", angle),
            .init("headPose", .object([
                .init("vertical", labels(HeadPose.verticalLabels)),
                .init("horizontal", labels(HeadPose.horizontalLabels)),
                .init("tilt", labels(HeadPose.tiltLabels)),
            ], nullable: true)),
            .init("profile", .oneOf(["left", "right"]), required: false),
            .init("contours", .object(FaceGeometry.contourGroups.map { name, indices in
                .init(name, .array(of: .point, minItems: indices.count, maxItems: indices.count), required: false)
            }), required: false),
            .init("quality", .object(QualityScores.schemaProperties), required: false),
            .init("faceImageQuality", FaceImageQuality.schema, required: false),
        ])
    }()

    public var fields: [(String, JSONValue)] {
        func number(_ value: Double?, _ decimals: Int) -> JSONValue { value.map { .number($0, decimals: decimals) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        let angles = self.angles
        var fields: [(String, JSONValue)] = [
            ("x", .int(Int(box.x.rounded()))), ("y", .int(Int(box.y.rounded()))),
            ("width", .int(Int(box.width.rounded()))), ("height", .int(Int(box.height.rounded()))),
            ("trackingId", .int(face.trackingId)), ("faceCount", .int(faceCount)),
            ("leftEyeOpenProbability", number(face.leftEyeOpenProbability, 3)),
            ("rightEyeOpenProbability", number(face.rightEyeOpenProbability, 3)),
            ("smilingProbability", number(face.smilingProbability, 3)),
            ("headEulerAngleX", number(angles.x, 2)), ("headEulerAngleY", number(angles.y, 2)), ("headEulerAngleZ", number(angles.z, 2)),
            ("headPose", labels.map { labels in
                .object([("vertical", text(labels.vertical)), ("horizontal", text(labels.horizontal)), ("tilt", text(labels.tilt))])
            } ?? .null),
        ]
        if let side = face.profile { fields.append(("profile", .string(side.rawValue))) }
        if includeContours, let points = face.landmarks {
            fields.append(("contours", .object(FaceGeometry.contourGroups.map { name, indices in
                (name, .array(indices.map { .array([.number(points[$0].x, decimals: 1), .number(points[$0].y, decimals: 1)]) }))
            })))
        }
        if let quality { fields.append(("quality", .object(quality.jsonFields))) }
        if let imageQuality = face.imageQuality { fields.append(("faceImageQuality", imageQuality.json)) }
        return fields
    }
}

extension FaceDetected {
    public static var countFields: Set<String> { ["trackingId"] }

    /// What the report reads back: the box, the face count, the angles and labels, the face image quality.
    public init?(reading fields: EventFields) {
        func number(_ key: String) -> Double { fields.number(key) ?? 0 }
        box = Box(x: number("x"), y: number("y"), width: number("width"), height: number("height"))
        face = FaceObservation(box: box, trackingId: fields.integer("trackingId") ?? 0)
        face.profile = fields.string("profile").flatMap(ProfileSide.init(rawValue:))
        if let x = fields.number("headEulerAngleX"), let y = fields.number("headEulerAngleY"), let z = fields.number("headEulerAngleZ") {
            face.headPose = HeadPose(x: x, y: y, z: z)
        }
        face.imageQuality = fields.nested("faceImageQuality").map(FaceImageQuality.init(reading:))
        faceCount = fields.integer("faceCount") ?? 1
        includeContours = false
        readLabels = .some(fields.nested("headPose").map { pose in
            HeadPose.Labels(vertical: pose.string("vertical"), horizontal: pose.string("horizontal"), tilt: pose.string("tilt"))
        })
    }
}
