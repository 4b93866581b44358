import LightboxThumbnails

/// Commands run on the selection, with fzf's placeholders: `{}` is the item under the cursor,
/// `{+}` the marked items (or the cursor's when none is marked), each shell-quoted. A command
/// with neither gets the selection appended as arguments.
public enum ShellCommand {
    /// The command line for `/bin/sh -c`, as bytes (names need not be UTF-8).
    /// - Complexity: O(*n*) in the length of the template and the paths.
    public static func expand(_ template: String, cursor: ImagePath, selection: [ImagePath]) -> [UInt8] {
        let bytes = Array(template.utf8)
        let one = quoted(cursor.bytes)
        let all = Array(selection.map { quoted($0.bytes) }.joined(separator: [UInt8(ascii: " ")]))
        var out: [UInt8] = []
        var i = 0, substituted = false
        while i < bytes.count {
            if bytes[i...].starts(with: Array("{+}".utf8)) {
                out += all; i += 3; substituted = true
            } else if bytes[i...].starts(with: Array("{}".utf8)) {
                out += one; i += 2; substituted = true
            } else {
                out.append(bytes[i]); i += 1
            }
        }
        if !substituted { out += [UInt8(ascii: " ")] + all }
        return out
    }

    /// `bytes` in single quotes, a quote inside written as `'\''`: the shell takes it back exactly,
    /// spaces, newlines and all.
    public static func quoted(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "'")]
        for byte in bytes {
            if byte == UInt8(ascii: "'") { out += Array("'\\''".utf8) } else { out.append(byte) }
        }
        out.append(UInt8(ascii: "'"))
        return out
    }
}
