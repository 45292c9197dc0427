import Foundation
import Testing
@testable import FrameProbe

/// `frameprobe acquire` on generated footage: the close-up starts small at (0.3 W, 0.4 H), moves in between 1 s and
/// 2 s, and is centred and still from 2 s on (TestVideos/generate, `approach`).
struct AcquisitionTests {
    struct Session {
        let result: Shell.Result
        let directory: URL

        var states: [String] { result.events(named: "faceInfo").compactMap { $0.string("state") } }
        var ended: [String: Any]? { result.events(named: "videoRecordEnded").first }
        var clipPath: String? { ended?.string("videoFilePath") }
    }

    func acquire(_ clip: String, _ options: [String] = []) -> Session {
        let out = Fixtures.temporaryDirectory()
        return Session(result: Shell.frameprobe(["acquire", "--output-dir", out.path] + options + [Fixtures.path(clip)]), directory: out)
    }

    /// ffprobe's view of a clip: codec, size, frame count.
    func probe(_ path: String) throws -> (codec: String, width: Int, height: Int, frames: Int, start: Double) {
        let result = Shell.run("ffprobe -v error -count_frames -show_entries stream=codec_name,width,height,nb_read_frames,start_time -of csv=p=0 \(Shell.quote(path))")
        let fields = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        guard fields.count == 5, let width = Int(fields[1]), let height = Int(fields[2]), let start = Double(fields[3]),
              let frames = Int(fields[4]) else { throw FrameProbeError("TEST", "ffprobe said \(result.stdout) \(result.stderr)") }
        return (fields[0], width, height, frames, start)
    }

    @Test func selfieFastOnALandscape720pClip() throws {
        let session = acquire("approach-720p.mp4")
        defer { try? FileManager.default.removeItem(at: session.directory) }
        #expect(session.result.status == 0, "\(session.result.stderr)")
        let names = session.result.events.compactMap { $0.string("event") }.filter { $0 != "faceInfo" && $0 != "videoRecordProgress" }
        #expect(names == ["runStarted", "inputOpened", "cameraReady", "videoCaptureStarted", "videoRecordStarted", "videoRecordEnded", "inputClosed"])
        // Small and off-centre, then moving in from the left, then good.
        #expect(session.states.first == "TOO_FAR")
        #expect(session.states.contains("MOVE_LEFT"))
        #expect(session.states.last == "GOOD_POSITION")
        #expect(session.states.allSatisfy { ["TOO_FAR", "MOVE_LEFT", "MOVE_UP", "GOOD_POSITION"].contains($0) })
        // The face settles at 2.0 s: recording starts at least 1 s later.
        let started = try #require(session.result.events(named: "videoRecordStarted").first)
        let startPts = try #require(started.double("pts"))
        #expect(startPts >= 3.0 - 1e-6 && startPts <= 3.2, "recording started at \(startPts)")
        let progress = session.result.events(named: "videoRecordProgress").compactMap { $0.double("progress") }
        #expect(progress == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
        // The clip: 480p (the first of sd, hd), one second at 30 fps, starting at 0, H.264.
        let path = try #require(session.clipPath)
        #expect(path.hasPrefix(session.directory.path))
        let clip = try probe(path)
        #expect(clip.codec == "h264" && clip.width == 854 && clip.height == 480)
        #expect(clip.frames == 30 && clip.start == 0)
        // Its first frame is the source frame at videoRecordStarted.
        let frame = try #require(started.int("frame"))
        let psnr = Shell.run("ffmpeg -nostdin -v info -i \(Shell.quote(path)) -i \(Shell.quote(Fixtures.path("approach-720p.mp4"))) -filter_complex "
            + "\"[1]trim=start_frame=\(frame):end_frame=\(frame + 1),setpts=PTS-STARTPTS,scale=854:480[s];[0]trim=end_frame=1[c];[c][s]psnr\" -f null - 2>&1 | grep -o 'average:[0-9.inf]*'")
        let average = Double(psnr.stdout.replacingOccurrences(of: "average:", with: "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(average > 30, "PSNR of the first clip frame against the source frame \(frame): \(psnr.stdout)")
        // The session response's metadata.
        let metadata = try #require(session.ended?.string("metadata"))
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(metadata.utf8)) as? [String: Any])
        #expect(fields["preset"] as? String == "selfie-fast" && fields["quality"] as? String == "sd")
        #expect(fields["resolution"] as? String == "854x480" && fields["sourceResolution"] as? String == "1280x720")
        #expect(abs((fields["sourceStartPts"] as? Double ?? 0) - startPts) < 1e-6)
        #expect((fields["guidance"] as? [String: Any])?["instructions"] as? [Any] != nil)
        #expect(((fields["face"] as? [String: Any])?["framesWithFace"] as? Int) == 30)
        let validation = Shell.validateAgainstSchema(session.result.stdout)
        #expect(validation.status == 0, "\(validation.stdout)")
    }

    @Test(arguments: [
        ("approach-720p-portrait.mp4", "selfie-fast", 480, 854, 30),
        ("approach-1080p.mp4", "selfie-substantial", 1280, 720, 90),
        ("approach-1080p-portrait.mp4", "selfie-substantial", 720, 1280, 90),
    ])
    func presetQualityAndDuration(clip: String, preset: String, width: Int, height: Int, frames: Int) throws {
        let session = acquire(clip, ["--preset", preset])
        defer { try? FileManager.default.removeItem(at: session.directory) }
        #expect(session.result.status == 0, "\(session.result.stdout.suffix(500))")
        let probed = try probe(try #require(session.clipPath))
        #expect(probed.width == width && probed.height == height && probed.frames == frames)
    }

    @Test func sessionConfigDurationAndUIKeys() throws {
        let session = acquire("approach-720p.mp4", ["--session-config", try writeTemporary("session.json",
            #"{"recordingConfig": {"recordingDurationMs": 2000, "qualities": ["hd", "sd"]}, "uiConfig": {"showInstructions": false}}"#)])
        defer { try? FileManager.default.removeItem(at: session.directory) }
        #expect(session.result.status == 0)
        let probed = try probe(try #require(session.clipPath))
        #expect(probed.frames == 60 && probed.height == 720)
        let notices = session.result.events(named: "notice")
        #expect(notices.count == 1 && notices.first?.string("key") == "UI_CONFIG_NOT_APPLICABLE")
        #expect(session.result.events(named: "cameraReady").first?.string("title") == "The acquisition will last 2 seconds.")
    }

    @Test func unknownSessionConfigKeyIsAnError() throws {
        let path = try writeTemporary("bad.json", #"{"recordingConfig": {"recordingDuration": 2000}}"#)
        let result = Shell.frameprobe(["acquire", "--session-config", path, Fixtures.path("approach-720p.mp4")])
        #expect(result.status == 2)
        #expect(result.events(named: "error").first?.string("key") == "INVALID_SESSION_CONFIG")
        #expect(result.stderr.contains("did you mean 'recordingDurationMs'"))
    }

    /// No quality of the preset fits a 640×360 input: guidance still runs, a notice says at once that there will be
    /// no clip, and the session ends with NO_AVAILABLE_QUALITY (this 3 s clip ends before the settled face has been
    /// still for 1 s; `RealGuidanceTests` has a small selfie that gets the go-ahead).
    @Test func tooSmallASourceIsGuidedButNotRecorded() throws {
        let session = acquire("approach-360p.mp4", ["--preset", "selfie-substantial"])
        #expect(session.result.status == 1)
        #expect(session.result.events(named: "cameraReady").first?["quality"] is NSNull)
        #expect(session.result.events(named: "notice").first?.string("key") == "NO_AVAILABLE_QUALITY")
        #expect(session.states.first == "TOO_FAR" && session.states.last == "GOOD_POSITION", "\(session.states)")
        let ended = try #require(session.ended)
        let error = try #require(ended["error"] as? [String: Any])
        #expect(error["key"] as? String == "NO_AVAILABLE_QUALITY")
        #expect((error["message"] as? String)?.contains("640×360") == true)
        #expect(session.result.events(named: "videoRecordStarted").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: session.directory.path).isEmpty)
    }

    @Test func twoFacesAreMultipleFaces() {
        let session = acquire("group-720p.mp4")
        #expect(session.states == ["MULTIPLE_FACES"])
        #expect(session.result.status == 1)
    }

    /// The settled face keeps swaying (±15 % of the oval width at 1.5 Hz): never still, no clip.
    @Test func aFaceThatNeverHoldsStillRecordsNothing() throws {
        let session = acquire("restless-720p.mp4")
        defer { try? FileManager.default.removeItem(at: session.directory) }
        #expect(session.result.status == 1)
        #expect((session.ended?["error"] as? [String: Any])?["key"] as? String == "FACE_NEVER_STABLE")
        #expect(session.result.events(named: "videoRecordStarted").isEmpty)
        let left = FileManager.default.enumerator(atPath: session.directory.path)?.allObjects as? [String] ?? []
        #expect(left.filter { $0.hasSuffix("selfie.mp4") || $0.hasSuffix(".tmp") }.isEmpty, "\(left)")
        #expect(Shell.validateAgainstSchema(session.result.stdout).status == 0)
    }

    /// The 720p clip is 5 s long and the face is still from 2 s: a 4 s recording cannot finish: INPUT_ENDED, no file.
    @Test func inputEndingDuringTheRecording() throws {
        let session = acquire("approach-720p.mp4", ["--session-config", try writeTemporary("long.json", #"{"recordingConfig": {"recordingDurationMs": 4000}}"#)])
        defer { try? FileManager.default.removeItem(at: session.directory) }
        #expect(session.result.status == 1)
        #expect((session.ended?["error"] as? [String: Any])?["key"] as? String == "INPUT_ENDED")
        let left = FileManager.default.enumerator(atPath: session.directory.path)?.allObjects as? [String] ?? []
        #expect(left.filter { $0.hasSuffix("selfie.mp4") || $0.hasSuffix(".tmp") }.isEmpty, "\(left)")
    }

    @Test func frenchTextsAndStringsOverrides() throws {
        let french = acquire("approach-720p.mp4", ["--lang", "fr"])
        defer { try? FileManager.default.removeItem(at: french.directory) }
        let texts = french.result.events(named: "faceInfo").compactMap { $0.string("text") }
        #expect(texts.first == "Rapprochez-vous" && texts.contains("Plus vers la gauche") && texts.last == "Parfait, ne bougez plus")
        #expect(french.result.events(named: "cameraReady").first?.string("title") == "L'acquisition durera 1 seconde.")
        let strings = try writeTemporary("custom.strings", """
            /* Our own wording */
            "unissey_instruction_get_closer" = "Come \\"closer\\"";
            // a line comment
            "unissey_instruction_do_not_move" = "Hold it";
            """)
        let custom = acquire("approach-720p.mp4", ["--strings", strings, "--duration", "2.5"])
        defer { try? FileManager.default.removeItem(at: custom.directory) }
        let customTexts = custom.result.events(named: "faceInfo").compactMap { $0.string("text") }
        #expect(customTexts.first == "Come \"closer\"" && customTexts.last == "Hold it")
        #expect(customTexts.contains("Move your face to the left"))
    }

    /// The same clip as a stream on standard input: the same instructions and a clip of the same size.
    @Test func acquisitionFromStandardInput() throws {
        let out = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = Shell.run("ffmpeg -nostdin -v error -i \(Shell.quote(Fixtures.path("approach-720p.mp4"))) -c copy -f nut - | $FP acquire --output-dir \(Shell.quote(out.path)) -")
        #expect(result.status == 0, "\(result.stderr)")
        let path = try #require(result.events(named: "videoRecordEnded").first?.string("videoFilePath"))
        #expect(path == out.appendingPathComponent("stdin/selfie.mp4").path)
        #expect(try probe(path).frames == 30)
    }

    func writeTemporary(_ name: String, _ text: String) throws -> String {
        let url = Fixtures.temporaryDirectory().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

/// The pieces of acquisition that need no footage.
struct AcquisitionUnitTests {
    @Test func qualitiesGiveTheShortSideWithoutUpscaling() {
        #expect(VideoQuality.sd.clipSize(forWidth: 1280, height: 720)! == (854, 480))
        #expect(VideoQuality.sd.clipSize(forWidth: 720, height: 1280)! == (480, 854))
        #expect(VideoQuality.hd.clipSize(forWidth: 1920, height: 1080)! == (1280, 720))
        #expect(VideoQuality.highest.clipSize(forWidth: 1280, height: 720)! == (1280, 720))
        #expect(VideoQuality.fhd.clipSize(forWidth: 1280, height: 720) == nil)
        #expect(AcquisitionPreset.selfieFast.qualities == [.sd, .hd] && AcquisitionPreset.selfieSubstantial.recordingDurationMs == 3000)
    }

    @Test func pluralisedTitle() {
        let english = LocalizedStrings(language: .en), french = LocalizedStrings(language: .fr)
        #expect(english.captureTitle(seconds: 1) == "The acquisition will last 1 second.")
        #expect(english.captureTitle(seconds: 3) == "The acquisition will last 3 seconds.")
        #expect(english.captureTitle(seconds: 0) == "The acquisition will last 0 seconds.")
        #expect(french.captureTitle(seconds: 0) == "L'acquisition durera 0 seconde.")
        #expect(french.captureTitle(seconds: 3) == "L'acquisition durera 3 secondes.")
    }

    /// Every key of the seed's table, in both languages, with the seed's French values.
    @Test func everySeedKeyInBothLanguages() {
        let keys = ["unissey_instructions_title", "unissey_instructions_subtitle", "unissey_instruction_maintain_stable_position",
                    "unissey_instruction_plain_expression", "unissey_instruction_well_lit_environment", "unissey_continue_label",
                    "unissey_camera_permission_explanation", "unissey_camera_permission_button", "unissey_video_capture_title",
                    "unissey_start_label", "unissey_instruction_position_face_oval", "unissey_instruction_multiple_faces_detected",
                    "unissey_instruction_no_face_detected", "unissey_instruction_get_closer", "unissey_instruction_get_further_away",
                    "unissey_instruction_move_right", "unissey_instruction_move_left", "unissey_instruction_move_up",
                    "unissey_instruction_move_down", "unissey_instruction_do_not_move"]
        let english = LocalizedStrings(language: .en), french = LocalizedStrings(language: .fr)
        for key in keys {
            #expect(english[key] != key && french[key] != key && english[key] != french[key], "\(key)")
        }
        #expect(french["unissey_instruction_get_further_away"] == "Reculez-vous")
        #expect(french["unissey_instruction_move_up"] == "Plus vers le haut")
        #expect(french["unissey_instruction_position_face_oval"] == "Placez-vous dans l'ovale")
    }

    @Test func stringsFileErrorsSayWhere() {
        #expect(throws: FrameProbeError.self) { try StringsFile.parse("\"a\" = \"b\";\n\"c\" = \"d\"") }
        let error = #expect(throws: FrameProbeError.self) { try StringsFile.parse("\"a\" = \"b\";\n\"c\" \"d\";") }
        #expect(error?.message.hasPrefix("line 2") == true, "\(error?.message ?? "no error")")
    }

    @Test func defaultOval() {
        let oval = GuidanceOptions().oval(frameWidth: 1280, height: 720)
        #expect(abs(oval.width - 324) < 1e-9 && abs(oval.height - 437.4) < 1e-9)
        #expect(abs(oval.centre.x - 640) < 1e-9 && abs(oval.centre.y - 360) < 1e-9)
        let portrait = GuidanceOptions().oval(frameWidth: 720, height: 1280)
        #expect(abs(portrait.width - 432) < 1e-9)
    }

    /// `centerTolerance` sets both axes and the per-axis keys win over it, whatever the keys' order in the file.
    @Test func centreTolerancesPerAxis() throws {
        for text in [#"{"guidance": {"centerToleranceY": 0.2, "centerTolerance": 0.1}}"#, #"{"guidance": {"centerTolerance": 0.1, "centerToleranceY": 0.2}}"#] {
            let config = try SessionConfig(json: Data(text.utf8))
            #expect(config.guidance.centerToleranceX == 0.1 && config.guidance.centerToleranceY == 0.2)
        }
        #expect(throws: FrameProbeError.self) { try SessionConfig(json: Data(#"{"guidance": {"centerToleranceX": 0}}"#.utf8)) }
    }
}
