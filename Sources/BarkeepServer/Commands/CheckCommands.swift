import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepStore
import BarkeepWeb

/// CHECK, declared by its spec (BarkeepAPI's `CheckUploadRequest`).
enum CheckCommands {
    static let all: [Command] = [check]

    /// `CHECK PROJECT [format=…] [commit=SHA] [branch=NAME] [base=latest|RUN] [scope=PREFIX] [fail-on=SEVERITY]
    /// [record=no] [tracked=no] [renames=N] SIZE` and SIZE bytes of scanner output (after N bytes of renames, split
    /// off as INGEST splits them): the scan parsed and checked on a database thread, never
    /// on the event loop, through the store's `CheckStore`. A document that does not parse is `BADARG` with
    /// INGEST's words, an unknown project or base run `NOTFOUND`; neither records anything.
    static let check = Command(CheckUploadRequest.self) { request, input throws(CommandError) in
        let payload = input.payload ?? []
        let actor = input.session.actor
        let version = input.session.protocolVersion
        let web = webPage(of: request.project, server: input.server)
        return .database { connection in
            // Split and read on a database thread, as INGEST does.
            var payload = payload
            let renames = try FindingCommands.renames(
                count: request.renames, format: request.format ?? .duoScan, splitting: &payload)
            // Without a format (an HTTP client that posts the file as it is), the scan's own words say it.
            let format = request.format ?? ScanFormat.guessed(from: payload)
            let upload = ScanUpload(payload)
            payload = []
            let failOn = request.failOn ?? CheckGate.defaultFailOn
            let outcome = try CheckStore.check(
                CheckRequest(
                    upload, format: format, project: request.project, commit: request.commit?.text.lowercased(),
                    branch: request.branch, base: request.base ?? .latest, scope: request.scope ?? "", failOn: failOn,
                    isRecorded: request.isRecorded ?? true, actor: actor, renames: renames,
                    includesTracked: request.includesTracked ?? true),
                on: connection)
            var summary = CheckSummary()
            summary.counts = outcome.counts
            summary.base = outcome.base
            summary.failOn = failOn
            summary.result = outcome.result
            summary.web = web
            return CommandResult(
                CheckUploadRequest.Reply(outcome.rows.map(CheckRecord.init), summary: summary), version: version)
        }
    }

    /// The project's dashboard page: under the daemon's `--public-url`, else on its HTTP listener as bound (`https`
    /// with TLS); nil without a listener, or when it listens on every interface (no address to hand out).
    static func webPage(of project: String, server: Server) -> String? {
        let page = PageRoutes.project(project).text
        if let base = server.configuration.publicURL { return base + page }
        guard server.configuration.httpAddress != nil, case .tcp(let host, let port) = server.httpAddress,
            !["", "0.0.0.0", "::", "*"].contains(host)
        else { return nil }
        let scheme = server.configuration.tls == nil ? "http" : "https"
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "\(scheme)://\(authority)" + page
    }
}

extension CheckRecord {
    /// The record of one row of a check's answer.
    init(_ row: CheckRow) {
        self.init()
        kind = row.kind
        number = row.number
        identity = row.identity
        rule = row.rule
        severity = row.severity
        file = row.file
        line = row.line
        screen = row.screen ?? AuditArea.unmapped
        step = row.step
        tier = row.tier
        status = row.status
        reason = row.reason
        snippet = row.snippet
        message = row.message
    }
}
