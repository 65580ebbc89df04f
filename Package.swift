// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OfflineSearch",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SearchAPI", targets: ["SearchAPI"]),
        .library(name: "OfflineSearch", targets: ["OfflineSearch"]),
        .executable(name: "offline-search", targets: ["offline-search"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .target(name: "OfflineSearch", dependencies: ["SearchAPI", "CSQLite"]),
        // Deterministic generators for the demo datasets.
        .target(name: "DatasetGenerator", dependencies: ["SearchAPI"]),
        .executableTarget(
            name: "offline-search",
            dependencies: [
                "OfflineSearch", "SearchAPI", "DatasetGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "offline-search-benchmark",
            dependencies: ["OfflineSearch", "SearchAPI", "DatasetGenerator"],
            path: "Benchmarks/OfflineSearchBenchmark"
        ),
        .testTarget(name: "SearchAPITests", dependencies: ["SearchAPI"]),
        .testTarget(name: "OfflineSearchTests", dependencies: ["OfflineSearch", "SearchAPI", "DatasetGenerator"]),
        .testTarget(name: "CLITests", dependencies: ["SearchAPI"]),
    ],
    swiftLanguageModes: [.v6]
)
