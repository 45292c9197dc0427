import Testing

/// `--frame-quality` on generated clips with known properties.
struct FootageQualityTests {
    func frameQuality(_ clip: String) -> [[String: Any]] {
        let result = Shell.frameprobe(["analyze", "--capture-type", "none", "--frame-quality", "--sample-every", "10", Fixtures.path(clip)])
        #expect(result.status == 0, "\(result.stderr)")
        return result.events(named: "frameQuality")
    }

    @Test func darkenedClipIsTooDarkAndCleanOneIsNot() {
        let dark = frameQuality("dark.mp4"), clean = frameQuality("clean.mp4")
        #expect(dark.count == 9 && clean.count == 9)
        for event in dark {
            #expect(event.double("darkness") ?? .nan > 0.7)
            #expect(event.string("darknessLabel") == "Too dark")
        }
        for event in clean {
            #expect(event.double("darkness") ?? .nan < 0.3)
            #expect(event.double("lightness") ?? .nan < 0.3)
            #expect(event.string("darknessLabel") == "Acceptable")
        }
    }

    @Test func overexposedClipIsTooLight() {
        let bright = frameQuality("bright.mp4")
        #expect(bright.count == 9)
        for event in bright {
            #expect(event.double("lightness") ?? .nan > 0.65)
            #expect(event.string("lightnessLabel") == "Too light")
        }
    }

    @Test func blurredClipFallsBelowTheBlurLimitWhileItsSourceIsAbove() {
        let blurred = frameQuality("blurred.mp4"), sharp = frameQuality("clean.mp4")
        #expect(blurred.count == 9 && sharp.count == 9)
        for event in blurred {
            #expect(event.double("sharpness") ?? .nan < 0.1591)
            #expect(event.string("sharpnessLabel") == "Blurred")
        }
        for event in sharp {
            #expect(event.double("sharpness") ?? .nan > 0.1591)
            #expect(event.string("sharpnessLabel") == "Acceptable")
        }
    }
}
