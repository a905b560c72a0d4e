/// A page of findings (FINDINGS `limit=`/`after=`, keyset on the finding's number): how many findings one page
/// holds unless asked for fewer, and at most. Their one home: the wire, the HTTP API, the findings page, the CLI and
/// MCP take them from here.
public enum FindingPage {
    /// Findings a page holds when paging is asked for without `limit=` (`after=` alone), and the HTTP API's and the
    /// findings page's page size.
    public static let defaultLimit = 500
    /// The largest `limit=`: a page is one reply, read and held whole until written.
    public static let maximumLimit = 1000
}
