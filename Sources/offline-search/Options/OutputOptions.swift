import ArgumentParser
import SearchAPI

/// `--json` and `--pretty`, for commands that can print Algolia's JSON.
struct JSONOutputOptions: ParsableArguments {
    @Flag(help: "Print Algolia's JSON answer instead of the readable listing.") var json = false
    @Flag(help: "With --json: indent the JSON (implies --json).") var pretty = false

    var wantsJSON: Bool { json || pretty }

    func print(_ value: JSONValue) {
        Terminal.writeLine(pretty ? value.prettyJSONString : value.jsonString)
    }
}
