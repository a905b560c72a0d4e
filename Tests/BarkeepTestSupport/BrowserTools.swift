import Foundation

/// A real browser for the web dashboard's tests: Debian's chromium driven through chromium-driver by selenium
/// (Python, from the tests' virtual environment), with axe-core for accessibility.
///
/// `scripts/browser-test-tools.sh` installs chromium and chromium-driver the first time a test asks (once per test
/// process); nothing is skipped: without them, or without PyPI, the test fails saying what is missing.
public enum BrowserTools {
    /// The browser's and the driver's paths, found (or installed) once per test process.
    private static let programs: Result<(browser: String, driver: String), TestSupportError> = {
        let script = SourceTree.root.path + "/scripts/browser-test-tools.sh"
        do {
            let (status, output, error) = try Subprocess.run("/bin/bash", [script], timeout: .seconds(900))
            let lines = output.split(separator: "\n").map(String.init)
            guard status == 0, lines.count == 2, lines.allSatisfy(FileManager.default.isExecutableFile(atPath:))
            else {
                return .failure(TestSupportError("\(script) failed (exit \(status)): \(error)"))
            }
            return .success((lines[0], lines[1]))
        } catch let error as TestSupportError {
            return .failure(error)
        } catch {
            return .failure(TestSupportError("\(script) did not run: \(error)"))
        }
    }()

    /// Runs the Python program `Tests/Browser/<script>` with `arguments`, with the browser's and the driver's
    /// paths in `BARKEEP_CHROMIUM` and `BARKEEP_CHROMEDRIVER`; returns its exit code and output.
    public static func run(
        _ script: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(300)
    ) throws -> (status: Int32, output: String, error: String) {
        let (browser, driver) = try programs.get()
        var variables = ProcessInfo.processInfo.environment
        variables["BARKEEP_CHROMIUM"] = browser
        variables["BARKEEP_CHROMEDRIVER"] = driver
        variables.merge(environment) { _, given in given }
        let path = SourceTree.root.path + "/Tests/Browser/" + script
        return try Subprocess.run(
            try PythonTools.python(), [path] + arguments, environment: variables, timeout: timeout)
    }
}
