import CFFmpeg
import CVision
import CZBar

/// frameprobe's version and the versions of the native libraries it runs on.
public enum Versions {
    public static let frameprobe = "0.1.0"

    public static var ffmpeg: String { String(cString: av_version_info()) }
    public static var opencv: String { String(cString: cvision_opencv_version()) }
    public static var dlib: String { String(cString: cvision_dlib_version()) }
    public static var zbar: String {
        var major: UInt32 = 0, minor: UInt32 = 0, patch: UInt32 = 0
        zbar_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    /// The text of `frameprobe --version`.
    public static var summary: String {
        """
        frameprobe \(frameprobe)
        FFmpeg \(ffmpeg) (libavformat \(libraryVersion(avformat_version())), libavcodec \(libraryVersion(avcodec_version())))
        OpenCV \(opencv)
        dlib \(dlib)
        zbar \(zbar)
        """
    }

    private static func libraryVersion(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }
}
