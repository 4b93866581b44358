import LightboxThumbnails

/// What the state asks the outside world to do.
public enum Effect: Hashable, Sendable {
    /// Decode these, most wanted first (replaces earlier wishes).
    case load([DecodeRequest])
    /// Read these files' metadata: after what was asked before, or before it when urgent.
    case readMetadata([MetadataRequest], isUrgent: Bool)
    /// Quit and print these paths.
    case accept([ImagePath])
    /// Quit without output.
    case cancel
    /// Quit saying nothing was found: the scan is over and nothing is left (a first visit's, or
    /// one whose index had photos that are all gone).
    case foundNothing
    /// Stop the process (Ctrl-Z) and redraw when it continues.
    case suspend
    /// Forget what the terminal shows and paint every cell and picture again.
    case redraw
    /// Leave the screen, run this `/bin/sh -c` command on the terminal, then come back.
    case run([UInt8])
    /// Leave the screen, run the key handler with this key name and these paths on its input, come back.
    case runKeyHandler(key: String, paths: [ImagePath])
    /// The terminal may drop these pictures (kitty graphics ids): they left the cache.
    case forgetImages([UInt32])
    /// Put these files' thumbnails in the disk cache, at idle priority, nearest first.
    case readAhead([ReadAheadRequest])
    /// Keep these decisions in the photos' sidecars (off the UI thread).
    case saveDecisions([DecisionWrite])
    /// Read what these photos' sidecars say was decided, in the background.
    case readDecisions([DecisionKeeper.Read])
    /// Walk these folders again, in the background: the walk could not look at a mount under
    /// them (it had gone), which answers again.
    case walkAgain([ImagePath])
}

extension Array where Element == Effect {
    /// The effects with every `.load` but the last removed: each load replaces the one before,
    /// so a batch of actions asks the provider once.
    public var coalesced: [Effect] {
        guard let last = lastIndex(where: { if case .load = $0 { return true } else { return false } }) else { return self }
        return enumerated().filter { index, effect in
            if case .load = effect { return index == last }
            return true
        }.map(\.element)
    }
}
