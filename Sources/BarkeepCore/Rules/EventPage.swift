/// A page of the event log (EVENTS): how many events one page holds unless asked for fewer, and at most.
public enum EventPage {
    /// Events a page holds when no `limit=` is given.
    public static let defaultLimit = 500
    /// The largest `limit=`: a page is one reply, held whole until written.
    public static let maximumLimit = 1000
}
