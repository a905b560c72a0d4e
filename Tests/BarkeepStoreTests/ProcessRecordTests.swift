import BarkeepStore
import BarkeepTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("ProcessRecord")
struct ProcessRecordTests {
    @Test("a live process is read with its parent and start time; its mark names it until it is gone")
    func markNamesOneProcess() throws {
        let current = try #require(ProcessRecord.current)
        #expect(current.pid == getpid() && current.parent == getppid())
        #expect(ProcessRecord(mark: current.mark) == current)
        // The same pid with another start time is another process: a pid reused after a reboot or a wrap.
        #expect(ProcessRecord(mark: "\(current.pid)-\(current.startTime + 1)") == nil)
        #expect(ProcessRecord(mark: "garbage") == nil)

        let child = try Subprocess.spawn("/bin/sleep", ["30"])
        let record = try #require(ProcessRecord(pid: child.pid))
        #expect(record.name == "sleep" && record.parent == getpid())
        #expect(record.description == "sleep pid \(child.pid)")
        child.signal(SIGKILL)
        #expect(child.wait(timeout: .seconds(10)) != nil)
        #expect(ProcessRecord(mark: record.mark) == nil)
    }
}
