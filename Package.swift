// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OfflineSearch",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SearchAPI", targets: ["SearchAPI"]),
        .library(name: "OfflineSearch", targets: ["OfflineSearch"]),
        .library(name: "HeadlessSearch", targets: ["HeadlessSearch"]),
        .library(name: "SearchTestDoubles", targets: ["SearchTestDoubles"]),
        .library(name: "OfflineSearchServer", targets: ["OfflineSearchServer"]),
        .library(name: "OfflineSearchRemote", targets: ["OfflineSearchRemote"]),
        .library(name: "OfflineSearchMirror", targets: ["OfflineSearchMirror"]),
        .executable(name: "offline-search", targets: ["offline-search"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Test clocks (TestClock, ImmediateClock) for the headless layer's tests.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        // The HTTP server (`offline-search serve`), its log and the HMAC of secured API keys.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),   // LogHandler.log(event:)
        // Graceful shutdown of in-process servers in the remote tests (already a dependency of Hummingbird).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // `swift package generate-documentation`: the DocC catalogs of the library products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Algolia's request/response/settings models, the JSON value type and the
        // SearchService protocol. No dependencies, no SQLite: the headless layer and a
        // remote client build on this alone.
        .target(name: "SearchAPI"),
        // The system SQLite (with FTS5), behind the engine's Storage/ boundary.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        // A hint to the processor to fetch memory ahead (`__builtin_prefetch`): the proximity
        // scan reads records far apart in the forward index.
        .target(name: "CPrefetch"),
        .target(name: "OfflineSearch", dependencies: ["SearchAPI", "CSQLite", "CPrefetch"],
                // The scripts that make Text/Languages/StopWords+Lists.swift, CompoundParts+Words.swift,
                // CJKDictionary+Words.swift and TraditionalChinese+Table.swift.
                exclude: ["Text/Languages/make_stop_words.py", "Text/Languages/make_compound_parts.py",
                          "Text/Languages/make_cjk_dictionaries.py", "Text/Languages/make_traditional_chinese.py"]),
        // The headless InstantSearch-style layer: searchers, interactors, FilterState,
        // highlighting. On SearchAPI alone, so it runs on the engine, a remote client or a double.
        .target(name: "HeadlessSearch", dependencies: ["SearchAPI"]),
        // Wrappers of any SearchService for UI tests: latency, failures, offline, out of order,
        // recording and replay. On SearchAPI alone.
        .target(name: "SearchTestDoubles", dependencies: ["SearchAPI"]),
        // Deterministic generators for the demo datasets.
        .target(name: "DatasetGenerator", dependencies: ["SearchAPI"]),
        // Algolia's REST API over HTTP on the engine (`offline-search serve`, or in-process from
        // an app or a test). At the edge: nothing below depends on it.
        .target(
            name: "OfflineSearchServer",
            dependencies: [
                "OfflineSearch", "SearchAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The dashboard's files ship inside the binary, in DashboardAssets.swift.
            exclude: ["Dashboard/site", "Dashboard/make_assets.py"]
        ),
        // A client of Algolia's REST API (Algolia itself, or `offline-search serve`) behind the
        // same protocols as the engine: URLSession and Algolia's retry strategy. On SearchAPI
        // alone (Crypto for secured API keys: CryptoKit's API, CryptoKit itself on Apple platforms).
        .target(
            name: "OfflineSearchRemote",
            dependencies: ["SearchAPI", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Mirroring an index from any browsable source into any writable target, and the
        // fallback service that composes a remote and a local one. On SearchAPI alone.
        .target(name: "OfflineSearchMirror", dependencies: ["SearchAPI"]),
        .executableTarget(
            name: "offline-search",
            dependencies: [
                "OfflineSearch", "SearchAPI", "DatasetGenerator", "HeadlessSearch", "OfflineSearchServer",
                "OfflineSearchRemote", "OfflineSearchMirror",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "offline-search-benchmark",
            dependencies: ["OfflineSearch", "SearchAPI", "DatasetGenerator", "HeadlessSearch", "SearchTestDoubles"],
            path: "Benchmarks/OfflineSearchBenchmark"
        ),
        // What the test targets share: temporary folders, a test engine, a seeded generator.
        .target(name: "OfflineSearchTestSupport", dependencies: ["OfflineSearch", "SearchAPI"],
                path: "Tests/TestSupport"),
        .testTarget(name: "SearchAPITests", dependencies: ["SearchAPI", "DatasetGenerator"]),
        .testTarget(name: "OfflineSearchTests", dependencies: ["OfflineSearch", "SearchAPI", "DatasetGenerator", "FuzzTargets", "OfflineSearchTestSupport"],
                    // A data folder written by version 0.7.0, read by path (MigrationTests).
                    exclude: ["Fixtures"]),
        // What each fuzz target runs on one input; the tests replay the seed corpora through it.
        .target(name: "FuzzTargets", dependencies: ["OfflineSearch", "SearchAPI"], path: "Tests/Fuzz/FuzzTargets"),
        // The CLI tests run the built `offline-search` binary, as scripts do: the dependency makes
        // `swift test` build it first.
        .testTarget(name: "CLITests", dependencies: ["offline-search", "SearchAPI", "OfflineSearch", "OfflineSearchTestSupport",
                                                  .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "OfflineSearchServer", "OfflineSearch", "SearchAPI", "OfflineSearchTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The remote client, the mirror and the fallback against a live server on loopback.
        .testTarget(
            name: "RemoteTests",
            dependencies: [
                "OfflineSearchRemote", "OfflineSearchMirror", "OfflineSearchServer", "OfflineSearch", "SearchAPI", "HeadlessSearch",
                "OfflineSearchTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "HeadlessSearchTests",
            dependencies: [
                "HeadlessSearch", "SearchTestDoubles", "SearchAPI", "OfflineSearch", "DatasetGenerator", "OfflineSearchTestSupport",
                // The guide flows also run on the remote client against a live server.
                "OfflineSearchRemote", "OfflineSearchServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "SearchTestDoublesTests",
            dependencies: [
                "SearchTestDoubles", "SearchAPI", "OfflineSearch", "OfflineSearchTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer entry points, one executable per fuzz target. Only `Tests/Fuzz/run.sh` builds
// them (it sets OFFLINE_SEARCH_FUZZ and compiles with -sanitize=fuzzer, which supplies `main`).
if Context.environment["OFFLINE_SEARCH_FUZZ"] != nil {
    for name in ["json-parser", "filters", "list-filters", "url-encoded-params", "record-import"] {
        package.targets.append(.executableTarget(
            name: "fuzz-\(name)", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/\(name)", exclude: ["corpus", "dictionary"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ))
    }
}
