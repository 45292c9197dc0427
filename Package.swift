// swift-tools-version:6.0
import Foundation
import PackageDescription

// Native libraries come from Debian packages (Scripts/bootstrap installs them); nothing is fetched by SwiftPM.

// dlib's HOG and the quality kernels run about 1.4x faster with AVX2/FMA (x86-64-v3: any x86 CPU since 2013).
// FRAMEPROBE_PORTABLE=1 builds for any x86-64 CPU instead.
let vectorFlags: [String] = {
    #if arch(x86_64)
    return ProcessInfo.processInfo.environment["FRAMEPROBE_PORTABLE"] == nil ? ["-march=x86-64-v3"] : []
    #else
    return []
    #endif
}()
let package = Package(
    name: "frameprobe",
    products: [
        .library(name: "FrameProbe", targets: ["FrameProbe"]),
        .executable(name: "frameprobe", targets: ["frameprobe"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        // libav*'s log messages captured (not printed) so that a failure can say why; C because it takes a va_list.
        .target(name: "CFFmpegLog", linkerSettings: [.linkedLibrary("avutil"), .linkedLibrary("avcodec")]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .target(
            name: "CVision",
            cxxSettings: [
                .unsafeFlags(["-I/usr/include/opencv4", "-O3"] + vectorFlags),
            ],
            linkerSettings: [
                .linkedLibrary("opencv_core"),
                .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_calib3d"),
                .linkedLibrary("opencv_objdetect"),
                .linkedLibrary("opencv_wechat_qrcode"),
                .linkedLibrary("ZXing"),
                .linkedLibrary("dlib"),
                .linkedLibrary("lapack"),
                .linkedLibrary("blas"),
            ]
        ),
        .target(name: "FrameProbe", dependencies: ["CFFmpeg", "CFFmpegLog", "CZBar", "CVision"]),
        .executableTarget(name: "frameprobe", dependencies: ["FrameProbe"]),
        // What both test targets share: the package's paths, the generated footage, the test-data folder, running commands.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FrameProbeTests", dependencies: ["FrameProbe", "TestSupport"]),
        // Only the library's public API (no @testable import): a library user's stages, end to end.
        .testTarget(name: "FrameProbeLibraryTests", dependencies: ["FrameProbe", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
