import Foundation
import Testing
@testable import FrameProbe

/// Option validation (SPEC §4 keys, exit 2), `--config`, suggestions.
struct OptionTests {
    @Test(arguments: [
        (["--capture-type", "video"], "INVALID_CAPTURE_TYPE"),
        (["--number-of-images", "-1"], "INVALID_NUMBER_OF_IMAGES"),
        (["--number-of-images", "many"], "INVALID_NUMBER_OF_IMAGES"),
        (["--time-between-images", "-5"], "INVALID_TIME_BETWEEN_IMAGES"),
        (["--output-image-width", "0"], "INVALID_OUTPUT_IMAGE_WIDTH"),
        (["--output-image-height", "9000"], "INVALID_OUTPUT_IMAGE_HEIGHT"),
        (["--sample-every", "0"], "INVALID_SAMPLE_EVERY"),
        (["--stages", "quality,facez"], "INVALID_STAGES"),
        (["--frame-qualty"], "INVALID_ARGUMENT"),
        (["--input-format", "rawvideo"], "INVALID_RAW_VIDEO"),
    ])
    func invalidOptionsExitTwoWithTheKey(arguments: [String], key: String) {
        let result = Shell.frameprobe(["analyze"] + arguments + [Fixtures.path("pattern.mp4")])
        #expect(result.status == 2)
        #expect(result.events.count == 1)
        #expect(result.events(named: "error").first?.string("key") == key)
        #expect(result.stderr.contains(key))
        #expect(result.events(named: "inputOpened").isEmpty)
    }

    @Test func unknownFlagSuggestsTheClosestOne() {
        let result = Shell.frameprobe(["analyze", "--nuber-of-images", "2", Fixtures.path("pattern.mp4")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean '--number-of-images'"))
    }

    @Test func configFileSetsOptionsAndFlagsWin() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.json")
        try Data(#"{"captureType": "frame", "numberOfImages": 2, "timeBetweenImages": 0, "outputImageWidth": 50, "outputImageHeight": 40}"#.utf8).write(to: config)
        let result = Shell.frameprobe(["analyze", "--config", config.path, "--number-of-images", "4",
                                       "--output-dir", dir.path, Fixtures.path("pattern.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.events(named: "imageCaptured").count == 4)
        #expect(result.events(named: "endCapture").first?.int("count") == 4)
    }

    @Test func unknownConfigKeyIsAnErrorWithASuggestion() throws {
        var options = AnalysisOptions()
        let specs = OptionTable.input + StageRegistry.builtIn.descriptors.flatMap(\.options)
        #expect(throws: FrameProbeError.self) { try ConfigFile.apply(["numberOfImage": .number(3)], to: &options, specs: specs) }
        do {
            try ConfigFile.apply(["numberOfImage": .number(3)], to: &options, specs: specs)
        } catch {
            #expect(error.key == "INVALID_CONFIG")
            #expect(error.message.contains("did you mean 'numberOfImages'"))
        }
        try ConfigFile.apply(["frameQuality": .bool(true), "sampleEvery": .number(3)], to: &options, specs: specs)
        #expect(options.frameQuality && options.decode.sampleEvery == 3)
    }

    @Test func stagesListsTheRegistryWithOptions() {
        let result = Shell.frameprobe(["stages"])
        #expect(result.status == 0)
        for descriptor in StageRegistry.builtIn.descriptors { #expect(result.stdout.contains("\(descriptor.name) — \(descriptor.summary)")) }
        #expect(result.stdout.contains("--number-of-images N"))
    }

    @Test func versionNamesTheNativeLibraries() {
        let result = Shell.frameprobe(["--version"])
        #expect(result.status == 0)
        for name in ["frameprobe", "FFmpeg", "OpenCV 4.", "dlib 19.", "zbar 0."] { #expect(result.stdout.contains(name)) }
    }
}
