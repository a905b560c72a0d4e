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
    /// The largest screenshot `SCREENSHOT GET` answers, in bytes: 8 MiB, whose base64 (about 10.7 MiB) fits the
    /// CLI's 16 MiB reply line. A larger one (a daemon whose `--max-screenshot` was raised) is `TOOLONG`.
    public static let inlineBytes = 8 << 20
    /// How many bytes of screenshots one HTML readiness report embeds at most, in total: 50 MiB. Past it a failed
    /// pose shows its screenshot's name only, and the report says how many it left out.
    public static let reportEmbeddedBytes = 50 << 20
}
