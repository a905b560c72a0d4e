/// The rules a pose result must follow before it is stored (domain/poses.json): a failure names its screenshot
/// and the finding it maps to, not run says why, and a pose only a device can verify is passed only on a named
/// device, never on a simulator.
public enum PoseRecording {
    /// Whether `device` names a simulator: the word "simulator", in any case (`iPhone Duo Simulator`).
    public static func isSimulator(_ device: String) -> Bool {
        device.lowercased().contains("simulator")
    }

    /// How a pose's `screenshot` names an uploaded screenshot: `sha256:` and the image's lowercase hex SHA-256 (the
    /// key it is stored under). Any other text is a path from before uploads, kept as given.
    public static let uploadedScreenshotPrefix = "sha256:"

    /// The hex SHA-256 `screenshot` names when it is `sha256:HEX` (64 lowercase hex digits), nil for any other text.
    public static func uploadedScreenshotHash(_ screenshot: String) -> String? {
        guard screenshot.hasPrefix(uploadedScreenshotPrefix) else { return nil }
        let hex = screenshot.dropFirst(uploadedScreenshotPrefix.count)
        guard LowercaseHex.isSHA256(hex) else { return nil }
        return String(hex)
    }

    /// The `screenshot` value that names the uploaded screenshot of hex SHA-256 `hash`.
    public static func uploadedScreenshot(_ hash: String) -> String { uploadedScreenshotPrefix + hash }

    /// What is wrong with recording `result` for `pose` with this evidence, or nil when it may be recorded.
    /// `hasFinding` says whether a finding (or an item to create) was named.
    public static func problem(
        pose: String,
        result: PoseResult,
        isDeviceOnly: Bool,
        screenshot: String?,
        hasFinding: Bool,
        reason: String?,
        device: String?
    ) -> String? {
        if let screenshot, screenshot.hasPrefix(uploadedScreenshotPrefix), uploadedScreenshotHash(screenshot) == nil {
            return
                "screenshot=sha256: names an uploaded screenshot by the 64 lowercase hex digits SCREENSHOT PUT answered"
        }
        switch result {
        case .failed:
            if (screenshot ?? "").isEmpty {
                return "a failed pose needs the path of the screenshot that shows it"
            }
            if !hasFinding {
                return "a failed pose needs the finding it maps to, or the title of an item to create for it"
            }
        case .notRun:
            if (reason ?? "").isEmpty { return "a pose not run needs a reason" }
        case .notApplicable:
            if (reason ?? "").isEmpty { return "a pose that does not apply needs a reason" }
        case .passed:
            guard isDeviceOnly else { break }
            guard let device, !device.isEmpty else {
                return "\(pose) can only be verified on a device: passing it needs the device it passed on"
            }
            if isSimulator(device) {
                return "\(pose) can only be verified on a device, not on \(device): record it as not_run with a reason"
            }
        }
        return nil
    }
}
