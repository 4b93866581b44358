import LightboxThumbnails

/// What the filter knows of a photo from its metadata: kept for every item in a few bytes (the
/// info panel's whole metadata is kept for the latest few hundred only), so that a filter over
/// 100,000 photos reads arrays.
public struct ItemDetails: Hashable, Sendable {
    /// The camera (make and model) and the lens, as numbers into the library's `NameTable`; 0: not said.
    var camera: Int32 = 0
    var lens: Int32 = 0
    /// ISO speed; 0: not said.
    var iso: Int32 = 0
    /// Animation frames; 0 or 1: a still.
    var frameCount: Int32 = 0
    /// The f-number and the focal length in millimetres; 0: not said.
    var fNumber: Float = 0
    var focalLength: Float = 0
    /// Whether the file's metadata was read (what it did not say stays 0).
    var isRead = false

    /// What `metadata` says, its names numbered in `names`.
    init(_ metadata: ImageMetadata?, names: inout NameTable) {
        guard let metadata else {
            self.init()
            isRead = true
            return
        }
        self.init(
            camera: names.camera(make: metadata.make, model: metadata.model), lens: names.lens(metadata.lens), iso: metadata.iso,
            frameCount: metadata.frameCount, fNumber: metadata.fNumber, focalLength: metadata.focalLength)
    }

    /// A read file's details, its camera and lens numbered already.
    init(camera: Int32, lens: Int32, iso: Int?, frameCount: Int?, fNumber: Double?, focalLength: Double?) {
        isRead = true
        self.camera = camera
        self.lens = lens
        self.iso = Int32(clamping: iso ?? 0)
        self.frameCount = Int32(clamping: frameCount ?? 0)
        self.fNumber = Float(fNumber.map { $0.isFinite && $0 > 0 ? $0 : 0 } ?? 0)
        self.focalLength = Float(focalLength.map { $0.isFinite && $0 > 0 ? $0 : 0 } ?? 0)
    }

    init() {}

    /// The camera's name: the make, then the model unless the model already starts with it
    /// (`Canon` `Canon EOS R5` is `Canon EOS R5`; `FUJIFILM` `X100V` is `FUJIFILM X100V`).
    public static func camera(make: String?, model: String?) -> String? {
        let make = make?.trimmingSpaces ?? "", model = model?.trimmingSpaces ?? ""
        if make.isEmpty { return model.isEmpty ? nil : model }
        if model.isEmpty || model.lowercased().hasPrefix(make.lowercased()) { return model.isEmpty ? make : model }
        return make + " " + model
    }
}

/// Camera and lens names, each kept once and numbered from 1, with each name's folded form for
/// the filter (`camera:x100v` finds `FUJIFILM X100V`).
public struct NameTable: Hashable, Sendable {
    /// Folded names (lower case, no spaces, hyphens or underscores) by number; 0 is no name.
    private(set) var folded: [[UInt8]] = [[]]
    private var numbers: [String: Int32] = [:]
    /// The last camera and lens numbered: a library's photos come in runs of one camera, and
    /// naming each (trimmed, compared folded, looked up) was most of recording its metadata.
    private var lastCamera: Asked?
    private var lastLens: Asked?

    /// What was asked for (a camera's make and model; a lens's name), and the number answered.
    private struct Asked: Sendable {
        var name: String?
        var model: String? = nil
        var number: Int32
    }

    /// The number of the camera `make` and `model` name (`ItemDetails.camera(make:model:)`).
    mutating func camera(make: String?, model: String?) -> Int32 {
        if let last = lastCamera, last.name == make, last.model == model { return last.number }
        let number = number(of: ItemDetails.camera(make: make, model: model))
        lastCamera = Asked(name: make, model: model, number: number)
        return number
    }

    /// The number of the lens `name`.
    mutating func lens(_ name: String?) -> Int32 {
        if let last = lastLens, last.name == name { return last.number }
        let number = number(of: name)
        lastLens = Asked(name: name, number: number)
        return number
    }

    /// Tables holding the same names are equal, whatever was asked last.
    public static func == (a: NameTable, b: NameTable) -> Bool { a.folded == b.folded && a.numbers == b.numbers }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
        hasher.combine(numbers)
    }

    /// The number of `name`, numbering it when new; 0 for none.
    mutating func number(of name: String?) -> Int32 {
        guard let name, !name.isEmpty else { return 0 }
        if let known = numbers[name] { return known }
        let number = Int32(folded.count)
        folded.append(Self.fold(name))
        numbers[name] = number
        return number
    }

    /// Which names (by number) hold `part` (already folded).
    /// - Complexity: O(*k* × *m*) for *k* names.
    func holding(_ part: [UInt8]) -> [Bool] {
        folded.map { !part.isEmpty && $0.containsRun(part) }
    }

    /// `text` lower case, without spaces, hyphens and underscores, as bytes.
    static func fold(_ text: String) -> [UInt8] {
        text.lowercased().utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
    /// Where `part` first stands in these bytes, if it does.
    /// - Complexity: O(*n* × *m*).
    func firstStart(ofRun part: [UInt8]) -> Int? {
        guard part.count <= count else { return nil }
        for start in startIndex...(endIndex - part.count) where self[start..<(start + part.count)].elementsEqual(part) { return start }
        return nil
    }

    /// Whether `part` stands somewhere in these bytes.
    /// - Complexity: O(*n* × *m*).
    func containsRun(_ part: [UInt8]) -> Bool { firstStart(ofRun: part) != nil }
}
