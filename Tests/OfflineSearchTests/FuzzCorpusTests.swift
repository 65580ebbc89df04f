import Foundation
import Testing
import FuzzTargets

/// Every input of the fuzz targets' seed corpora (`Tests/Fuzz/<target>/corpus`), run through
/// the code the fuzzers run: inputs that once crashed stay in the corpus, and so in the suite.
/// The targets check their invariants with `precondition`, so a broken one stops the run.
@Suite struct FuzzCorpusTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    @Test(arguments: FuzzTarget.allCases)
    func everySeedRunsThroughItsTarget(target: FuzzTarget) throws {
        let corpus = FuzzCorpusTests.fuzzFolder.appendingPathComponent("\(target.rawValue)/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        #expect(names.count >= 10, "a seed corpus of a few inputs at least")
        for name in names {
            target.run([UInt8](try Data(contentsOf: corpus.appendingPathComponent(name))))
        }
    }
}
