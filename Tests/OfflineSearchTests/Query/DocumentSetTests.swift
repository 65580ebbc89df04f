import Testing
@testable import OfflineSearch
import SearchAPI

/// `DocumentSet`'s set operations, against `Set<Int>` on seeded random sets, at capacities on
/// and off a 64-document word.
@Suite struct DocumentSetTests {
    static let capacities = [1, 63, 64, 65, 1_000, 4_096]

    func randomSet(capacity: Int, density: UInt64, generator: inout SplitMix64) -> (DocumentSet, Set<Int>) {
        var documents = DocumentSet(capacity: capacity)
        var expected = Set<Int>()
        for document in 0..<capacity where generator.next() % 100 < density {
            documents.insert(document)
            expected.insert(document)
        }
        return (documents, expected)
    }

    func elements(_ documents: DocumentSet) -> Set<Int> {
        var found = Set<Int>()
        documents.forEach { found.insert($0); return true }
        return found
    }

    @Test(arguments: capacities) func operationsAreTheSetsOperations(capacity: Int) {
        var generator = SplitMix64(state: UInt64(capacity))
        for (densityA, densityB) in [(0, 50), (50, 50), (10, 90), (100, 30), (100, 100)] as [(UInt64, UInt64)] {
            let (a, setA) = randomSet(capacity: capacity, density: densityA, generator: &generator)
            let (b, setB) = randomSet(capacity: capacity, density: densityB, generator: &generator)
            let label = "capacity \(capacity), densities \(densityA) % and \(densityB) %"
            #expect(elements(a.intersection(b)) == setA.intersection(setB), "intersection, \(label)")
            #expect(elements(a.union(b)) == setA.union(setB), "union, \(label)")
            #expect(elements(a.subtracting(b)) == setA.subtracting(setB), "subtracting, \(label)")
            let complement = a.complement()
            #expect(elements(complement) == Set(0..<capacity).subtracting(setA), "complement, \(label)")
            #expect(complement.count == capacity - setA.count, "the complement has no document past the capacity, \(label)")
            #expect(a.isSubset(of: b) == setA.isSubset(of: setB), "isSubset, \(label)")
            #expect(a.intersection(b).isSubset(of: a), "an intersection is a subset, \(label)")
            #expect(a.isSubset(of: a.union(b)), "a set is a subset of a union with it, \(label)")
        }
    }

    /// The operations that make no set they can avoid (the ranking's splits): the intersection
    /// or nil, and a union with an intersection or a difference, against `Set<Int>`.
    @Test(arguments: capacities + [600, 10_000]) func fusedOperationsAreTheSetsOperations(capacity: Int) {
        var generator = SplitMix64(state: UInt64(capacity) &+ 11)
        for (densityA, densityB, densityInto) in [(0, 50, 0), (50, 50, 20), (1, 1, 1), (10, 90, 100), (100, 30, 50), (100, 100, 0)] as [(UInt64, UInt64, UInt64)] {
            let (a, setA) = randomSet(capacity: capacity, density: densityA, generator: &generator)
            let (b, setB) = randomSet(capacity: capacity, density: densityB, generator: &generator)
            let (into, setInto) = randomSet(capacity: capacity, density: densityInto, generator: &generator)
            let label = "capacity \(capacity), densities \(densityA) %, \(densityB) % and \(densityInto) %"
            let both = setA.intersection(setB)
            #expect(a.nonEmptyIntersection(b).map(elements) == (both.isEmpty ? nil : both), "nonEmptyIntersection, \(label)")
            var withBoth = into
            withBoth.formUnion(a, intersectedWith: b)
            #expect(elements(withBoth) == setInto.union(both), "formUnion(_:intersectedWith:), \(label)")
            var withRest = into
            withRest.formUnion(a, subtracting: b)
            #expect(elements(withRest) == setInto.union(setA.subtracting(setB)), "formUnion(_:subtracting:), \(label)")
        }
        // Two sets that share one document, in each place of a block of eight words and at the
        // last document: the intersection is found however far it starts.
        let words = (capacity + 63) / 64
        for shared in (0..<min(words, 17)).map({ $0 * 64 + $0 % 64 }) + [capacity - 1] where shared < capacity {
            var a = DocumentSet(capacity: capacity), b = DocumentSet(capacity: capacity)
            a.insert(shared)
            b.insert(shared)
            if shared > 0 { a.insert(shared - 1) }
            if shared + 1 < capacity { b.insert(shared + 1) }
            #expect(a.nonEmptyIntersection(b).map(elements) == [shared], "document \(shared) of \(capacity)")
        }
    }

    /// The counts, emptiness and pages read eight words or two at a time, against the set.
    @Test(arguments: capacities + [600, 10_000]) func countsEmptinessAndPagesAreTheSets(capacity: Int) {
        var generator = SplitMix64(state: UInt64(capacity) &+ 7)
        for density in [0, 1, 30, 100] as [UInt64] {
            let (documents, expected) = randomSet(capacity: capacity, density: density, generator: &generator)
            let sorted = expected.sorted()
            let label = "capacity \(capacity), density \(density) %"
            #expect(documents.count == expected.count, "count, \(label)")
            #expect(documents.isEmpty == expected.isEmpty, "isEmpty, \(label)")
            for position in [0, 1, 63, 64, 65, 511, 512, 513, capacity / 2, capacity - 1, capacity] {
                #expect(documents.count(below: position) == sorted.filter { $0 < position }.count, "count(below: \(position)), \(label)")
            }
            for (skip, limit) in [(0, 20), (0, 1), (1, 5), (63, 10), (64, 64), (expected.count / 2, 20), (expected.count, 5)] {
                #expect(documents.elements(skip: skip, limit: limit) == Array(sorted.dropFirst(skip).prefix(limit)),
                        "elements(skip: \(skip), limit: \(limit)), \(label)")
            }
        }
        // One document anywhere: not empty, in every place of a group of eight words (the
        // first 17 words, one document each) and at the last document.
        let words = (capacity + 63) / 64
        for document in (0..<min(words, 17)).map({ $0 * 64 + $0 % 64 }) + [capacity - 1] where document < capacity {
            var single = DocumentSet(capacity: capacity)
            single.insert(document)
            #expect(!single.isEmpty && single.count == 1, "document \(document) of \(capacity)")
        }
    }

    @Test func operationsLeaveTheirOperandsAsTheyWere() {
        var a = DocumentSet(capacity: 200), b = DocumentSet(capacity: 200)
        for document in stride(from: 0, to: 200, by: 3) { a.insert(document) }
        for document in stride(from: 0, to: 200, by: 5) { b.insert(document) }
        let (before, otherBefore) = (a, b)
        _ = a.intersection(b)
        _ = a.union(b)
        _ = a.subtracting(b)
        _ = a.complement()
        #expect(a == before && b == otherBefore)
    }
}
