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
        replay(under: root, pairs: pairs) { batch, _ in emit(batch) }
    }

    /// As `replay(under:pairs:emit:)`, each batch handed with how many of the folders the index
    /// knows under `root` are still to come (with images or not): what is left, roughly.
    @discardableResult
    public func replay(under root: ImagePath, pairs: Bool, emit: (Scanner.Batch, _ foldersLeft: Int) -> Bool) -> Bool {
        let slash = UInt8(ascii: "/")
        let key = root.absoluteBytes
        let below = key.count == 1 ? key : key + [slash]
        // The folders the index listed, as each one's subfolders' names.
        var children: [[UInt8]: Set<[UInt8]>] = [:]
        for folder in folders(under: key) where folder.count > below.count {
            let cut = folder.lastIndex(of: slash)!
            children[cut == 0 ? [slash] : Array(folder[..<cut]), default: []].insert(Array(folder[(cut + 1)...]))
        }
        // Depth first, each level in natural order: the walk's.
        var stack: [(folder: [UInt8], path: ImagePath)] = [(key, root)]
        var foldersLeft = 1 + children.values.reduce(0) { $0 + $1.count }
        while let (folder, path) = stack.popLast() {
            foldersLeft = max(0, foldersLeft - 1)
            let known = children[folder] ?? []
            var found = images(in: folder, skipping: Array(known))
            if !found.names.isEmpty {
                var names = NameList()
                for name in found.names { name.withUnsafeBufferPointer { names.append($0, type: 0) } }
                // The records moved into the walk's order, not copied (a copy retains each of their texts).
                var paths: [ImagePath] = [], records: [Record] = []
                paths.reserveCapacity(found.names.count)
                records.reserveCapacity(found.names.count)
                for i in names.naturalOrder() {
                    paths.append(path.appending(found.names[i]))
                    var record = Record(byteCount: 0, modified: 0)
                    swap(&record, &found.records[i])
                    records.append(record)
                }
                guard emit(batch(of: paths, records, in: path, pairs: pairs), foldersLeft) else { return false }
            }
            let subfolders = known.union(found.others).filter { !DirectoryEntry.isHidden($0) }.map { ($0, Self.naturalKey($0)) }.sorted {
                $0.1.lexicographicallyPrecedes($1.1)
            }
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
        var batches: [Scanner.Batch] = [], run: [ImagePath] = [], runRecords: [Record] = [], seen = Set<ImagePath>()
        for (path, record) in zip(paths, records(of: paths)) {
            guard let record, record.format != nil, seen.insert(path).inserted else { continue }
            if let last = run.last, last.parent != path.parent {
                batches.append(batch(of: run, runRecords, in: last.parent, pairs: pairs))
                (run, runRecords) = ([], [])
            }
            run.append(path)
            runRecords.append(record)
        }
        if let last = run.last { batches.append(batch(of: run, runRecords, in: last.parent, pairs: pairs)) }
        countReplayed(seen.count)
        return batches
    }

    /// A batch from the index of the images at `paths` (`records`, theirs), in `folder`, in their
    /// order; files of one stem made pairs (`pairs`), as the walk makes them. Each item's
    /// decision as its files' copies say it comes with it (`Batch.indexedDecisions`).
    func batch(of paths: [ImagePath], _ records: consuming [Record], in folder: ImagePath, pairs: Bool) -> Scanner.Batch {
        var files: [ImageFile] = [], metadata: [IndexedMetadata?] = [], copies: [KnownDecision?] = []
        files.reserveCapacity(paths.count)
        metadata.reserveCapacity(paths.count)
        copies.reserveCapacity(paths.count)
        for i in paths.indices {
            guard let format = records[i].format else { continue }
            files.append(ImageFile(path: paths[i], byteCount: records[i].byteCount, modified: records[i].modified, format: format))
            var kept: IndexedMetadata?
            swap(&kept, &records[i].metadata)  // moved, not copied
            metadata.append(kept)
            copies.append(records[i].decision)
        }
        var decisions = copies.map { Scanner.IndexedDecision(single: $0) }
        if pairs, Pairing.hasPair(files) {
            // Each file's place before they were grouped, for its metadata and its decision's copy.
            var place: [[UInt8]: Int] = [:]
            for (i, file) in files.enumerated() { place[file.path.bytes] = i }
            let single = metadata
            files = Pairing.group(files)
            metadata = files.map { place[$0.path.bytes].flatMap { single[$0] } }
            decisions = files.map { file in Scanner.IndexedDecision(file.memberPaths.map { place[$0.bytes].flatMap { copies[$0] } }) }
        }
        countDecisionsShown(decisions.reduce(0) { $0 + ($1.map { $0.decision.isEmpty ? 0 : 1 } ?? 0) })
        countMetadataShown(metadata.reduce(0) { $0 + ($1 == nil ? 0 : 1) })
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
