import LightboxCodecs
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

// lightbox-decode: Lightbox's decoder process with the image libraries (libvips, LibRaw,
// FFmpeg), started by the app for the files its own code cannot read. It serves requests on
// standard input and output; a crash or hang here costs the app one file.
let arguments: [[UInt8]] = (1..<Int(CommandLine.argc)).map { i in
    guard let pointer = CommandLine.unsafeArgv[i] else { return [] }
    return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
}

func say(_ text: String, to fd: Int32) { _ = FileReader.writeAll(Array(text.utf8), to: fd) }

switch arguments.map({ String(decoding: $0, as: UTF8.self) }) {
case ["--version"]:
    say("lightbox-decode \(lightboxVersion)\n", to: 1)
case ["--supported-formats"]:
    // The kinds of file this build's libvips loads (WebP, TIFF, HEIF and JPEG XL depend on it).
    let formats = VipsDecoder.supportedFormats.map(\.rawValue).sorted()
    // Then the files of libvips the answer depends on (loaded by now), for the app that keeps it (`DecoderFormats`).
    let uses = DecoderFormats.libvipsFiles(maps: DecoderFormats.ownMaps()).map { "uses " + $0.description }
    say((formats + uses).joined(separator: "\n") + "\n", to: 1)
default:
    // Lightbox speaks to it through a socket; on a terminal it is someone trying it by hand.
    guard isatty(0) == 0, let settings = DecoderSettings(parsing: arguments) else {
        say("lightbox-decode: started by lightbox to decode images; not meant to be run by hand\n", to: 2)
        exit(2)
    }
    settings.serve(codecs: LinkedCodecs())
}
