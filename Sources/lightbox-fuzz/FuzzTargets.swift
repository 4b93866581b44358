import LightboxApp
import LightboxCodecs
import LightboxTerminal
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

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
        // The EXIF of PNG, WebP and HEIF containers, found by walking their chunks and boxes.
        for format in [ImageFormat.png, .webp, .heif] { _ = format.traits.metadata(FileBytes(bytes))?.dateTakenSeconds }
        if let metadata = ImageMetadata(parsing: bytes) {
            precondition((metadata.make?.utf8.count ?? 0) <= 64 * 3 && (metadata.lens?.utf8.count ?? 0) <= 64 * 3)
            _ = metadata.dateTakenSeconds
        }
    case .png:
        _ = PNGText.entries(in: bytes)
        _ = PNGDecoder.decode(bytes)
        if let frames = APNGDecoder.decode(bytes, fitting: PixelSize(width: 64, height: 64), pixelLimit: 1 << 22) {
            precondition(frames.pixels.count == frames.width * frames.height * 3 && frames.height % frames.frameCount == 0)
        }
    case .video:
        // The video containers' readers, on bytes as a file: whatever they claim, reads stay inside.
        let file = FileBytes(bytes)
        for format in [ImageFormat.quickTime, .matroska, .avi] {
            if let video = format.traits.metadata(file)?.video {
                precondition(video.size.map { $0.width > 0 && $0.height > 0 } ?? true)
                precondition((video.codec?.utf8.count ?? 0) <= 96)
            }
        }
    case .raw:
        // A camera RAW's directories: whatever they claim, previews found lie inside the file.
        let file = FileBytes(bytes)
        _ = CameraRaw.matches(Array(bytes.prefix(ImageFormat.sniffLength)))
        let (previews, orientation) = CameraRaw.previews(in: file)
        precondition((1...8).contains(orientation))
        for preview in previews { _ = file.bytes(at: preview.offset, count: preview.length) }
        _ = CameraRaw.metadata(file)?.dateTakenSeconds
    case .sanitizer:
        let text = DisplayText.sanitized(bytes: bytes)
        precondition(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        _ = DisplayText.truncatedMiddle(text, toWidth: size % 40)
        // Laid out, every scalar is in a cell ncurses draws whole, and shortened text fits.
        var frame = Frame(width: 64, height: 1)
        frame.write(text, x: 0, y: 0, style: .plain)
        for cell in frame.cells where !cell.isContinuation {
            let scalars = Array(cell.glyph.unicodeScalars)
            precondition(DisplayWidth.of(scalars[0]) >= 1 && scalars.count <= 5 && scalars.dropFirst().allSatisfy { DisplayWidth.of($0) == 0 })
        }
        precondition(DisplayWidth.of(DisplayText.shortened(bytes: bytes, toWidth: size % 40)) <= size % 40)
    case .input:
        // Terminal input, byte by byte as scalars (every 7th a decoded key): whatever came before,
        // once the parser gives up on what is open, a key is a key again.
        var parser = InputParser()
        for (i, byte) in bytes.enumerated() {
            let events = parser.feed(i % 7 == 6 ? .event(.key(.up)) : .character(Unicode.Scalar(byte)))
            for case .paste(let text) in events { precondition(text.unicodeScalars.count <= InputParser.pasteLimit) }
        }
        _ = parser.endOfInput()
        _ = parser.abandon()
        precondition(parser.feed(.character("q")) == [.key(.character("q"))])
    case .list:
        // A --mark-from list: every record found once, the rest kept in order.
        let separator = bytes.first ?? 10
        var set = PathSet(records: Array(bytes.dropFirst()), separator: separator)
        let records = bytes.dropFirst().split(separator: separator).map { ImagePath(bytes: Array($0)) }
        var unique: [ImagePath] = []
        var seen = Set<ImagePath>()
        for record in records where seen.insert(record).inserted { unique.append(record) }
        precondition(set.count == unique.count && set.remaining == unique)
        for record in unique.enumerated() where record.offset % 2 == 0 { precondition(set.remove(record.element)) }
        precondition(set.remaining == unique.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
    case .message:
        _ = DecodeMessage.request(from: bytes)
        _ = DecodeMessage.response(from: bytes)
    case .xmp:
        // A sidecar read and written (in lightbox-decode): whatever it holds, Exempi ends with a
        // decision or none, and what is written reads back as what was written.
        let decision = Decision(rating: Int(size % 7) - 1, labels: size % 2 == 0 ? [.red, .blue] : [])
        let (_, written) = XMPSidecar.roundTrip(bytes, writing: decision)
        if let written { precondition(XMPSidecar.roundTrip(written, writing: decision).read == decision) }
    case .index:
        // A record of the index as a damaged database may hold it: read whole or not at all, what
        // reads writes back the same, and its parts (read without the texts made) say what it says.
        if let record = IndexedMetadata(encoded: bytes) {
            let (metadata, size) = record.decoded
            let again = IndexedMetadata(encoded: IndexedMetadata(metadata: metadata, shownSize: size).encoded)
            precondition(again?.metadata == metadata && again?.shownSize == size)
            let parts = record.parts
            precondition(parts.hasMetadata == (metadata != nil) && parts.shownSize == size && parts.iso == metadata?.iso)
            precondition(parts.dateTakenSeconds(in: record.encoded) == metadata?.dateTakenSeconds)
        }
    case .jpeg:
        // Our own JPEG decoder (EXIF thumbnails, in the app's process), at its smallest and full scale.
        for box in [PixelSize(width: 1, height: 1), PixelSize(width: 4096, height: 4096)] {
            if let picture = BaselineJPEGDecoder.decode(bytes, covering: box) {
                precondition(picture.width > 0 && picture.height > 0 && picture.pixels.count == picture.width * picture.height * 3)
            }
        }
    }
    return 0
}

enum FuzzTarget: String, CaseIterable {
    case header, exif, png, video, raw, sanitizer, message, input, list, jpeg, xmp, index
    static let current: FuzzTarget = {
        guard let name = getenv("LIGHTBOX_FUZZ_TARGET"), let target = FuzzTarget(rawValue: String(cString: name)) else { return .header }
        return target
    }()
}

#if LIGHTBOX_FUZZING
    // SwiftPM links executables with `main` aliased to this symbol: hand over to libFuzzer's driver.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
    ) -> Int32

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
