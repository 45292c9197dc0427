/// Unissey's face positioning: every analysed frame gets an instruction from the face box its landmarks give
/// (`FaceGeometry.faceBox`) against the oval (`faceInfo` when it changes); once GOOD_POSITION has held still long
/// enough, recording may start.
///
/// Decision order: no face (or one seen only in profile, without landmarks) → NO_FACE; several → MULTIPLE_FACES;
/// face box width / oval width below the minimum → TOO_FAR, above the maximum → TOO_CLOSE; centre offset beyond its
/// axis's tolerance → MOVE_x on the axis that is further out (relative to its tolerance); else GOOD_POSITION. Directions read as on a mirrored selfie preview: a face on the image's right (the
/// subject's own left) is told to move right, one low in the image to move up.
public struct GuidanceStage: Stage {
    public static let descriptor = StageDescriptor(
        GuidanceStage.self, name: "guidance", summary: "Unissey's oval guidance and stillness timer; faceInfo when the instruction changes",
        requires: [.landmarks], provides: [.recordingCue], emits: [FaceInfo.self, Notice.self],
        options: [
            .choice("lang", "lang", "language of the instructions (default from LANG)", invalid: "INVALID_LANG", \AcquisitionOptions.language),
            .bound("strings", "strings", "FILE.strings", "override texts with Apple's \"key\" = \"value\"; format", short: nil,
                   invalid: "INVALID_STRINGS", \AcquisitionOptions.stringOverrides, shownDefault: { _ in nil },
                   parse: { value throws(FrameProbeError) in try StringsFile.parse(contentsOf: try value.text("INVALID_STRINGS", "strings")) }),
        ],
        selection: StageSelection(report: true, acquire: true, optionsIn: [.acquire]))

    public enum Instruction: String, Sendable, CaseIterable {
        case noFace = "NO_FACE", multipleFaces = "MULTIPLE_FACES", tooFar = "TOO_FAR", tooClose = "TOO_CLOSE"
        case moveLeft = "MOVE_LEFT", moveRight = "MOVE_RIGHT", moveUp = "MOVE_UP", moveDown = "MOVE_DOWN"
        case goodPosition = "GOOD_POSITION"

        /// The seed's string key.
        public var key: String {
            switch self {
            case .noFace: "unissey_instruction_no_face_detected"
            case .multipleFaces: "unissey_instruction_multiple_faces_detected"
            case .tooFar: "unissey_instruction_get_closer"
            case .tooClose: "unissey_instruction_get_further_away"
            case .moveLeft: "unissey_instruction_move_left"
            case .moveRight: "unissey_instruction_move_right"
            case .moveUp: "unissey_instruction_move_up"
            case .moveDown: "unissey_instruction_move_down"
            case .goodPosition: "unissey_instruction_do_not_move"
            }
        }
    }

    private let options: GuidanceOptions
    private let strings: LocalizedStrings
    private var current: Instruction?
    /// Where and when the current still period began.
    private var stillAnchor: (pts: Double, time: Double, box: Box)?
    private var history: [(instruction: Instruction, pts: Double)] = []
    private var handedOver = false

    public init(options: GuidanceOptions, strings: LocalizedStrings) throws(FrameProbeError) {
        try options.validate()
        self.options = options
        self.strings = strings
    }

    public init(options: AcquisitionOptions, context: StageContext) throws(FrameProbeError) {
        try self.init(options: options.guidance, strings: options.strings)
    }

    public mutating func begin(emit: Emit) throws(FrameProbeError) {
        if !strings.unknownOverrideKeys.isEmpty {
            emit(Notice(key: "UNKNOWN_STRING_KEYS",
                         message: "--strings sets keys the seed's table does not have (ignored): \(strings.unknownOverrideKeys.joined(separator: ", "))"))
        }
    }

    /// The instruction for `faces` in a `width` × `height` frame, and the face box it was judged on.
    public func instruction(for faces: [FaceObservation], width: Int, height: Int) -> (Instruction, Box?) {
        guard !faces.isEmpty else { return (.noFace, nil) }
        guard faces.count == 1 else { return (.multipleFaces, nil) }
        guard let points = faces[0].landmarks else { return (.noFace, nil) }
        let face = FaceGeometry.faceBox(around: points), oval = options.oval(frameWidth: width, height: height)
        let ratio = face.width / oval.width
        if ratio < options.minFaceRatio { return (.tooFar, face) }
        if ratio > options.maxFaceRatio { return (.tooClose, face) }
        let dx = (face.centre.x - oval.centre.x) / oval.width / options.centerToleranceX
        let dy = (face.centre.y - oval.centre.y) / oval.height / options.centerToleranceY
        guard max(abs(dx), abs(dy)) > 1 else { return (.goodPosition, face) }
        if abs(dx) >= abs(dy) { return (dx > 0 ? .moveRight : .moveLeft, face) }
        return (dy > 0 ? .moveUp : .moveDown, face)
    }

    public mutating func process(_ frame: Frame, _ analysis: inout FrameAnalysis, emit: Emit) throws(FrameProbeError) {
        // In acquisition guidance is the judge of the face (no region stage runs): one fitted face is the frame's
        // valid face, which `inputClosed.faceFrames` counts — also while recording.
        if analysis.validFaceBox == nil, analysis.faces.count == 1, let points = analysis.faces[0].landmarks {
            analysis.validFaceBox = Box(enclosing: points)
        }
        guard !handedOver else { return }
        let (instruction, face) = instruction(for: analysis.faces, width: frame.width, height: frame.height)
        if instruction != current {
            current = instruction
            history.append((instruction, frame.pts))
            emit(FaceInfo(state: instruction.rawValue, key: instruction.key, text: strings[instruction.key]))
        }
        guard instruction == .goodPosition, let face else {
            stillAnchor = nil
            return
        }
        let oval = options.oval(frameWidth: frame.width, height: frame.height)
        if let anchor = stillAnchor,
           anchor.box.centre.distance(to: face.centre) < options.stillMovement * oval.width,
           abs(face.width / anchor.box.width - 1) < options.stillSizeChange {
            if (frame.time - anchor.time) * 1000 >= options.stillMs - 1e-6 {
                handedOver = true
                analysis.recordingCue = RecordingCue(history: history.map { ($0.instruction.rawValue, $0.pts) }, stillSince: anchor.pts)
            }
        } else {
            stillAnchor = (frame.pts, frame.time, face)
        }
    }
}

/// Guidance's go-ahead to the recording stage, with the instruction history for the session metadata.
public struct RecordingCue: Sendable {
    public var history: [(state: String, pts: Double)]
    /// When the still good position began.
    public var stillSince: Double
}

/// `faceInfo`: the instruction changed.
public struct FaceInfo: EventPayload, Equatable {
    public static let eventName = "faceInfo"
    public var state: String
    public var key: String
    public var text: String

    public static let schema = EventSchema(.frame, [
        .init("state", .oneOf(GuidanceStage.Instruction.allCases.map(\.rawValue))), .init("key", .string(pattern: "^unissey_")),
        .init("text", .string()),
    ])
    public var fields: [(String, JSONValue)] { [("state", .string(state)), ("key", .string(key)), ("text", .string(text))] }
}
