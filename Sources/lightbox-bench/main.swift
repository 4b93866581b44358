import Foundation
import LightboxApp

// lightbox-bench: the parts of `make bench` measured inside the process.
//   corpus DIR     make the benchmark corpus under DIR if missing
//   media DIR      make the phone and camera corpus under DIR/media if missing
//   keys FOLDER [MODE]  keystroke-to-frame latency while decoding (MODE: a --graphics mode)
//   memory N       resident memory of a synthetic library of N items
//   filter N       a filter keystroke over N items with their decisions
//   decisions FOLDER [LOCAL]  a decision's key to its frame, writing sidecars into FOLDER and not
//                  (LOCAL: the same tree on a local disk, scanned instead of FOLDER)
//   flips FOLDER MODE [nothing-ahead|held]  a flip in the preview, key to the last byte of its picture (MODE: kitty, sixel, iterm)
//   compare FOLDER MODE                       compare of three photos at 100%: a pan, key to the last byte of their pictures
//   playback DIR MODE  a video playing in the preview: frames shown a second (MODE: kitty, sixel, iterm)
//   parts DIR      a zoomed view's part of an 8000x6000 JPEG (made in DIR), against the whole and djpeg -crop
//   layout         layout of a million items and the visible-range query
//   pictures       the view, paint and picture bytes of each picture mode while scrolling
//   scan FOLDER    the streaming scan of a folder, and the memory of its library
//   replay INDEX FOLDER  the index's replay of FOLDER (INDEX: the folder of its index.sqlite), and the walk checking it
//   relaunch INDEX FOLDER  the index's replay of FOLDER taken into a gallery by date, as the run loop takes it
//   record N       the library's recording of N photos' metadata, with cameras and lenses and with dates alone
//   dates N        N photos' dates arriving a thousand at a time into a library by date, each batch arranged
//   kitty FOLDER   bytes and time of each way to send the folder's thumbnails to kitty
//   exif FOLDER    the folder's EXIF thumbnails decoded by our own decoder and by libjpeg-turbo

let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("corpus", 2): try Corpus.make(at: arguments[1])
case ("media", 2): try Corpus.makeMedia(at: arguments[1])
case ("keys", 2): print(try Measurements.keystrokes(folder: arguments[1]))
case ("keys", 3):
    guard let graphics = Graphics(rawValue: arguments[2]) else { exit(2) }
    print(try Measurements.keystrokes(folder: arguments[1], graphics: graphics))
case ("memory", 2): print(Measurements.memory(items: Int(arguments[1]) ?? 100_000))
case ("decisions", 2): print(try Measurements.decisionKeys(folder: arguments[1]))
case ("decisions", 3): print(try Measurements.decisionKeys(folder: arguments[1], scannedAt: arguments[2]))
case ("flips", 3), ("flips", 4):
    guard let graphics = Graphics(rawValue: arguments[2]) else { exit(2) }
    let held = arguments.count == 4 && arguments[3] == "held"
    print(
        try Measurements.flips(folder: arguments[1], graphics: graphics, ahead: arguments.count < 4 || arguments[3] != "nothing-ahead", pause: held ? 0.1 : 0.6)
    )
case ("compare", 3):
    guard let graphics = Graphics(rawValue: arguments[2]) else { exit(2) }
    print(try Measurements.comparePans(folder: arguments[1], graphics: graphics))
case ("parts", 2): print(try Measurements.parts(folder: arguments[1]))
case ("playback", 3):
    guard let graphics = Graphics(rawValue: arguments[2]) else { exit(2) }
    print(try Measurements.playback(folder: arguments[1], graphics: graphics))
case ("filter", 2): print(Measurements.filterKeystrokes(items: Int(arguments[1]) ?? 100_000))
case ("record", 2): print(Measurements.recordMetadata(items: Int(arguments[1]) ?? 100_000))
case ("dates", 2): print(Measurements.datesArriving(items: Int(arguments[1]) ?? 100_000))
case ("layout", 1): print(Measurements.layout())
case ("pictures", 1): print(try Measurements.pictureModes())
case ("scan", 2): print(Measurements.scan(folder: arguments[1]))
case ("replay", 3): print(Measurements.replay(index: arguments[1], library: arguments[2]))
case ("relaunch", 3): print(Measurements.relaunch(index: arguments[1], library: arguments[2]))
case ("kitty", 2): print(try Measurements.kittyEncodings(folder: arguments[1]))
case ("exif", 2): print(Measurements.exifThumbnails(folder: arguments[1]))
default:
    FileHandle.standardError.write(
        "usage: lightbox-bench corpus DIR | media DIR | keys FOLDER [MODE] | memory N | filter N | decisions FOLDER [LOCAL] | flips FOLDER MODE [nothing-ahead|held] | compare FOLDER MODE | parts DIR | playback DIR MODE | layout | pictures | scan FOLDER | replay INDEX FOLDER | relaunch INDEX FOLDER | record N | dates N | kitty FOLDER | exif FOLDER\n"
            .data(
                using: .utf8)!)
    exit(2)
}
