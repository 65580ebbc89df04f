#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the processor to bring the cache line at `address` in for reading, without waiting for
/// it (a hint: no effect on results, and none where the compiler has no such instruction).
static inline void cprefetch_read(const void *address) {
#if defined(__has_builtin)
#if __has_builtin(__builtin_prefetch)
    __builtin_prefetch(address, 0, 3);
#endif
#endif
}

#endif
