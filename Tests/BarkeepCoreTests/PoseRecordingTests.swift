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

    @Test("sha256:HEX names an uploaded screenshot; any other text is a path from before uploads")
    func uploadedScreenshots() {
        let hex = String(repeating: "0123456789abcdef", count: 4)
        #expect(PoseRecording.uploadedScreenshotHash("sha256:" + hex) == hex)
        #expect(PoseRecording.uploadedScreenshot(hex) == "sha256:" + hex)
        for text in [
            "p1.png", "sha256:", "sha256:" + hex.uppercased(), "sha256:" + hex.dropLast(), "sha256:" + hex + "0",
            "SHA256:" + hex, "sha256:" + hex.dropLast() + "g",
        ] {
            #expect(PoseRecording.uploadedScreenshotHash(text) == nil, "\(text)")
        }
        // A path is a path; a malformed sha256: is refused rather than kept as a path.
        #expect(
            PoseRecording.problem(
                pose: "P1", result: .failed, isDeviceOnly: false, screenshot: "sha256:" + hex, hasFinding: true,
                reason: nil, device: nil) == nil)
        #expect(
            PoseRecording.problem(
                pose: "P1", result: .failed, isDeviceOnly: false, screenshot: "sha256:abc", hasFinding: true,
                reason: nil, device: nil)?.hasPrefix("screenshot=sha256: names an uploaded screenshot") == true)
    }
}
