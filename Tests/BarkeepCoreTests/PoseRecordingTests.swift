import BarkeepCore
import Testing

@Suite("PoseRecording")
struct PoseRecordingTests {
    struct Case: Sendable, CustomStringConvertible {
        var result: PoseResult
        var deviceOnly = false
        var screenshot: String?
        var finding = false
        var reason: String?
        var device: String?
        var problem: String?
        var description: String { "\(result) \(problem ?? "ok")" }
    }

    @Test(
        "the recording rules of poses.json",
        arguments: [
            Case(result: .passed),
            Case(result: .passed, deviceOnly: true, device: "iPhone Duo"),
            Case(
                result: .passed, deviceOnly: true,
                problem: "P10 can only be verified on a device: passing it needs the device it passed on"),
            Case(
                result: .passed, deviceOnly: true, device: "",
                problem: "P10 can only be verified on a device: passing it needs the device it passed on"),
            Case(
                result: .passed, deviceOnly: true, device: "iPhone Duo Simulator",
                problem:
                    "P10 can only be verified on a device, not on iPhone Duo Simulator: record it as not_run with a reason"
            ),
            Case(
                result: .passed, deviceOnly: true, device: "simulator (27.1)",
                problem:
                    "P10 can only be verified on a device, not on simulator (27.1): record it as not_run with a reason"),
            Case(result: .passed, device: "iPhone Duo Simulator"),
            Case(result: .failed, screenshot: "p1.png", finding: true),
            Case(
                result: .failed, finding: true, problem: "a failed pose needs the path of the screenshot that shows it"),
            Case(
                result: .failed, screenshot: "", finding: true,
                problem: "a failed pose needs the path of the screenshot that shows it"),
            Case(
                result: .failed, screenshot: "p1.png",
                problem: "a failed pose needs the finding it maps to, or the title of an item to create for it"),
            Case(result: .notRun, reason: "device only"),
            Case(result: .notRun, problem: "a pose not run needs a reason"),
            Case(result: .notRun, reason: "", problem: "a pose not run needs a reason"),
        ]
    )
    func rules(_ c: Case) {
        #expect(
            PoseRecording.problem(
                pose: "P10", result: c.result, isDeviceOnly: c.deviceOnly, screenshot: c.screenshot,
                hasFinding: c.finding, reason: c.reason, device: c.device) == c.problem)
    }
}
