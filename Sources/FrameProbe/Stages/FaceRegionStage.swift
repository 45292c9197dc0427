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

    /// The fields, each declared once (name, schema, how it is written and read back).
    enum Field {
        static let probability = JSONSchema.unit
        static let angle = JSONSchema.number(minimum: -180, maximum: 180)
        static let x = EventField<Int>.integer("x", .integer()), y = EventField<Int>.integer("y", .integer())
        static let width = EventField<Int>.integer("width", .integer(minimum: 1)), height = EventField<Int>.integer("height", .integer(minimum: 1))
        static let trackingId = EventField<Int>.integer("trackingId", .integer(minimum: 1))
        static let faceCount = EventField<Int>.integer("faceCount", .integer(minimum: 1))
        static let leftEyeOpen = EventField<Double?>.optionalNumber("leftEyeOpenProbability", probability, decimals: 3)
        static let rightEyeOpen = EventField<Double?>.optionalNumber("rightEyeOpenProbability", probability, decimals: 3)
        static let smiling = EventField<Double?>.optionalNumber("smilingProbability", probability, decimals: 3)
        static let angleX = EventField<Double?>.optionalNumber("headEulerAngleX", angle, decimals: 2)
        static let angleY = EventField<Double?>.optionalNumber("headEulerAngleY", angle, decimals: 2)
        static let angleZ = EventField<Double?>.optionalNumber("headEulerAngleZ", angle, decimals: 2)
        static let labels = EventField<HeadPose.Labels?>("headPose", HeadPose.Labels.schema, write: { $0?.json ?? .null },
                                                         read: { fields, name in .some(fields.nested(name).map(HeadPose.Labels.init(reading:))) })
        static let profile = EventField<ProfileSide?>("profile", .oneOf(["left", "right"]), required: false,
                                                      write: { $0.map { .string($0.rawValue) } ?? .null },
                                                      read: { fields, name in .some(fields.string(name).flatMap(ProfileSide.init(rawValue:))) })
        static let contours = EventSchema.Property("contours", .object(FaceGeometry.contourGroups.map { name, indices in
            .init(name, .array(of: .point, minItems: indices.count, maxItems: indices.count), required: false)
        }), required: false)
        static let quality = EventSchema.Property("quality", .object(QualityScores.schemaProperties), required: false)
        static let imageQuality = EventField<FaceImageQuality>("faceImageQuality", FaceImageQuality.schema, required: false, write: { $0.json },
                                                               read: { fields, name in fields.nested(name).map(FaceImageQuality.init(reading:)) })
    }

    public static let schema = EventSchema(.frame, [
        Field.x.property, Field.y.property, Field.width.property, Field.height.property, Field.trackingId.property, Field.faceCount.property,
        Field.leftEyeOpen.property, Field.rightEyeOpen.property, Field.smiling.property,
        Field.angleX.property, Field.angleY.property, Field.angleZ.property, Field.labels.property, Field.profile.property,
        Field.contours, Field.quality, Field.imageQuality.property,
    ])

    public var fields: [(String, JSONValue)] {
        let angles = self.angles
        var fields: [(String, JSONValue)] = [
            Field.x.json(Int(box.x.rounded())), Field.y.json(Int(box.y.rounded())),
            Field.width.json(Int(box.width.rounded())), Field.height.json(Int(box.height.rounded())),
            Field.trackingId.json(face.trackingId), Field.faceCount.json(faceCount),
            Field.leftEyeOpen.json(face.leftEyeOpenProbability), Field.rightEyeOpen.json(face.rightEyeOpenProbability),
            Field.smiling.json(face.smilingProbability),
            Field.angleX.json(angles.x), Field.angleY.json(angles.y), Field.angleZ.json(angles.z), Field.labels.json(labels),
        ]
        if let side = face.profile { fields.append(Field.profile.json(side)) }
        if includeContours, let points = face.landmarks {
            fields.append((Field.contours.name, .object(FaceGeometry.contourGroups.map { name, indices in
                (name, .array(indices.map { .array([.number(points[$0].x, decimals: 1), .number(points[$0].y, decimals: 1)]) }))
            })))
        }
        if let quality { fields.append((Field.quality.name, .object(quality.jsonFields))) }
        if let imageQuality = face.imageQuality { fields.append(Field.imageQuality.json(imageQuality)) }
        return fields
    }
}

extension FaceDetected {
    public static var countFields: Set<String> { [Field.trackingId.name] }

    /// What the report reads back: the box, the face count, the angles and labels, the face image quality.
    public init?(reading fields: EventFields) {
        func number(_ field: EventField<Int>) -> Double { field.read(fields).map(Double.init) ?? 0 }
        box = Box(x: number(Field.x), y: number(Field.y), width: number(Field.width), height: number(Field.height))
        face = FaceObservation(box: box, trackingId: Field.trackingId.read(fields) ?? 0)
        face.profile = Field.profile.read(fields) ?? nil
        if let x = Field.angleX.read(fields) ?? nil, let y = Field.angleY.read(fields) ?? nil, let z = Field.angleZ.read(fields) ?? nil {
            face.headPose = HeadPose(x: x, y: y, z: z)
        }
        face.imageQuality = Field.imageQuality.read(fields)
        faceCount = Field.faceCount.read(fields) ?? 1
        includeContours = false
        readLabels = .some(Field.labels.read(fields) ?? nil)
    }
}
