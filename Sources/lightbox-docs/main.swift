import Foundation
import LightboxApp

// Writes README.md's generated tables from the tables the program uses (`make docs`), or checks
// that they are as the tables say (`make lint`): `lightbox-docs write|check README.md`.
let arguments = CommandLine.arguments
guard arguments.count == 3, ["write", "check"].contains(arguments[1]), let readme = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: lightbox-docs write|check README.md\n".utf8))
    exit(2)
}
let (updated, problems) = Documentation.updatingReadme(readme)
for problem in problems { FileHandle.standardError.write(Data("lightbox-docs: \(problem)\n".utf8)) }
if !problems.isEmpty { exit(1) }
if arguments[1] == "write" {
    if updated != readme { try updated.write(toFile: arguments[2], atomically: true, encoding: .utf8) }
} else if updated != readme {
    FileHandle.standardError.write(Data("lightbox-docs: \(arguments[2])'s generated tables differ from the program's tables: run make docs\n".utf8))
    exit(1)
}
