#if canImport(Glibc)
    import Glibc
#endif

/// Framed messages over pipes: blocking writes, reads with an optional deadline.
public enum MessageChannel {
    public enum ReadFailure: Error, Hashable { case closed, timedOut, malformed }

    /// Writes all of `bytes`; false when the other end has gone. On a socket a vanished reader
    /// is an error, never SIGPIPE.
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == ENOTSOCK { return FileReader.writeAll(Array(bytes[written...]), to: fd) }  // a pipe
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            written += n
        }
        return true
    }

    /// Writes `parts` as one message, none copied into another: one `sendmsg` when the socket
    /// takes it all (so the reader wakes once, not once a part), the rest part by part.
    public static func write(parts: [[UInt8]], to fd: Int32) -> Bool {
        let total = parts.reduce(0) { $0 + $1.count }
        var sent = gathered(parts, to: fd)
        if sent == total { return true }
        if sent < 0 { sent = 0 }  // not a socket, or refused: write plainly
        for part in parts {
            if sent >= part.count { sent -= part.count; continue }
            guard write(sent == 0 ? part : Array(part[sent...]), to: fd) else { return false }
            sent = 0
        }
        return true
    }

    /// One `sendmsg` of all `parts`: the bytes sent, or -1.
    static func gathered(_ parts: [[UInt8]], to fd: Int32) -> Int {
        func send(_ index: Int, _ vectors: inout [iovec]) -> Int {
            guard index < parts.count else {
                return vectors.withUnsafeMutableBufferPointer { buffer in
                    var message = msghdr()
                    message.msg_iov = buffer.baseAddress
                    message.msg_iovlen = buffer.count
                    var n = -1
                    repeat { n = sendmsg(fd, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } while n < 0 && errno == EINTR
                    return n
                }
            }
            return parts[index].withUnsafeBytes { bytes in
                if bytes.count > 0 { vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)) }
                return send(index + 1, &vectors)
            }
        }
        var vectors: [iovec] = []
        return send(0, &vectors)
    }

    /// Reads one framed message body, waiting at most `seconds` (nil: forever).
    public static func read(from fd: Int32, within seconds: Double? = nil) -> Result<[UInt8], ReadFailure> {
        let deadline = seconds.map { now() + $0 }
        var header = [UInt8](repeating: 0, count: 4)
        if let failure = fill(&header, from: fd, deadline: deadline) { return .failure(failure) }
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard length <= DecodeMessage.maxBody else { return .failure(.malformed) }
        var body = [UInt8](repeating: 0, count: length)
        if let failure = fill(&body, from: fd, deadline: deadline) { return .failure(failure) }
        return .success(body)
    }

    static func fill(_ buffer: inout [UInt8], from fd: Int32, deadline: Double?) -> ReadFailure? {
        var filled = 0
        while filled < buffer.count {
            if let deadline {
                let left = deadline - now()
                if left <= 0 { return .timedOut }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(min(left * 1000 + 1, 60_000)))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { continue }  // the loop re-checks the deadline
            }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return .closed }
            filled += n
        }
        return nil
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// The decoder process's side: answers requests on `input` until it closes.
public enum DecodeWorker {
    public static func serve(input: Int32, output: Int32, pipeline: ThumbnailPipeline) {
        // Counted from the last answer on, so entries written between requests are reported too.
        var before = pipeline.statistics.counts
        while true {
            // Deferred cache entries are written while no request waits.
            if let deferred = pipeline.deferredWrites, let cache = pipeline.diskCache {
                while deferred.count > 0 && !isReadable(input) { deferred.writeOne(to: cache, statistics: pipeline.statistics) }
            }
            guard case .success(let body) = MessageChannel.read(from: input) else { return }
            let request = DecodeMessage.request(from: body)
            let answer: DecodeMessage.Response.Body
            switch request {
            case .decode(let file, let box, let smallerSuffices):
                var given = pipeline
                given.smallerSuffices = smallerSuffices
                answer = .decoded(given.decode(file, fitting: box))
            case .decodeRead(let file, let box, let contents):
                var given = pipeline
                given.contents = contents
                answer = .decoded(given.decode(file, fitting: box))
            case .decodeFrames(let file, let box): answer = .decoded(pipeline.decodeFrames(file, fitting: box))
            case .decodeRegion(let file, let box, let region): answer = .decoded(pipeline.decodeRegion(file, region: region, fitting: box))
            case .decodeClip(let file, let box, let start): answer = .decoded(pipeline.decodeClip(file, from: start, fitting: box))
            case .warm(let file, let size): answer = .warmed(pipeline.warm(file, size: size))
            case .finish: answer = .finished
            case .readDecision(let file, let keptRoot, let unless):
                // The stamp before the read: a change made meanwhile makes the next stamp differ.
                let (stamp, found) = DecisionStamp.look(photo: file.path, keptIn: keptRoot)
                var read = DecisionRead(decision: nil)
                if stamp == unless {
                    read.isUnchanged = true
                } else {
                    read =
                        pipeline.codecs?.readDecision(photo: file.path, keptIn: keptRoot, found: found)
                        ?? DecisionRead(decision: nil, problem: "this decoder has no XMP library")
                }
                read.stamp = stamp
                answer = .decisionRead(read)
            case .writeDecision(let file, let decision, let fields, let policy):
                answer = .decisionWritten(
                    pipeline.codecs?.writeDecision(decision, fields: fields, photo: file.path, policy: policy) ?? .failed("this decoder has no XMP library"))
            // The frame was whole, so the channel is sound: say so and serve the next request.
            case nil: answer = .decoded(.failed(.decoder("the decoder could not read the request")))
            }
            let counts = pipeline.statistics.counts
            let response = DecodeMessage.Response(body: answer, counts: counts.since(before))
            before = counts
            guard MessageChannel.write(parts: DecodeMessage.encodeParts(response), to: output) else { return }
            // The app is ending: what was counted went with the answer, and nothing more is written.
            if request == .finish { return }
        }
    }

    /// Whether a request is waiting on `descriptor` (or it closed).
    static func isReadable(_ descriptor: Int32) -> Bool {
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0
    }
}
