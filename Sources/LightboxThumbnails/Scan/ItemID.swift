/// What names a file of the library for as long as the session lasts, whatever the order: the
/// number the scan gave it. A position (where an item is in the current order) is a plain `Int`;
/// an id is not a position, and the type keeps the two apart.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The scan's number: 0 for the first file found.
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public static func < (a: ItemID, b: ItemID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}
