import BarkeepProtocol

/// Every command declared by a spec, one list per noun (each in its own file, so branches never share a line):
/// what the server's table, the CLI, MCP and the docs are checked against (SpecWalkTests).
public enum API {
    /// The commands declared so far; the rest are in SpecWalkTests' `pending` list until converted.
    public static let commands: [any CommandRequest.Type] =
        SessionAPI.all
        + ProjectAPI.all
        + TokenAPI.all
        + ScanAPI.all
        + FindingAPI.all
        + ScreenAPI.all
        + StepAPI.all
        + AuditAPI.all
        + DashboardAPI.all
        + AutomationAPI.all
}
