import Foundation
import PackagePlugin

/// Compiles the SQL migrations in `Schema/` into the target that uses this plugin, so the daemon binary carries
/// its schema with it and never reads migration files at run time.
@main
struct EmbedSchema: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schema = context.package.directoryURL.appending(path: "Schema")
        let files = try FileManager.default.contentsOfDirectory(at: schema, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSchema.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) schema migrations",
                executable: try context.tool(named: "SchemaEmbedder").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
