extension LibraryIndex {
    /// What earlier visits found under the folder `root`, as a scan of it would hand it out: a
    /// batch a folder, in the walk's order (a folder's images in natural order, then its
    /// subfolders'), each image with the metadata kept for it. Nothing on `root`'s mount is looked
    /// at; the scan that follows says what changed (see `Library.appendFromIndex`).
    /// - Complexity: O(*k* log *k*) for *k* images kept under `root`.
    public func replay(under root: ImagePath, pairs: Bool) -> [Scanner.Batch] {
        let slash = UInt8(ascii: "/")
        var key = root.absoluteBytes
        while key.count > 1, key.last == slash { key.removeLast() }
        let found = images(under: key)
        guard !found.isEmpty else { return [] }
        let skipped = key.count == 1 ? 1 : key.count + 1
        var byFolder: [[UInt8]: NameList] = [:]
        var records: [[UInt8]: Record] = [:]
        for (path, record) in found {
            let relative = path.dropFirst(skipped)
            let cut = relative.lastIndex(of: slash)
            let folder = cut.map { Array(relative[..<$0]) } ?? []
            let name = cut.map { relative[relative.index(after: $0)...] } ?? relative
            name.withUnsafeBufferPointer { byFolder[folder, default: NameList()].append($0, type: 0) }
            records[Array(relative)] = record
        }
        // Folders in the walk's order: depth first, each level in natural order.
        let folders = byFolder.keys.map { folder in (folder, folder.split(separator: slash).map { Self.naturalKey(Array($0)) }) }
            .sorted { a, b in a.1.lexicographicallyPrecedes(b.1) { $0.lexicographicallyPrecedes($1) } }
        var batches: [Scanner.Batch] = []
        for (folder, _) in folders {
            var path = root
            for component in folder.split(separator: slash) { path = path.appending(Array(component)) }
            let names = byFolder[folder]!
            var files: [ImageFile] = []
            var metadata: [[UInt8]: IndexedMetadata] = [:]
            for i in names.naturalOrder() {
                let name = Array(names.name(i))
                guard let record = records[folder.isEmpty ? name : folder + [slash] + name], let format = record.format else { continue }
                let file = ImageFile(path: path.appending(name), byteCount: record.byteCount, modified: record.modified, format: format)
                files.append(file)
                if let known = record.metadata { metadata[file.path.bytes] = known }
            }
            if pairs { files = Pairing.group(files) }
            batches.append(Scanner.Batch(folder: path, files: files, indexed: files.map { metadata[$0.path.bytes] }))
        }
        return batches
    }

    /// A name's natural-order key: keys compare as bytes in the order `NameList` sorts names.
    static func naturalKey(_ name: [UInt8]) -> [UInt8] {
        var key: [UInt8] = []
        name.withUnsafeBufferPointer { NaturalOrder.appendKey(of: $0, to: &key) }
        return key
    }
}
