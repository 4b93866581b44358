import LightboxApp
import LightboxLayout
import LightboxThumbnails

/// A library of fake files (nothing on disk) with the given section sizes.
func library(_ counts: [Int]) -> Library {
    let folders = counts.enumerated().map { s, count in
        ImageFolder(
            path: ImagePath("photos/s\(s)"),
            files: (0..<count).map { i in
                ImageFile(path: ImagePath("photos/s\(s)/IMG_\(i + 1).jpg"), byteCount: 1000, modified: 0, format: .jpeg)
            })
    }
    return Library(folders: folders)
}

/// Settings with `change` made to the defaults.
func settings(_ change: (inout GalleryState.Settings) -> Void) -> GalleryState.Settings {
    var settings = GalleryState.Settings()
    change(&settings)
    return settings
}

/// Three fixed columns of 10 cells: easy to reason about.
let threeColumns = GridSpec(columns: Array(repeating: GridItem(.fixed(10)), count: 3))

extension GalleryState {
    /// Applies actions in order, returning the effects of the last.
    @discardableResult
    mutating func apply(_ actions: [Command]) -> [Effect] {
        var last: [Effect] = []
        for action in actions { last = apply(action) }
        return last
    }

    var tileOfCursorIsVisible: Bool {
        let tile = layout.frame(ofItem: viewport.cursor)
        return tile.y >= viewport.offset && tile.maxY <= viewport.offset + screen.gridHeight
    }
}
