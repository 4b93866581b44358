import Foundation
import LightboxTestSupport
import LightboxThumbnails

extension Corpus {
    /// A phone's dump and a camera's card, under `root/media`: raw/ (12 DNGs of 4000x3000 sensor
    /// data with a 1616x1080 JPEG preview each), card/ (12 RAW+JPEG pairs and the 12 DNGs alone),
    /// heic/ (8 HEICs of the photos, with a 320-pixel thumbnail as phones store), videos/ (8 phone videos: 1080p, 8 s, half turned a
    /// quarter, half fading in), mixed24/ (8 of each, as links). Made once, with ffmpeg and heif-enc.
    static func makeMedia(at root: String) throws {
        let media = root + "/media"
        let manager = FileManager.default
        for folder in ["raw", "card", "heic", "videos", "mixed24"] {
            try manager.createDirectory(atPath: "\(media)/\(folder)", withIntermediateDirectories: true)
        }
        let photos = (0..<24).map { "\(root)/photos24/IMG_\(1000 + $0).jpg" }
        let base = Corpus.base(seed: 0.3)
        // The JPEG-only folder the mixed one is compared with (as `corpus` makes it).
        let bases = (0..<6).map { Corpus.base(seed: Double($0) * 1.7 + 0.3) }
        for (i, path) in photos.enumerated() where !manager.fileExists(atPath: path) {
            try Corpus.write((path, i % bases.count, i, false, false), base: bases[i % bases.count])
        }
        for i in 0..<12 where !manager.fileExists(atPath: "\(media)/raw/DSC_\(100 + i).DNG") {
            let picture = Corpus.variant(of: base, variant: 5000 + i)
            let preview = picture.downscaled(toFit: PixelSize(width: 1616, height: 1080))
            let jpeg = try TestImages.jpegBytes(preview.pixels, width: preview.width, height: preview.height, quality: 85)
            let dng = TestRaws.dng(
                preview: jpeg, previewSize: (preview.width, preview.height), orientation: i % 4 == 0 ? 6 : 1,
                sensor: (width, height))
            try TestImages.bytes(dng, at: "\(media)/raw/DSC_\(100 + i).DNG")
            print("  raw \(i + 1)/12")
        }
        for i in 0..<12 {
            let dng = "\(media)/card/IMG_\(2000 + i).DNG", jpg = "\(media)/card/IMG_\(2000 + i).JPG"
            if !manager.fileExists(atPath: dng) { try manager.linkItem(atPath: "\(media)/raw/DSC_\(100 + i).DNG", toPath: dng) }
            if !manager.fileExists(atPath: jpg) { try manager.linkItem(atPath: photos[i], toPath: jpg) }
            let alone = "\(media)/card/DSC_\(100 + i).DNG"
            if !manager.fileExists(atPath: alone) { try manager.linkItem(atPath: "\(media)/raw/DSC_\(100 + i).DNG", toPath: alone) }
        }
        for i in 0..<8 where !manager.fileExists(atPath: "\(media)/heic/IMG_\(3000 + i).HEIC") {
            try runTool(["heif-enc", "-q", "60", "-t", "320", photos[12 + i], "-o", "\(media)/heic/IMG_\(3000 + i).HEIC"])
            print("  heic \(i + 1)/8")
        }
        for i in 0..<8 where !manager.fileExists(atPath: "\(media)/videos/VID_\(4000 + i).MP4") {
            let path = "\(media)/videos/VID_\(4000 + i).MP4"
            var arguments = [
                "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=8,noise=alls=12:allf=t", "-g", "30",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
            ]
            if i % 2 == 1 { arguments += ["-vf", "fade=in:0:60"] }
            if i % 2 == 0 {
                try TestVideos.ffmpeg(arguments + [path + ".plain.mp4"])
                try TestVideos.ffmpeg(["-i", path + ".plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", path])
                try manager.removeItem(atPath: path + ".plain.mp4")
            } else {
                try TestVideos.ffmpeg(arguments + [path])
            }
            print("  video \(i + 1)/8")
        }
        for i in 0..<8 {
            for (folder, name) in [("raw", "DSC_\(100 + i).DNG"), ("heic", "IMG_\(3000 + i).HEIC"), ("videos", "VID_\(4000 + i).MP4")] {
                let link = "\(media)/mixed24/\(name)"
                if !manager.fileExists(atPath: link) { try manager.createSymbolicLink(atPath: link, withDestinationPath: "\(media)/\(folder)/\(name)") }
            }
        }
    }
}
