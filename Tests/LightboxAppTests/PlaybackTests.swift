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

@Test func thePreviewOfAnAnimationAsksForItsFramesPlaysThemAndPPauses() {
    let files = [ImageFile(path: ImagePath("a/anim.gif"), byteCount: 1, modified: 0, format: .gif)]
    var state = GalleryState(library: Library(folders: [ImageFolder(path: ImagePath("a"), files: files)]), width: 40, height: 12)
    var metadata = ImageMetadata()
    metadata.frameCount = 3
    _ = state.apply(.metadataRead([MetadataResult(id: ItemID(0), metadata: metadata, size: PixelSize(width: 30, height: 20))]))
    let effects = state.apply(.openPreview)
    let requests = effects.flatMap { effect -> [DecodeRequest] in if case .load(let r) = effect { return r } else { return [] } }
    guard let framesRequest = requests.first(where: \.wantsFrames) else { Issue.record("no request for frames: \(requests)"); return }
    var frames = Thumbnail(width: 30, height: 60, pixels: [UInt8](repeating: 7, count: 30 * 60 * 3))
    frames.delays = [100, 100, 100]
    _ = state.apply(.decoded(framesRequest, .decoded(frames)))
    #expect(state.animation?.frameCount == 3 && state.nextFrameTime == 0, "due at once: the first tick starts the clock")
    state.apply(.tick(5))
    state.apply(.tick(5.1))
    #expect(state.preview?.frame == 1)
    let message = state.message
    state.apply(.tick(5.2))
    #expect(state.preview?.frame == 2 && state.message == message, "a tick clears no message")
    state.apply(.togglePlayback)
    #expect(state.preview?.isPaused == true && state.nextFrameTime == nil)
    state.apply(.tick(9))
    #expect(state.preview?.frame == 2)
}
