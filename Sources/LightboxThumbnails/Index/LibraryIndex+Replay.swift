extension LibraryIndex {
    /// What earlier visits found under the folder `root`, handed to `emit` as a scan of it would
    /// hand it out: a batch a folder, in the walk's order (a folder's images in natural order,
    /// then its subfolders'), each image with the metadata kept for it. A folder is read from the
    /// database when its turn comes, so the first folders' batches come at once however large the
    /// index. Nothing on `root`'s mount is looked at; the scan that follows says what changed
    /// (see `Library.appendFromIndex`). Whether `emit` took them all (false: it stopped).
    /// - Complexity: O(*k* log *n*) for *k* images and folders kept under `root`.
    @discardableResult
    public func replay(under root: ImagePath, pairs: Bool, emit: (Scanner.Batch) -> Bool) -> Bool {
        let slash = UInt8(ascii: "/")
        var key = root.absoluteBytes
        while key.count > 1, key.last == slash { key.removeLast() }
        let below = key.count == 1 ? key : key + [slash]
        // The folders the index listed, as each one's subfolders' names.
        var children: [[UInt8]: Set<[UInt8]>] = [:]
        for folder in folders(under: key) where folder.count > below.count {
            let cut = folder.lastIndex(of: slash)!
            children[cut == 0 ? [slash] : Array(folder[..<cut]), default: []].insert(Array(folder[(cut + 1)...]))
        }
        // Depth first, each level in natural order: the walk's.
        var stack: [(folder: [UInt8], path: ImagePath)] = [(key, root)]
        while let (folder, path) = stack.popLast() {
            let known = children[folder] ?? []
            let (images, others) = images(in: folder, skipping: Array(known))
            if !images.isEmpty {
                var names = NameList()
                for (name, _) in images { name.withUnsafeBufferPointer { names.append($0, type: 0) } }
                let known = names.naturalOrder().map { (path: path.appending(images[$0].name), record: images[$0].record) }
                guard emit(batch(of: known, in: path, pairs: pairs)) else { return false }
            }
            let subfolders = known.union(others).map { ($0, Self.naturalKey($0)) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }
            for (name, _) in subfolders.reversed() {
                stack.append((folder.count == 1 ? folder + name : folder + [slash] + name, path.appending(name)))
            }
        }
        return true
    }

    /// What the index knows of the files at `paths` (a list on standard input, say), before
    /// anything is looked at: a batch for each run of paths in one folder, each image as an
    /// earlier visit found it, with its metadata; what the index does not know as an image is
    /// left out (the walk that follows finds it, or says what it is). Paths named twice are
    /// recalled once.
    /// - Complexity: O(*k* log *n*) for *k* paths.
    public func recall(_ paths: [ImagePath], pairs: Bool) -> [Scanner.Batch] {
        var batches: [Scanner.Batch] = [], run: [(path: ImagePath, record: Record)] = [], seen = Set<ImagePath>()
        for (path, record) in zip(paths, records(of: paths)) {
            guard let record, record.format != nil, seen.insert(path).inserted else { continue }
            if let last = run.last, last.path.parent != path.parent {
                batches.append(batch(of: run, in: last.path.parent, pairs: pairs))
                run = []
            }
            run.append((path, record))
        }
        if let last = run.last { batches.append(batch(of: run, in: last.path.parent, pairs: pairs)) }
        countReplayed(seen.count)
        return batches
    }

    /// A batch from the index of the images `known` (their records), in `folder`, in their order; files of one stem
    /// made pairs (`pairs`), as the walk makes them.
    /// Each item's decision as its files' copies say it comes with it (`Batch.indexedDecisions`).
    func batch(of known: [(path: ImagePath, record: Record)], in folder: ImagePath, pairs: Bool) -> Scanner.Batch {
        var files: [ImageFile] = [], metadata: [IndexedMetadata?] = [], decisions: [Scanner.IndexedDecision?] = []
        files.reserveCapacity(known.count)
        metadata.reserveCapacity(known.count)
        decisions.reserveCapacity(known.count)
        for (path, record) in known {
            guard let format = record.format else { continue }
            files.append(ImageFile(path: path, byteCount: record.byteCount, modified: record.modified, format: format))
            metadata.append(record.metadata)
            decisions.append(Scanner.IndexedDecision([record.decision]))
        }
        if pairs, Pairing.hasPair(files) {
            var byPath: [[UInt8]: Record] = [:]
            for (path, record) in known { byPath[path.bytes] = record }
            files = Pairing.group(files)
            metadata = files.map { byPath[$0.path.bytes]?.metadata }
            decisions = files.map { file in Scanner.IndexedDecision(file.memberPaths.map { byPath[$0.bytes]?.decision }) }
        }
        countDecisionsShown(decisions.reduce(0) { $0 + ($1.map { $0.decision.isEmpty ? 0 : 1 } ?? 0) })
        var batch = Scanner.Batch(folder: folder, files: files, indexed: metadata)
        batch.indexedDecisions = decisions
        return batch
    }

    /// All of `replay(under:pairs:emit:)`'s batches at once.
    /// - Complexity: as `replay(under:pairs:emit:)`.
    public func replay(under root: ImagePath, pairs: Bool) -> [Scanner.Batch] {
        var batches: [Scanner.Batch] = []
        replay(under: root, pairs: pairs) {
            batches.append($0); return true
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
