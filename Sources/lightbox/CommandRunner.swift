import Foundation
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the user's commands on the terminal while the UI is away: standard input, output and
/// error are the terminal (stdout is kept for the selection), and Lightbox waits for the end.
enum CommandRunner {
    /// Runs `arguments[0]` with `arguments`, its standard input `input` (or the terminal when nil).
    /// Returns a message when it could not run or did not succeed, else nil.
    static func run(_ arguments: [[UInt8]], input: [UInt8]? = nil) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return "cannot open the terminal for the command" }
        defer { close(tty) }
        var inputPipe: [Int32] = [-1, -1]
        if input != nil { guard pipe(&inputPipe) == 0 else { return "cannot make a pipe" } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input != nil ? inputPipe[0] : tty, 0)
        posix_spawn_file_actions_adddup2(&actions, tty, 1)
        posix_spawn_file_actions_adddup2(&actions, tty, 2)
        if input != nil { posix_spawn_file_actions_addclose(&actions, inputPipe[1]) }
        var cStrings = arguments.map { bytes -> UnsafeMutablePointer<CChar>? in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        }
        cStrings.append(nil)
        defer { for pointer in cStrings { pointer?.deallocate() } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, cStrings[0]!, &actions, nil, cStrings, environ)
        if input != nil { close(inputPipe[0]) }
        guard status == 0 else {
            if input != nil { close(inputPipe[1]) }
            return "cannot run \(String(decoding: arguments[0], as: UTF8.self)): \(String(cString: strerror(status)))"
        }
        if let input {
            _ = FileReader.writeAll(input, to: inputPipe[1])  // a handler that reads nothing is fine
            close(inputPipe[1])
        }
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 && errno == EINTR {}
        let exited = result & 0x7F == 0
        let code = (result >> 8) & 0xFF
        if !exited { return "the command was killed (signal \(result & 0x7F))" }
        return code == 0 ? nil : "the command exited with status \(code)"
    }

    /// Lightbox's settings folder: `$XDG_CONFIG_HOME/lightbox`, else `~/.config/lightbox` (as bytes:
    /// a folder whose name is not UTF-8 is still found).
    static var configFolder: ImagePath? {
        let base =
            EnvironmentVariable.bytes("XDG_CONFIG_HOME").map { ImagePath(bytes: $0) }
            ?? EnvironmentVariable.bytes("HOME").map { ImagePath(bytes: $0).appending(Array(".config".utf8)) }
        return base?.appending(Array("lightbox".utf8))
    }

    /// The key handler, as nsxiv has one: `$XDG_CONFIG_HOME/lightbox/key-handler`.
    static var keyHandlerPath: ImagePath? { configFolder?.appending(Array("key-handler".utf8)) }
}
