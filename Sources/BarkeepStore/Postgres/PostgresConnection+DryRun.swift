extension PostgresConnection {
    /// Runs `body` inside the open transaction and, when `isDryRun`, undoes everything it wrote (a savepoint rolled
    /// back, its notifications with it) while keeping what it returned: a dry run takes the very path of the change,
    /// so its preview is exactly what the change would do. Only inside a transaction.
    func undoing<T>(if isDryRun: Bool, _ body: () throws -> T) throws -> T {
        guard isDryRun else { return try body() }
        try query("SAVEPOINT dry_run")
        let value = try body()
        try query("ROLLBACK TO SAVEPOINT dry_run")
        return value
    }
}
