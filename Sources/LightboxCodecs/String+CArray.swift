extension String {
    /// The text of a NUL-terminated character array a C library filled (a message, a codec's name).
    init<T>(cArray array: T) {
        self = withUnsafeBytes(of: array) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
