import BarkeepAPI
import BarkeepCore
import BarkeepProtocol
import BarkeepReport
import BarkeepStore
import BarkeepWeb

/// One signed-in page request: the page URLs of design section 4, each running its typed requests through the
/// in-process client as the session's token and rendering BarkeepWeb's page (whole, or only `<main>` when asked
/// with `X-Barkeep-Part: main`), and the page forms, decoded by wire key like a query string and answered `303`
/// back to their page. A refusal (unknown project, a reader's write, a bad filter) is a page saying so with the
/// wire code's HTTP status; nothing is run for a write the role may not make.
struct PageApplicationRequest {
    /// The request's head.
    var head: HTTPRequestHead
    /// Its path's segments, without a trailing empty one.
    var segments: [String]
    /// Who is signed in (a session cookie, or a Bearer token).
    var identity: WebIdentity
    /// The client running requests as them.
    var client: InProcessClient
    /// The static assets.
    var assets: StaticAssets

    /// The page's context: who, the project of the URL, the URL itself, the part wanted.
    func context(project: String?) -> PageContext {
        let part: PageContext.Part =
            head.values(of: PageSecurity.partHeader.lowercased()).first?.lowercased() == "main" ? .main : .document
        return PageContext(
            signedInName: identity.name, role: identity.role, csrfToken: identity.csrfToken ?? "",
            project: project, url: PageURL(segments, query: head.query.map { PageURL.QueryItem($0.name, $0.value) }),
            assets: assets, part: part)
    }

    /// The project the URL names, if any.
    var project: String? { segments.count >= 2 && segments[0] == "projects" ? segments[1] : nil }

    /// A page saying `message`, with `status`.
    func failure(_ status: Int, _ message: String) -> HTTPResponse {
        let title =
            switch status {
            case 403: "Not allowed"
            case 404: "Not found"
            case 400, 415: "Not understood"
            default: "Something went wrong"
            }
        let html = PageLayout.render(
            title: title, context: context(project: project),
            content: [.element("p", [HTMLAttribute("role", "alert"), .class("notice")], text: message)])
        return PageApplication.html(status, html)
    }

    /// The refusal page of a thrown refusal; other errors are thrown on (the loop answers them `500`/`503`).
    func failure(for error: any Error) throws -> HTTPResponse {
        switch error {
        case let error as CommandError:
            guard error.code != .busy, error.code != .unavailable, error.code != .internal else { throw error }
            return failure(error.code.httpStatus, error.message)
        case let error as FieldProblem:
            return failure(400, error.message)
        default:
            throw error
        }
    }

    // MARK: - Pages

    /// The page of a GET (or HEAD).
    func read() throws -> HTTPResponse {
        if segments.count == 3, segments[0] == "projects", segments[2] == "report" {
            return try report(segments[1])
        }
        do {
            guard let html = try readPage() else { return failure(404, "There is no such page.") }
            return PageApplication.html(200, html)
        } catch {
            return try failure(for: error)
        }
    }

    private func readPage() throws -> String? {
        switch segments.count {
        case 0:
            return ProjectListPage.render(try client.run(ProjectListRequest()).rows, context: context(project: nil))
        case 2 where segments[0] == "projects":
            return try overview(segments[1])
        case 3 where segments[0] == "projects" && segments[2] == "findings":
            return try findings(segments[1])
        case 3 where segments[0] == "projects" && segments[2] == "poses":
            let project = segments[1]
            let cells = try client.run(PosesRequest(project: project)).rows
            var list = ScreenListRequest()
            list.project = project
            let screens = try client.run(list).rows
            return PoseMatrixPage.render(cells, screens: screens, context: context(project: project))
        case 4 where segments[0] == "projects" && segments[2] == "screens":
            let project = segments[1]
            let detail = try client.run(ScreenShowRequest(project: project, key: segments[3])).parts
            let blocked = try client.run(BlockedRequest(project: project)).rows
            return ScreenPage.render(detail, blocked: blocked, context: context(project: project))
        case 4 where segments[0] == "projects" && segments[2] == "findings":
            guard let number = Int(segments[3]), number > 0 else { return nil }
            let project = segments[1]
            let reply = try client.run(FindingShowRequest(project: project, number: ProjectNumber(number)))
            return FindingPage.render(reply.head, history: reply.rows, context: context(project: project))
        default:
            return nil
        }
    }

    /// The overview. Its `<main>` alone (what every open page refetches when an event comes) shows nothing of who
    /// asks, so it is rendered once per status version and address and shared (`RenderedPageCache`); the whole
    /// document names the person and carries their CSRF token, and is rendered for each.
    private func overview(_ project: String) throws -> String {
        let context = context(project: project)
        guard context.part == .main, let version = try StatusStore.version(project: project, on: client.database)
        else { return try renderOverview(project) }
        let key = RenderedPageCache.Key(project: project, version: version, target: head.target, isMainPart: true)
        return try client.server.renderedPages.page(key) { try renderOverview(project) }
    }

    private func renderOverview(_ project: String) throws -> String {
        let status = try ProjectStatusReply(try client.run(StatusRequest(project: project)).parts)
        let blocked = try client.run(BlockedRequest(project: project)).rows
        var burndown = BurndownRequest()
        burndown.project = project
        let points = try client.run(burndown).rows.map(\.point)
        return OverviewPage.render(
            status: status, blocked: blocked, burndown: points, context: context(project: project))
    }

    private func findings(_ project: String) throws -> String {
        // The page size is the Core default: the links keep the filters and `after`, never a size.
        var request: FindingsRequest = try Self.decode(
            path: ["project": project], fields: head.query.filter { $0.name != "limit" })
        request.limit = request.limit ?? FindingLimit(FindingPage.defaultLimit)
        let reply = try client.run(request)
        return FindingsPage.render(
            reply.rows, filters: request.filters, after: request.after?.value, next: reply.summary?.next,
            context: context(project: project))
    }

    /// The request `R` of a page's fields (the query of a GET, a form's fields), by wire key in wire form as the
    /// line protocol reads them: positionals from `path` or by their key, the rest as keywords. The CSRF field is
    /// no argument, nor is an empty field.
    static func decode<R: CommandRequest>(path: [String: String], fields: [(name: String, value: String)]) throws
        -> R
    {
        var values = path
        var keywords: [(key: String, value: String)] = []
        let positionals = Set(R.positionals.map(\.key))
        // An empty field is one left blank: not given (the filter form sends every filter).
        for (name, value) in fields where name != PageSecurity.csrfField && !value.isEmpty {
            if positionals.contains(name) {
                if values[name] == nil { values[name] = value }
            } else {
                keywords.append((name, value))
            }
        }
        var request = Request(verb: R.spec.name, arguments: R.positionals.compactMap { values[$0.key] })
        request.keywordList = keywords
        return try R(decoding: request)
    }
}
