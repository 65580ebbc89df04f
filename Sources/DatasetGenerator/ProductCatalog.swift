import SearchAPI

/// One kind of product in the catalog: where it sits in the category tree, who makes it,
/// how its name is put together and what it costs.
struct ProductLine: Sendable {
    let categories: [String]
    let type: String
    let priceLow: Double
    let priceHigh: Double
    let weight: Double
    /// Brands, most popular first, with the product families each one sells in this line.
    let brands: [String]
    let brandSeries: [[String]]
    let brandTable: ZipfTable
    let names: [Template]
    /// Description nouns per name pattern (`"… #noun, noun"`); empty → `nouns`.
    let nameNouns: [[String]]
    let options: [[String]]
    let colors: [String]
    let nouns: [String]
    /// Model-code shape: `L` a letter, `d` a digit, anything else kept as is.
    let modelFormat: [UInt8]

    // Shared JSON pieces: every record of the line points at the same storage.
    let categoriesJSON: JSONValue
    let hierarchicalJSON: JSONValue
    let typeJSON: JSONValue
    /// "A", "A > B", "A > B > C".
    let levels: [String]

    init(
        _ path: String, type: String, price: ClosedRange<Double>, weight: Double,
        brands: [String], names: [String], options: [[String]] = [], colors: [String] = [],
        nouns: [String], model: String = "LLddd"
    ) {
        categories = path.split(separator: ">").map { $0.trimmingSpaces() }
        precondition((2...3).contains(categories.count), path)
        self.type = type
        priceLow = price.lowerBound
        priceHigh = price.upperBound
        self.weight = weight
        var brandNames: [String] = []
        var series: [[String]] = []
        for entry in brands {
            if let colon = entry.firstIndex(of: ":") {
                brandNames.append(String(entry[..<colon]))
                series.append(entry[entry.index(after: colon)...].split(separator: "|").map {
                    $0.trimmingSpaces()
                })
            } else {
                brandNames.append(entry)
                series.append([])
            }
        }
        self.brands = brandNames
        brandSeries = series
        brandTable = ZipfTable(count: brandNames.count, exponent: 0.9)
        var templates: [Template] = []
        var nameNouns: [[String]] = []
        for pattern in names {
            if let hash = pattern.firstIndex(of: "#") {
                templates.append(Template(pattern[..<hash].trimmingSpaces()))
                nameNouns.append(pattern[pattern.index(after: hash)...].split(separator: ",").map { $0.trimmingSpaces() })
            } else {
                templates.append(Template(pattern))
                nameNouns.append([])
            }
        }
        self.names = templates
        self.nameNouns = nameNouns
        precondition(options.count <= 4)
        self.options = options
        self.colors = colors
        self.nouns = nouns
        modelFormat = Array(model.utf8)

        var levels: [String] = []
        var hierarchical = JSONObject()
        for (depth, name) in categories.enumerated() {
            let value = depth == 0 ? name : levels[depth - 1] + " > " + name
            levels.append(value)
            hierarchical.appendUnique("lvl\(depth)", .string(value))
        }
        self.levels = levels
        categoriesJSON = .array(categories.map { .string($0) })
        hierarchicalJSON = .object(hierarchical)
        typeJSON = .string(type)
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

enum Vocabulary {
    static let phoneColors = [
        "Black", "Midnight Black", "Jet Black", "Space Gray", "Silver", "Gold", "Rose Gold", "White",
        "Blue", "Coral Blue", "Orchid Gray", "Arctic Silver", "Red", "Titanium Gray", "Aurora Blue",
    ]
    static let accessoryColors = [
        "Black", "Clear", "Gray", "Blue", "Red", "Pink", "White", "Rose Gold", "Gold", "Navy",
        "Black/Gray", "Clear/Black", "Mint", "Purple", "Teal", "Charcoal", "Tan", "Green", "Orange",
        "Lavender", "Coral", "Smoke", "Blush", "Marble", "Olive",
    ]
    static let deviceColors = ["Black", "Silver", "White", "Gray", "Space Gray", "Gold", "Blue", "Red", "Graphite"]
    static let applianceColors = [
        "Stainless Steel", "Black Stainless Steel", "White", "Black", "Fingerprint Resistant Stainless Steel",
        "Slate", "Bisque",
    ]
    static let kitchenColors = ["Black", "White", "Red", "Stainless Steel", "Silver", "Empire Red", "Matte Black", "Aqua", "Copper"]
    static let audioColors = ["Black", "White", "Blue", "Red", "Gray", "Midnight Blue", "Silver", "Rose Gold", "Green", "Yellow"]

    static let phones = [
        "Apple® iPhone® 7", "Apple® iPhone® 7 Plus", "Apple® iPhone® 8", "Apple® iPhone® 8 Plus",
        "Apple® iPhone® X", "Apple® iPhone® XR", "Apple® iPhone® XS Max", "Apple® iPhone® SE",
        "Apple® iPhone® 6 and 6s", "Samsung Galaxy S8", "Samsung Galaxy S8+", "Samsung Galaxy S9",
        "Samsung Galaxy S9+", "Samsung Galaxy Note8", "Samsung Galaxy Note9", "Samsung Galaxy S7 edge",
        "Google Pixel 2", "Google Pixel 2 XL", "Google Pixel 3", "LG G7 ThinQ", "LG V30",
        "Motorola moto g6", "Motorola moto z3", "Most Cell Phones",
    ]
    static let tablets = [
        "Apple® iPad® Pro 10.5\"", "Apple® iPad® Pro 12.9\"", "Apple® iPad® 9.7\"", "Apple® iPad® mini 4",
        "Samsung Galaxy Tab A 10.1", "Samsung Galaxy Tab S4", "Amazon Fire HD 8", "Amazon Fire HD 10",
        "Microsoft Surface Pro", "Most 10\" Tablets",
    ]
    static let storageSizes = ["32GB", "64GB", "128GB", "256GB", "512GB"]
}

enum ProductCatalog {
    static let lines: [ProductLine] = cellPhones + computers + tv + audio + cameras + appliances + games
        + car + wearables + smartHome + health + office

    static let lineTable: [Double] = {
        var total = 0.0
        let cumulative = lines.map { total += $0.weight; return total }
        return cumulative.map { $0 / total }
    }()

    static func lineIndex(for u: Double) -> Int {
        var low = 0, high = lineTable.count - 1
        while low < high {
            let mid = (low + high) / 2
            if lineTable[mid] > u { high = mid } else { low = mid + 1 }
        }
        return low
    }

    static let brandCount: Int = Set(lines.flatMap(\.brands)).count
}
