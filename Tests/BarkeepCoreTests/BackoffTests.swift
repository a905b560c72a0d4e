import BarkeepCore
import Testing

@Suite struct BackoffTests {
    @Test("each failure doubles the wait up to the longest; a success starts over")
    func doublesThenResets() {
        var backoff = Backoff.connection
        let waits = (0..<8).map { _ in backoff.next() }
        #expect(
            waits == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600),
                .milliseconds(3200), .seconds(5), .seconds(5),
            ])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(100))
        var worker = Backoff.leasingWorker
        #expect([worker.next(), worker.next()] == [.milliseconds(250), .milliseconds(500)])
        #expect(worker.longest == Backoff.connection.longest)
    }
}
