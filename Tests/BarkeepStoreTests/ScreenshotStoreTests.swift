import BarkeepCore
import BarkeepHashing
import BarkeepStore
import BarkeepTestSupport
import Testing

/// Uploaded screenshots against a real database: checked by their header, stored once by content hash, fetched
/// back byte for byte, named by pose results (which a missing one refuses), and unnamed ones deleted after a day.
@Suite("Screenshot store")
struct ScreenshotStoreTests {
    let connection: PostgresConnection

    init() throws {
        connection = try TestDatabase.makeConnection()
        try Migrator().migrate(connection)
    }

    func count() throws -> Int? { try connection.queryValue("SELECT count(*) FROM screenshots", as: Int.self) }

    @Test("a PNG and a JPEG are stored under their SHA-256 with their header; the same bytes again store nothing")
    func idempotent() throws {
        let png = try ScreenshotStore.put(SampleImages.png, by: "qa", on: connection)
        #expect(png.sha256 == SHA256Digest.hex(of: SampleImages.png) && png.isNew)
        #expect(png.header == ImageHeader(mediaType: .png, width: 3, height: 2))
        let again = try ScreenshotStore.put(SampleImages.png, by: "someone else", on: connection)
        #expect(again.sha256 == png.sha256 && again.header == png.header && !again.isNew)
        let jpeg = try ScreenshotStore.put(SampleImages.jpeg, by: "qa", on: connection)
        #expect(jpeg.isNew && jpeg.header == ImageHeader(mediaType: .jpeg, width: 3, height: 2))
        #expect(try count() == 2)
        #expect(try connection.queryValue("SELECT created_by FROM screenshots WHERE sha256 = $1", [png.sha256]) == "qa")
    }

    @Test("fetch gives the bytes and media type back; an unknown hash gives nil")
    func fetch() throws {
        let jpeg = try ScreenshotStore.put(SampleImages.jpeg, by: "qa", on: connection)
        let fetched = try #require(try ScreenshotStore.fetch(jpeg.sha256, on: connection))
        #expect(fetched.mediaType == .jpeg && fetched.bytes == SampleImages.jpeg)
        #expect(try ScreenshotStore.fetch(String(repeating: "0", count: 64), on: connection) == nil)
        #expect(try ScreenshotStore.header(String(repeating: "0", count: 64), on: connection) == nil)
        #expect(try ScreenshotStore.header(jpeg.sha256, on: connection)?.width == 3)
    }

    @Test("bytes that are not a PNG or JPEG are refused with the header's problem and store nothing")
    func refused() throws {
        #expect(throws: StoreError.invalid("a screenshot must be a PNG or JPEG image")) {
            try ScreenshotStore.put(Array("<svg/>".utf8), by: "qa", on: connection)
        }
        #expect(throws: StoreError.invalid("the PNG image ends inside its header")) {
            try ScreenshotStore.put(Array(SampleImages.png.prefix(12)), by: "qa", on: connection)
        }
        #expect(try count() == 0)
    }

    @Test("an upload deletes screenshots no pose names after a day, keeps named ones and renews re-uploaded ones")
    func cleanup() throws {
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        _ = try ScreenStore.add(
            project: "app", key: "Inbox", title: nil, owner: nil, paths: ["Sources/**"], actor: "ana", on: connection)
        let named = try ScreenshotStore.put(SampleImages.png, by: "qa", on: connection)
        let record = try PoseStore.record(
            NewPoseResult(
                screen: "Inbox", pose: "P3", result: .failed,
                screenshot: PoseRecording.uploadedScreenshot(named.sha256),
                itemTitle: "Toolbar overlaps"), project: "app", actor: "qa", on: connection)
        #expect(record.screenshot == "sha256:" + named.sha256)
        #expect(
            try connection.queryValue("SELECT screenshot_sha256 FROM pose_results WHERE id = $1", [record.id])
                == named.sha256)
        let unnamed = try ScreenshotStore.put(SampleImages.jpeg, by: "qa", on: connection)
        try connection.query("UPDATE screenshots SET created_at = now() - interval '25 hours'")
        // Re-uploading the unnamed one renews it: it is not deleted by its own upload.
        #expect(try !ScreenshotStore.put(SampleImages.jpeg, by: "qa", on: connection).isNew)
        #expect(try count() == 2)
        try connection.query("UPDATE screenshots SET created_at = now() - interval '25 hours'")
        var other = SampleImages.png
        other.append(0)
        let third = try ScreenshotStore.put(other, by: "qa", on: connection)
        let left = try connection.query("SELECT sha256 FROM screenshots ORDER BY sha256").map {
            try $0.decode("sha256", as: String.self)
        }
        #expect(Set(left) == [named.sha256, third.sha256])
        #expect(!left.contains(unnamed.sha256))
    }

    @Test("a pose naming a screenshot that is not stored is notFound and records nothing")
    func poseNamesUnknown() throws {
        _ = try ProjectStore.create(name: "app", sdk: nil, deploymentTarget: nil, actor: "test", on: connection)
        _ = try ScreenStore.add(
            project: "app", key: "Inbox", title: nil, owner: nil, paths: ["Sources/**"], actor: "ana", on: connection)
        let hex = String(repeating: "ab", count: 32)
        #expect(
            throws: StoreError.notFound("no screenshot sha256:\(hex) is stored: upload it first (SCREENSHOT PUT)")
        ) {
            try PoseStore.record(
                NewPoseResult(
                    screen: "Inbox", pose: "P3", result: .failed, screenshot: "sha256:" + hex,
                    itemTitle: "Toolbar overlaps"), project: "app", actor: "qa", on: connection)
        }
        #expect(try connection.queryValue("SELECT count(*) FROM pose_results", as: Int.self) == 0)
        #expect(try connection.queryValue("SELECT count(*) FROM findings", as: Int.self) == 0)
    }
}
