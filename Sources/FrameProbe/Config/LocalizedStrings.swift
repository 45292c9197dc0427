import Foundation

/// Unissey's string resources in English and French, overridable from an Apple `.strings` file.
public struct LocalizedStrings: Sendable {
    public enum Language: String, Sendable, CaseIterable { case en, fr }

    public let language: Language
    private var table: [String: String]
    /// Override keys that are not in the seed's string table (a typo, most likely): said once in a `notice`.
    public let unknownOverrideKeys: [String]

    /// The built-in table of `language`, with `overrides` on top. Overriding the plain
    /// `unissey_video_capture_title` sets both plural forms, unless the overrides set those too.
    public init(language: Language, overrides: [String: String] = [:]) {
        self.language = language
        var builtIn = language == .fr ? Self.french : Self.english
        let title = "unissey_video_capture_title"
        if overrides[title] != nil {
            for form in ["one", "other"] where overrides["\(title).\(form)"] == nil { builtIn["\(title).\(form)"] = nil }
        }
        unknownOverrideKeys = overrides.keys.filter { Self.english[$0] == nil }.sorted()
        table = builtIn.merging(overrides) { $1 }
    }

    /// The language `LANG` asks for (French for `fr…`, English otherwise).
    public static func languageFromEnvironment() -> Language {
        let lang = ProcessInfo.processInfo.environment["LC_ALL"] ?? ProcessInfo.processInfo.environment["LANG"] ?? ""
        return lang.lowercased().hasPrefix("fr") ? .fr : .en
    }

    public subscript(key: String) -> String { table[key] ?? key }

    /// `unissey_video_capture_title` for a duration in whole seconds, pluralised (one / other; French counts 0
    /// and 1 as one). A `.strings` file may override `unissey_video_capture_title.one` / `.other` or the plain key.
    public func captureTitle(seconds: Int) -> String {
        let one = language == .fr ? seconds <= 1 : seconds == 1
        let key = "unissey_video_capture_title"
        let format = table["\(key).\(one ? "one" : "other")"] ?? table[key] ?? key
        return format.replacingOccurrences(of: "%lld", with: String(seconds)).replacingOccurrences(of: "%d", with: String(seconds))
    }

    static let english: [String: String] = [
        "unissey_instructions_title": "Record a short video selfie",
        "unissey_instructions_subtitle": "Let's make sure no one is impersonating you.",
        "unissey_instruction_maintain_stable_position": "Look straight at the camera, and keep your face clearly visible",
        "unissey_instruction_plain_expression": "Have a plain expression",
        "unissey_instruction_well_lit_environment": "Stand in a well-lit environment",
        "unissey_continue_label": "Continue",
        "unissey_camera_permission_explanation": "The camera permission is required for this feature to be available. Please grant the permission.",
        "unissey_camera_permission_button": "Request permission",
        "unissey_video_capture_title": "The acquisition will last %d second(s).",
        "unissey_video_capture_title.one": "The acquisition will last %d second.",
        "unissey_video_capture_title.other": "The acquisition will last %d seconds.",
        "unissey_start_label": "Start",
        "unissey_instruction_position_face_oval": "Position your face in the oval",
        "unissey_instruction_multiple_faces_detected": "Multiple faces detected",
        "unissey_instruction_no_face_detected": "No face detected",
        "unissey_instruction_get_closer": "Get closer",
        "unissey_instruction_get_further_away": "Get further away",
        "unissey_instruction_move_right": "Move your face to the right",
        "unissey_instruction_move_left": "Move your face to the left",
        "unissey_instruction_move_up": "Move your face up",
        "unissey_instruction_move_down": "Move your face down",
        "unissey_instruction_do_not_move": "Perfect, don't move",
    ]

    static let french: [String: String] = [
        "unissey_instructions_title": "Enregistrez un selfie vidéo",
        "unissey_instructions_subtitle": "Cette étape permet de vérifier que personne n'usurpe votre identité",
        "unissey_instruction_maintain_stable_position": "Maintenez votre visage droit et entièrement visible",
        "unissey_instruction_plain_expression": "Conservez une expression neutre",
        "unissey_instruction_well_lit_environment": "Assurez-vous d’être suffisamment éclairé",
        "unissey_continue_label": "Continuer",
        "unissey_camera_permission_explanation": "L'utilisation de la caméra est nécessaire à cette fonctionnalité. Merci d'autoriser l'usage de la caméra.",
        "unissey_camera_permission_button": "Donner la permission",
        "unissey_video_capture_title": "L'acquisition durera %d seconde(s).",
        "unissey_video_capture_title.one": "L'acquisition durera %d seconde.",
        "unissey_video_capture_title.other": "L'acquisition durera %d secondes.",
        "unissey_start_label": "Commencer",
        "unissey_instruction_position_face_oval": "Placez-vous dans l'ovale",
        "unissey_instruction_multiple_faces_detected": "Plusieurs visages détectés",
        "unissey_instruction_no_face_detected": "Aucun visage détecté",
        "unissey_instruction_get_closer": "Rapprochez-vous",
        "unissey_instruction_get_further_away": "Reculez-vous",
        "unissey_instruction_move_right": "Plus vers la droite",
        "unissey_instruction_move_left": "Plus vers la gauche",
        "unissey_instruction_move_up": "Plus vers le haut",
        "unissey_instruction_move_down": "Plus vers le bas",
        "unissey_instruction_do_not_move": "Parfait, ne bougez plus",
    ]
}

/// Apple's `.strings` format: `"key" = "value";` pairs, `/* … */` and `// …` comments, `\"`, `\\`, `\n` escapes.
public enum StringsFile {
    public static func parse(contentsOf path: String) throws(FrameProbeError) -> [String: String] {
        guard let text = String(data: try FileContents.read(path, errorKey: "INVALID_STRINGS"), encoding: .utf8) else {
            throw FrameProbeError("INVALID_STRINGS", "\(path) is not UTF-8")
        }
        return try parse(text)
    }

    public static func parse(_ text: String) throws(FrameProbeError) -> [String: String] {
        var scanner = Scanner(Array(text.unicodeScalars))
        var pairs: [String: String] = [:]
        while true {
            try scanner.skipSpaceAndComments()
            guard !scanner.atEnd else { return pairs }
            let key = try scanner.quoted()
            try scanner.skipSpaceAndComments()
            try scanner.expect("=")
            try scanner.skipSpaceAndComments()
            let value = try scanner.quoted()
            try scanner.skipSpaceAndComments()
            try scanner.expect(";")
            pairs[key] = value
        }
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }

        func error(_ message: String) -> FrameProbeError { FrameProbeError("INVALID_STRINGS", "line \(line): \(message)") }

        mutating func advance() {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }

        mutating func skipSpaceAndComments() throws(FrameProbeError) {
            while !atEnd {
                let scalar = scalars[index]
                if scalar.properties.isWhitespace {
                    advance()
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    while !atEnd && scalars[index] != "\n" { advance() }
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    index += 2
                    while index + 1 < scalars.count && !(scalars[index] == "*" && scalars[index + 1] == "/") { advance() }
                    guard index + 1 < scalars.count else { throw error("unterminated comment") }
                    index += 2
                } else {
                    return
                }
            }
        }

        mutating func expect(_ character: Unicode.Scalar) throws(FrameProbeError) {
            guard !atEnd, scalars[index] == character else { throw error("expected '\(character)'") }
            advance()
        }

        mutating func quoted() throws(FrameProbeError) -> String {
            try expect("\"")
            var out = String.UnicodeScalarView()
            while !atEnd && scalars[index] != "\"" {
                if scalars[index] == "\\", index + 1 < scalars.count {
                    advance()
                    switch scalars[index] {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    default: out.append(scalars[index])
                    }
                } else {
                    out.append(scalars[index])
                }
                advance()
            }
            try expect("\"")
            return String(out)
        }
    }
}
