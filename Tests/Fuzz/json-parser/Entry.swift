import FuzzTargets

/// libFuzzer's entry point for the `json-parser` target (see `FuzzTarget`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.jsonParser.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// The executable's `main` (SwiftPM's name for it): libFuzzer's driver, on the entry point above.
@_cdecl("fuzz_json_parser_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzTarget.runDriver(argc: argc, argv: argv) { data, size in fuzzOneInput(data, size) }
}
