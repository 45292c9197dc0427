import CVision
import Foundation
import Synchronization

/// dlib's and OpenCV's face models. The 68-point predictor (100 MB) is loaded once per process and shared by
/// every input (fitting is a const call); detectors are made per input.
enum FaceModels {
    /// Debian's libdlib-data installs the 68-point predictor here; FRAMEPROBE_SHAPE_PREDICTOR overrides it.
    static let shapePredictorPath = ProcessInfo.processInfo.environment["FRAMEPROBE_SHAPE_PREDICTOR"]
        ?? "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    /// Debian's opencv-data installs the cascades here. Haar's profile cascade, not LBP's: on the test-data folder's turned/
    /// (faces turned 40°–70°) Haar's finds 29 of 48 with 1 false hit, LBP's 11 with 13 false hits.
    static let profileCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_profileface.xml"

    /// Where parsed copies of dlib's models are kept between runs (~100 MB, made on first use: reading dlib's own
    /// files costs ~0.5 s per process, the copies a few milliseconds). `FRAMEPROBE_CACHE_DIR` names the folder (empty:
    /// no cache); else `$XDG_CACHE_HOME/frameprobe` (an absolute XDG_CACHE_HOME, as the XDG spec says) or
    /// `$HOME/.cache/frameprobe` when `$HOME` is an existing folder (a missing home is never created). Without a usable
    /// folder the models load from dlib's files as before.
    static let modelCacheDirectory: String? = {
        let environment = ProcessInfo.processInfo.environment
        let folder: String
        if let chosen = environment["FRAMEPROBE_CACHE_DIR"] {
            folder = chosen
        } else if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            folder = base + "/frameprobe"
        } else if let home = environment["HOME"], home.hasPrefix("/"), InputDiscovery.FileKind(Array(home.utf8)) == .directory {
            folder = home + "/.cache/frameprobe"
        } else {
            return nil
        }
        guard !folder.isEmpty, (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
              FileManager.default.isWritableFile(atPath: folder), isSafeForCache(folder) else { return nil }
        return folder
    }()

    /// A folder others can write to could have files swapped under the cache (as ssh refuses such key folders):
    /// it is used only when it is ours (or root's) and, if group or others may write to it, sticky (like /tmp).
    static func isSafeForCache(_ folder: String) -> Bool {
        var status = stat()
        guard stat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return false }
        let owner = status.st_uid
        guard owner == getuid() || owner == 0 else { return false }
        let writableByOthers = status.st_mode & (S_IWGRP | S_IWOTH) != 0
        return !writableByOthers || status.st_mode & S_ISVTX != 0
    }

    /// Tells the shim the cache folder, once, before the first model loads.
    private static let cacheConfigured: Void = { cvision_set_model_cache(modelCacheDirectory) }()

    /// The predictor, once loaded; held while it loads, so that concurrent inputs wait for one load.
    private static let loadedLandmarker = Mutex<Landmarker?>(nil)

    final class Detector: @unchecked Sendable {  // wraps dlib's detector and OpenCV's cascade; one stage uses it on one thread
        let handle: OpaquePointer
        private var profileCascade: OpaquePointer??
        init(handle: OpaquePointer) { self.handle = handle }
        deinit {
            cvision_face_detector_free(handle)
            if let profileCascade { cvision_profile_detector_free(profileCascade) }
        }

        /// OpenCV's profile cascades, loaded the first time a scan needs them; nil without opencv-data (they only
        /// add turned faces, frontal detection works without them).
        var profiles: OpaquePointer? {
            if let profileCascade { return profileCascade }
            let loaded = cvision_profile_detector_create(FaceModels.profileCascadePath)
            profileCascade = .some(loaded)
            return loaded
        }
    }

    final class Landmarker: @unchecked Sendable {  // wraps dlib's predictor; fitting is a const call, shared by every input
        let handle: OpaquePointer
        init(handle: OpaquePointer) { self.handle = handle }
        deinit { cvision_landmarker_free(handle) }
    }

    /// A new detector for one input (detectors are not shared: a detection uses memory inside the detector).
    static func detector() throws(FrameProbeError) -> Detector {
        _ = cacheConfigured
        guard let handle = cvision_face_detector_create() else {
            throw FrameProbeError("MODEL_UNAVAILABLE", "dlib's face detector could not be built: \(String(cString: cvision_last_error()))")
        }
        return Detector(handle: handle)
    }

    /// Starts loading the landmark model in the background (it takes ~0.6 s), so that it overlaps with opening
    /// the input and the first detections; `landmarker()` then waits for it.
    static func preloadLandmarker() {
        _ = Worker(name: "frameprobe.models") { _ = try? landmarker() }
    }

    static func landmarker() throws(FrameProbeError) -> Landmarker {
        try loadedLandmarker.withLock { (cache: inout Landmarker?) throws(FrameProbeError) -> Landmarker in
            if let cache { return cache }
            guard FileManager.default.isReadableFile(atPath: shapePredictorPath) else {
                throw FrameProbeError("MODEL_MISSING", "the 68-point landmark model \(shapePredictorPath) is missing: install Debian's libdlib-data (Scripts/bootstrap does)")
            }
            _ = cacheConfigured
            guard let handle = cvision_landmarker_create(shapePredictorPath) else {
                throw FrameProbeError("MODEL_MISSING", "cannot load \(shapePredictorPath): \(String(cString: cvision_last_error()))")
            }
            let made = Landmarker(handle: handle)
            cache = made
            return made
        }
    }
}
