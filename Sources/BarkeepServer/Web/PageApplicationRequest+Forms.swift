import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepWeb

/// The page forms (design section 4): the bulk verdict and its preview, a finding's status and comment, a step's
/// state. Each is decoded by wire key like a query string (the CSRF token already checked), refused with `403`
/// before anything runs when the role may not make it, and answered `303` back to its page.
extension PageApplicationRequest {
    /// The answer to a page form.
    func write(_ form: PageApplicationForm) throws -> HTTPResponse {
        guard let project, segments.count >= 3 else { return failure(404, "There is no such form.") }
        do {
            switch Array(segments.dropFirst(2)) {
            case ["findings", "status"]:
                return try findingSet(project, form)
            case let path where path.count == 3 && path[0] == "findings" && path[2] == "comments":
                guard let number = Int(path[1]), number > 0 else { return failure(404, "There is no such finding.") }
                let request: FindingCommentRequest = try Self.decode(
                    path: ["project": project, "number": String(number)], fields: form.fields)
                _ = try run(request)
                return PageApplication.seeOther(PageRoutes.finding(project, number).text)
            case ["steps"]:
                let request: StepSetRequest = try Self.decode(path: ["project": project], fields: form.fields)
                _ = try run(request)
                let back = request.screen.map { PageRoutes.screen(project, $0) } ?? PageRoutes.project(project)
                return PageApplication.seeOther(back.text)
            default:
                return failure(404, "There is no such form.")
            }
        } catch {
            return try failure(for: error)
        }
    }

    /// FINDING SET from the bulk form, a finding's status form or the preview's Confirm: a dry run is the preview
    /// (only the fragment for `X-Barkeep-Part: preview`, else a page of its own); a real change goes back to the
    /// finding or to the findings it chose.
    private func findingSet(_ project: String, _ form: PageApplicationForm) throws -> HTTPResponse {
        let request: FindingSetRequest = try Self.decode(path: ["project": project], fields: form.fields)
        let reply = try run(request)
        if request.isDryRun == true {
            let reason = request.reason
            let context = context(project: project)
            let selection: BulkSelection =
                request.numbers.map { .numbers($0.numbers) } ?? .filters(request.filters)
            let isFragment =
                head.values(of: PageSecurity.partHeader.lowercased()).first?.lowercased() == "preview"
            let html =
                isFragment
                ? BulkPreview.fragment(
                    reply, newStatus: request.newStatus, reason: reason, selection: selection, context: context)
                : BulkPreview.render(
                    reply, newStatus: request.newStatus, reason: reason, selection: selection, context: context)
            return PageApplication.html(200, html)
        }
        if let numbers = request.numbers?.numbers, numbers.count == 1, let number = numbers.first {
            return PageApplication.seeOther(PageRoutes.finding(project, number).text)
        }
        return PageApplication.seeOther(PageRoutes.findings(project, filters: request.filters).text)
    }

    /// Runs `request` when the session's role may: a reader's write is refused here, before anything runs.
    private func run<R: CommandRequest>(_ request: R) throws -> R.Reply {
        if let role = R.spec.role, identity.role < role {
            throw CommandError(
                .forbidden, "\(R.spec.name) needs the \(role.rawValue) role; you are a \(identity.role.rawValue).")
        }
        return try client.run(request)
    }
}
