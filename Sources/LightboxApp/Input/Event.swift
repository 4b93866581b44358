import LightboxTerminal
import LightboxThumbnails

/// What the world reports: decodes, the scan, metadata, the clock, the terminal. Events come
/// back through the same `apply` as commands, but they are never the user acting: they clear no
/// count and no mode.
public enum Event: Hashable, Sendable {
    case decoded(DecodeRequest, DecodeResult)
    /// The scan found more (always after what it found before), and perhaps ended.
    case scanned([Scanner.Batch], isFinished: Bool)
    /// Metadata read in the background.
    case metadataRead([MetadataResult])
    /// The clock, in seconds of uptime, when an animation's next frame is due.
    case tick(Double)
    /// No key came for a moment and the screen's thumbnails are done: time to read ahead.
    case idle
    /// What the read-ahead did with items it was given.
    case readAheadDone([ReadAheadOutcome])
    /// Items given to the read-ahead that it dropped (a key came): they may be given again.
    case readAheadDropped([ItemID])
    /// How the terminal takes pictures: how many wait to be written, and the link's speed in
    /// kbit/s when the writer measured it.
    case picturesWaiting(Int, measuredLinkSpeed: Int?)
    /// The terminal's size in cells changed.
    case resize(width: Int, height: Int)
    /// The terminal's cells changed size in pixels (a font change): the pixel modes' boxes follow.
    case cellSizeChanged(CellPixelSize)
    /// What the photos' sidecars say of them, read in the background.
    case decisionsRead([Decisions.ItemChange])
    /// Where decisions were found or written: beside the photo, or kept in Lightbox's state folder.
    case decisionsStored([Decisions.Storage])
    /// Something the outside world has to say (a command failed, the marks file cannot be written),
    /// shown in the status line until the next key.
    case notice(String)
    /// The mounts where a read has waited longer than `ReadWatch.limit`, or gone (none: all
    /// answer again); of them, `unmounted` are share's mount points seen without their share.
    case mountsNotAnswering([String], unmounted: Set<String> = [])
    /// What the index had is still coming (true), or all there (false): `BackgroundScan.isLandingIndex`.
    case indexLanding(Bool)
}
