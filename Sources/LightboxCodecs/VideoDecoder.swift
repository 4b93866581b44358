import CFFmpeg
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a video's thumbnail with FFmpeg's libraries (in the decoder processes): one keyframe
/// from near 10% of the duration on, the first of a few with enough detail (a fade-in's black
/// first frame is passed over), upright by the stream's display matrix, fitted to the box.
///
/// The file is opened by our own code (regular files only) and handed to FFmpeg as a
/// descriptor, read with the demuxer the kind of file names: no name reaches FFmpeg's URL
/// parser, and no demuxer that opens other files (playlists, concatenations) ever runs.
public struct VideoDecoder: Sendable {
    /// Frames with more pixels than this are refused before decoding.
    public var pixelLimit: Int

    public init(pixelLimit: Int = 100_000_000) {
        self.pixelLimit = pixelLimit
    }

    /// What a video is, learnt while taking its frame.
    public struct Facts: Hashable, Sendable {
        /// The picture as shown (rotation applied).
        public var size: PixelSize
        public var duration: Double
        public var frameRate: Double
        public var codec: String
        /// Degrees clockwise the stored frames are turned to show them.
        public var rotation: Int
        /// The grey level's standard deviation of the frame chosen (0–255).
        public var detail: Double
    }

    /// The thumbnail of the video `file`, read with `demuxer`, fitted to `box`, and what the video is.
    public func decode(_ file: ImageFile, demuxer: String, fitting box: PixelSize) -> (result: DecodeResult, facts: Facts?) {
        var video = lb_video()
        var refusal: String?
        let opened: Result<Int32, FileReader.Failure> = FileReader.withRegularFile(file.path, limit: .max) { fd, size in
            guard size > 0 else { return .failure(FileReader.Failure(message: "empty file")) }
            // Blocking reads from here: FFmpeg does not expect EAGAIN from a regular file anyway.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            refusal = VideoContainer.problem(fd: fd, count: size, demuxer: demuxer)
            if refusal != nil { return .success(Int32(LB_VIDEO_FAILED)) }
            return .success(lb_video_thumbnail(fd, demuxer, Int32(max(1, box.width)), Int32(max(1, box.height)), Double(pixelLimit), &video))
        }
        let status: Int32
        switch opened {
        case .success(let code): status = code
        case .failure(let error): return (.failed(.unreadable(error.message)), nil)
        }
        if let refusal { return (.failed(.badFile(refusal)), nil) }
        let codec = String(cArray: video.codec)
        let facts =
            video.source_width > 0 && video.source_height > 0
            ? Facts(
                size: PixelSize(width: Int(video.source_width), height: Int(video.source_height)), duration: video.duration,
                frameRate: video.frame_rate, codec: codec, rotation: Int(video.rotation), detail: video.detail)
            : nil
        switch Int(status) {
        case LB_VIDEO_OK:
            defer { lb_video_free(video.pixels) }
            let pixels = Array(UnsafeBufferPointer(start: video.pixels, count: Int(video.width) * Int(video.height) * 3))
            return (.decoded(Thumbnail(width: Int(video.width), height: Int(video.height), pixels: pixels)), facts)
        case LB_VIDEO_TOO_LARGE:
            return (.failed(.tooLarge(Int(video.source_width), Int(video.source_height), limit: pixelLimit)), facts)
        default:
            let message = String(cArray: video.message)
            return (.failed(.badFile(message.isEmpty ? "cannot decode the video" : message)), facts)
        }
    }

}
