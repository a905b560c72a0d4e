import BarkeepAPI
import BarkeepReport

extension StepLine {
    /// The report's line of a step record (STEPS).
    init(_ record: StepRecord) {
        self.init(
            screen: record.screen, step: record.step, key: record.key, state: record.state, recorded: record.recorded,
            blockers: record.blockers ?? [])
    }
}

extension ReportScreen {
    /// The report's row of a screen record (SCREEN LIST): its kind, owner and uses, by key.
    init(_ record: ScreenRecord) {
        self.init(key: record.key, kind: record.kind, owner: record.owner, uses: (record.uses ?? []).sorted())
    }
}
