// swift-tools-version:6.0
import PackageDescription

// Native libraries come from Debian packages (Scripts/bootstrap installs them); nothing is fetched by SwiftPM.
let package = Package(
    name: "frameprobe",
    products: [
        .library(name: "FrameProbe", targets: ["FrameProbe"]),
        .executable(name: "frameprobe", targets: ["frameprobe"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil libavdevice",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev", "libavdevice-dev"])]
        ),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .target(
            name: "CVision",
            cxxSettings: [
                .unsafeFlags(["-I/usr/include/opencv4", "-O2"]),
            ],
            linkerSettings: [
                .linkedLibrary("opencv_core"),
                .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_imgcodecs"),
                .linkedLibrary("opencv_calib3d"),
                .linkedLibrary("opencv_objdetect"),
                .linkedLibrary("dlib"),
                .linkedLibrary("lapack"),
                .linkedLibrary("blas"),
            ]
        ),
        .target(name: "FrameProbe", dependencies: ["CFFmpeg", "CZBar", "CVision"]),
        .executableTarget(name: "frameprobe", dependencies: ["FrameProbe"]),
        .testTarget(name: "FrameProbeTests", dependencies: ["FrameProbe"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
