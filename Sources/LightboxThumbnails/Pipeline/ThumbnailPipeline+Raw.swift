extension ThumbnailPipeline {
    /// A camera RAW's thumbnail from its embedded JPEG previews and their own EXIF thumbnails: the smallest that covers the
    /// box (decoded at the smallest DCT scale that does), else the largest; turned by the RAW's
    /// own orientation (the embedded JPEG usually carries none). The sensor data is read only
    /// when there is no usable preview: then LibRaw develops it at half size (counted apart).
    func rawPreview(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        let outcome = FileBytes.reading(file.path) { bytes -> DecodeResult in
            let (sized, orientation) = CameraRaw.sizedPreviews(in: bytes, byteLimit: limits.byteLimit)
            let usable = sized.filter { ImageHeader.pixelCount($0.width, $0.height) <= limits.pixelLimit }
            guard !usable.isEmpty else {
                if !sized.isEmpty { return .failed(.tooLarge(sized[0].width, sized[0].height, limit: limits.pixelLimit)) }
                return develop(file, fitting: box)
            }
            let covering = usable.filter { candidate in
                let needed = Self.neededStoredSize(width: candidate.width, height: candidate.height, orientation: orientation, box: box)
                return candidate.width >= needed.width && candidate.height >= needed.height
            }
            let byArea = { (a: CameraRaw.SizedPreview, b: CameraRaw.SizedPreview) in
                a.width * a.height < b.width * b.height
            }
            let chosen = covering.min(by: byArea) ?? usable.max(by: byArea)!
            guard let data = bytes.bytes(at: chosen.preview.offset, count: chosen.preview.length) else {
                return .failed(.badFile("the RAW's preview runs past its end"))
            }
            let result = dctDecode(data, size: (chosen.width, chosen.height), orientation: orientation, fitting: box)
            if case .decoded = result { statistics.record(.rawPreview) }
            return result
        }
        switch outcome {
        case .success(let result): return result
        case .failure(let error): return .failed(.unreadable(error.message))
        }
    }

    /// The slow path: the sensor data developed by LibRaw at half size.
    func develop(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        guard let codecs else { return .failed(.needsCodecs) }
        let result = codecs.develop(file, fitting: box, limits: limits)
        if case .decoded = result { statistics.record(.rawDeveloped) }
        return result
    }
}
