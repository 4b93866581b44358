import LightboxThumbnails
import Testing

@testable import LightboxApp

@Test func framesFollowTheirDelaysAndLateOnesAreSkippedNotHurried() {
    var preview = Preview()
    preview.play([100, 200, 300], now: 10)
    #expect(preview.frame == 0 && preview.nextFrameAt == 10.1, "the first call starts the clock")
    preview.play([100, 200, 300], now: 10.1)
    #expect(preview.frame == 1 && abs(preview.nextFrameAt! - 10.3) < 1e-9)
    // Busy for a second: the frames whose time passed are skipped, the clock starts again from now.
    preview.play([100, 200, 300], now: 11.5)
    #expect(preview.nextFrameAt! > 11.5)
    preview.isPaused = true
    preview.play([100, 200, 300], now: 20)
    #expect(preview.nextFrameAt == nil, "paused: nothing due")
}

/// A library of one GIF of `frames` frames, its metadata read.
func animationState(frames: Int) -> GalleryState {
    let files = [ImageFile(path: ImagePath("a/anim.gif"), byteCount: 1, modified: 0, format: .gif)]
    var state = GalleryState(library: Library(folders: [ImageFolder(path: ImagePath("a"), files: files)]), width: 40, height: 12)
    var metadata = ImageMetadata()
    metadata.frameCount = frames
    _ = state.apply(.metadataRead([MetadataResult(id: ItemID(0), metadata: metadata, size: PixelSize(width: 30, height: 20))]))
    return state
}

@Test func thePreviewOfAnAnimationAsksForItsFramesPlaysThemAndPPauses() {
    var state = animationState(frames: 3)
    let effects = state.apply(.openPreview)
    let requests = effects.flatMap { effect -> [DecodeRequest] in if case .load(let r) = effect { return r } else { return [] } }
    guard let framesRequest = requests.first(where: \.wantsFrames) else { Issue.record("no request for frames: \(requests)"); return }
    var frames = Thumbnail(width: 30, height: 60, pixels: [UInt8](repeating: 7, count: 30 * 60 * 3))
    frames.delays = [100, 100, 100]
    _ = state.apply(.decoded(framesRequest, .decoded(frames)))
    #expect(state.animation?.frameCount == 3 && state.nextFrameTime == 0, "due at once: the first tick starts the clock")
    _ = state.apply(.tick(5))
    _ = state.apply(.tick(5.1))
    #expect(state.preview?.frame == 1)
    let message = state.message
    _ = state.apply(.tick(5.2))
    #expect(state.preview?.frame == 2 && state.message == message, "a tick clears no message")
    _ = state.apply(.togglePlayback)
    #expect(state.preview?.isPaused == true && state.nextFrameTime == nil)
    _ = state.apply(.tick(9))
    #expect(state.preview?.frame == 2)
}

/// A video's clip of `count` frames of `delay` ms each, 4x3 pixels a frame.
func clip(frames count: Int, delay: Int = 200, value: UInt8 = 9) -> Thumbnail {
    var clip = Thumbnail(width: 4, height: 3 * count, pixels: [UInt8](repeating: value, count: 4 * 3 * count * 3))
    clip.delays = Array(repeating: delay, count: count)
    return clip
}

/// A library of a video `seconds` long (as its container says; nil: unknown) and a photo, the preview open on the video.
func videoState(seconds: Double?) -> GalleryState {
    let files = [
        ImageFile(path: ImagePath("a/clip.mp4"), byteCount: 1, modified: 0, format: .quickTime),
        ImageFile(path: ImagePath("a/photo.jpg"), byteCount: 1, modified: 0, format: .jpeg),
    ]
    var state = GalleryState(library: Library(folders: [ImageFolder(path: ImagePath("a"), files: files)]), width: 40, height: 12)
    var metadata = ImageMetadata()
    metadata.video = VideoMetadata(duration: seconds)
    _ = state.apply(.metadataRead([MetadataResult(id: ItemID(0), metadata: metadata, size: PixelSize(width: 40, height: 30))]))
    _ = state.apply(.openPreview)
    return state
}

/// The clips the state asks for now, by where they start.
func clipStarts(_ state: GalleryState) -> [Int] { state.store.demand.compactMap(\.clipStart) }

@Test func aVideoPlaysClipAfterClipWaitsForTheNextAndLoops() {
    var state = videoState(seconds: 3)
    #expect(clipStarts(state) == [0], "the preview asks for the video's first clip")
    let request = { (start: Int) in state.store.demand.first { $0.clipStart == start }! }
    _ = state.apply(.decoded(request(0), .decoded(clip(frames: 5))))
    #expect(state.animation?.frameCount == 5 && state.playedText == "0:00 / 0:03" && state.nextFrameTime == 0)
    #expect(clipStarts(state) == [1000], "and the next clip while the first plays")
    _ = state.apply(.tick(10))
    _ = state.apply(.tick(10.65))
    #expect(state.preview?.frame == 3 && state.preview?.playedTime(state.animation!.delays) == 600)
    // The first clip is over before the next is decoded: its last frame stays, the clock looks again soon.
    _ = state.apply(.tick(11.05))
    #expect(state.preview?.frame == 4 && state.preview?.clipStart == 0)
    #expect(state.nextFrameTime.map { $0 > 11.05 && $0 < 11.11 } == true, "\(String(describing: state.nextFrameTime))")
    _ = state.apply(.decoded(request(1000), .decoded(clip(frames: 5, value: 1))))
    _ = state.apply(.tick(11.15))
    #expect(state.preview?.clipStart == 1000 && state.preview?.frame == 0 && state.animation?.pixels.first == 1)
    #expect(state.store.cache.peek(state.clipKey(0)) == nil, "a clip played is forgotten")
    #expect(clipStarts(state) == [2000])
    _ = state.apply(.decoded(request(2000), .decoded(clip(frames: 5, value: 2))))
    _ = state.apply(.tick(11.15))
    for now in stride(from: 11.35, through: 13.2, by: 0.2) { _ = state.apply(.tick(now)) }
    #expect(state.preview?.clipStart == 2000 && state.preview?.frame == 4 && state.playedText == "0:02 / 0:03")
    // After the last clip (3 s), the first again: asked for anew, as it was forgotten.
    #expect(clipStarts(state) == [0])
    _ = state.apply(.decoded(request(0), .decoded(clip(frames: 5, value: 3))))
    _ = state.apply(.tick(13.4))
    #expect(state.preview?.clipStart == 0 && state.preview?.hasPlayedThrough == true && state.animation?.pixels.first == 3)
    // p pauses the video; flipping to the photo stops it.
    _ = state.apply(.togglePlayback)
    #expect(state.preview?.isPaused == true && state.nextFrameTime == nil && state.playedText == "0:00 / 0:03")
    _ = state.apply(.move(.right))
    #expect(state.animation == nil && state.playedText == nil && clipStarts(state).isEmpty)
}

@Test func aVideoOfUnknownLengthEndsWhereItsDecoderSaysAndABadStartLeavesTheStill() {
    var state = videoState(seconds: nil)
    let request = { (start: Int) in state.store.demand.first { $0.clipStart == start }! }
    _ = state.apply(.decoded(request(0), .decoded(clip(frames: 2))))
    #expect(state.playedText == "0:00")
    _ = state.apply(.decoded(request(400), .failed(.refused("past the video's end"))))
    #expect(state.failure(at: 0) == nil, "a clip past the end breaks no tile")
    _ = state.apply(.tick(1))
    _ = state.apply(.tick(1.2))
    _ = state.apply(.tick(1.4))
    #expect(state.preview?.clipStart == 0 && state.preview?.frame == 0 && state.preview?.hasPlayedThrough == true, "from the start again")
    // A video whose first clip cannot be decoded shows its still, and p says it cannot play.
    var broken = videoState(seconds: 2)
    _ = broken.apply(.decoded(broken.store.demand.first { $0.clipStart == 0 }!, .failed(.badFile("cannot decode a frame of its h264 video"))))
    #expect(broken.animation == nil && clipStarts(broken).isEmpty && broken.nextFrameTime == nil)
    _ = broken.apply(.togglePlayback)
    #expect(broken.preview?.isPaused == false && broken.message?.contains("not an animation") == true)
}

@Test func aSlideshowStaysOnAVideoUntilItHasPlayedThrough() {
    // Six seconds, more than the four a photo stays, in clips of a second, each decoded when asked for.
    var state = videoState(seconds: 6)
    _ = state.apply(.slideshow)
    var cursorAt: [Double: Int] = [:]
    for now in stride(from: 0, through: 7, by: 0.1) {
        for request in state.store.demand where request.clipStart != nil { _ = state.apply(.decoded(request, .decoded(clip(frames: 5)))) }
        _ = state.apply(.tick(now))
        cursorAt[(now * 10).rounded() / 10] = state.viewport.cursor
    }
    #expect(cursorAt[5.8] == 0, "still playing at 5.8 s")
    #expect(cursorAt[6.5] == 1, "the photo after it once played")
}

/// A turned animation plays turned: its frames are asked for turned, found under the key the
/// preview plays from, and not asked for again.
@Test func aTurnedAnimationPlaysTurnedAndIsDecodedOnce() {
    var state = animationState(frames: 2)
    _ = state.apply(.rotate(clockwise: true))
    _ = state.apply(.openPreview)
    guard let request = state.store.demand.first(where: \.wantsFrames) else { Issue.record("no request for frames"); return }
    #expect(request.turns == 1 && request.key == state.animationKey)
    var frames = Thumbnail(width: 20, height: 60, pixels: [UInt8](repeating: 7, count: 20 * 60 * 3))
    frames.delays = [100, 100]
    _ = state.apply(.decoded(request, .decoded(frames)))
    #expect(state.animation?.frameCount == 2 && !state.store.demand.contains(where: \.wantsFrames), "played, not asked for again")
}

/// Frames one above the other turn one by one, in their order, with their delays.
@Test func stackedFramesTurnFrameByFrame() {
    var stack = Thumbnail(width: 2, height: 2, pixels: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4])
    stack.delays = [100, 200]
    let turned = stack.turned(1)
    #expect(turned.width == 1 && turned.height == 4 && turned.delays == [100, 200])
    #expect(turned.frame(0) == stack.frame(0).turned(1) && turned.frame(1) == stack.frame(1).turned(1))
}
