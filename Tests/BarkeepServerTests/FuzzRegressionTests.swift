import Foundation
import Testing

@testable import BarkeepProtocol
@testable import BarkeepServer

/// Inputs of the `framer` fuzz target (Fuzz/framer.swift, `make fuzz`) kept in `FuzzRegressions/framer/`: crashes
/// it found, and inputs written to probe the same checks. Each goes through the target's checks again, on the same
/// `ConnectionMachine` the server runs: byte 0 sets the line limit (8 + byte), byte 1 seeds the chunk sizes, the rest
/// is a connection's stream.
@Suite("Fuzz regressions (framer)")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions/framer")

    static let inputs: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    /// `INGEST … SIZE` takes a payload of up to 64 bytes, as in the fuzz target; every other verb is unknown.
    static let table = CommandTable.basic.adding([
        Command("INGEST", positional: 1...16, arguments: [.other], minimumRole: nil, takesPayload: true) { _ in
            .done(CommandResult(.ok("")))
        }
    ])

    @Test("the regression inputs are there")
    func inputsFound() {
        #expect(Self.inputs.count >= 3)
    }

    @Test(
        "every input leads to the same actions and replies whole and in chunks, and its lines parse back",
        arguments: inputs)
    func framer(name: String) throws {
        let input = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        try #require(input.count >= 2)
        let limit = 8 + Int(input[0])
        let stream = Array(input[2...])

        var whole = MachineDriver(
            maximumLineLength: limit, maximumPendingOutput: 256, maximumPayload: 64, table: Self.table)
        whole.send(stream)
        var chunked = MachineDriver(
            maximumLineLength: limit, maximumPendingOutput: 256, maximumPayload: 64, table: Self.table)
        var offset = 0
        for size in Self.chunkSizes(seed: input[1], stream) {
            chunked.send(Array(stream[offset..<offset + size]))
            offset += size
        }
        #expect(whole.log == chunked.log)
        #expect(whole.text == chunked.text)
        let leftover = whole.machine.framer.bufferedByteCount
        #expect(leftover == chunked.machine.framer.bufferedByteCount)
        #expect(leftover <= limit + 1 || whole.machine.isUploading || whole.machine.isClosing)

        var framer = LineFramer(maximumLineLength: limit)
        framer.append(stream[...])
        while true {
            let line: ArraySlice<UInt8>
            do {
                guard let next = try framer.nextLineBytes() else { break }
                line = next
            } catch {
                #expect(error == .lineTooLong(limit: limit))
                continue
            }
            #expect(line.count <= limit && !line.contains(UInt8(ascii: "\n")))
            try checkParsers(Array(line))
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
