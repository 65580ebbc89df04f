import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file beside the derived index (`NAME.index.derived.lock`),
/// held while one process rebuilds a missing or stale derived file: several processes opening
/// one stale index rebuild it once, the others wait and then read the file it stored.
///
/// `flock` locks belong to the open file, so two engines in one process exclude each other too,
/// and the lock goes with the process when it dies (a killed rebuild blocks no one). Best
/// effort: when the lock file cannot be made (a read-only folder), there is no lock.
final class RebuildLock {
    private var descriptor: Int32
    /// Whether another holder made this one wait (then the file it stored may already do).
    private(set) var waited = false

    /// Takes the lock, waiting for another holder, or, without `wait`, only when it is free.
    init(path: String, wait: Bool = true) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        guard wait else {
            close(descriptor)
            descriptor = -1
            return
        }
        waited = true
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR {
                close(descriptor)
                descriptor = -1
                return
            }
        }
    }

    func unlock() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }
}
