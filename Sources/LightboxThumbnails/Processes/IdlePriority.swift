import CSystem
import Foundation

/// The lowest CPU priority and the idle I/O class, for work nobody waits for (the read-ahead):
/// it gets what the rest leaves, so keys and the screen's own thumbnails never wait behind it.
public enum IdlePriority {
    /// Lowers the calling thread; false when the system refused.
    @discardableResult
    public static func lowerCurrentThread() -> Bool { lb_set_idle_priority(0) == 0 }

    /// The calling thread's id.
    public static var currentThreadID: Int32 { lb_gettid() }

    /// Whether thread or process `id` runs at nice 19 in the idle I/O class (read from `/proc`
    /// and `ioprio_get`).
    public static func isIdle(_ id: Int32) -> Bool {
        let paths = ["/proc/self/task/\(id)/stat", "/proc/\(id)/stat"]
        guard let stat = paths.lazy.compactMap({ try? String(contentsOfFile: $0, encoding: .utf8) }).first,
            let close = stat.lastIndex(of: ")")
        else { return false }
        // After "pid (comm)": state is field 3, nice field 19.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 && fields[16] == "19" && lb_io_class(id) == 3
    }
}
