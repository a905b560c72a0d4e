import BarkeepAPI
import BarkeepCore
import Foundation
import Testing

@testable import barkeep

/// The filter language of the commands that select findings is declared once, as FindingFilters' fields: the CLI's
/// filter options and MCP's filter arguments are made from them, and Core's FindingQuery (which parses them) has
/// the same keys.
@Suite("the filter language's one declaration reaches the CLI and MCP")
struct FindingFiltersSpecTests {
    @Test("barkeep findings' filter options are FindingFilters' fields, helped by their summaries")
    func cliOptions() {
        #expect(FindingFilterOptions.arguments.map(\.key) == FindingFilters.fields.map(\.key))
        #expect(FindingFilterOptions.arguments.map(\.help) == FindingFilters.fields.map(\.summary))
    }

    @Test("MCP's filter arguments are FindingFilters' fields by JSON name, in every tool that selects findings")
    func mcpArguments() throws {
        let tools = MCPTools.catalog(isReadOnly: false)
        for (tool, renamed) in [
            ("list_findings", [:]), ("set_finding_status", ["status": "current_status"]), ("assign_findings", [:]),
        ] {
            let listed = try #require(tools.first { $0.name == tool })
            for field in FindingFilters.fields {
                let schema = try #require(listed.arguments[renamed[field.jsonName] ?? field.jsonName], "\(tool)")
                let expected = field.schema.json(description: field.summary)
                #expect(
                    try MCPArgumentsTests.text(schema) == MCPArgumentsTests.text(expected), "\(tool) \(field.jsonName)")
            }
        }
    }
}
