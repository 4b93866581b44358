import Foundation
import Testing

@testable import LightboxThumbnails

/// A read older than the limit names the mount holding it (the longest mount point that holds
/// the path, whole components), and only while it runs.
@Test func aLateReadNamesItsMount() {
    let watch = ReadWatch()
    let now = ProcessInfo.processInfo.systemUptime
    let inside = watch.watching(ImagePath("/proc/self/status")) {
        (watch.notAnswering(at: now + 1), watch.notAnswering(at: now + ReadWatch.limit + 1))
    }
    #expect(inside.0.isEmpty && inside.1 == ["/proc"], "\(inside)")
    #expect(watch.notAnswering(at: now + ReadWatch.limit + 1).isEmpty, "ended, it is not late")
    let mounts = [Array("/".utf8), Array("/mnt/nas".utf8), Array("/mnt/nas/photos".utf8)]
    #expect(ReadWatch.mountPoint(of: Array("/mnt/nas/photos/a.jpg".utf8), among: mounts) == "/mnt/nas/photos")
    #expect(ReadWatch.mountPoint(of: Array("/mnt/nas2/a.jpg".utf8), among: mounts) == "/")
    #expect(ReadWatch.mountPoint(of: Array("/mnt/nas".utf8), among: mounts) == "/mnt/nas")
    #expect(ReadWatch.unescaped(Array(#"/mnt/my\040photos\134x"#.utf8)) == Array(#"/mnt/my photos\x"#.utf8))
    #expect(ReadWatch.mountPoints().contains(Array("/proc".utf8)))
}
