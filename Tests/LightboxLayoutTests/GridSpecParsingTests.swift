import LightboxLayout
import Testing

@Test func columnSpecsReadAsGridItems() throws {
    #expect(try GridSpec(parsing: "3") == .flexible(count: 3))
    let mixed = try GridSpec(parsing: "fixed:12, flexible ,flexible:20-40:trailing,adaptive:leading", rowSpacing: 0, columnSpacing: 1)
    #expect(
        mixed.columns == [
            GridItem(.fixed(12)), GridItem(.flexible(minimum: 1, maximum: Int.max)),
            GridItem(.flexible(minimum: 20, maximum: 40), alignment: .trailing),
            GridItem(.adaptive(minimum: 16, maximum: 24), alignment: .leading),
        ])
    #expect(mixed.rowSpacing == 0 && mixed.columnSpacing == 1)
    #expect(try GridSpec(parsing: "adaptive:10").columns == [GridItem(.adaptive(minimum: 10, maximum: 18))])
    #expect(try GridSpec(parsing: "flexible:30").columns == [GridItem(.flexible(minimum: 30, maximum: Int.max))])
    #expect(try GridSpec.spacing(parsing: "0,3") == (0, 3))
    #expect(try GridSpec.spacing(parsing: "2") == (2, 2))
}

@Test func aBadColumnSpecNamesThePartThatIsWrong() {
    func message(_ text: String) -> String {
        do { _ = try GridSpec(parsing: text); return "no error" } catch { return "\(error)" }
    }
    #expect(message("fixed:12,fixd:3") == "'fixd:3' (column item 2 of 2): unknown kind 'fixd'; use adaptive, flexible or fixed")
    #expect(message("fixed") == "'fixed': fixed needs a width, as fixed:12")
    #expect(message("fixed:0") == "'fixed:0': the width '0' is not a number from 1 to 1000")
    #expect(message("flexible:40-20") == "'flexible:40-20': MAX 20 is less than MIN 40")
    #expect(message("adaptive:3") == "'adaptive:3': MIN must be 4 to 1000, not 3")
    #expect(message("adaptive:x-9") == "'adaptive:x-9': 'x-9' is not MIN or MIN-MAX in cells")
    #expect(message("fixed:12:middle") == "'fixed:12:middle': 'middle' is not an alignment; use leading, center or trailing")
    #expect(message("fixed:1:2:3") == "'fixed:1:2:3': too many ':' parts; the form is KIND[:MIN[-MAX]][:ALIGNMENT]")
    #expect(message("fixed:12,") == "'' (column item 2 of 2): an empty column item; use adaptive, flexible or fixed:W")
    #expect(message("101") == "the number of columns must be 1 to 100, not 101")
    #expect(throws: GridSpec.ParseError.self) { try GridSpec.spacing(parsing: "1,x") }
    #expect(throws: GridSpec.ParseError.self) { try GridSpec.spacing(parsing: "1,2,3") }
}

@Test func alignmentsCarryIntoTheResolvedColumns() throws {
    let spec = try GridSpec(parsing: "fixed:10:leading,adaptive:10-12:trailing")
    let columns = spec.resolvedColumns(forWidth: 60)
    #expect(columns.first?.alignment == .leading)
    #expect(columns.count > 2 && columns.dropFirst().allSatisfy { $0.alignment == .trailing })
    #expect(GridItem.Alignment.leading.offset(of: 4, in: 10) == 0)
    #expect(GridItem.Alignment.center.offset(of: 4, in: 10) == 3)
    #expect(GridItem.Alignment.trailing.offset(of: 4, in: 10) == 6)
}
