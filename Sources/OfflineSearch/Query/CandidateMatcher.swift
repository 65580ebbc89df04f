/// The documents each query word matches, from the vocabulary and the posting lists (exact
/// and prefix matches, then typo-tolerant ones), plus what ranking and highlighting need.
///
/// When the required words match no document together, the words after the one that emptied
/// `matched` are not matched against the documents: their entries below are empty (no
/// documents, no terms, no typos) but for `variantTerms`, which highlighting reads.
struct CandidateMatches {
    /// Documents that match every word (before filters).
    var matched: DocumentSet
    /// `levels[l]`: documents where some query word occurs at searchable level `l` (best level per word and document).
    var levels: [DocumentSet]
    /// Document → its best match in an ordered attribute as a `PostingRank` (level, then
    /// position), over all query words; `PostingRank.unmatched` where none matched there. nil
    /// when no level is ordered (positions never count).
    var attributeRanks: [UInt16]?
    /// For each level of `levels`, whether its attribute is ordered (positions split it).
    var orderedLevels: [Bool]
    /// For each word, the documents that contain it as a whole word with no typo; nil when that
    /// is every document the word matches (a whole word matched without typos).
    var exact: [DocumentSet?]
    /// For each word that matched with typos, its documents by fewest typos: `byTypos[w][t]` are
    /// the documents whose best match of word `w` has `t` typos. nil for words without typo matches.
    var byTypos: [[DocumentSet]?]
    /// For each word, the other indexed words it matched: with typos, plural forms, synonyms
    /// (for highlighting).
    var variantTerms: [Set<String>]

    /// For each optional word, the documents it matches; nil for required words.
    var optionalSets: [DocumentSet?]
    /// For each word, the indexed words it matches (for proximity).
    var wordTerms: [WordTerms]

    /// The documents' words in order (the snapshot's), for proximity.
    var forward: ForwardIndex
    /// How many distinct words the snapshot has (term ids are below it).
    var vocabularySize: Int
    /// The searchable attributes by ordinal (empty without `searchableAttributes`).
    var searchable: [SearchableAttribute]
    /// How the attribute criterion picks a record's attribute (`attributeCriteriaComputedBy`, set
    /// per request: `SearchRequest.attributeStrategy`).
    var attributeStrategy = AttributeStrategy.best
    /// Whether the attribute criterion takes its attribute from the closest pairs of words
    /// (`minProximity`) rather than from the best match of any word.
    var attributeFromProximity: Bool { attributeStrategy == .minProximity }
    /// `minProximity`: pairs of words closer than this count as this far (set per request).
    var minProximity = 1
    /// Filled by the proximity criterion: each scanned record's attribute of its closest pairs.
    let proximityRanks = ProximityRanks()
    /// Whether `levels` and `attributeRanks` hold every occurrence the proximity scan counts as
    /// a query word's (every attribute searched, typos counted in all, no phrase synonym, whose
    /// words are noted only where the phrase is): a record's attribute from its closest pairs
    /// is then never better than its best match (`RelevanceRanker.proximityHead`).
    var levelsHoldScannedWords = false
    /// Each word's own levels (`PostingCollector.levelBits`: one bitmap per level), where the
    /// word was matched apart (a kept word); nil for the others.
    var wordLevels: [PackedBits?] = []

    /// Whether any word matched with a typo.
    var hasTypos: Bool { byTypos.contains { $0 != nil } }
}

enum CandidateMatcher {
    /// - Complexity: O(total postings of the candidate terms + words × documents / 64), plus the
    ///   typo walk of the vocabulary for words long enough to allow typos.
    static func match(_ words: [QueryWord], policy: TypoPolicy, scope: MatchScope, in snapshot: IndexSnapshot) -> CandidateMatches {
        let capacity = snapshot.documentCount
        let stride = (capacity + 63) >> 6
        var postings = PostingCollector(snapshot: snapshot)
        var matched: DocumentSet?
        var exact: [DocumentSet?] = []
        var byTypos: [[DocumentSet]?] = []
        var variantTerms: [Set<String>] = []
        var optionalSets: [DocumentSet?] = []
        var anyOptional: DocumentSet?
        var wordTerms: [WordTerms] = []
        var wordLevels: [PackedBits?] = []

        func collect<Terms: Collection<Int>>(_ terms: Terms, allowed: UInt16, wholeValueOnly: Bool = false,
                                           levels recordLevels: Bool = true, into bits: inout [UInt64]) {
            postings.collect(terms, allowed: allowed, wholeValueOnly: wholeValueOnly, recordLevels: recordLevels, into: &bits)
        }

        // Phrase synonyms (`ny` ↔ `new york`): the documents with the phrase (its words adjacent,
        // in order) match each query word it stands for, as the word itself would.
        var synonymBits = [[UInt64]?](repeating: nil, count: words.count)
        var exactSynonymBits = [[UInt64]?](repeating: nil, count: words.count)   // `alternativesAsExact`
        var synonymTermIDs = [[Int]](repeating: [], count: words.count)
        // `altCorrection`s of several words: by typo count (1, 2), per query word.
        var correctionBits = [[[UInt64]?]](repeating: [nil, nil, nil], count: words.count)
        for (start, word) in words.enumerated() {
            for synonym in word.phraseSynonyms {
                let ids = synonym.words.compactMap { snapshot.terms.id(of: $0) }
                guard ids.count == synonym.words.count else { continue }
                var documents: DocumentSet?
                // A correction counts as typos: not in attributes where typos are off.
                let allowed = synonym.typos > 0 ? scope.levels & scope.typoLevels : scope.levels
                for id in ids {
                    var bits = [UInt64](repeating: 0, count: stride)
                    collect(CollectionOfOne(id), allowed: allowed, levels: false, into: &bits)
                    let withWord = DocumentSet(capacity: capacity, words: bits)
                    if documents == nil { documents = withWord } else { documents!.formIntersection(withWord) }
                }
                guard var documents else { continue }
                if ids.count > 1 {
                    let sequence = ids.map { UInt32($0) }
                    var adjacent = DocumentSet(capacity: capacity)
                    documents.forEach { document in
                        if snapshot.forward.contains(sequence, in: document) { adjacent.insert(document) }
                        return true
                    }
                    documents = adjacent
                }
                postings.recordLevels(of: ids, allowed: allowed, in: documents)
                for covered in start..<(start + synonym.length) {
                    // A correction's typos count once, on the first query word it covers.
                    if synonym.typos > 0, covered == start {
                        let typos = min(synonym.typos, 2)
                        correctionBits[covered][typos] = correctionBits[covered][typos]?.union(documents.words) ?? documents.words
                        synonymTermIDs[covered] += ids
                        continue
                    }
                    synonymBits[covered] = synonymBits[covered]?.union(documents.words) ?? documents.words
                    if synonym.isExact {
                        exactSynonymBits[covered] = exactSynonymBits[covered]?.union(documents.words) ?? documents.words
                    }
                    synonymTermIDs[covered] += ids
                }
            }
        }

        /// The terms a word matches without a typo: the word itself, or every word it begins.
        func termRange(of word: QueryWord) -> Range<Int> {
            if word.isPrefix { return snapshot.terms.ids(withPrefix: word.folded) }
            guard let id = snapshot.terms.id(of: word.folded) else { return 0..<0 }
            return id..<(id + 1)
        }

        /// One word's match (`termRange`: its terms without a typo), its levels and ranks noted
        /// in `collector`.
        /// The indexed words a word matches besides its own terms (`termRange`), found in the
        /// vocabulary alone: its plural forms and synonyms, its typo candidates (`altCorrection`
        /// words among them), and so the words a highlight shows for it.
        struct Lookup {
            /// The exact alternatives (`QueryWord.alternatives`) in order, nil where not indexed.
            var exactAlternativeIDs: [Int?]
            var alternativeIDs: [Int]
            var candidates: [TypoCandidates.Candidate]
            /// Whether a phrase `altCorrection` covers the word.
            var corrected: Bool
            var withTypos: Bool { !candidates.isEmpty || corrected }
            var variants: Set<String>
        }
        func lookUp(_ word: QueryWord, termRange: Range<Int>, at position: Int, maxTypos: Int) -> Lookup {
            // Plural forms and synonyms count as the word itself (no typo, exact).
            // Each form looked up once: the exact ones count for `exactIDs` too.
            let exactAlternativeIDs = word.alternatives.map { snapshot.terms.id(of: $0) }
            let alternativeIDs = (exactAlternativeIDs.compactMap { $0 } + word.inexactAlternatives.compactMap { snapshot.terms.id(of: $0) })
                .filter { !termRange.contains($0) }
            let alternativeTerms = Set((alternativeIDs + synonymTermIDs[position]).map { snapshot.terms.term($0) })
            // With typos. `altCorrection` words join the candidates with the typos their synonym
            // gives (the fewer where the walk found one too).
            var candidates = snapshot.wordMatches.typoCandidates(word.folded, isPrefix: word.isPrefix, maxTypos: maxTypos, in: snapshot.terms)
            for correction in word.corrections {
                guard let id = snapshot.terms.id(of: correction.word), !termRange.contains(id), !alternativeIDs.contains(id) else { continue }
                if let index = candidates.firstIndex(where: { $0.term == id }) {
                    candidates[index].typos = min(candidates[index].typos, correction.typos)
                } else {
                    candidates.append(TypoCandidates.Candidate(term: id, typos: correction.typos))
                }
            }
            let corrected = correctionBits[position].contains { $0 != nil }
            let variants = candidates.isEmpty && !corrected
                ? alternativeTerms : Set(candidates.map { snapshot.terms.term($0.term) }).union(alternativeTerms)
            return Lookup(exactAlternativeIDs: exactAlternativeIDs, alternativeIDs: alternativeIDs, candidates: candidates,
                          corrected: corrected, variants: variants)
        }

        /// `filter`: the documents whose postings are collected with their levels (nil: every
        /// one). The word's documents, levels and ranks then hold those only, except for what
        /// is added whole: a short prefix's postings collected ahead, the documents of phrase
        /// synonyms and `altCorrection` phrases. Its exact matches, a set of their own, are
        /// whole.
        func matchWord(_ word: QueryWord, termRange: Range<Int>, at position: Int, maxTypos: Int, collector: inout PostingCollector,
                       within filter: DocumentSet? = nil) -> WordMatchCache.Entry {
            func collect<Terms: Collection<Int>>(_ terms: Terms, allowed: UInt16, wholeValueOnly: Bool = false,
                                               levels recordLevels: Bool = true, into bits: inout [UInt64]) {
                collector.collect(terms, allowed: allowed, wholeValueOnly: wholeValueOnly, recordLevels: recordLevels, within: filter, into: &bits)
            }
            let lookup = lookUp(word, termRange: termRange, at: position, maxTypos: maxTypos)
            let (exactAlternativeIDs, alternativeIDs, candidates, corrected) =
                (lookup.exactAlternativeIDs, lookup.alternativeIDs, lookup.candidates, lookup.corrected)
            var wordBits = [UInt64](repeating: 0, count: stride)
            // A short prefix's postings, collected when the derived file was written, where it has them.
            if let collected = snapshot.prefixPostings.entry(for: termRange, allowed: scope.levels) {
                collector.merge(collected, into: &wordBits)
                PrefixPostings.merges.modify { $0 += 1 }
            } else {
                collect(termRange, allowed: scope.levels, into: &wordBits)
            }
            collect(alternativeIDs, allowed: scope.levels, into: &wordBits)
            if let phraseBits = synonymBits[position] { wordBits = wordBits.union(phraseBits) }
            let exactIDs = ([snapshot.terms.id(of: word.folded)] + exactAlternativeIDs).compactMap { $0 }
            var otherTermIDs = Set((alternativeIDs + synonymTermIDs[position]).map { UInt32($0) })

            // With typos: each candidate's documents, by typo count.
            let byTypos: [DocumentSet]?
            let variants = lookup.variants
            if !lookup.withTypos {
                byTypos = nil
            } else {
                var levelsOfWord = [DocumentSet(capacity: capacity, words: wordBits)]
                for typos in 1...2 {
                    var bits = [UInt64](repeating: 0, count: stride)
                    collect(candidates.lazy.filter { $0.typos == typos }.map(\.term), allowed: scope.levels & scope.typoLevels, into: &bits)
                    if let phrases = correctionBits[position][typos] { bits = bits.union(phrases) }
                    var set = DocumentSet(capacity: capacity, words: bits)
                    for better in levelsOfWord { set.subtract(better) }
                    levelsOfWord.append(set)
                }
                for set in levelsOfWord.dropFirst() { wordBits = wordBits.union(set.words) }
                byTypos = levelsOfWord
                otherTermIDs.formUnion(candidates.map { UInt32($0.term) })
            }

            let singleWord = words.count == 1
            let exact: DocumentSet?
            if singleWord, scope.singleWordExact == .none {
                exact = nil
            } else if singleWord, scope.singleWordExact == .attribute {
                // One word: exact only where it is a whole attribute value (`exactOnSingleWordQuery`).
                var whole = [UInt64](repeating: 0, count: stride)
                collect(exactIDs, allowed: scope.levels, wholeValueOnly: true, levels: false, into: &whole)
                exact = DocumentSet(capacity: capacity, words: whole)
            } else if !word.isPrefix, candidates.isEmpty, !corrected, word.inexactAlternatives.isEmpty,
                      exactSynonymBits[position] == synonymBits[position] {
                exact = nil   // every match is the word itself or an exact alternative
            } else {
                var whole = exactSynonymBits[position] ?? [UInt64](repeating: 0, count: stride)
                collect(exactIDs, allowed: scope.levels, levels: false, into: &whole)
                exact = DocumentSet(capacity: capacity, words: whole)
            }
            return WordMatchCache.Entry(documents: wordBits, byTypos: byTypos, variantTerms: variants, termRange: termRange,
                                        otherTermIDs: otherTermIDs, exact: exact, levelBits: PackedBits([]), ranks: .none)
        }

        // Each word's match is kept for the next keystrokes (and the next users) from its second
        // sighting (a costly one from its first), when no phrase synonym spans words (its match
        // would then depend on its neighbours).
        let wordsStandAlone = words.allSatisfy { $0.phraseSynonyms.isEmpty }
        for (position, word) in words.enumerated() {
            // The required words so far match no document together: no later word can add one,
            // so none is matched (a zero-hit query goes on being typed, and its last word, a new
            // prefix, is the dearest to match). Each keeps its place, with no documents, and the
            // words a highlight shows for it: a record a Rule promotes is highlighted still.
            if let matched, matched.isEmpty {
                wordLevels.append(nil)
                byTypos.append(nil)
                variantTerms.append(lookUp(word, termRange: termRange(of: word), at: position, maxTypos: policy.maxTypos(for: word)).variants)
                exact.append(nil)
                wordTerms.append(WordTerms(range: 0..<0, others: EmptyCollection()))
                optionalSets.append(word.isOptional ? matched : nil)
                continue
            }
            let maxTypos = policy.maxTypos(for: word)
            let key = wordsStandAlone
                ? WordMatchCache.Key(folded: word.folded, isPrefix: word.isPrefix, alternatives: word.alternatives,
                                     inexactAlternatives: word.inexactAlternatives, corrections: word.corrections, maxTypos: maxTypos,
                                     scope: scope, singleWord: words.count == 1)
                : nil
            let match: WordMatchCache.Entry
            var levelsApart: PackedBits?
            if let key, let cached = snapshot.wordMatches.entry(for: key) {
                postings.merge(levelBits: cached.levelBits, ranks: cached.ranks)
                match = cached
                levelsApart = cached.levelBits
            } else {
                let terms = termRange(of: word)
                if let key, snapshot.wordMatches.isWorthKeeping(key, postingCount: snapshot.postingCount(of: terms)) {
                    /// The word matched with its levels and ranks noted in `collector` (started
                    /// here), and packed from there to be kept with it.
                    func matchToKeep(noting collector: inout PostingCollector) -> WordMatchCache.Entry {
                        collector.start()
                        var entry = matchWord(word, termRange: terms, at: position, maxTypos: maxTypos, collector: &collector)
                        entry.levelBits = PackedBits(collector.levelBits)
                        entry.ranks = collector.notedRanks()
                        return entry
                    }
                    let entry: WordMatchCache.Entry
                    if postings.isStarted {
                        // Its levels and ranks noted apart, to be kept with it, then merged.
                        var own = PostingCollector(snapshot: snapshot)
                        entry = matchToKeep(noting: &own)
                        postings.merge(levelBits: entry.levelBits, ranks: entry.ranks)
                    } else {
                        // Nothing noted yet (the query's first word: a phrase synonym, which notes
                        // levels before the loop, keeps no word): the query's own levels and ranks
                        // are this word's alone, so they are noted there and kept from there, as
                        // merging the word's into empty ones would leave them. This spares the
                        // word's own zero-filled per-record arrays and, where it is kept sparse,
                        // their expansion into the query's: at 1M records, a word's second
                        // sighting took 40 % less time (Benchmarks/README.md).
                        entry = matchToKeep(noting: &postings)
                    }
                    snapshot.wordMatches.store(entry, for: key)
                    match = entry
                    levelsApart = entry.levelBits
                } else {
                    // A required word after other required words is collected for the
                    // documents they match together only: no other can be a hit. (A word kept
                    // for later queries, above, is collected whole.) At 1M records, a query
                    // whose words each match many records and few together (`tv sam`) noted
                    // the levels and ranks of every record each word matched.
                    match = matchWord(word, termRange: terms, at: position, maxTypos: maxTypos, collector: &postings,
                                      within: word.isOptional ? nil : matched)
                }
            }
            wordLevels.append(levelsApart)
            byTypos.append(match.byTypos)
            variantTerms.append(match.variantTerms)
            exact.append(match.exact)
            let wordSet = DocumentSet(capacity: capacity, words: match.documents)
            // Proximity reads them only for queries of several words.
            wordTerms.append(WordTerms(range: UInt32(match.termRange.lowerBound)..<UInt32(match.termRange.upperBound),
                                       others: words.count > 1 ? match.otherTermIDs : []))
            if word.isOptional {
                optionalSets.append(wordSet)
                if anyOptional == nil { anyOptional = wordSet } else { anyOptional!.formUnion(wordSet) }
            } else {
                optionalSets.append(nil)
                if matched == nil { matched = wordSet } else { matched!.formIntersection(wordSet) }
            }
        }
        // Required words must all match; when every word is optional, at least one must.
        let all = matched ?? anyOptional ?? DocumentSet(capacity: capacity, full: true)
        var matches = CandidateMatches(matched: all, levels: postings.levelSets(), attributeRanks: postings.attributeRanks(),
                                       orderedLevels: snapshot.configuration.orderedLevels, exact: exact, byTypos: byTypos,
                                       variantTerms: variantTerms, optionalSets: optionalSets, wordTerms: wordTerms,
                                       forward: snapshot.forward, vocabularySize: snapshot.terms.count,
                                       searchable: snapshot.configuration.searchable ?? [])
        matches.levelsHoldScannedWords = scope.levels == PostingMask.levels && scope.typoLevels == PostingMask.levels && wordsStandAlone
        matches.wordLevels = wordLevels
        return matches
    }
}

/// Each record's attribute rank from its closest pairs of query words (`ProximityScanner`),
/// kept by the proximity split for the attribute split after it. One query's words; shared by
/// the queries of one segment's context (`SegmentContext`), since it depends on the record and
/// the words only.
final class ProximityRanks {
    static let unscanned = UInt16.max
    /// Scanned, but no pair is closer than 8: the attribute of the best match decides.
    static let noPair = UInt16.max - 1
    private(set) var ranks: [UInt16] = []

    func record(_ rank: UInt16?, for document: Int, capacity: Int) {
        if ranks.isEmpty { ranks = [UInt16](repeating: ProximityRanks.unscanned, count: capacity) }
        ranks[document] = rank ?? ProximityRanks.noPair
    }

    func rank(of document: Int) -> UInt16 { ranks.isEmpty ? ProximityRanks.unscanned : ranks[document] }
}

private extension Array where Element == UInt64 {
    func union(_ other: [UInt64]) -> [UInt64] {
        var result = self
        for i in result.indices { result[i] |= other[i] }
        return result
    }
}

/// The indexed words one query word matches: a contiguous range of term ids (itself, or the
/// words it begins), plus typo matches, plural forms and synonyms, tested once per word of each
/// record the proximity criterion reads.
struct WordTerms {
    var range: Range<UInt32>
    /// The other term ids, sorted (empty when there are none).
    private var others: [UInt32] = []

    /// - Complexity: O(k log k) for k other terms.
    init(range: Range<UInt32>, others: some Collection<UInt32>) {
        self.range = range
        self.others = others.sorted()
    }

    /// Calls `body` with every term id it matches.
    func forEachTerm(_ body: (Int) -> Void) {
        for term in range { body(Int(term)) }
        for term in others { body(Int(term)) }
    }

    /// - Complexity: O(log k); a large group's proximity uses a table instead (`ProximityScanner`).
    @inline(__always) func matches(_ term: UInt32) -> Bool {
        if range.contains(term) { return true }
        guard let first = others.first, term >= first, term <= others[others.count - 1] else { return false }
        var low = 0, high = others.count
        while low < high {
            let middle = (low + high) >> 1
            if others[middle] < term { low = middle + 1 } else { high = middle }
        }
        return others[low] == term
    }
}
