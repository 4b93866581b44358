import LightboxThumbnails
import Testing

@testable import LightboxApp

@Test func theMetadataPartAsksOnceAndKeepsTheLatestFewHundred() {
    var part = MetadataState()
    let lib = library([600])
    #expect(part.urgentRequest(for: ItemID(5), file: lib.file(ItemID(5)))?.id == ItemID(5))
    #expect(part.urgentRequest(for: ItemID(5), file: lib.file(ItemID(5))) == nil, "asked already")
    let all = part.requestsForAll(in: lib)
    #expect(all.map(\.id) == lib.ids.filter { $0 != ItemID(5) } && part.requestedCount == 600, "the urgent one is not asked again")
    #expect(part.requestsForAll(in: lib).isEmpty, "each file is asked for once")
    part.record(lib.ids.map { MetadataResult(id: $0, metadata: nil, size: nil) })
    // Past 512 results, the latest 256 stay; one read is not asked for again.
    #expect(part.results.count == MetadataState.kept && part.results[ItemID(599)] != nil && part.results[ItemID(0)] == nil)
    #expect(part.urgentRequest(for: ItemID(599), file: lib.file(ItemID(599))) == nil)
}
