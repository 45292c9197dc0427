/// Yoonit's timed image capture, offline: saves an image on a media-time gate (`timeBetweenImages`; the first
/// one at once), up to `numberOfImages`, then `endCapture`. With capture type `frame` the whole frame is saved.
public struct CaptureStage: Stage {
    public struct Options: Sendable {
        public var type: CaptureType = .frame
        public var numberOfImages = 0
        public var timeBetweenImages = 1000
        public var outputWidth = 200
        public var outputHeight = 200
        public var keepAspect = false
        public var stopAtEndCapture = false
        /// With each image, also save the frame with the overlays drawn (`--annotate`).
        public var annotation: Annotation?

        public init() {}

        init(_ options: AnalysisOptions) {
            type = options.captureType
            numberOfImages = options.numberOfImages
            timeBetweenImages = options.timeBetweenImages
            outputWidth = options.outputImageWidth
            outputHeight = options.outputImageHeight
            keepAspect = options.keepAspect
            stopAtEndCapture = options.stopAtEndCapture
            annotation = options.annotate ? Annotation(options) : nil
        }

        /// The seed's validation keys (SPEC §4).
        public func validate() throws(FrameProbeError) {
            if numberOfImages < 0 {
                throw FrameProbeError("INVALID_NUMBER_OF_IMAGES", "numberOfImages must be 0 (unlimited) or more, got \(numberOfImages)")
            }
            if timeBetweenImages < 0 {
                throw FrameProbeError("INVALID_TIME_BETWEEN_IMAGES", "timeBetweenImages must be 0 ms or more, got \(timeBetweenImages)")
            }
            for (key, value) in [("INVALID_OUTPUT_IMAGE_WIDTH", outputWidth), ("INVALID_OUTPUT_IMAGE_HEIGHT", outputHeight)]
            where value <= 0 || value > 8192 {
                throw FrameProbeError(key, "output image sizes must be 1…8192 pixels, got \(value)")
            }
        }
    }

    private let options: Options
    private let store: ImageStore
    private var saved = 0
    /// Media-clock time of the last saved image (`Frame.time`: it survives pts going back).
    private var lastSavedTime: Double?

    public init(options: Options, store: ImageStore) throws(FrameProbeError) {
        try options.validate()
        self.options = options
        self.store = store
    }

    private var finished: Bool { options.numberOfImages > 0 && saved >= options.numberOfImages }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        guard !finished, gateIsOpen(at: frame.time), let subject = try subject(of: frame, analysis) else { return }
        let (image, picture) = try Letterbox.fit(subject, width: options.outputWidth, height: options.outputHeight,
                                                 keepAspect: options.keepAspect)
        let quality = try QualityScores(of: picture, ellipticalMask: options.type == .face)
        let name = "\(options.type.rawValue)-\(String(format: "%04d", saved + 1))"
        let path = try store.write(try image.jpegData(), name: name + ".jpg")
        if let annotation = options.annotation {
            let overlay = try annotation.draw(on: frame, box: analysis.validFaceBox, landmarks: analysis.faces.first?.landmarks)
            _ = try store.write(try overlay.jpegData(), name: name + "-annotated.jpg")
        }
        saved += 1
        lastSavedTime = frame.time
        analysis.capturedImages += 1
        emit(ImageCaptured(type: options.type.rawValue, count: saved, total: options.numberOfImages,
                                          imagePath: path, quality: quality))
        if finished {
            emit(EndCapture(type: options.type.rawValue, count: saved))
            if options.stopAtEndCapture { analysis.stopInput = true }
        }
    }

    /// The first image is saved at once; later ones once `timeBetweenImages` of media time has passed.
    private func gateIsOpen(at time: Double) -> Bool {
        guard let lastSavedTime else { return true }
        return (time - lastSavedTime) * 1000 >= Double(options.timeBetweenImages) - 1e-6
    }

    /// What is saved from this frame: the valid primary face's enlarged box (clamped to the frame), or the
    /// whole frame for `frame` capture.
    private func subject(of frame: Frame, _ analysis: FrameAnalysis) throws(FrameProbeError) -> BGRImage? {
        switch options.type {
        case .frame: frame.image
        case .face: try analysis.validFaceBox.flatMap { box throws(FrameProbeError) in try FaceCrop.image(of: box, in: frame) }
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

    public static let schema = EventSchema(.frame, [
        .init("type", .oneOf(["face", "frame"])), .init("count", .integer(minimum: 1)), .init("total", .integer(minimum: 0)),
        .init("imagePath", .string(minLength: 1)),
    ] + QualityScores.schemaProperties)

    public var fields: [(String, JSONValue)] {
        [("type", .string(type)), ("count", .int(count)), ("total", .int(total)), ("imagePath", .string(imagePath))]
            + quality.jsonFields
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
