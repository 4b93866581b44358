/// The pipeline run in the calling thread, this process's (`--decoders thread`), with what the
/// worker pool does around it: the disk cache and EXIF thumbnails first, offline tiles while the
/// file's mount is not answering, and on a network mount files read ahead by the stage and no
/// more decodes at once than it allows (`NearSources`, `FileReadStage`).
public struct ThreadedPipeline: ThumbnailDecoding, CacheWarming {
    public var pipeline: ThumbnailPipeline
    public var near: NearSources

    /// `pipeline` in this process, its files read ahead by `stage` and its link measured by `speed`.
    public init(_ pipeline: ThumbnailPipeline, stage: FileReadStage?, speed: ReadSpeed?) {
        self.pipeline = pipeline
        var local = pipeline
        local.codecs = nil
        self.near = NearSources(local: local, stage: stage, speed: speed)
    }

    public func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        near.decode(
            file, fitting: box,
            decodeRead: { opened, contents in
                var read = pipeline
                read.contents = contents
                return decoding { read.decode(opened, fitting: box) }
            },
            decodeWhole: { found, smallerSuffices in
                var whole = pipeline
                whole.smallerSuffices = smallerSuffices
                return decoding { whole.decode(found, fitting: box) }
            })
    }

    public func decodeFrames(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        decoding { pipeline.decodeFrames(file, fitting: box) }
    }

    public func decodeRegion(_ file: ImageFile, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        decoding { pipeline.decodeRegion(file, region: region, fitting: box) }
    }

    public func decodeClip(_ file: ImageFile, from start: Int, fitting box: PixelSize) -> DecodeResult {
        decoding { pipeline.decodeClip(file, from: start, fitting: box) }
    }

    public func warm(_ file: ImageFile, size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome {
        pipeline.warm(file, size: size)
    }

    /// `body` holding one of the stage's decoders, when there is a stage: no more decodes at once than cores.
    func decoding(_ body: () -> DecodeResult) -> DecodeResult {
        guard let stage = near.stage else { return body() }
        return stage.withDecoder(body)
    }
}
