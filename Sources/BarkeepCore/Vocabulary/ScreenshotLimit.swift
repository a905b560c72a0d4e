/// The bounds of an uploaded screenshot (docs/design/web-dashboard.md, section 5): their one home. The daemon's
/// `--max-screenshot`, the schema's CHECK on the sides and the docs take them from here (or are tested against it).
public enum ScreenshotLimit {
    /// The default largest screenshot, in bytes (`barkeepd --max-screenshot`): 5 MiB.
    public static let defaultBytes = 5 << 20
    /// The longest side, in pixels, of a screenshot: 16,384.
    public static let maximumSide = 16_384
    /// How long an uploaded screenshot that no pose result names is kept, in seconds: a day, time enough to record
    /// the pose that names it.
    public static let unreferencedKeptSeconds = 24 * 60 * 60
    /// How many such screenshots each upload deletes at most (there is no maintenance thread to do it).
    public static let unreferencedDeletedPerUpload = 10
}
