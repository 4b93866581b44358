extension ThumbnailPipeline {
    /// A camera RAW's thumbnail from its embedded JPEG previews and their own EXIF thumbnails: the smallest that covers the
    /// box (decoded at the smallest DCT scale that does), else the largest; turned by the RAW's
    /// own orientation (the embedded JPEG usually carries none). The sensor data is read only
    /// when there is no usable preview: then LibRaw develops it at half size (counted apart).
    /// With `enough` (a slow link), the smallest that covers it will do, read instead of a larger
    /// one (then `isSmaller`, and counted).
    func rawPreview(_ file: ImageFile, fitting box: PixelSize, enough: PixelSize? = nil) -> (result: DecodeResult, isSmaller: Bool) {
        var isSmaller = false
        let outcome = FileBytes.reading(file.path) { bytes -> DecodeResult in
            let (sized, orientation) = CameraRaw.sizedPreviews(in: bytes, byteLimit: limits.byteLimit)
            let usable = sized.filter { ImageHeader.pixelCount($0.width, $0.height) <= limits.pixelLimit }
            guard !usable.isEmpty else {
                if !sized.isEmpty { return .failed(.tooLarge(sized[0].width, sized[0].height, limit: limits.pixelLimit)) }
                return develop(file, fitting: box)
            }
            func covers(_ candidate: CameraRaw.SizedPreview, _ box: PixelSize) -> Bool {
                let needed = Self.neededStoredSize(width: candidate.width, height: candidate.height, orientation: orientation, box: box)
                return candidate.width >= needed.width && candidate.height >= needed.height
            }
            let byArea = { (a: CameraRaw.SizedPreview, b: CameraRaw.SizedPreview) in
                a.width * a.height < b.width * b.height
            }
            func choice(for box: PixelSize) -> CameraRaw.SizedPreview {
                usable.filter { covers($0, box) }.min(by: byArea) ?? usable.max(by: byArea)!
            }
            let chosen = choice(for: enough ?? box)
            isSmaller = enough != nil && byArea(chosen, choice(for: box))
            guard let data = bytes.bytes(at: chosen.preview.offset, count: chosen.preview.length) else {
                return .failed(.badFile("the RAW's preview runs past its end"))
            }
            let result = dctDecode(data, size: (chosen.width, chosen.height), orientation: orientation, fitting: box)
            if case .decoded = result {
                statistics.record(.rawPreview)
                if isSmaller { statistics.record(.smaller) }
            }
            return result
        }
        switch outcome {
        case .success(let result): return (result, isSmaller)
        case .failure(let error): return (.failed(.unreadable(error.message)), false)
        }
    }

    /// The slow path: the sensor data developed by LibRaw at half size.
    func develop(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        guard let codecs else { return .failed(.needsCodecs) }
        let result = codecs.develop(file, fitting: box, limits: limits)
        if case .decoded = result { statistics.record(.rawDeveloped) }
        return result
    }

    /// The part `region` of the photo (upright) at full resolution, fitted to `box`: a JPEG's, or
    /// a RAW's largest embedded preview's, blocks cut out and decoded by libjpeg-turbo; other
    /// kinds by libvips (which reads only what the part needs where the format allows). Never
    /// from or to the disk cache, which keeps whole pictures.
    public func decodeRegion(_ file: ImageFile, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        switch file.format.traits.decoding {
        case .video: return .failed(.refused("a video's frame is decoded whole"))
        case .embeddedPreview:
            let outcome = FileBytes.reading(file.path) { bytes -> DecodeResult in
                let (sized, orientation) = CameraRaw.sizedPreviews(in: bytes, byteLimit: limits.byteLimit)
                let usable = sized.filter { ImageHeader.pixelCount($0.width, $0.height) <= limits.pixelLimit }
                guard let largest = usable.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
                    return .failed(.refused("no embedded preview to decode a part of"))
                }
                guard let data = bytes.bytes(at: largest.preview.offset, count: largest.preview.length) else {
                    return .failed(.badFile("the RAW's preview runs past its end"))
                }
                return regionDecode(data, size: (largest.width, largest.height), orientation: orientation, region: region, fitting: box)
            }
            switch outcome {
            case .success(let result): return result
            case .failure(let error): return .failed(.unreadable(error.message))
            }
        case .dctScaled, .vips: break
        }
        let data: [UInt8]
        switch read(file) {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failed(.unreadable(error.message))
        }
        if let refusal = headerRefusal(data, format: file.format) { return .failed(refusal) }
        if file.format.traits.decoding == .dctScaled, let header = JPEGHeader(parsing: data), let size = TurboJPEGDecoder.size(of: data) {
            return regionDecode(data, size: size, orientation: header.orientation, region: region, fitting: box)
        }
        guard let codecs else { return .failed(.needsCodecs) }
        let result = codecs.decodeRegion(data: data, region: region, fitting: box, limits: limits)
        if case .decoded = result { statistics.record(.vips) }
        return result
    }

    /// A JPEG's part: the region found on the stored picture, cut out, decoded, then oriented.
    func regionDecode(_ data: [UInt8], size: (width: Int, height: Int), orientation: Int, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        let rect = region.source(underOrientation: orientation).pixels(width: size.width, height: size.height)
        let needed = Self.neededStoredSize(width: rect.width, height: rect.height, orientation: orientation, box: box)
        let result = TurboJPEGDecoder.decode(data, width: size.width, height: size.height, part: rect, covering: needed, pixelLimit: limits.pixelLimit)
        guard case .decoded(let part) = result else { return result }
        statistics.record(.dct)
        let upright = part.oriented(orientation)
        // The region's edges rounded out to whole pixels: a pixel or two over the box is cut, not resampled.
        if upright.width <= box.width + 2 && upright.height <= box.height + 2 {
            return .decoded(upright.cropped(x: 0, y: 0, width: min(box.width, upright.width), height: min(box.height, upright.height)))
        }
        return .decoded(upright.downscaled(toFit: box))
    }
}
