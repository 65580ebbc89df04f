import SearchAPI

// The records' words: each record's tokens as temporary term ids, then the vocabulary and the posting lists.

/// Gives each distinct word a temporary id and collects one document's entries,
/// `id << 32 | rank << 16 | posting mask`: the rank is the level and, in an ordered attribute,
/// the word's position (see `PostingRank`): the lowest of a term's ranks is its best
/// occurrence; the mask has the level's bit, and `PostingMask.wholeValue` for the word that
/// makes up a whole attribute value (set by the caller once the text is scanned).
struct TermCollector: TokenSink {
    var words = WordInterner()
    var entries: [UInt64] = []
    var level = 0
    var ordered = false
    /// The next word's position inside the current attribute (array elements continue it).
    var position = 0
    /// Every document's words in order (temporary ids), each attribute value after its
    /// `ForwardIndex.marker`: the forward index, for proximity.
    var forward: [UInt32] = []
    /// Placeholder synonyms' tags (folded UTF-8), and the UTF-8 of the value being scanned when
    /// it may hold one (`<tag>`), else empty.
    var placeholderTags: Set<[UInt8]> = []
    var placeholderValue: [UInt8] = []
    /// When the FTS5 text is wanted: the batch's folded words per record and level
    /// (`RecordStore`'s text columns, from this one tokenization). The table keeps only which
    /// records hold each word (`detail = none`), so a word is written once per column: a
    /// repeated word cost FTS5 as much as a new one. (A contentless row is removed by giving
    /// its columns again, each word once, in the column it was stored in:
    /// `IndexConfiguration.textLayout`.)
    var texts: TextColumns?
    /// The record being collected (an id that differs from record to record, never 0), and per
    /// word id the record and level (`record << 32 | level`) whose column holds it last.
    var record: UInt32 = 0
    private var inText: [UInt64] = []

    /// Forgets which words the current record's text holds (once every record is in).
    mutating func releaseTextStamps() { inText = [] }

    /// `decompoundedAttributes`: the splitter of the attribute being scanned, if it is one; and
    /// the parts found so far, per splitter's languages and word.
    var compounds: CompoundSplitter?
    private var knownParts: [[String]: [String: [String]]] = [:]

    mutating func token(_ folded: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        let id: UInt32
        if !placeholderValue.isEmpty, start > 0, end < placeholderValue.count, placeholderValue[start - 1] == UInt8(ascii: "<"),
           placeholderValue[end] == UInt8(ascii: ">"), placeholderTags.contains(Array(folded)) {
            id = Array(SynonymTable.placeholderTerm(String(decoding: folded, as: UTF8.self)).utf8).withUnsafeBufferPointer { words.id(of: $0) }
            texts?.append(word: folded, level: level)
        } else {
            id = words.id(of: folded)
            appendText(id: id, folded: folded)
        }
        let rank = PostingRank.rank(level: level, position: ordered ? position : 0)
        entries.append(UInt64(id) << 32 | UInt64(rank) << 16 | UInt64(PostingMask.bit(forLevel: level)))
        forward.append(id)
        position += 1
        if let compounds, folded.count >= CompoundSplitter.minimumLength {
            // A compound's parts are words of the record too, at the compound's place: found,
            // counted and ranked as it is, but not in the forward index (proximity and phrases
            // read the words as written).
            let word = String(decoding: folded, as: UTF8.self)
            let parts: [String]
            if let known = knownParts[compounds.languages]?[word] {
                parts = known
            } else {
                parts = compounds.parts(of: word)
                knownParts[compounds.languages, default: [:]][word] = parts
            }
            for part in parts {
                var part = part
                part.withUTF8 { bytes in
                    let partID = words.id(of: bytes)
                    appendText(id: partID, folded: bytes)
                    entries.append(UInt64(partID) << 32 | UInt64(rank) << 16 | UInt64(PostingMask.bit(forLevel: level)))
                }
            }
        }
    }

    /// Writes the word in the current record's text column, once per column.
    private mutating func appendText(id: UInt32, folded: UnsafeBufferPointer<UInt8>) {
        guard texts != nil else { return }
        if Int(id) >= inText.count {
            inText.append(contentsOf: repeatElement(0, count: max(Int(id) + 1, 2 * inText.count, 1024) - inText.count))
        }
        let column = UInt64(record) << 32 | UInt64(level)
        if inText[Int(id)] != column {
            inText[Int(id)] = column
            texts!.append(word: folded, level: level)
        }
    }
}

/// Each record's words, per input: (temporary term id, posting mask, best position) with the
/// masks of a term's occurrences combined, and its words in order for the forward index.
struct WordColumns {
    var collector = TermCollector()
    /// `docStarts[i]..<docStarts[i + 1]`: input i's entries.
    var docStarts: [UInt32] = [0]
    var docTerms: [UInt32] = []
    var docMasks: [UInt16] = []
    var docPositions: [UInt16] = []
    /// `forwardStarts[i]..<forwardStarts[i + 1]`: input i's words, counted from the first
    /// word spilled (`spill`), then in `collector.forward`.
    var forwardStarts: [UInt32] = [0]
    /// The words of the forward index written aside so far, once they outgrow `spillFrom`.
    var spill: ForwardSpill?
    /// How many words may stay in memory; nil when nothing is spilled (not asked for, or no
    /// temporary file could be written: the words then stay in memory).
    var spillFrom: Int?
    var spillBeside: String?
    /// Per temporary term: the record that held it last (its index + 1, 0: none yet) and the
    /// term's entry there, so that a record's repeated words are combined as they come, without
    /// sorting its entries; and the best rank of each of the current record's terms.
    private var lastRecord: [UInt32] = []
    private var lastSlot: [UInt32] = []
    private var recordRanks: [UInt16] = []

    init(configuration: IndexConfiguration) {
        collector.placeholderTags = Set(configuration.synonyms.placeholderTags.map { Array($0.utf8) })
    }

    /// The entries an input made, on average so far.
    private var entriesPerInput: Double { Double(docTerms.count) / Double(max(docStarts.count - 1, 1)) }

    /// The bytes an input takes in the columns `reserve` sizes, on average so far: its two
    /// starts and its entries (a term, a mask and a position each).
    var bytesPerInput: Int { 2 * MemoryLayout<UInt32>.size + Int((entriesPerInput * 8).rounded(.up)) }

    /// Room for `inputs` inputs in all, with as many entries each as the inputs so far.
    mutating func reserve(inputs: Int) {
        guard docStarts.count > 1, inputs > docStarts.count - 1 else { return }
        let entries = Int(entriesPerInput * Double(inputs))
        docTerms.reserveCapacity(entries)
        docMasks.reserveCapacity(entries)
        docPositions.reserveCapacity(entries)
        docStarts.reserveCapacity(inputs + 1)
        forwardStarts.reserveCapacity(inputs + 1)
    }

    mutating func add(_ batch: [SnapshotBuilder.Input], configuration: IndexConfiguration, texts: Bool) -> TextColumns {
        collector.texts = texts ? TextColumns(levelCount: configuration.levelCount) : nil
        defer { collector.texts = nil }
        // Taken out of `configuration`: the closure below then captures only this.
        let separators = configuration.separators
        for input in batch {
            collector.entries.removeAll(keepingCapacity: true)
            collector.record = UInt32(docStarts.count)
            var currentPath: String?
            SearchableText.forEach(in: input.record, configuration: configuration) { attribute, text in
                if attribute.path != currentPath {
                    currentPath = attribute.path
                    collector.position = 0
                }
                collector.level = attribute.level
                collector.ordered = attribute.ordered
                collector.compounds = attribute.compounds
                let before = collector.entries.count
                collector.forward.append(ForwardIndex.marker(attribute: attribute.ordinal))
                let wordsBefore = collector.forward.count
                collector.placeholderValue = !collector.placeholderTags.isEmpty && text.utf8.contains(UInt8(ascii: "<")) ? Array(text.utf8) : []
                Tokenizer.scan(text, separators: attribute.splitsCamelCase ? separators.splittingCamelCase : separators, into: &collector)
                // One word (its parts, if a compound, follow its entry): the whole value.
                if collector.forward.count == wordsBefore + 1 { collector.entries[before] |= UInt64(PostingMask.wholeValue) }
                if collector.forward.count == wordsBefore { collector.forward.removeLast() }   // no word: no value
            }
            forwardStarts.append(UInt32((spill?.count ?? 0) + collector.forward.count))
            collector.texts?.endRecord()
            // A term's occurrences in the record combined: the masks together, the best rank.
            let record = UInt32(docStarts.count)
            if lastRecord.count < collector.words.count {
                let grown = max(collector.words.count, 2 * lastRecord.count)
                lastRecord.append(contentsOf: repeatElement(0, count: grown - lastRecord.count))
                lastSlot.append(contentsOf: repeatElement(0, count: grown - lastSlot.count))
            }
            let first = docTerms.count
            for entry in collector.entries {
                let term = Int(entry >> 32)
                let rank = UInt16(truncatingIfNeeded: entry >> 16)
                let mask = UInt16(truncatingIfNeeded: entry)
                if lastRecord[term] == record {
                    let slot = Int(lastSlot[term])
                    docMasks[slot] |= mask
                    recordRanks[slot - first] = min(recordRanks[slot - first], rank)
                } else {
                    lastRecord[term] = record
                    lastSlot[term] = UInt32(docTerms.count)
                    docTerms.append(UInt32(term))
                    docMasks.append(mask)
                    recordRanks.append(rank)
                }
            }
            docPositions.append(contentsOf: recordRanks.lazy.map(PostingRank.position(of:)))
            recordRanks.removeAll(keepingCapacity: true)
            docStarts.append(UInt32(docTerms.count))
        }
        spillIfNeeded()
        return collector.texts ?? TextColumns(levelCount: configuration.levelCount)
    }

    /// Writes the forward words in memory to the spill file once there are `spillFrom` of them.
    private mutating func spillIfNeeded() {
        guard let spillFrom, collector.forward.count >= spillFrom else { return }
        if spill == nil { spill = ForwardSpill(beside: spillBeside) }
        if let spill, spill.append(collector.forward) {
            collector.forward.removeAll(keepingCapacity: true)
        } else {
            // The words already written stay in the file; the next stay in memory.
            self.spillFrom = nil
            if spill?.count == 0 { spill = nil }
        }
    }

    struct LaidOut {
        var postings: Postings
        var forwardStarts: [UInt32]
        var forwardTerms: [UInt32]
    }

    /// The vocabulary and the posting lists, each position still one per posting.
    struct Postings: Sendable {
        var terms: TermTable
        var starts: [UInt32]
        var docs: FlatArray<UInt32>
        var masks: FlatArray<UInt16>
        var positions: [UInt16]
    }

    /// The sorted vocabulary of the documents kept, and each temporary term's id in it.
    struct Vocabulary: Sendable {
        var terms: TermTable
        /// Temporary term id → final id (`.max`: a word only superseded records held).
        var finalID: [UInt32]
        /// Postings per temporary term, over the documents kept.
        var counts: [UInt32]
    }

    /// The vocabulary of the inputs `live` (every input when nil): it does not depend on the
    /// documents' order, so it is found while that order is sorted out. The interner and the
    /// per-word bookkeeping of `add` are released here, before the vocabulary is sorted.
    mutating func vocabulary(live: [Int]?) -> Vocabulary {
        var counts = [UInt32](repeating: 0, count: collector.words.count)
        if let live {
            for input in live {
                for i in Int(docStarts[input])..<Int(docStarts[input + 1]) { counts[Int(docTerms[i])] += 1 }
            }
        } else {
            for term in docTerms { counts[Int(term)] += 1 }
        }
        var words = collector.words.strings
        collector.words = WordInterner()
        collector.releaseTextStamps()
        lastRecord = []
        lastSlot = []
        recordRanks = []
        // A word only superseded records held is not in the vocabulary.
        var kept: [UInt32]?
        if counts.contains(0) {
            var keptID = [UInt32](repeating: .max, count: words.count)
            var keptWords: [String] = []
            for (id, word) in words.enumerated() where counts[id] > 0 {
                keptID[id] = UInt32(keptWords.count)
                keptWords.append(word)
            }
            words = keptWords
            kept = keptID
        }
        let (terms, sortedID) = TermTable.build(words)
        words = []
        var finalID = sortedID
        if let kept { finalID = kept.map { $0 == .max ? .max : sortedID[Int($0)] } }
        return Vocabulary(terms: terms, finalID: finalID, counts: counts)
    }

    /// The posting lists (documents are visited in `order`, so lists come sorted) and the
    /// forward index, with the final term ids of `vocabulary`. `postingsLaidOut` is given the
    /// posting lists before the forward index is laid out.
    mutating func layOut(order: [Int], vocabulary: consuming Vocabulary,
                         postingsLaidOut: (Postings) -> Void = { _ in }) throws(SearchError) -> LaidOut {
        let terms = vocabulary.terms
        let finalID = vocabulary.finalID
        var counts = vocabulary.counts
        _ = consume vocabulary
        // The forward index's words, laid out once the postings are (and their inputs released):
        // laid out at the same time on another thread, they took as long and 300 MB more at 1M.
        var forward = ForwardWords(inMemory: collector.forward, starts: forwardStarts, spill: spill)
        collector.forward = []
        forwardStarts = []
        spill = nil

        var postingStarts = [UInt32](repeating: 0, count: terms.count + 1)
        for (term, count) in counts.enumerated() where count > 0 { postingStarts[Int(finalID[term]) + 1] = count }
        counts = []
        for i in 0..<terms.count { postingStarts[i + 1] += postingStarts[i] }
        let postingCount = Int(postingStarts[terms.count])
        var postingDocs = [UInt32](repeating: 0, count: postingCount)
        var postingMasks = [UInt16](repeating: 0, count: postingCount)
        var postingPositions = [UInt16](repeating: 0, count: postingCount)
        PostingScatter(postingStarts: postingStarts, finalID: finalID, docStarts: docStarts, docTerms: docTerms,
                       docMasks: docMasks, docPositions: docPositions)
            .scatter(order: order, docs: &postingDocs, masks: &postingMasks, positions: &postingPositions)
        docTerms = []
        docMasks = []
        docPositions = []
        docStarts = []
        let postings = Postings(terms: terms, starts: postingStarts, docs: FlatArray(postingDocs), masks: FlatArray(postingMasks),
                                positions: postingPositions)
        postingDocs = []
        postingMasks = []
        postingPositions = []
        postingsLaidOut(postings)

        let (forwardStarts, forwardTerms) = try forward.layOut(order: order, finalID: finalID)
        return LaidOut(postings: postings, forwardStarts: forwardStarts, forwardTerms: forwardTerms)
    }
}
