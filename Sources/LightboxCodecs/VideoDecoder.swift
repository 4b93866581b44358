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
        let status: Int32
        switch opened(
            file, demuxer: demuxer,
            { fd in
                lb_video_thumbnail(fd, demuxer, Int32(max(1, box.width)), Int32(max(1, box.height)), Double(pixelLimit), &video)
            })
        {
        case .status(let code): status = code
        case .failed(let failure): return (.failed(failure), nil)
        }
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
        default: return (.failed(Self.failure(video)), facts)
        }
    }

    /// Frames a second a clip plays at most (a video of fewer plays at its own).
    public static let clipFrameRate = 12
    /// Frames one clip holds at most, and the bytes: the app keeps the clip playing and the next
    /// in its memory cache, beside the grid's thumbnails.
    public static let (clipFrames, clipBudget) = (24, 32 << 20)

    /// Frames to play of the video `file` from `start` milliseconds into it, fitted to `box`, one
    /// above the other with how long each shows (`Thumbnail.delays`): the next clip starts where
    /// their sum ends. Past the video's end, a refusal saying so.
    public func decodeClip(_ file: ImageFile, demuxer: String, from start: Int, fitting box: PixelSize) -> DecodeResult {
        var video = lb_video()
        var delays = [Int32](repeating: 0, count: Self.clipFrames)
        var count: Int32 = 0
        let status: Int32
        switch opened(
            file, demuxer: demuxer,
            { fd in
                delays.withUnsafeMutableBufferPointer { delays in
                    lb_video_clip(
                        fd, demuxer, Int32(max(1, box.width)), Int32(max(1, box.height)), Double(pixelLimit), Int32(start),
                        Int32(1000 / Self.clipFrameRate), Int32(Self.clipFrames), Self.clipBudget, delays.baseAddress, &count, &video)
                }
            })
        {
        case .status(let code): status = code
        case .failed(let failure): return .failed(failure)
        }
        switch Int(status) {
        case LB_VIDEO_OK where count == 0: return .failed(.refused("past the video's end"))
        case LB_VIDEO_OK:
            defer { lb_video_free(video.pixels) }
            let frames = Int(count), width = Int(video.width), height = Int(video.height)
            var clip = Thumbnail(
                width: width, height: height * frames, pixels: Array(UnsafeBufferPointer(start: video.pixels, count: width * height * 3 * frames)))
            clip.delays = delays.prefix(frames).map(Int.init)
            return .decoded(clip)
        case LB_VIDEO_TOO_LARGE: return .failed(.tooLarge(Int(video.source_width), Int(video.source_height), limit: pixelLimit))
        default: return .failed(Self.failure(video))
        }
    }

    /// FFmpeg's status, or why the file was not handed to it.
    enum Opened {
        case status(Int32)
        case failed(DecodeFailure)
    }

    /// The file opened as our own descriptor (a regular file, its container checked by our own
    /// code first) and handed to `work`, which gives FFmpeg's status.
    func opened(_ file: ImageFile, demuxer: String, _ work: (Int32) -> Int32) -> Opened {
        var refusal: String?
        let opened: Result<Int32, FileReader.Failure> = FileReader.withRegularFile(file.path, limit: .max) { fd, size in
            guard size > 0 else { return .failure(FileReader.Failure(message: "empty file")) }
            // Blocking reads from here: FFmpeg does not expect EAGAIN from a regular file anyway.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            refusal = VideoContainer.problem(fd: fd, count: size, demuxer: demuxer)
            if refusal != nil { return .success(Int32(LB_VIDEO_FAILED)) }
            return .success(work(fd))
        }
        switch opened {
        case .success where refusal != nil: return .failed(.badFile(refusal!))
        case .success(let code): return .status(code)
        case .failure(let error): return .failed(.unreadable(error.message))
        }
    }

    /// What FFmpeg's side said went wrong.
    static func failure(_ video: lb_video) -> DecodeFailure {
        let message = String(cArray: video.message)
        return .badFile(message.isEmpty ? "cannot decode the video" : message)
    }

}
