import Foundation

// lightbox-bench: the parts of `make bench` measured inside the process.
//   corpus DIR     make the benchmark corpus under DIR if missing
//   keys FOLDER    keystroke-to-frame latency while decoding
//   memory N       resident memory of a synthetic library of N items
//   layout         layout of a million items and the visible-range query
//   scan FOLDER    the streaming scan of a folder, and the memory of its library

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("corpus", 2): try Corpus.make(at: arguments[1])
case ("keys", 2): print(try Measurements.keystrokes(folder: arguments[1]))
case ("memory", 2): print(Measurements.memory(items: Int(arguments[1]) ?? 100_000))
case ("layout", 1): print(Measurements.layout())
case ("scan", 2): print(Measurements.scan(folder: arguments[1]))
default:
    FileHandle.standardError.write("usage: lightbox-bench corpus DIR | keys FOLDER | memory N | layout | scan FOLDER\n".data(using: .utf8)!)
    exit(2)
}
