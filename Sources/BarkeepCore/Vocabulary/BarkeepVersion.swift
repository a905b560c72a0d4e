/// The version of this Barkeep build, printed by `--version` and sent in `HELLO`.
public enum BarkeepVersion {
    /// Semantic version of the release.
    public static let current = "0.1.0"
}
