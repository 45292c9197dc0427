import FrameProbe

/// frameprobe(1), in roff (man macros), generated from the command table, the stages' option rows and the events
/// they emit — the same rows as `--help` and the completions.
enum ManPage {
    static func roff() -> String {
        var page = [".TH FRAMEPROBE 1 \"\" \"frameprobe \(text(Versions.frameprobe))\" \"User Commands\"",
                    ".SH NAME", "frameprobe \\- analyse faces, image quality and QR codes in video, and gate CI on footage quality",
                    ".SH SYNOPSIS"]
        for command in CommandTable.all {
            for usage in [command.usage] + command.otherUsages {
                page += [".B frameprobe \(command.name)", usage.isEmpty ? ".br" : text(usage), ".br"]
            }
        }
        page += [".B frameprobe \\-\\-version", ".SH DESCRIPTION", text(description), ".SH COMMANDS"]
        for command in CommandTable.all {
            page += [".SS \(command.name)", paragraphs(command.description)]
            for option in command.options {
                page += [".TP", "\\fB\(flag(option.synopsis))\\fR", text(option.helpLine)]
            }
            if !command.options.isEmpty {
                page += [".TP", "\\fB\\-\\-config\\fR \\fIFILE.json\\fR", "settings as JSON (the seeds' camelCase keys); flags win"]
            }
        }
        page += [".SH EVENTS", "One JSON object per line; \\fBframeprobe schema\\fR prints their JSON Schema."]
        for (event, source) in events {
            page += [".TP", "\\fB\(event)\\fR", text(source)]
        }
        page += [".SH EXIT STATUS"]
        for (code, meaning) in exitCodes {
            page += [".TP", "\(code)", text(meaning)]
        }
        page += [".SH ENVIRONMENT"]
        for (name, meaning) in environment {
            page += [".TP", "\\fB\(name)\\fR", text(meaning)]
        }
        page += [".SH EXAMPLES"]
        for (what, command) in examples {
            page += [text(what) + ":", ".PP", ".RS", ".nf", text(command), ".fi", ".RE", ".PP"]
        }
        page += [".SH SEE ALSO", "\\fBffmpeg\\fR(1), \\fBzbarimg\\fR(1)"]
        return page.joined(separator: "\n") + "\n"
    }

    static let description = """
        frameprobe decodes any input through FFmpeg and runs every frame through stages \u{2014} face detection, \
        68-point landmarks, head pose, eyes and smile, darkness, lightness and sharpness, QR codes, region and size \
        checks, capture \u{2014} writing JSON Lines events, cropped images, guided selfie clips and CI quality reports.
        """

    /// Each event and where it comes from (the stage that emits it, or the runner).
    static var events: [(String, String)] {
        var seen: Set<String> = []
        var rows: [(String, String)] = []
        for payload in SchemaDocument.runnerPayloads where seen.insert(payload.eventName).inserted {
            rows.append((payload.eventName, runnerEvents[payload.eventName] ?? "the runner, around every input"))
        }
        for descriptor in StageRegistry.builtIn.descriptors {
            for payload in descriptor.emits where seen.insert(payload.eventName).inserted {
                rows.append((payload.eventName, "the \(descriptor.name) stage: \(descriptor.summary)"))
            }
        }
        return rows
    }

    /// What the runner's events say (the stages' say what their stage does).
    static let runnerEvents: [String: String] = [
        "inputOpened": "an input was opened: its size, frame rate, codec, pixel format, duration and rotation",
        "inputClosed": "an input ended: frames decoded and analysed, corrupt packets skipped, faces, codes and images counted",
        "skipped": "a file in a walked folder that is not media, and why",
        "error": "an input, a setting or an output failed: a key and a message; the run goes on with the other inputs",
        "notice": "something worth knowing that is not a failure (a setting that does not apply here)",
    ]

    static let exitCodes: [(Int32, String)] = [
        (ExitCode.success, "every input was analysed (and, for report, every gate passed)"),
        (ExitCode.inputFailed, "an input failed (an error event says which and why) or output could not be written; the other inputs still ran"),
        (ExitCode.invalidUsage, "invalid command line or settings; nothing was analysed"),
        (ExitCode.gateFailed, "report: a quality gate failed"),
    ]

    static let environment: [(String, String)] = [
        ("FRAMEPROBE_CACHE_DIR", "where parsed copies of dlib's models are kept between runs (empty: none); default $XDG_CACHE_HOME/frameprobe or ~/.cache/frameprobe"),
        ("FRAMEPROBE_SHAPE_PREDICTOR", "the 68-point landmark model (default /usr/share/dlib/shape_predictor_68_face_landmarks.dat)"),
        ("JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID", "the shard to take of the sorted inputs, in a Kubernetes Indexed Job or a Slurm array"),
    ]

    static let examples: [(String, String)] = [
        ("Faces in a folder of videos, as JSON Lines", "frameprobe analyze videos/ -o events.jsonl"),
        ("QR codes from a camera", "ffmpeg -f v4l2 -i /dev/video0 -f nut - | frameprobe analyze --capture-type qrcode -"),
        ("A quality gate in CI: report.xml (JUnit) and report.md, exit 3 when a gate fails",
         "frameprobe report clips/ --format junit --format markdown -o report --gate 'faceFrameRatio>=0.9' --gate 'total.blurredRatio<=0.1'"),
        ("A guided selfie clip", "frameprobe acquire selfie.mov --preset selfie-fast --output-dir out"),
    ]

    /// Text for roff: backslashes escaped, hyphens as minus signs, other than ASCII as Unicode glyph escapes
    /// (groff reads ASCII), no line starting with a control character.
    static func text(_ text: String) -> String {
        var escaped = ""
        for scalar in text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-").unicodeScalars {
            if scalar.isASCII {
                escaped.unicodeScalars.append(scalar)
            } else {
                escaped += "\\[u" + String(String(scalar.value, radix: 16, uppercase: true).reversed()).padding(toLength: 4, withPad: "0", startingAt: 0).reversed() + "]"
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    /// An option's synopsis (`-o, --output FILE`): the flags as they are, the value placeholder italic.
    static func flag(_ synopsis: String) -> String {
        guard let space = synopsis.lastIndex(of: " "), synopsis[synopsis.index(after: space)...].first != "-" else { return text(synopsis) }
        return text(String(synopsis[..<space])) + " \\fI" + text(String(synopsis[synopsis.index(after: space)...])) + "\\fR"
    }

    /// A command's description: its blank-line paragraphs as .PP paragraphs.
    static func paragraphs(_ description: String) -> String {
        description.components(separatedBy: "\n\n").map { text($0) }.joined(separator: "\n.PP\n")
    }
}
