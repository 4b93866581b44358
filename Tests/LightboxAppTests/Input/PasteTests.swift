import LightboxLayout
import LightboxThumbnails
import Testing

@testable import LightboxApp

@Test func aPasteOutsideTheFilterDoesNothingButSaySo() {
    var state = GalleryState(library: library([4, 3]), spec: threeColumns, width: 40, height: 30)
    let effects = state.apply(.pasted("img\na\nx\n"))
    #expect(effects.isEmpty)
    #expect(state.markedCount == 0 && state.viewport.cursor == 0 && !state.isEditingFilter)
    #expect(state.message?.contains("/") == true)
}

@Test func aPasteIntoTheFilterIsTextWithoutNewlines() {
    var state = GalleryState(library: library([4, 3]), spec: threeColumns, width: 40, height: 30)
    state.apply([.startFilter, .pasted("IMG_\n3\r\t\u{1B}")])
    #expect(state.filter.text == "IMG_3")
    #expect(state.isEditingFilter)
    #expect(state.library.count == 2)  // IMG_3 of each section
    #expect(state.markedCount == 0)
}

@Test func theFilterQueryIsBounded() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    state.apply([.startFilter, .pasted(String(repeating: "x", count: 100_000))])
    #expect(state.filter.text.count == GalleryState.filterLimit)
    #expect(state.message?.contains("at most") == true)
    state.apply([.filterInput("y")])
    #expect(state.filter.text.count == GalleryState.filterLimit)
    state.apply([.filterBackspace, .filterInput("z")])
    #expect(state.filter.text.last == "z" && state.filter.text.count == GalleryState.filterLimit)
}

@Test func theFilterPartEditsItsQueryWithinItsLimit() {
    var filter = FilterState()
    #expect(filter.apply(.startFilter) == .init() && filter.text.isEmpty)
    #expect(filter.apply(.filterInput("ab")) == .init(queryChanged: true) && filter.text == "ab")
    #expect(filter.apply(.filterBackspace).queryChanged && filter.text == "a")
    let long = filter.apply(.filterInput(String(repeating: "x", count: 300)))
    #expect(long.queryChanged && long.message != nil && filter.text.count == FilterState.limit)
    #expect(filter.apply(.filterInput("y")) == .init(message: "the filter holds at most 256 characters"))
    #expect(filter.apply(.acceptFilter) == .init() && filter.text.count == FilterState.limit)
    #expect(filter.apply(.cancelFilter).queryChanged && filter.text.isEmpty)
    #expect(filter.apply(.cancelFilter) == .init(), "nothing to clear")
}
