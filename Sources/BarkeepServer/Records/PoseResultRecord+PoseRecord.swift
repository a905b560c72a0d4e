import BarkeepAPI
import BarkeepCore
import BarkeepStore

extension PoseResultRecord {
    /// The `pose` record of a result recorded.
    init(_ record: PoseRecord) {
        self.init()
        screen = record.screen
        pose = Pose(record.pose) ?? .p1
        result = PoseCellResult(record.result)
        screenshot = record.screenshot
        finding = record.finding.map(ProjectNumber.init)
        reason = record.reason
        build = record.build
        device = record.device
        actor = record.actor
        recorded = record.recordedAt.postgresText
    }

    /// The `pose` record of a cell of the matrix: its latest result, or `result=none` alone.
    init(_ cell: PoseCell) {
        guard let latest = cell.latest else {
            self.init()
            screen = cell.screen
            pose = Pose(cell.pose) ?? .p1
            return
        }
        self.init(latest)
    }
}
