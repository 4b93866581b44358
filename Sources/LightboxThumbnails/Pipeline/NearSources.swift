#if canImport(Glibc)
    import Glibc
#endif

/// What every decode of the gallery tries before a decoder: the disk cache (on this machine, so it
/// answers while the file's mount does not), an offline tile when the mount is not answering, the
/// EXIF thumbnail, then the whole file read ahead (`FileReadStage`) where files are. Shared by the
/// worker pool (`--decoders process`) and the decoder in this process's threads (`--decoders
/// thread`), so both get the same reads in flight, the same slow-link choices and the same
/// offline tiles.
public struct NearSources: Sendable {
    /// Our own code with no image library: the disk cache and EXIF thumbnails.
    public var local: ThumbnailPipeline?
    /// Where files are read ahead of the decoders (a network mount); nil: decoders read them.
    public var stage: FileReadStage?
    /// Whether the photos' link is slow now, so smaller sources will do; nil: never.
    public var speed: ReadSpeed?

    public init(local: ThumbnailPipeline?, stage: FileReadStage?, speed: ReadSpeed?) {
        self.local = local
        self.stage = stage
        self.speed = speed
    }

    /// `file`'s thumbnail fitting `box`: from what is near when it can, else `decodeRead` given the
    /// file as opened and the bytes read ahead (released once it returns), else `decodeWhole`
    /// told whether a smaller source will do (the decoder reads the file itself).
    ///
    /// Where files are read ahead, the stage's open serves all: a file's EXIF thumbnail is taken
    /// from the first bytes of its whole read, and a file only listed so far (`ImageFile.isListed`,
    /// its size and time unknown) is decoded as opened, its kind as its bytes say; the picture
    /// says which file it was made of (`Thumbnail.readFile`).
    public func decode(
        _ file: ImageFile, fitting box: PixelSize, decodeRead: (ImageFile, [UInt8]) -> DecodeResult,
        decodeWhole: (ImageFile, _ smallerSuffices: Bool) -> DecodeResult
    ) -> DecodeResult {
        let smallerSuffices = speed?.smallerSuffices(for: box) == true
        var local = self.local
        local?.smallerSuffices = smallerSuffices
        var file = file
        let listed = file.isListed
        if !listed, let cached = local?.fromDiskCache(file, fitting: box.limitedToMaxSide, usingLibraries: false) { return cached }
        if let mount = ReadWatch.shared.notAnswering(holding: file.path) { return .failed(.offline(mount)) }
        if let stage {
            let outcome = stage.read(
                file,
                opened: { opened in
                    guard listed, let local else { return nil }
                    return local.fromDiskCache(opened, fitting: box.limitedToMaxSide, usingLibraries: false)?.made(of: opened)
                },
                firstBytes: { opened, prefix in
                    // The link may have been found slow since this decode began.
                    guard opened.format.traits.decoding.takesExifThumbnail, var small = self.local else { return nil }
                    small.smallerSuffices = speed?.smallerSuffices(for: box) == true
                    small.contents = prefix
                    let answer = small.exifWithoutLibraries(opened, fitting: box.limitedToMaxSide)
                    return listed ? answer?.made(of: opened) : answer
                })
            switch outcome {
            case .answered(let result): return result
            case .read(let contents, let opened):
                defer { stage.release(contents.count) }
                let result = decodeRead(opened, contents)
                return listed ? result.made(of: opened) : result
            case .left(let opened?): file = opened
            case .left(nil): break
            }
            // Its open found the mount gone (`ReadWatch.noteFailure`): the tile waits for it.
            if let mount = ReadWatch.shared.notAnswering(holding: file.path) { return .failed(.offline(mount)) }
        }
        if file.isListed {
            // Not opened by the stage: looked at here, as the scan would.
            switch Scanner.openAndClassify(file.path, keepingIn: nil, withMetadata: false) {
            case .image(let found):
                file = ImageFile(path: found.path, byteCount: found.byteCount, modified: found.modified, format: found.format, companions: file.companions)
                if let cached = local?.fromDiskCache(file, fitting: box.limitedToMaxSide, usingLibraries: false) { return cached.made(of: file) }
            case .refused(let reason): return .failed(.badFile(reason))
            case .ignored(let byteCount, _): return .failed(.badFile("\(byteCount < 0 ? "not a regular file" : "not an image"): \(file.path)"))
            }
        }
        if let known = local?.exifWithoutLibraries(file, fitting: box.limitedToMaxSide) { return listed ? known.made(of: file) : known }
        let result = Self.offlineIfGone(decodeWhole(file, smallerSuffices), file)
        return listed ? result.made(of: file) : result
    }

    /// `result`, unless it failed because `file`'s mount went away meanwhile (a look at the file
    /// says so: `ReadWatch.notAnswering(afterLookAt:)`): then the tile waits offline for the mount, not broken.
    static func offlineIfGone(_ result: DecodeResult, _ file: ImageFile) -> DecodeResult {
        guard case .failed(let failure) = result, failure.kind != .offline else { return result }
        return ReadWatch.shared.notAnswering(afterLookAt: file.path).map { .failed(.offline($0)) } ?? result
    }
}

extension DecodeResult {
    /// The result, its picture saying it was made of `file` (`Thumbnail.readFile`).
    func made(of file: ImageFile) -> DecodeResult {
        guard case .decoded(var thumbnail) = self else { return self }
        thumbnail.readFile = file
        return .decoded(thumbnail)
    }
}
