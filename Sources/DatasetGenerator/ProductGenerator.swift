import SearchAPI

/// One generated product before it becomes JSON; the suggestion generator reads these
/// directly.
struct Product {
    var name: String
    var description: String
    var brand: String
    var line: Int
    var price: Double
    var freeShipping: Bool
    var popularity: Int
    var rating: Int
    var sku: Int
}

enum ProductGenerator {
    static let salt: UInt64 = 0x5052_4F44_5543_5453  // "PRODUCTS"
    static let skuSpace = 9_000_000
    /// Coprime with 9,000,000 (= 2^6·3^2·5^6), so index → SKU is a bijection.
    static let skuMultiplier = 7_654_321

    static func product(seed: UInt64, index: Int) -> Product {
        var rng = SplitMix64(seed: seed, salt: salt, index: index)
        let lineIndex = ProductCatalog.lineIndex(for: rng.unit())
        let line = ProductCatalog.lines[lineIndex]

        var values = SlotValues()
        let brandRank = rng.pick(line.brandTable)
        values.brand = line.brands[brandRank]
        let templateIndex = rng.below(line.names.count)
        let template = line.names[templateIndex]
        let family = line.brandSeries[brandRank]
        if !line.modelFormat.isEmpty { values.model = modelCode(line.modelFormat, &rng) }
        let series = family.isEmpty ? "" : family[rng.below(family.count)]
        // In names a brand without product families gets a model code instead.
        values.series = family.isEmpty ? values.model : series
        for (i, list) in line.options.enumerated() { values.setOption(i, list[rng.below(list.count)]) }
        if !line.colors.isEmpty { values.color = line.colors[rng.below(line.colors.count)] }
        let nouns = line.nameNouns[templateIndex].isEmpty ? line.nouns : line.nameNouns[templateIndex]
        values.noun = nouns[rng.below(nouns.count)]

        var name = ""
        name.reserveCapacity(template.estimatedLength)
        template.render(into: &name, values)
        values.series = series

        let description = Descriptions.make(line: lineIndex, values, &rng)

        // Prices: log-uniform within the line's range, with retail endings.
        let raw = rng.logUniform(line.priceLow, line.priceHigh)
        let ending: Int
        switch rng.below(20) {
        case 0, 1: ending = 49
        case 2, 3: ending = 95
        default: ending = 99
        }
        let dollars = max(0, Int(raw))
        let price = Double(dollars * 100 + ending) / 100

        var u = rng.unit()
        if brandRank == 0 { u = max(u, rng.unit()) }  // the line's leading brand sells more
        let popularity = min(30_000, max(1, Int(exponential(u * logarithm(30_000.0)))))

        let r = rng.below(100)
        let rating = r < 12 ? 0 : r < 16 ? 1 : r < 23 ? 2 : r < 40 ? 3 : r < 76 ? 4 : 5
        let freeShipping = price >= 49 ? rng.chance(0.85) : rng.chance(0.25)

        let offset = Int(SplitMix64.mix(seed ^ salt) % UInt64(skuSpace))
        let sku = 1_000_000 + (index % skuSpace * skuMultiplier % skuSpace + offset) % skuSpace
        return Product(
            name: name, description: description, brand: values.brand, line: lineIndex, price: price,
            freeShipping: freeShipping, popularity: popularity, rating: rating, sku: sku)
    }

    static let priceRanges: [JSONValue] = ["1 - 50", "50 - 100", "100 - 200", "200 - 500", "500 - 2000", "> 2000"]

    static func priceRange(_ price: Double) -> JSONValue {
        switch price {
        case ..<50: return priceRanges[0]
        case ..<100: return priceRanges[1]
        case ..<200: return priceRanges[2]
        case ..<500: return priceRanges[3]
        case ..<2000: return priceRanges[4]
        default: return priceRanges[5]
        }
    }

    static func json(_ p: Product, index: Int) -> JSONValue {
        let line = ProductCatalog.lines[p.line]
        var image = "https://cdn-demo.algolia.com/bestbuy-0118/"
        image.reserveCapacity(60)
        image += String(p.sku)
        image += "_sb.jpg"
        let objectID = index < skuSpace ? String(p.sku) : "p\(index)"
        var object = JSONObject()
        object.appendUnique("name", .string(p.name))
        object.appendUnique("description", .string(p.description))
        object.appendUnique("brand", .string(p.brand))
        object.appendUnique("categories", line.categoriesJSON)
        object.appendUnique("hierarchicalCategories", line.hierarchicalJSON)
        object.appendUnique("type", line.typeJSON)
        object.appendUnique("price", .double(p.price))
        object.appendUnique("price_range", priceRange(p.price))
        object.appendUnique("image", .string(image))
        object.appendUnique("free_shipping", .bool(p.freeShipping))
        object.appendUnique("popularity", .int(Int64(p.popularity)))
        object.appendUnique("rating", .int(Int64(p.rating)))
        object.appendUnique("objectID", .string(objectID))
        return .object(object)
    }

    /// `L` → a letter (no I/O), `d` → a digit, anything else as is. Short codes stay in
    /// Swift's inline small-string storage, so no allocation.
    static func modelCode(_ format: [UInt8], _ rng: inout SplitMix64) -> String {
        let letters: StaticString = "ABCDEFGHJKLMNPRSTUVWXYZ"
        return String(unsafeUninitializedCapacity: format.count) { buffer in
            for (i, c) in format.enumerated() {
                switch c {
                case UInt8(ascii: "L"): buffer[i] = letters.utf8Start[rng.below(23)]
                case UInt8(ascii: "d"): buffer[i] = UInt8(ascii: "0") + UInt8(rng.below(10))
                default: buffer[i] = c
                }
            }
            return format.count
        }
    }
}

