import CVision
import CZBar
import Foundation

/// One zbar image scanner, configured once per input with the symbologies asked for; scans gray images.
final class BarcodeScanner: @unchecked Sendable {  // wraps a zbar scanner handle; one stage uses it on one thread
    /// The symbologies `--symbologies` accepts, with zbar's identifiers.
    static let symbologies: [(name: String, zbar: zbar_symbol_type_t)] = [
        ("qrcode", ZBAR_QRCODE), ("ean13", ZBAR_EAN13), ("ean8", ZBAR_EAN8), ("upca", ZBAR_UPCA), ("upce", ZBAR_UPCE),
        ("isbn10", ZBAR_ISBN10), ("isbn13", ZBAR_ISBN13), ("code128", ZBAR_CODE128), ("code39", ZBAR_CODE39),
        ("code93", ZBAR_CODE93), ("i25", ZBAR_I25), ("codabar", ZBAR_CODABAR), ("databar", ZBAR_DATABAR),
        ("databar-exp", ZBAR_DATABAR_EXP), ("pdf417", ZBAR_PDF417),
    ]

    private let scanner: OpaquePointer

    init(symbologies: [String]) throws(FrameProbeError) {
        guard let scanner = zbar_image_scanner_create() else {
            throw FrameProbeError("SCANNER_UNAVAILABLE", "zbar could not create an image scanner")
        }
        self.scanner = scanner
        // Everything off, then only what was asked for; payloads as raw bytes (binary QR codes stay intact).
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for name in symbologies {
            guard let symbology = Self.symbologies.first(where: { $0.name == name }) else {
                throw FrameProbeError("INVALID_SYMBOLOGIES", "unknown symbology '\(name)'")
            }
            zbar_image_scanner_set_config(scanner, symbology.zbar, ZBAR_CFG_ENABLE, 1)
            zbar_image_scanner_set_config(scanner, symbology.zbar, ZBAR_CFG_BINARY, 1)
        }

    }

    deinit { zbar_image_scanner_destroy(scanner) }

    /// Every code in a gray image; `scale` maps the image's coordinates back to the source frame.
    ///
    /// `lineStep` 2 scans every other row and column: half the time, and on the test footage (rotated, 60-px,
    /// blurred, low-contrast codes) the same codes; the second passes scan every line.
    func scan(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, scale: Double = 1, lineStep: Int32 = 1) -> [BarcodeObservation] {
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, lineStep)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, lineStep)
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, 0x3030_3859) // fourcc "Y800": 8-bit gray
        zbar_image_set_size(image, UInt32(width), UInt32(height))
        zbar_image_set_data(image, pixels, UInt(width * height), nil)
        guard zbar_scan_image(scanner, image) > 0 else { return [] }
        var found: [BarcodeObservation] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            defer { symbol = zbar_symbol_next(current) }
            let length = Int(zbar_symbol_get_data_length(current))
            guard let data = zbar_symbol_get_data(current) else { continue }
            let payload = data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
            let corners = (0..<zbar_symbol_get_loc_size(current)).map { index in
                Point2D(x: Double(zbar_symbol_get_loc_x(current, index)) / scale, y: Double(zbar_symbol_get_loc_y(current, index)) / scale)
            }
            let type = zbar_symbol_get_type(current)
            let name = Self.symbologies.first { $0.zbar == type }?.name ?? String(cString: zbar_get_symbol_name(type)).lowercased()
            found.append(BarcodeObservation(payload: payload, polygon: corners, symbology: name))
        }
        return found
    }

    /// The pixels of a `width` × `height` frame's copy prepared by `kind` (the work a second pass costs).
    static func preparedPixels(width: Int, height: Int, _ kind: cvision_barcode_preparation) -> Int {
        var preparedWidth: Int32 = 0, preparedHeight: Int32 = 0
        cvision_barcode_prepared_size(Int32(width), Int32(height), kind, &preparedWidth, &preparedHeight)
        return Int(preparedWidth) * Int(preparedHeight)
    }

    /// Scans a prepared copy of `gray` (upscaled, sharpened or binarised).
    func scan(_ gray: GrayImage, preparedBy kind: cvision_barcode_preparation) throws(FrameProbeError) -> [BarcodeObservation] {
        var width: Int32 = 0, height: Int32 = 0
        cvision_barcode_prepared_size(Int32(gray.width), Int32(gray.height), kind, &width, &height)
        let prepared = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(width) * Int(height))
        defer { prepared.deallocate() }
        try CVisionCall.check("barcode preparation") {
            cvision_barcode_prepare(gray.pixels, Int32(gray.width), Int32(gray.height), Int32(gray.width), kind, prepared, width, height)
        }
        return scan(prepared, width: Int(width), height: Int(height), scale: Double(width) / Double(gray.width))
    }
}
