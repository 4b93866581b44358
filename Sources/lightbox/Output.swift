import LightboxTerminal
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to the standard streams, bytes exactly.
enum Output {
    /// Writes all of `bytes` to a descriptor; false (with `errno` set) when it could not.
    @discardableResult
    static func write(_ bytes: [UInt8], to fd: Int32 = 1) -> Bool {
        FileReader.writeAll(bytes, to: fd)
    }

    /// Writes `message` to standard error, a line at a time, what would be a control sequence
    /// in it (a file's name holding ESC, say) escaped: standard error is most often the terminal.
    static func error(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.sanitized(String($0)) }
        write(Array(("lightbox: " + lines.joined(separator: "\n") + "\n").utf8), to: 2)
    }

    /// The accepted paths as printed: each ends with a newline, or NUL with `-0`.
    /// Fails when a path holds a newline and the output is newline separated.
    static func encode(_ paths: [ImagePath], nulSeparated: Bool) -> Result<[UInt8], Options.UsageError> {
        var out: [UInt8] = []
        for path in paths {
            if !nulSeparated && path.bytes.contains(10) {
                return .failure(
                    Options.UsageError(
                        description:
                            "a marked name holds a newline; use -0 to print it: \(path.bytes.map { $0 < 32 ? "?" : String(UnicodeScalar($0)) }.joined())"))
            }
            out += path.bytes
            out.append(nulSeparated ? 0 : 10)
        }
        return .success(out)
    }
}
