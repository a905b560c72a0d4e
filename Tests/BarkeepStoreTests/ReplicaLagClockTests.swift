import BarkeepStore
import Testing

@Suite("A replica's lag from WAL positions")
struct ReplicaLagClockTests {
    @Test("pg_lsn text round-trips and orders by position")
    func positions() {
        #expect(WALPosition("16/B374D848")?.value == 0x16_B374_D848)
        #expect(WALPosition("0/0")?.value == 0)
        #expect(WALPosition("16/B374D848")?.description == "16/B374D848")
        #expect(WALPosition("0/10")! < WALPosition("1/0")!)
        for bad in ["", "16", "16/", "/1", "G/1", "1/2/3", "100000000/0"] { #expect(WALPosition(bad) == nil, "\(bad)") }
    }

    @Test("the lag is the time since the primary was first at a position the replica has not replayed")
    func lag() {
        let start = ContinuousClock.now
        var clock = ReplicaLagClock()
        clock.primary(at: WALPosition(100), seen: start)
        clock.primary(at: WALPosition(100), seen: start + .seconds(1))
        clock.primary(at: WALPosition(200), seen: start + .seconds(2))
        #expect(clock.lag(replayed: WALPosition(50), now: start + .seconds(3)) == .seconds(3))
        #expect(clock.lag(replayed: WALPosition(100), now: start + .seconds(3)) == .seconds(1))
        #expect(clock.lag(replayed: WALPosition(200), now: start + .seconds(3)) == .zero)
        // Positions once replayed are forgotten: a replica cannot go back.
        #expect(clock.lag(replayed: WALPosition(50), now: start + .seconds(4)) == .zero)
    }

    @Test("an idle primary counts no lag, however long it stays idle")
    func idle() {
        let start = ContinuousClock.now
        var clock = ReplicaLagClock()
        for second in 0..<10 { clock.primary(at: WALPosition(500), seen: start + .seconds(second)) }
        #expect(clock.lag(replayed: WALPosition(500), now: start + .seconds(3600)) == .zero)
    }
}
