import BarkeepAPI

/// `/`: the projects (PROJECT LIST): name, SDK, deployment target, required poses, created.
public enum ProjectListPage {
    /// The page of `projects`.
    public static func render(_ projects: [ProjectRecord], context: PageContext) -> String {
        let rows = projects.map { project in
            HTML.element(
                "tr", [HTMLAttribute("data-project", project.name)],
                [
                    .element(
                        "th", [HTMLAttribute("scope", "row")],
                        [.element("a", [.href(PageRoutes.project(project.name))], text: project.name)]),
                    PageParts.cell(project.sdk),
                    PageParts.cell(project.deploymentTarget),
                    PageParts.cell(
                        project.requiredPoses.isEmpty ? "none" : project.requiredPoses.joined(separator: " ")),
                    .element("td", [], [PageParts.time(project.created)]),
                ])
        }
        let content: [HTML] =
            projects.isEmpty
            ? [PageParts.paragraph("No project yet: create one with barkeep project create NAME.")]
            : [
                PageParts.table(
                    id: "projects", caption: "Projects",
                    headers: [
                        .init(title: "Project", key: "name"), .init(title: "SDK", key: "sdk"),
                        .init(title: "Deployment target", key: "deployment-target"),
                        .init(title: "Required poses", key: "poses"), .init(title: "Created", key: "created"),
                    ],
                    rows: rows, sortable: true)
            ]
        return PageLayout.render(title: "Projects", context: context, content: content)
    }
}
