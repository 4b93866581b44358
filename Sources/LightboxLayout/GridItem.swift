/// One column description, as SwiftUI's `GridItem`.
public struct GridItem: Hashable, Sendable {
    /// How wide a column is, in character cells.
    public enum Size: Hashable, Sendable {
        /// Exactly `width` cells.
        case fixed(Int)
        /// One column sharing the free width, between `minimum` and `maximum` cells.
        case flexible(minimum: Int, maximum: Int)
        /// As many columns as fit the free width, each between `minimum` and `maximum` cells.
        case adaptive(minimum: Int, maximum: Int)
    }

    /// Where a tile's picture and label sit across its column when narrower than it.
    public enum Alignment: String, Hashable, Sendable, CaseIterable {
        case leading, center, trailing

        /// The offset of something `width` wide in a space `room` wide.
        public func offset(of width: Int, in room: Int) -> Int {
            switch self {
            case .leading: 0
            case .center: max(0, (room - width) / 2)
            case .trailing: max(0, room - width)
            }
        }
    }

    public var size: Size
    /// Spacing after this column; `nil` uses the spec's column spacing.
    public var spacing: Int?
    public var alignment: Alignment

    public init(_ size: Size, spacing: Int? = nil, alignment: Alignment = .center) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }
}

/// The column specs of a grid and its spacing.
public struct GridSpec: Hashable, Sendable {
    public var columns: [GridItem]
    public var rowSpacing: Int
    public var columnSpacing: Int

    public init(columns: [GridItem], rowSpacing: Int = 1, columnSpacing: Int = 2) {
        precondition(!columns.isEmpty, "a grid needs at least one column item")
        self.columns = columns
        self.rowSpacing = max(0, rowSpacing)
        self.columnSpacing = max(0, columnSpacing)
    }

    /// The default: as many columns of 16 to 24 cells as fit.
    public static let standard = GridSpec(columns: [GridItem(.adaptive(minimum: 16, maximum: 24))])

    /// `count` equal flexible columns.
    public static func flexible(count: Int, rowSpacing: Int = 1, columnSpacing: Int = 2) -> GridSpec {
        GridSpec(
            columns: Array(repeating: GridItem(.flexible(minimum: 1, maximum: Int.max)), count: max(1, count)),
            rowSpacing: rowSpacing, columnSpacing: columnSpacing)
    }
}
