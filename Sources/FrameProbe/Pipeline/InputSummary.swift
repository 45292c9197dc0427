/// What `inputClosed` reports once an input is finished.
public struct InputSummary: Sendable, Equatable {
    public var framesDecoded = 0
    public var framesAnalysed = 0
    public var corruptPacketsSkipped = 0
    public var elapsedSeconds = 0.0
    /// Analysed frames with a valid face / QR codes reported (filled by the face and QR stages).
    public var faceFrames = 0
    /// Analysed frames in which any face was found, valid or not (cut by the frame's edge, outside the region of
    /// interest, too small or too large): with `faceFrames`, it tells "no face" from "faces the rules refused".
    public var anyFaceFrames = 0
    public var qrCodes = 0
    public var imagesCaptured = 0
    /// The run was stopped (a signal, or an output that failed) before this input's end: what came before it is
    /// whole, but the input was not analysed to its end.
    public var interrupted = false

    public init() {}
}
