import Foundation
import SearchAPI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resident memory of this process, in bytes. Linux: `VmRSS` (current) from /proc/self/status.
/// Elsewhere only the peak is available (`getrusage` max RSS); `label` says which.
func residentMemory() -> (bytes: Int, label: String) {
    #if os(Linux)
    if let kb = procStatusKB("VmRSS") { return (kb * 1024, "VmRSS") }
    #endif
    return (maxRSSBytes(), "maxrss")
}

/// `getrusage`'s peak resident memory in bytes (kilobytes on Linux, bytes on Apple systems).
func maxRSSBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
}

/// Peak resident memory (`VmHWM` on Linux, `getrusage` elsewhere).
func peakResidentMemory() -> Int {
    #if os(Linux)
    if let kb = procStatusKB("VmHWM") { return kb * 1024 }
    #endif
    return maxRSSBytes()
}

#if os(Linux)
func procStatusKB(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
        return Int(digits)
    }
    return nil
}
#endif

/// Total size of the regular files under `path` (the index files, WAL included).
func directorySize(_ path: String) -> Int {
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return 0 }
    var total = 0
    while let name = enumerator.nextObject() as? String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
        if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
    }
    return total
}

/// The regular files under `path` with their sizes, largest first.
func directoryFiles(_ path: String) -> [(name: String, size: Int)] {
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
    var files: [(name: String, size: Int)] = []
    while let name = enumerator.nextObject() as? String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
        if attributes?[.type] as? FileAttributeType == .typeRegular { files.append((name, (attributes?[.size] as? Int) ?? 0)) }
    }
    return files.sorted { $0.size > $1.size }
}

func describeFiles(_ files: [(name: String, size: Int)]) -> String {
    files.map { "\($0.name) \(formatBytes($0.size))" }.joined(separator: ", ")
}

func filesJSON(_ files: [(name: String, size: Int)]) -> JSONValue {
    .object(JSONObject(files.map { (key: $0.name, value: JSONValue.int(Int64($0.size))) }))
}

extension Duration {
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var milliseconds: Double { seconds * 1000 }
}

/// Percentiles as `shared/bench/peers.py` computes them: nearest rank (ceil(p·n/100)-th value).
struct LatencySummary {
    var count: Int
    var p50: Double, p90: Double, p99: Double, max: Double, mean: Double   // microseconds

    init(nanoseconds values: [Int64]) {
        let sorted = values.sorted()
        count = sorted.count
        func pct(_ p: Int) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let k = Swift.max(0, Swift.min(sorted.count - 1, (p * sorted.count + 99) / 100 - 1))
            return Double(sorted[k]) / 1000
        }
        p50 = pct(50); p90 = pct(90); p99 = pct(99)
        max = Double(sorted.last ?? 0) / 1000
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
    }

    var json: JSONValue {
        ["requests": .int(Int64(count)), "p50_us": .double(round1(p50)), "p90_us": .double(round1(p90)),
         "p99_us": .double(round1(p99)), "max_us": .double(round1(max)), "mean_us": .double(round1(mean))]
    }
}

/// statistics.median: the middle value, or the mean of the two middle ones.
func median(_ values: [Int64]) -> Int64 {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

/// "812 µs", "2.41 ms", "1.30 s".
func formatMicros(_ us: Double) -> String {
    if us < 1000 { return String(format: "%.0f µs", us) }
    if us < 1_000_000 { return String(format: "%.2f ms", us / 1000) }
    return String(format: "%.2f s", us / 1_000_000)
}

func formatBytes(_ bytes: Int) -> String {
    let mb = Double(bytes) / 1_048_576
    return mb >= 1024 ? String(format: "%.2f GiB", mb / 1024) : String(format: "%.1f MiB", mb)
}

func formatCount(_ n: Double) -> String {
    let digits = String(Int(n.rounded()))
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
        if i > 0, i % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return String(out.reversed())
}

/// nproc, CPU model, memory, OS: for the report.
func machineDescription() -> JSONValue {
    var cpu = "unknown"
    #if os(Linux)
    if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
       let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
       let colon = line.firstIndex(of: ":") {
        cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    #endif
    return ["cpus": .int(Int64(ProcessInfo.processInfo.activeProcessorCount)), "cpuModel": .string(cpu),
            "memoryBytes": .int(Int64(ProcessInfo.processInfo.physicalMemory)),
            "os": .string(ProcessInfo.processInfo.operatingSystemVersionString)]
}

/// The path of this executable, to run it again as a child process.
func selfExecutablePath() -> String {
    #if os(Linux)
    if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
}

/// Runs this executable with `arguments`; its stdout parsed as one JSON object, stderr passed
/// through. Also returns the wall time from spawn to exit (process start and exit included).
func runSelf(_ arguments: [String]) throws -> (output: JSONObject, wall: Duration) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: selfExecutablePath())
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    let clock = ContinuousClock()
    let started = clock.now
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let wall = clock.now - started
    guard process.terminationStatus == 0 else {
        throw BenchError("child `\(arguments.joined(separator: " "))` exited with status \(process.terminationStatus)")
    }
    guard case .object(let object)? = try? JSONValue(parsingUTF8: Array(data)) else {
        throw BenchError("child `\(arguments.joined(separator: " "))` printed no JSON object: \(String(decoding: data.prefix(300), as: UTF8.self))")
    }
    return (object, wall)
}
