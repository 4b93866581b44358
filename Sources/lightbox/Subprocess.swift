import Foundation

/// Runs a helper program and reads what it prints (`lightbox-decode --supported-formats`,
/// `tmux show-options`): nil when it cannot be started or does not exit with 0. Never the user's
/// commands, which `CommandRunner` runs on the terminal.
enum Subprocess {
    static func output(of executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output : nil
    }
}
