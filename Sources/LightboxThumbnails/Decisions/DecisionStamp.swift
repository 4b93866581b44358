#if canImport(Glibc)
    import Glibc
#endif

/// What a photo's decision is read from, as those files are now: the copy kept in Lightbox's
/// state folder, the sidecar under either name and the photo itself (its embedded XMP), each
/// by `lstat` (whether it is there, its size, times and inode). A read whose files have the
/// stamp they had at the last read would find the same decision, so the index's copy stands.
public enum DecisionStamp {
    /// The stamp of `photo`'s decision files now (never 0, which says "none").
    /// - Complexity: three or four `lstat` calls (round trips on a share).
    public static func of(photo: ImagePath, keptIn keptRoot: ImagePath?) -> Int64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: Int) {
            var word = UInt64(bitPattern: Int64(value))
            for _ in 0..<8 {
                hash = (hash ^ (word & 0xFF)) &* 0x100_0000_01B3
                word >>= 8
            }
        }
        let names = photo.sidecarNames
        for path in [keptRoot.map { photo.keptSidecar(in: $0) }, names.appended, names.replaced, photo] {
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
        }
        return hash == 0 ? 1 : Int64(bitPattern: hash)
    }
}
