import BarkeepSources
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real inotify on directories made by the test.
@Suite("DirectoryWatcher")
struct DirectoryWatcherTests {
    /// Waits until `predicate` holds for the events so far (inotify delivers asynchronously), for at most 2 s.
    private func events(
        from watcher: DirectoryWatcher,
        until predicate: ([DirectoryEvent]) -> Bool
    ) -> [DirectoryEvent] {
        var events: [DirectoryEvent] = []
        let deadline = ContinuousClock.now + .seconds(2)
        while !predicate(events) && ContinuousClock.now < deadline {
            events += watcher.wait(timeout: .milliseconds(200))
        }
        return events
    }

    /// Writes a file in place (Foundation may write to a temporary name and rename it).
    private func writeFile(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(descriptor >= 0)
        #expect(write(descriptor, "data", 4) == 4)
        close(descriptor)
    }

    @Test("a file renamed into the folder is reported with its name")
    func renamedIn() throws {
        let directory = try TemporaryDirectory.make(prefix: "watch")
        let staging = try TemporaryDirectory.make(prefix: "staging")
        let watcher = try DirectoryWatcher()
        try watcher.watch(directory)
        try watcher.watch(directory)
        #expect(watcher.directories == [directory])
        writeFile(staging + "/scan.json")
        #expect(rename(staging + "/scan.json", directory + "/scan.json") == 0)
        let seen = events(from: watcher) { $0.contains { $0.kind == .renamedIn } }
        #expect(seen == [DirectoryEvent(directory: directory, name: "scan.json", kind: .renamedIn)])
    }

    @Test("a file written in place is reported as changed, then written when closed")
    func written() throws {
        let directory = try TemporaryDirectory.make(prefix: "watch")
        let watcher = try DirectoryWatcher()
        try watcher.watch(directory)
        writeFile(directory + "/report.sarif")
        let seen = events(from: watcher) { $0.contains { $0.kind == .written } }
        #expect(seen.allSatisfy { $0.directory == directory && $0.name == "report.sarif" })
        #expect(seen.first?.kind == .changed)
        #expect(seen.last?.kind == .written)
    }

    @Test("wake() ends a long wait at once, from another thread")
    func wake() throws {
        let watcher = try DirectoryWatcher()
        try watcher.watch(try TemporaryDirectory.make(prefix: "watch"))
        let start = ContinuousClock.now
        Thread.detachNewThread {
            usleep(100_000)
            watcher.wake()
        }
        let seen = watcher.wait(timeout: .seconds(30))
        #expect(seen.isEmpty)
        #expect(ContinuousClock.now - start < .seconds(2))
        // A wake-up is consumed once: the next wait times out normally.
        let next = ContinuousClock.now
        #expect(watcher.wait(timeout: .milliseconds(100)).isEmpty)
        #expect(ContinuousClock.now - next >= .milliseconds(100))
    }

    @Test("an unwatched folder reports nothing more")
    func unwatch() throws {
        let kept = try TemporaryDirectory.make(prefix: "kept")
        let dropped = try TemporaryDirectory.make(prefix: "dropped")
        let watcher = try DirectoryWatcher()
        try watcher.watch(kept)
        try watcher.watch(dropped)
        watcher.unwatch(dropped)
        watcher.unwatch("/never/watched")
        #expect(watcher.directories == [kept])
        writeFile(dropped + "/ignored")
        writeFile(kept + "/seen")
        let seen = events(from: watcher) { $0.contains { $0.kind == .written } }
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { $0.directory == kept && $0.name == "seen" })
    }

    @Test("a removed folder is reported once as gone and is no longer watched")
    func directoryGone() throws {
        let directory = try TemporaryDirectory.make(prefix: "watch")
        let watcher = try DirectoryWatcher()
        try watcher.watch(directory)
        try FileManager.default.removeItem(atPath: directory)
        let seen = events(from: watcher) { $0.contains { $0.kind == .directoryGone } }
        #expect(seen == [DirectoryEvent(directory: directory, name: nil, kind: .directoryGone)])
        #expect(watcher.directories.isEmpty)
        // The kernel's IN_IGNORED that follows is not reported a second time.
        #expect(watcher.wait(timeout: .milliseconds(100)).isEmpty)
    }

    @Test("a missing folder or a file cannot be watched, with a message naming it")
    func watchErrors() throws {
        let watcher = try DirectoryWatcher()
        let directory = try TemporaryDirectory.make(prefix: "watch")
        #expect(throws: SourceError.watch("cannot watch \(directory)/missing: it does not exist")) {
            try watcher.watch(directory + "/missing")
        }
        writeFile(directory + "/file")
        #expect(throws: SourceError.watch("cannot watch \(directory)/file: it is not a directory")) {
            try watcher.watch(directory + "/file")
        }
        #expect(watcher.directories.isEmpty)
    }
}
