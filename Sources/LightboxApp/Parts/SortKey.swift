import LightboxThumbnails

/// A value items are ordered by: a number (a date, a size) or a text (a kind, a camera), so a
/// sort key of either fits. Texts compare in natural order (case aside, `EOS 5D` before `EOS
/// 10D`), as names do; numbers come before texts.
public enum SortKey: Hashable, Sendable, Comparable {
    case number(Int64)
    case text([UInt8])

    public static func < (a: SortKey, b: SortKey) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): x < y
        case (.text(let x), .text(let y)): NaturalOrder.compare(x, y) < 0
        case (.number, .text): true
        case (.text, .number): false
        }
    }
}
