import LightboxApp
import LightboxThumbnails
#if canImport(Glibc)
import Glibc
#endif

let version = "0.1.0"

/// The arguments as the bytes the kernel gave, so non-UTF-8 paths stay exact.
let rawArguments: [[UInt8]] = (1..<Int(CommandLine.argc)).map { i in
    guard let pointer = CommandLine.unsafeArgv[i] else { return [] }
    return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
}

/// `folders` without the files of formats this libvips cannot load (only WebP, TIFF and HEIF
/// depend on the build; asking waits for libvips to start, so it is asked only when needed).
func supportedOnly(_ folders: [ImageFolder]) -> [ImageFolder] {
    let optional: Set<ImageFormat> = [.webp, .tiff, .heif]
    guard folders.contains(where: { $0.files.contains { optional.contains($0.format) } }) else { return folders }
    let supported = VipsDecoder.supportedFormats
    return folders.map { ImageFolder(path: $0.path, files: $0.files.filter { supported.contains($0.format) }) }
}

func main() -> Int32 {
    signal(SIGPIPE, SIG_IGN)  // a closed pipe (a reader gone, a decoder crashed) is an error to handle, not death
    let options: Options
    do {
        options = try Options.parse(rawArguments)
    } catch {
        Output.error("\(error)\nTry 'lightbox --help'.")
        return 2
    }
    if options.isDecodeWorker {
        DecodeWorker.serve(input: 0, output: 1, pipeline: options.makePipeline())
        return 0
    }
    if options.showsHelp { Output.write(Array((Options.usage + "\n").utf8)); return 0 }
    if options.showsVersion { Output.write(Array("lightbox \(version)\n".utf8)); return 0 }

    // Decoder processes start loading their libraries while we scan.
    let decoder = options.warms ? nil : options.makeDecoder(prestartsDecoders: true)
    let scan = Scanner().scan(options.paths)
    let library = Library(folders: supportedOnly(scan.folders))
    if library.isEmpty {
        for problem in scan.problems { Output.error(problem) }
        Output.error("no images found in \(options.paths.map(\.description).joined(separator: " "))")
        return scan.problems.count == options.paths.count ? 2 : 1
    }
    if options.warms {
        for problem in scan.problems { Output.error(problem) }
        return WarmSession.run(files: library.files, options: options)
    }
    if let size = options.snapshotSize {
        return SnapshotSession.run(library: library, options: options, decoder: decoder!, size: size, problems: scan.problems)
    }
    do {
        switch try InteractiveSession.run(library: library, options: options, decoder: decoder!, problems: scan.problems) {
        case .cancelled(let code):
            return code
        case .accepted(let paths):
            switch Output.encode(paths, nulSeparated: options.printsNul) {
            case .success(let bytes):
                Output.write(bytes)
                return 0
            case .failure(let error):
                Output.error(error.description)
                return 2
            }
        }
    } catch {
        Output.error("\(error)")
        return 2
    }
}

exit(main())
