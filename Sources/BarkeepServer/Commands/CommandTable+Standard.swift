extension CommandTable {
    /// Every command of this release: the one list the daemon serves, docs/protocol.md's command table is checked
    /// against, and the CLI reference is checked against.
    public static let standard = CommandTable.basic.adding(
        SessionCommands.all + ProjectCommands.all + TokenCommands.all + FindingCommands.all + CheckCommands.all
            + ScreenCommands.all
            + ItemCommands.all + SDKCommands.all + PoseCommands.all + ScreenshotCommands.all + DashboardCommands.all
            + SourceCommands.all
            + HookCommands.all
    )
}
