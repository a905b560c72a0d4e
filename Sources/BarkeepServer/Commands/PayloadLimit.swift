/// Which of the server's limits bounds a command's upload: checked against the size its request line announces,
/// before any byte of the upload is read (`TOOLONG`).
public enum PayloadLimit: Sendable, Equatable {
    /// `maximumPayload` (`--max-upload`): scans and SDK checks.
    case upload
    /// `maximumScreenshot` (`--max-screenshot`): screenshots.
    case screenshot
}
