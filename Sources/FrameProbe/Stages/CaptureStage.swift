/// Yoonit's timed image capture, offline: saves an image on a media-time gate (`timeBetweenImages`; the first
/// one at once), up to `numberOfImages`, then `endCapture`. With capture type `frame` the whole frame is saved.
public struct CaptureStage: Stage {
    public static let descriptor = StageDescriptor(
        CaptureStage.self, name: "capture", summary: "saves face crops or frames on a media-time gate, up to numberOfImages",
        provides: [.capturedImages], emits: [ImageCaptured.self, EndCapture.self],
        options: [
            .choice("capture-type", "captureType", "what to capture", invalid: "INVALID_CAPTURE_TYPE", \AnalysisOptions.captureType),
            .int("number-of-images", "numberOfImages", "N", "images to save per input, then endCapture (0 = unlimited)",
                 invalid: "INVALID_NUMBER_OF_IMAGES", \Options.numberOfImages, bounds: .within(0...1_000_000)),
            .int("time-between-images", "timeBetweenImages", "MS", "minimum media time between saved images",
                 invalid: "INVALID_TIME_BETWEEN_IMAGES", \Options.timeBetweenImages, bounds: .within(0...86_400_000)),
            .int("output-image-width", "outputImageWidth", "PX", "saved image width",
                 invalid: "INVALID_OUTPUT_IMAGE_WIDTH", \Options.outputWidth, bounds: .within(1...8192)),
            .int("output-image-height", "outputImageHeight", "PX", "saved image height",
                 invalid: "INVALID_OUTPUT_IMAGE_HEIGHT", \Options.outputHeight, bounds: .within(1...8192)),
            .toggle("save-image-captured", "saveImageCaptured", "save captured images (to --output-dir, default ./frameprobe-output)",
                    invalid: "INVALID_SAVE_IMAGE_CAPTURED", \AnalysisOptions.saveImageCaptured),
            .toggle("keep-aspect", "keepAspect", "letterbox saved images instead of stretching them",
                    invalid: "INVALID_KEEP_ASPECT", \Options.keepAspect),
            .toggle("stop-at-end-capture", "stopAtEndCapture", "stop analysing an input once numberOfImages are saved",
                    invalid: "INVALID_STOP_AT_END_CAPTURE", \Options.stopAtEndCapture),
            .toggle("capture-best", "captureBest", "save, per timeBetweenImages window, the frame whose face image quality (unifiedQuality) is highest, not the first",
                    invalid: "INVALID_CAPTURE_BEST", \Options.best),
            .toggle("annotate", "annotate", "with each saved image, save the frame with the box, contours and ROI drawn",
                    invalid: "INVALID_ANNOTATE", \Options.annotate),
            .color("detection-box-color", "detectionBoxColor", "box colour", invalid: "INVALID_DETECTION_BOX_COLOR",
                   \Options.annotation.detectionBoxColor),
            .color("face-contours-color", "faceContoursColor", "contours colour", invalid: "INVALID_FACE_CONTOURS_COLOR",
                   \Options.annotation.faceContoursColor),
            .color("roi-color", "roiColor", "ROI colour", invalid: "INVALID_ROI_COLOR", \Options.annotation.roiColor),
        ],
        selection: StageSelection(analyzeWhen: { $0.savesImages && [.face, .frame].contains($0.captureType) }))

    public struct Options: StageOptions {
        public var numberOfImages = 0
        public var timeBetweenImages = 1000
        public var outputWidth = 200
        public var outputHeight = 200
        public var keepAspect = false
        public var stopAtEndCapture = false
        /// Per window of `timeBetweenImages`, the best frame by face image quality instead of the first
        /// (`--capture-best`; the window's image is written when it closes).
        public var best = false
        /// With each image, also save the frame with the overlays drawn (`--annotate`), in `annotation`'s colours.
        public var annotate = false
        public var annotation = Annotation()

        public init() {}
    }

    private let type: CaptureType
    private let annotation: Annotation?
    private let options: Options
    private let store: ImageStore
    private var saved = 0
    /// Media-clock time of the last saved image (`Frame.time`: it survives pts going back).
    private var lastSavedTime: Double?
    /// With `best`: when the open window began, and its best frame so far.
    private var window: (start: Double, best: Candidate)?

    /// A frame that may be saved, and what its image, event and annotation need (the image is cut only when it is
    /// saved: with `best`, most candidates never are).
    private struct Candidate {
        let frame: Frame
        let box: Box?
        let landmarks: [Point2D]?
        let faceImageQuality: FaceImageQuality?
        /// How frames of a window compare: `unifiedQuality`, then the mean component score.
        var rank: (Int, Double) { (faceImageQuality?.unifiedQuality ?? -1, faceImageQuality?.meanScore ?? -1) }
    }

    /// Saves `type` images to `store`; `region` is the ROI the annotation draws.
    public init(options: Options, type: CaptureType, store: ImageStore, region: RegionCheck.Options = RegionCheck.Options()) throws(FrameProbeError) {
        self.options = try Self.validated(options)
        self.type = type
        self.store = store
        var annotation = options.annotation
        annotation.region = region.roiIsOn ? region : nil
        self.annotation = options.annotate ? annotation : nil
    }

    public init(options: Options, context: StageContext) throws(FrameProbeError) {
        try self.init(options: options, type: context.options.captureType, store: context.imageStore,
                      region: context.options[FaceRegionStage.Options.self].region)
    }

    private var finished: Bool { options.numberOfImages > 0 && saved >= options.numberOfImages }

    public var endsInput: Bool { finished && options.stopAtEndCapture }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        guard !finished, options.best || gateIsOpen(at: frame.time), hasSubject(frame, analysis.validFaceBox) else { return }
        let candidate = Candidate(frame: frame, box: analysis.validFaceBox, landmarks: analysis.faces.first?.landmarks,
                                  faceImageQuality: analysis.faces.first?.imageQuality)
        guard options.best else { return try save(candidate, emit: emit) }
        if let open = window, (frame.time - open.start) * 1000 >= Double(options.timeBetweenImages) - 1e-6 {
            window = nil
            try save(open.best, emit: emit)
            guard !finished else { return }
        }
        if let open = window {
            if candidate.rank > open.best.rank { window = (open.start, candidate) }
        } else {
            window = (frame.time, candidate)
        }
    }

    /// With `best`, the last window's image is written when the input ends.
    public mutating func finish(emit: Emit) {
        guard let open = window else { return }
        window = nil
        do throws(FrameProbeError) { try save(open.best, emit: emit) } catch { emit(Failure(error)) }
    }

    private mutating func save(_ candidate: Candidate, emit: Emit) throws(FrameProbeError) {
        guard let subject = try subject(of: candidate.frame, box: candidate.box) else { return }
        let (image, picture) = try Letterbox.fit(subject, width: options.outputWidth, height: options.outputHeight,
                                                 keepAspect: options.keepAspect)
        let quality = try QualityScores(of: picture, ellipticalMask: type == .face)
        let name = "\(type.rawValue)-\(String(format: "%04d", saved + 1))"
        let path = try store.write(try image.jpegData(), name: name + ".jpg")
        if let annotation {
            let overlay = try annotation.draw(on: candidate.frame, box: candidate.box, landmarks: candidate.landmarks)
            _ = try store.write(try overlay.jpegData(), name: name + "-annotated.jpg")
        }
        saved += 1
        lastSavedTime = candidate.frame.time
        emit(ImageCaptured(type: type.rawValue, count: saved, total: options.numberOfImages, imagePath: path, quality: quality,
                           imageFrame: options.best ? candidate.frame.index : nil, imagePts: options.best ? candidate.frame.pts : nil,
                           faceImageQuality: candidate.faceImageQuality))
        if finished {
            emit(EndCapture(type: type.rawValue, count: saved))
        }
    }

    /// The first image is saved at once; later ones once `timeBetweenImages` of media time has passed.
    private func gateIsOpen(at time: Double) -> Bool {
        guard let lastSavedTime else { return true }
        return (time - lastSavedTime) * 1000 >= Double(options.timeBetweenImages) - 1e-6
    }

    /// Whether this frame has something to save: a valid primary face inside the frame, or the frame itself.
    private func hasSubject(_ frame: Frame, _ box: Box?) -> Bool {
        switch type {
        case .frame: true
        case .face: box?.clamped(toWidth: frame.width, height: frame.height) != nil
        case .qrcode, .none: false
        }
    }

    /// What is saved from this frame: the valid primary face's enlarged box (clamped to the frame), or the
    /// whole frame for `frame` capture.
    private func subject(of frame: Frame, box: Box?) throws(FrameProbeError) -> BGRImage? {
        switch type {
        case .frame: frame.image
        case .face: try box.flatMap { box throws(FrameProbeError) in try FaceCrop.image(of: box, in: frame) }
        case .qrcode, .none: nil
        }
    }
}

/// `imageCaptured`: an image the capture stage saved.
public struct ImageCaptured: EventPayload {
    public static let eventName = "imageCaptured"
    public var type: String
    /// 1-based number of this image for its input.
    public var count: Int
    /// `numberOfImages` (0 = unlimited).
    public var total: Int
    public var imagePath: String
    /// Scores of the saved image (elliptical mask for faces, none for frames).
    public var quality: QualityScores
    /// With `--capture-best`: the frame the image is of (the event comes when its window closes).
    public var imageFrame: Int?
    public var imagePts: Double?
    /// The saved face's components, with `--face-image-quality`.
    public var faceImageQuality: FaceImageQuality?

    // With --capture-best the last window's image is written when the input ends: no frame then.
    public static let schema = EventSchema(.either, [
        .init("type", .oneOf(["face", "frame"])), .init("count", .integer(minimum: 1)), .init("total", .integer(minimum: 0)),
        .init("imagePath", .string(minLength: 1)),
    ] + QualityScores.schemaProperties + [
        .init("imageFrame", .integer(minimum: 0), required: false), .init("imagePts", .number(minimum: 0), required: false),
        .init("faceImageQuality", FaceImageQuality.schema, required: false),
    ])

    public var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("type", .string(type)), ("count", .int(count)), ("total", .int(total)), ("imagePath", .string(imagePath))]
            + quality.jsonFields
        if let imageFrame { fields.append(("imageFrame", .int(imageFrame))) }
        if let imagePts { fields.append(("imagePts", .number(imagePts, decimals: 3))) }
        if let faceImageQuality { fields.append(("faceImageQuality", faceImageQuality.json)) }
        return fields
    }
}

/// `endCapture`: `numberOfImages` images are saved.
public struct EndCapture: EventPayload {
    public static let eventName = "endCapture"
    public var type: String
    public var count: Int

    public static let schema = EventSchema(.either, [.init("type", .oneOf(["face", "frame"])), .init("count", .integer(minimum: 1))])
    public var fields: [(String, JSONValue)] { [("type", .string(type)), ("count", .int(count))] }
}
