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
        // The embedder reads the directory itself, and the directory is an input: SwiftPM keeps this plugin's
        // commands between builds, so a file list made here would miss a migration added since.
        return [
            .buildCommand(
                displayName: "Embedding the schema migrations",
                executable: try context.tool(named: "SchemaEmbedder").url,
                arguments: [output.path, schema.path],
                inputFiles: [schema] + files,
                outputFiles: [output]
            )
        ]
    }
}
