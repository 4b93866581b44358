import Testing

@testable import LightboxThumbnails

/// Names built from the characters where natural order is subtle: digits, zeros, case, punctuation.
private func randomName<G: RandomNumberGenerator>(using rng: inout G) -> [UInt8] {
    let alphabet = Array("0019aAbB_. -~".utf8) + [0xC3, 0xA9, 0x7F]
    return (0..<Int.random(in: 1...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
}

@Test func sortingByKeysGivesTheSameOrderAsCompare() {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<20 {
        var list = NameList()
        var names: [[UInt8]] = []
        for _ in 0..<300 {
            let name = randomName(using: &rng)
            names.append(name)
            name.withUnsafeBufferPointer { list.append($0, type: 0) }
        }
        let byKeys = list.naturalOrder().map { names[$0] }
        let byCompare = names.sorted { NaturalOrder.compare($0, $1) < 0 }
        #expect(byKeys == byCompare)
    }
}

@Test func longSharedPrefixesAreOrderedByTheirTails() {
    let names = ["IMG_20230101_123456_2.jpg", "IMG_20230101_123456_10.jpg", "IMG_20230101_123456_1.jpg", "img_20230101_123456.jpg"]
    var list = NameList()
    for name in names { Array(name.utf8).withUnsafeBufferPointer { list.append($0, type: 0) } }
    #expect(
        list.naturalOrder().map { names[$0] } == [
            "img_20230101_123456.jpg", "IMG_20230101_123456_1.jpg", "IMG_20230101_123456_2.jpg", "IMG_20230101_123456_10.jpg",
        ])
}
