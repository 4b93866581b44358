import Dispatch

extension BackgroundScan.Progress {
    /// Lets go of the batches on another thread once taken: freeing a 20,000-file part of the
    /// index's (paths, metadata, decisions) cost the UI a fifth of taking it.
    public consuming func release() {
        let batches = self.batches
        guard !batches.isEmpty else { return }
        Self.releases.async { _ = batches.count }
    }

    private static let releases = DispatchQueue(label: "lightbox-release", qos: .utility)
}
