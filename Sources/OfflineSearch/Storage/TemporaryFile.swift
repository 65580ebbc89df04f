import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written aside and then renamed (or linked) into place: `FILE.<pid>.<random>.tmp`, beside
/// the file they become (or a folder of such files, named the same way). A process killed in between leaves one behind; `removeStale` clears
/// those on the next open.
enum TemporaryFile {
    /// A fresh temporary path beside `path`, naming this process.
    static func path(besides path: String) -> String {
        path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// How old a temporary file must be before it is removed although the process that wrote
    /// it may still run (its id is this process's, or the system will not say): a day.
    static let abandonedAfter: TimeInterval = 24 * 60 * 60

    /// Removes the temporary files of `path` (and SQLite's `-wal`, `-shm` and `-journal` files
    /// beside them) whose writer is gone: the process in their name no longer exists, or they
    /// are older than `abandonedAfter`. A file another live process is writing is kept. Best
    /// effort: on a read-only file system nothing is removed.
    static func removeStale(of path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let now = Date()
        for name in names where name.hasPrefix(prefix) {
            var rest = name.dropFirst(prefix.count)
            for sqliteSuffix in ["-wal", "-shm", "-journal"] where rest.hasSuffix(sqliteSuffix) {
                rest = rest.dropLast(sqliteSuffix.count)
            }
            let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2] == "tmp", let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { continue }
            let file = folder + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? now
            let writerGone = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            if writerGone || now.timeIntervalSince(modified) > abandonedAfter {
                // A folder (a new index an import built aside) goes with what it holds.
                if unlink(file) != 0, errno == EISDIR || errno == EPERM { try? FileManager.default.removeItem(atPath: file) }
            }
        }
    }
}
