#if OFFLINE_SEARCH_FUZZ
// Only in the fuzz build (Tests/Fuzz/run.sh), which links libFuzzer and enables `@_extern`.

@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

extension FuzzTarget {
    /// Hands the process to libFuzzer's driver with `callback` as the target: what the `main` of
    /// a fuzz executable does. (SwiftPM links an executable's `main` to `<module>_main`, so the
    /// entry point cannot be libFuzzer's own `main`.)
    public static func runDriver(argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv, callback)
    }
}
#endif
