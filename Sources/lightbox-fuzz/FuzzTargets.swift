#if canImport(Glibc)
import Glibc
#endif
import LightboxTerminal
import LightboxThumbnails

// libFuzzer entry point: `make fuzz` builds this with -sanitize=fuzzer,address and runs each
// target (chosen by LIGHTBOX_FUZZ_TARGET) for a bounded time. Every parser of outside bytes is here.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch FuzzTarget.current {
    case .header:
        for format in ImageFormat.allCases { _ = ImageHeader.dimensions(of: bytes, format: format) }
        _ = ImageFormat(sniffing: bytes)
    case .exif:
        if let header = JPEGHeader(parsing: bytes), let range = header.exifThumbnail {
            precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        }
        if let metadata = ImageMetadata(parsing: bytes) {
            precondition((metadata.make?.utf8.count ?? 0) <= 64 * 3 && (metadata.lens?.utf8.count ?? 0) <= 64 * 3)
            _ = metadata.dateTakenSeconds
        }
    case .png:
        _ = PNGText.entries(in: bytes)
        _ = PNGDecoder.decode(bytes)
    case .sanitizer:
        let text = DisplayText.sanitized(bytes: bytes)
        precondition(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        _ = DisplayText.truncatedMiddle(text, toWidth: size % 40)
    case .message:
        _ = DecodeMessage.request(from: bytes)
        _ = DecodeMessage.response(from: bytes)
    }
    return 0
}

enum FuzzTarget: String, CaseIterable {
    case header, exif, png, sanitizer, message
    nonisolated(unsafe) static let current: FuzzTarget = {
        guard let name = getenv("LIGHTBOX_FUZZ_TARGET"), let target = FuzzTarget(rawValue: String(cString: name)) else { return .header }
        return target
    }()
}

#if LIGHTBOX_FUZZING
// SwiftPM links executables with `main` aliased to this symbol: hand over to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32

@_cdecl("lightbox_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector, fuzz)
}
#else
// Built without libFuzzer (plain `swift build`): replay the files given, for regressions.
@_cdecl("lightbox_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    for i in 1..<Int(argc) {
        guard let path = argv?[i], let file = fopen(path, "rb") else { continue }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        fclose(file)
        _ = bytes.withUnsafeBufferPointer { fuzz($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
    }
    return 0
}
#endif
