/// The lease that lets one daemon at a time work a row of a table (a source to run, a hook to deliver): a holder and
/// the moment its lease runs out, renewed while the daemon lives, taken up by another once it has run out, given up
/// when the row is paused or the daemon stops. SourceStore and HookStore keep theirs with it.
///
/// `table` and `pausedCondition` are the store's own constants, never input: interpolating them is safe.
struct Lease: Sendable {
    /// The table whose rows have `holder` and `lease_until` columns.
    let table: String
    /// SQL true for a paused row, which nobody may hold.
    let pausedCondition: String

    /// SQL true for a row that `holderParameter` (a bound parameter such as `$2`) still holds: its lease has not run
    /// out and the row is not paused.
    func isHeld(by holderParameter: String) -> String {
        "holder = \(holderParameter) AND lease_until > now() AND NOT (\(pausedCondition))"
    }

    /// Inside a transaction: gives up `holder`'s leases of paused rows, then renews the leases `holder` has and takes
    /// up every active row whose lease is free or ran out, for `duration` from now. Two daemons claiming at once
    /// cannot both win a row: each UPDATE locks the row, and the second sees the first's lease when it re-checks
    /// the condition.
    func claim(holder: String, for duration: Duration, on connection: PostgresConnection) throws {
        try connection.query(
            "UPDATE \(table) SET holder = NULL, lease_until = NULL WHERE holder = $1 AND (\(pausedCondition))",
            [holder])
        try connection.query(
            """
            UPDATE \(table) SET holder = $1, lease_until = now() + $2 * interval '1 millisecond'
            WHERE NOT (\(pausedCondition)) AND (holder = $1 OR holder IS NULL OR lease_until < now())
            """,
            [holder, Int64(duration.milliseconds)]
        )
    }

    /// Gives up every lease `holder` has (a daemon stopping), so another daemon can take them up at once.
    func release(holder: String, on connection: PostgresConnection) throws {
        try connection.query("UPDATE \(table) SET holder = NULL, lease_until = NULL WHERE holder = $1", [holder])
    }
}
