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
    /// bytes read ahead (released once it returns), else `decodeWhole` told whether a smaller
    /// source will do (the decoder reads the file itself).
    public func decode(
        _ file: ImageFile, fitting box: PixelSize, decodeRead: ([UInt8]) -> DecodeResult, decodeWhole: (_ smallerSuffices: Bool) -> DecodeResult
    ) -> DecodeResult {
        let smallerSuffices = speed?.smallerSuffices(for: box) == true
        var local = self.local
        local?.smallerSuffices = smallerSuffices
        if let cached = local?.fromDiskCache(file, fitting: box.limitedToMaxSide, usingLibraries: false) { return cached }
        if let mount = ReadWatch.shared.notAnswering(holding: file.path) { return .failed(.offline(mount)) }
        if let known = local?.exifWithoutLibraries(file, fitting: box.limitedToMaxSide) { return known }
        if let stage {
            // A link found slow while the file is read: an EXIF thumbnail in its first bytes that will do ends the read.
            var smaller: DecodeResult?
            let contents = stage.read(file) { prefix in
                guard speed?.smallerSuffices(for: box) == true, var small = self.local else { return false }
                small.smallerSuffices = true
                small.contents = prefix
                smaller = small.exifWithoutLibraries(file, fitting: box.limitedToMaxSide)
                return smaller != nil
            }
            if let smaller { return smaller }
            if let contents {
                defer { stage.release(contents.count) }
                return decodeRead(contents)
            }
        }
        return decodeWhole(smallerSuffices)
    }
}
