// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Barkeep",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "barkeepd", targets: ["barkeepd"]),
        .executable(name: "barkeep", targets: ["barkeep"]),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(
            name: "CLibpq",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // gzip for the web dashboard's pages and the JSON API's answers (ResponseCompression).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "CBarkeepSystem"),
        // TLS for the TCP listeners and the CLI: a few barkeep_tls_* functions over OpenSSL.
        .target(name: "CBarkeepTLS", dependencies: ["COpenSSL"]),

        // MARK: - Libraries
        .target(name: "BarkeepCore"),
        // SHA-256 and HMAC-SHA256 by libcrypto (the CBarkeepTLS shim): finding identities (`LibcryptoHasher`, which
        // Core's `FindingIdentity` is handed), uploads, tokens, migration checksums, webhook signatures.
        .target(name: "BarkeepHashing", dependencies: ["BarkeepCore", "CBarkeepTLS"]),
        .target(name: "BarkeepProtocol", dependencies: ["BarkeepCore"]),
        // The catalogue of commands: each command's request and reply types, declared once (issue 26); the server,
        // the CLI and MCP take tables, decoding, encoding and schemas from it.
        .target(name: "BarkeepAPI", dependencies: ["BarkeepCore", "BarkeepProtocol"]),
        .target(
            name: "BarkeepStore",
            // CBarkeepSystem to give a large ingest's freed memory back to the system (FreedMemory).
            dependencies: ["BarkeepCore", "BarkeepHashing", "CLibpq", "CBarkeepSystem"],
            plugins: ["EmbedSchema"]
        ),
        // Renders the dashboard and the report from the typed replies of BarkeepAPI (no decoding of its own).
        .target(name: "BarkeepReport", dependencies: ["BarkeepAPI", "BarkeepCore", "BarkeepProtocol"]),
        // The web dashboard's pages, rendered purely from typed replies: HTML builder, page safety, assets (issue 27).
        .target(name: "BarkeepWeb", dependencies: ["BarkeepAPI", "BarkeepReport", "BarkeepProtocol", "BarkeepCore"]),
        // Sync sources: inboxes, repository watch, scanner processes; they ingest through the store's Ingestor.
        .target(
            name: "BarkeepSources", dependencies: ["BarkeepCore", "BarkeepHashing", "BarkeepStore", "CBarkeepSystem"]),
        // Code of the executables only: the argument parser and the logger's standard-error sink (both executables),
        // screen discovery and its lexer (`barkeep screen discover`). Libraries so that the tests import them.
        .target(name: "BarkeepCommandLine", dependencies: ["BarkeepCore"]),
        .target(name: "BarkeepDiscovery", dependencies: ["BarkeepCore"]),
        .target(
            name: "BarkeepServer",
            dependencies: [
                "BarkeepAPI", "BarkeepCore", "BarkeepHashing", "BarkeepProtocol", "BarkeepSources", "BarkeepStore",
                "BarkeepReport", "BarkeepWeb", "CBarkeepSystem", "CBarkeepTLS", "CZlib",
            ]
        ),

        // MARK: - Executables
        .executableTarget(
            name: "barkeepd",
            dependencies: [
                "BarkeepCommandLine", "BarkeepCore", "BarkeepProtocol", "BarkeepSources", "BarkeepStore",
                "BarkeepServer",
                "CBarkeepSystem",
            ]
        ),
        .executableTarget(
            name: "barkeep",
            dependencies: [
                "BarkeepAPI", "BarkeepCommandLine", "BarkeepCore", "BarkeepDiscovery", "BarkeepProtocol",
                "BarkeepReport", "CBarkeepTLS",
            ]
        ),

        // MARK: - Benchmarks (make bench)
        .executableTarget(name: "barkeep-bench", dependencies: ["CBarkeepSystem"]),
        .executableTarget(
            name: "barkeep-sync-bench",
            dependencies: ["BarkeepBenchSupport", "BarkeepCore", "BarkeepHashing", "BarkeepStore"]),
        .target(name: "BarkeepBenchSupport", dependencies: ["BarkeepStore"]),
        .executableTarget(
            name: "barkeep-status-bench",
            dependencies: ["BarkeepBenchSupport", "BarkeepCore", "BarkeepProtocol", "BarkeepStore"]),
        .executableTarget(
            name: "barkeep-web-bench", dependencies: ["BarkeepBenchSupport", "BarkeepProtocol", "BarkeepStore"]),

        // MARK: - Build tools
        .executableTarget(name: "SchemaEmbedder"),
        .plugin(name: "EmbedSchema", capability: .buildTool(), dependencies: ["SchemaEmbedder"]),

        // MARK: - Tests
        .target(
            name: "BarkeepTestSupport",
            dependencies: ["BarkeepHashing", "BarkeepStore", "CBarkeepTLS"],
            path: "Tests/BarkeepTestSupport"
        ),
        .testTarget(
            name: "BarkeepCoreTests",
            dependencies: ["BarkeepCore", "BarkeepHashing", "BarkeepTestSupport"],
            // Inputs of the fuzz targets (FuzzRegressionTests), read from the source tree.
            exclude: ["FuzzRegressions"]
        ),
        .testTarget(
            name: "BarkeepHashingTests", dependencies: ["BarkeepHashing", "BarkeepCore", "BarkeepTestSupport"]),
        .testTarget(name: "BarkeepCommandLineTests", dependencies: ["BarkeepCommandLine", "BarkeepCore"]),
        .testTarget(
            name: "BarkeepDiscoveryTests",
            dependencies: ["BarkeepDiscovery", "BarkeepCore", "BarkeepTestSupport"]
        ),
        .testTarget(name: "BarkeepProtocolTests", dependencies: ["BarkeepProtocol"]),
        .testTarget(
            name: "BarkeepReportTests",
            dependencies: [
                "BarkeepAPI", "BarkeepReport", "BarkeepProtocol", "BarkeepCore", "BarkeepHashing", "BarkeepTestSupport",
            ]
        ),
        .testTarget(
            name: "BarkeepWebTests", dependencies: ["BarkeepWeb", "BarkeepAPI", "BarkeepCore", "BarkeepHashing"]),
        .testTarget(
            name: "BarkeepStoreTests",
            dependencies: ["BarkeepBenchSupport", "BarkeepStore", "BarkeepHashing", "BarkeepTestSupport"]),
        .testTarget(
            name: "BarkeepSourcesTests", dependencies: ["BarkeepSources", "BarkeepCore", "BarkeepTestSupport"]),
        .testTarget(
            name: "BarkeepServerTests",
            dependencies: [
                "BarkeepAPI", "BarkeepHashing", "BarkeepServer", "BarkeepStore", "BarkeepProtocol",
                "BarkeepTestSupport", "BarkeepWeb",
            ],
            // Inputs of the framer fuzz target (FuzzRegressionTests), read from the source tree.
            exclude: ["FuzzRegressions"]
        ),
        .testTarget(
            name: "barkeepTests",
            dependencies: [
                "barkeep", "barkeepd", "BarkeepAPI", "BarkeepCommandLine", "BarkeepCore", "BarkeepHashing",
                "BarkeepProtocol",
                "BarkeepServer",
                "BarkeepStore", "BarkeepTestSupport",
            ],
            // Expected outputs of the dashboard and the report (DashboardTests), read from the source tree.
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
