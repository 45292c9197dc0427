import Foundation

/// What a report keeps from one event — the same whether the event arrived live (typed) or was read back from an
/// `analyze` JSON Lines file. Labels are taken as the event gave them, never recomputed from rounded numbers.
enum ReportFact {
    case inputOpened(fps: Double)
    case skipped
    case frameQuality(frame: Int, pts: Double, darkness: Double, lightness: Double, sharpness: Double,
                      tooDark: Bool, tooLight: Bool, blurred: Bool)
    /// The head-pose labels by axis (`vertical`, `horizontal`, `tilt`; "none" between classes), when there is a pose.
    /// `quality`: the face image quality component scores and `unifiedQuality`, when measured.
    case face(frame: Int, pts: Double, count: Int, angles: (x: Double?, y: Double?, z: Double?), labels: [String: String]?,
              quality: [String: Double]?)
    /// The valid face was lost (`faceUndetected`).
    case faceLost(frame: Int, pts: Double)
    case code(content: String, pts: Double)
    case acquisition(AcquisitionCheck)
    case thumbnail(jpegBase64: String)
    case failure(key: String, message: String)
    case closed(framesDecoded: Int, framesAnalysed: Int, elapsedSeconds: Double?, interrupted: Bool)
    /// An event read back with a number that cannot be right: the input fails with `INVALID_REPORT`, naming it.
    case outOfRange(event: String, field: String)
    /// Any other event: it only marks which input is current.
    case other

    /// Fields of read-back events that count things: whole numbers in 0…InputReport.countLimit.
    static let countFields: Set<String> = ["frame", "framesDecoded", "framesAnalysed", "corruptPacketsSkipped", "faceFrames",
                                           "anyFaceFrames", "qrCodes", "imagesCaptured", "trackingId"]
    /// The largest magnitude of any other number read back (a media time of 30 000 years, a score, a coordinate).
    static let magnitudeLimit = 1e12

    /// The facts of a live event.
    init(_ event: Event) {
        let frame = event.frame ?? 0, pts = event.pts ?? 0
        switch event.payload {
        case let opened as InputOpened: self = .inputOpened(fps: opened.info.fps)
        case is FaceUndetected: self = .faceLost(frame: frame, pts: pts)
        case is InputSkipped: self = .skipped
        case let quality as FrameQuality:
            let scores = quality.scores
            self = .frameQuality(frame: frame, pts: pts, darkness: scores.darkness, lightness: scores.lightness,
                                 sharpness: scores.sharpness, tooDark: scores.isTooDark, tooLight: scores.isTooLight,
                                 blurred: scores.isBlurred)
        case let detected as FaceDetected:
            let pose = detected.face.headPose
            self = .face(frame: frame, pts: pts, count: detected.faceCount, angles: (pose?.x, pose?.y, pose?.z),
                         labels: pose.map { pose in
                             ["vertical": pose.verticalLabel ?? "none", "horizontal": pose.horizontalLabel ?? "none",
                              "tilt": pose.tiltLabel ?? "none"]
                         },
                         quality: detected.face.imageQuality.map { measured in
                             Dictionary(uniqueKeysWithValues: measured.components.map { ($0.name, Double($0.value.score)) }
                                        + [("unifiedQuality", Double(measured.unifiedQuality))])
                         })
        case let scanned as QRCodeScanned: self = .code(content: scanned.code.reportedContent, pts: pts)
        case let check as AcquisitionCheck: self = .acquisition(check)
        case let thumbnail as FaceThumbnail: self = .thumbnail(jpegBase64: thumbnail.jpegBase64)
        case let failure as Failure: self = .failure(key: failure.error.key, message: failure.error.message)
        case let closed as InputClosed:
            self = .closed(framesDecoded: closed.summary.framesDecoded, framesAnalysed: closed.summary.framesAnalysed,
                           elapsedSeconds: closed.summary.elapsedSeconds, interrupted: closed.summary.interrupted)
        default: self = .other
        }
    }

    /// The facts of an event read back from JSON Lines (`name` is its `event` field); `other` when a field the
    /// report needs is missing.
    init(name: String, fields: [String: Any]) {
        // The first implausible field by name (named the same every run), without sorting every event's fields.
        let implausible = fields.compactMap { key, value -> String? in
            guard let number = (value as? NSNumber)?.doubleValue else { return nil }  // (booleans too: 0 and 1 fit every range)
            let plausible = Self.countFields.contains(key)
                ? number.rounded() == number && (0...Double(InputReport.countLimit)).contains(number)
                : number.isFinite && abs(number) <= Self.magnitudeLimit
            return plausible ? nil : key
        }.min()
        if let field = implausible { self = .outOfRange(event: name, field: field); return }
        func number(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
        func integer(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
        let frame = integer("frame"), pts = number("pts") ?? 0
        switch name {
        case InputOpened.eventName: self = .inputOpened(fps: number("fps") ?? 0)
        case FaceUndetected.eventName:
            guard let frame else { self = .other; return }
            self = .faceLost(frame: frame, pts: pts)
        case InputSkipped.eventName: self = .skipped
        case FrameQuality.eventName:
            guard let frame, let d = number("darkness"), let l = number("lightness"), let s = number("sharpness") else { self = .other; return }
            self = .frameQuality(frame: frame, pts: pts, darkness: d, lightness: l, sharpness: s,
                                 tooDark: fields["darknessLabel"] as? String == "Too dark",
                                 tooLight: fields["lightnessLabel"] as? String == "Too light",
                                 blurred: fields["sharpnessLabel"] as? String == "Blurred")
        case FaceDetected.eventName:
            guard let frame else { self = .other; return }
            let pose = fields["headPose"] as? [String: Any]
            self = .face(frame: frame, pts: pts, count: integer("faceCount") ?? 1,
                         angles: (number("headEulerAngleX"), number("headEulerAngleY"), number("headEulerAngleZ")),
                         labels: pose.map { pose in
                             Dictionary(uniqueKeysWithValues: ["vertical", "horizontal", "tilt"].map { ($0, pose[$0] as? String ?? "none") })
                         },
                         quality: (fields["faceImageQuality"] as? [String: Any]).map { measured in
                             measured.compactMapValues { (($0 as? [String: Any])?["score"] as? NSNumber)?.doubleValue }
                         })
        case QRCodeScanned.eventName:
            guard let content = fields["content"] as? String else { self = .other; return }
            self = .code(content: content, pts: pts)
        case AcquisitionCheck.eventName:
            self = .acquisition(AcquisitionCheck(succeeded: fields["succeeded"] as? Bool ?? false,
                                                 recordStartPts: number("recordStartPts"), failure: fields["failure"] as? String))
        case FaceThumbnail.eventName:
            guard let jpeg = fields["jpegBase64"] as? String else { self = .other; return }
            self = .thumbnail(jpegBase64: jpeg)
        case Failure.eventName:
            self = .failure(key: fields["key"] as? String ?? "ERROR", message: fields["message"] as? String ?? "")
        case InputClosed.eventName:
            self = .closed(framesDecoded: integer("framesDecoded") ?? 0, framesAnalysed: integer("framesAnalysed") ?? 0,
                           elapsedSeconds: number("elapsedSeconds"), interrupted: fields["interrupted"] as? Bool ?? false)
        default: self = .other
        }
    }
}
