import BarkeepProtocol
import Foundation
import Testing

/// Inputs of the `framer` fuzz target (Fuzz/framer.swift, `make fuzz`) kept in `FuzzRegressions/framer/`: crashes
/// it found, and inputs written to probe the same checks. Each goes through the target's checks again: byte 0 sets
/// the line limit (8 + byte), byte 1 seeds the chunk sizes, the rest is a connection's stream.
@Suite("Fuzz regressions (framer)")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions/framer")

    static let inputs: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    @Test("the regression inputs are there")
    func inputsFound() {
        #expect(Self.inputs.count >= 3)
    }

    @Test("every input reads the same whole and in chunks, and its lines parse back", arguments: inputs)
    func framer(name: String) throws {
        let input = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        try #require(input.count >= 2)
        let limit = 8 + Int(input[0])
        let stream = Array(input[2...])

        let whole = ConnectionReading(stream: stream, limit: limit, chunks: [stream.count])
        let chunked = ConnectionReading(stream: stream, limit: limit, chunks: Self.chunkSizes(seed: input[1], stream))
        #expect(whole.events == chunked.events)
        #expect(whole.leftover == chunked.leftover)
        #expect(whole.leftover <= limit + 1 || whole.isInPayload)
        for case .line(let line) in whole.events {
            #expect(line.count <= limit && !line.contains(UInt8(ascii: "\n")))
            try checkParsers(line)
        }
        let text = String(decoding: stream, as: UTF8.self)
        for reply in [Reply.ok(text), Reply.error(.badLine, text)] {
            let encoded = reply.encoded
            #expect(encoded.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 1 && encoded.last == "\n")
            let final = try FinalLine(parsing: String(encoded.dropLast()))
            switch (reply, final) {
            case (.ok, .ok), (.error, .error(.badLine, _)): break
            default: Issue.record("\(reply) read back as \(final)")
            }
        }
    }

    /// The fuzz target's chunk sizes: 1 to 64 bytes from a linear congruential generator.
    static func chunkSizes(seed: UInt8, _ stream: [UInt8]) -> [Int] {
        var state = UInt32(seed)
        var sizes: [Int] = []
        var covered = 0
        while covered < stream.count {
            state = state &* 1_103_515_245 &+ 12_345
            sizes.append(min(1 + Int((state >> 16) % 64), stream.count - covered))
            covered += sizes[sizes.count - 1]
        }
        return sizes
    }

    /// A valid line parses as a request, record or final line, or is refused; what parses reads back the same.
    private func checkParsers(_ bytes: [UInt8]) throws {
        let raw = String(decoding: bytes, as: UTF8.self)
        _ = try? Request(line: raw)
        _ = try? Record(parsing: raw)
        _ = (try? FinalLine(parsing: raw))?.fields
        guard let line = try? LineFramer.decode(bytes[...]) else { return }
        if let request = try? Request(line: line), Quoting.isBare(request.verb) {
            #expect(try Request(line: request.line) == request)
        }
        if let record = try? Record(parsing: line) {
            #expect(try Record(parsing: record.encoded) == record)
        }
    }
}

/// One connection's stream read as the server reads it: lines, an `INGEST … SIZE` line's payload taken (or
/// discarded past 64 bytes), a SIZE that is not a number ending the reading.
private struct ConnectionReading {
    enum Event: Equatable {
        case line([UInt8])
        case tooLong
        case payload([UInt8])
        case discarded(Int)
    }

    private enum State {
        case lines
        case payload(Int)
        case discarding(size: Int, remaining: Int)
        case closed
    }

    private(set) var events: [Event] = []
    private(set) var leftover = 0
    private var state = State.lines

    var isInPayload: Bool {
        switch state {
        case .payload, .discarding: true
        case .lines, .closed: false
        }
    }

    init(stream: [UInt8], limit: Int, chunks: [Int]) {
        var framer = LineFramer(maximumLineLength: limit)
        var offset = 0
        for chunk in chunks {
            framer.append(stream[offset..<offset + chunk])
            offset += chunk
            while step(&framer) {}
        }
        leftover = framer.bufferedByteCount
    }

    private mutating func step(_ framer: inout LineFramer) -> Bool {
        switch state {
        case .closed:
            return false
        case .discarding(let size, let remaining):
            let left = framer.discardPayload(count: remaining)
            guard left == 0 else {
                state = .discarding(size: size, remaining: left)
                return false
            }
            events.append(.discarded(size))
        case .payload(let size):
            guard let payload = framer.takePayload(count: size) else { return false }
            events.append(.payload(payload))
        case .lines:
            do {
                guard let line = try framer.nextLineBytes() else { return false }
                events.append(.line(Array(line)))
                state = Self.state(after: line)
                return true
            } catch {
                events.append(.tooLong)
            }
        }
        state = .lines
        return true
    }

    private static func state(after line: ArraySlice<UInt8>) -> State {
        guard let text = try? LineFramer.decode(line), let request = try? Request(line: text),
            request.verb == "INGEST", let size = request.arguments.last
        else { return .lines }
        guard !size.isEmpty, size.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let count = Int(size)
        else { return .closed }
        return count <= 64 ? .payload(count) : .discarding(size: count, remaining: count)
    }
}
