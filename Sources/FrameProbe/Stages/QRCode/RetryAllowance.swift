/// How much second-pass work a QR scan may do, counted in pixels scanned — work, not time, so a run's codes never
/// depend on the machine's speed or load.
///
/// Second passes (sharpened, binarised, upscaled copies) find codes the plain pass misses, at several times its
/// cost. On footage without codes they would run on every frame and find nothing; so in a video a frame's round of
/// second passes runs when it is free — the first frame's, and the one after any frame where a code was found (a
/// hard code is usually still there) — or once the plain passes have earned it: when the second passes' pixels
/// since the last code, this round's included, stay within `share` of the plain passes' pixels. A still image
/// (one frame) always gets its round.
struct RetryAllowance {
    /// A prepared copy's pixel costs about twice a plain pixel (its preparation, and zbar on every line instead of
    /// every other): at 0.1 the earned rounds add at most ~20 % to the plain pass on footage without codes — a round
    /// every ~60 frames on driving_d6 (480×480) and source_s13 (720×1080).
    static let share = 0.1

    let stillImage: Bool
    private var freeRound = true
    private var plainPixels = 0
    private var retryPixels = 0

    init(stillImage: Bool) {
        self.stillImage = stillImage
    }

    mutating func plainPassScanned(_ pixels: Int) { plainPixels += pixels }

    /// Whether this frame runs a round of second passes costing `pixels`; if so, they are counted.
    mutating func takesRound(of pixels: Int) -> Bool {
        guard stillImage || freeRound || Double(retryPixels + pixels) <= Self.share * Double(plainPixels) else { return false }
        freeRound = false
        retryPixels += pixels
        return true
    }

    mutating func codeFound() {
        freeRound = true
        plainPixels = 0
        retryPixels = 0
    }
}
