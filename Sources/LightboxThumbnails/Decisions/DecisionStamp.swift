#if canImport(Glibc)
    import Glibc
#endif

/// What a photo's decision is read from, as those files are now: the copy kept in Lightbox's
/// state folder, the sidecar under either name and the photo itself (its embedded XMP), each
/// by `lstat` (whether it is there, its size, times and inode). A read whose files have the
/// stamp they had at the last read would find the same decision, so the index's copy stands.
public enum DecisionStamp {
    /// Which of a photo's decision files were there when its stamp was taken, so the read that
    /// follows does not look for them again (each look a round trip on a share).
    public struct Found: Hashable, Sendable {
        /// Whether a copy is kept in the state folder.
        public var hasKept = false
        /// The sidecar to read: of both names, the newer; nil with neither.
        public var sidecar: ImagePath?

        public init(hasKept: Bool = false, sidecar: ImagePath? = nil) {
            self.hasKept = hasKept
            self.sidecar = sidecar
        }
    }

    /// The stamp of `photo`'s decision files now (never 0, which says "none").
    /// - Complexity: three or four `lstat` calls (round trips on a share).
    public static func of(photo: ImagePath, keptIn keptRoot: ImagePath?) -> Int64 { look(photo: photo, keptIn: keptRoot).stamp }

    /// The stamp of `photo`'s decision files now (never 0), and which of them are there.
    /// - Complexity: three or four `lstat` calls (round trips on a share).
    public static func look(photo: ImagePath, keptIn keptRoot: ImagePath?) -> (stamp: Int64, found: Found) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: Int) {
            var word = UInt64(bitPattern: Int64(value))
            for _ in 0..<8 {
                hash = (hash ^ (word & 0xFF)) &* 0x100_0000_01B3
                word >>= 8
            }
        }
        let names = photo.sidecarNames
        var found = Found()
        var sidecars: [(ImagePath, Int)] = []
        for (place, path) in [keptRoot.map { photo.keptSidecar(in: $0) }, names.appended, names.replaced, photo].enumerated() {
            guard let path else {
                mix(-2)
                continue
            }
            var info = stat()
            guard path.withCString({ lstat($0, &info) }) == 0 else {
                mix(-1)
                mix(Int(errno))
                continue
            }
            for value in [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec, Int(info.st_ino)] {
                mix(value)
            }
            if place == 0 { found.hasKept = true }
            if place == 1 || place == 2 { sidecars.append((path, info.st_mtim.tv_sec)) }
        }
        // As `XMPSidecar` chooses between two: the newer.
        found.sidecar = sidecars.max { $0.1 < $1.1 }?.0
        return (hash == 0 ? 1 : Int64(bitPattern: hash), found)
    }
}
