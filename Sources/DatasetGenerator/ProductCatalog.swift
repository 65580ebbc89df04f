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

    static let cellPhones: [ProductLine] = [
        ProductLine(
            "Cell Phones > Unlocked Cell Phones > All Unlocked Cell Phones", type: "Cell phones",
            price: 99...1149, weight: 3,
            brands: [
                "Samsung: Galaxy S8 | Galaxy S8+ | Galaxy S9 | Galaxy S9+ | Galaxy Note8 | Galaxy Note9 | Galaxy S7 edge | Galaxy J7 | Galaxy A6",
                "Apple: iPhone 7 | iPhone 7 Plus | iPhone 8 | iPhone 8 Plus | iPhone X | iPhone XR | iPhone XS | iPhone XS Max | iPhone SE",
                "Google: Pixel 2 | Pixel 2 XL | Pixel 3 | Pixel 3 XL",
                "Motorola: moto g6 | moto g6 play | moto e5 | moto z3 | moto x4",
                "LG: G7 ThinQ | V30 | V35 ThinQ | Stylo 4 | Q6",
                "BLU: Vivo XL3 | Studio Mega | Life One X2 | Advance 5.0",
                "Huawei: Mate 10 Pro | P20 | Honor 7X", "Sony: Xperia XZ2 | Xperia XA2 Ultra",
                "OnePlus: 6 | 6T", "Nokia: 6.1 | 7.1 | 3.1",
            ],
            names: [
                "{brand} - {series} {0} - {color} (Unlocked)",
                "{brand} - {series} with {0} Memory Cell Phone (Unlocked) - {color}",
                "{brand} - {series} 4G LTE with {0} Memory Cell Phone (Unlocked) - {color}",
            ],
            options: [Vocabulary.storageSizes], colors: Vocabulary.phoneColors, nouns: ["smartphone", "phone", "cell phone"]
        ),
        ProductLine(
            "Cell Phones > All Cell Phones with Plans > Carrier Phones", type: "Cell phones", price: 149...1149, weight: 1.5,
            brands: [
                "Apple: iPhone 7 | iPhone 8 | iPhone 8 Plus | iPhone X | iPhone XR | iPhone XS",
                "Samsung: Galaxy S9 | Galaxy S9+ | Galaxy Note9 | Galaxy S8 | Galaxy J3",
                "Google: Pixel 3 | Pixel 3 XL", "LG: G7 ThinQ | Stylo 4 | Aristo 2", "Motorola: moto z3 | moto g6",
            ],
            names: ["{brand} - {series} {0} - {color} ({1})", "{brand} - {series} with {0} Memory Cell Phone - {color} ({1})"],
            options: [Vocabulary.storageSizes, ["Verizon", "AT&T", "Sprint", "T-Mobile"]],
            colors: Vocabulary.phoneColors, nouns: ["smartphone", "phone"]
        ),
        ProductLine(
            "Cell Phones > Prepaid Phones > All Prepaid Phones", type: "Prepaid phones", price: 19.99...349.99, weight: 1.2,
            brands: ["Boost Mobile", "Tracfone", "Virgin Mobile", "Cricket Wireless", "AT&T GoPhone", "Verizon Prepaid", "Simple Mobile"],
            names: [
                "{brand} - {0} 4G LTE with {1} Memory Prepaid Cell Phone - {color}",
                "{brand} - {0} Prepaid Cell Phone - {color}",
            ],
            options: [
                ["Samsung Galaxy J3", "Samsung Galaxy J7", "LG Tribute HD", "LG Stylo 3", "Motorola moto e5", "Alcatel Onyx",
                 "ZTE Blade X", "Samsung Galaxy Amp Prime 2", "LG Rebel 3", "Alcatel Tetra", "Motorola moto g6 play"],
                ["8GB", "16GB", "32GB"],
            ],
            colors: ["Black", "White", "Gray", "Blue", "Titanium"], nouns: ["prepaid phone", "smartphone"]
        ),
        ProductLine(
            "Cell Phones > Cell Phone Accessories > Cell Phone Cases & Clips", type: "Cases", price: 4.99...79.99, weight: 9,
            brands: [
                "Incipio: Octane | DualPro | NGP | Haven", "OtterBox: Defender Series | Commuter Series | Symmetry Series | Strada Series | Statement Series",
                "Speck: Presidio | CandyShell | GemShell | Presidio Grip", "Spigen: Tough Armor | Liquid Air | Ultra Hybrid | Rugged Armor",
                "Case-Mate: Tough | Naked Tough | Wallet Folio", "LifeProof: FRE | NUUD | SLAM", "Tech21: Evo Check | Pure Clear | Evo Wallet",
                "Urban Armor Gear: Monarch | Plasma | Pathfinder", "kate spade new york: Hardshell | Protective Hardshell | Wrap Folio",
                "Platinum: Leather Linear | Soft Shell | Folio", "Insignia™: Hard Shell | Soft Shell | Folio", "Dynex™: Back Cover | Clear",
                "Pelican: Protector | Voyager | Adventurer", "ZAGG: Oxford | Victoria | Crystal Palace", "Nomad: Rugged Leather | Clear",
                "Incase: Lite | Pop", "Moshi: Vitros | Overture", "Seidio: SURFACE | DILEX",
            ],
            names: [
                "{brand} - {series} Case for {0} - {color}",
                "{brand} - {series} Case for {0} Cell Phones - {color}",
                "{brand} - {series} Wallet Case for {0} - {color}",
            ],
            options: [Vocabulary.phones], colors: Vocabulary.accessoryColors, nouns: ["case", "protective case", "cover"]
        ),
        ProductLine(
            "Cell Phones > Cell Phone Accessories > Screen Protectors", type: "Screen protectors", price: 6.99...49.99, weight: 3,
            brands: ["ZAGG: InvisibleShield Glass+ | InvisibleShield HD Dry | InvisibleShield Sapphire", "Gadget Guard: Black Ice+ | Original Edition HD",
                     "Insignia™", "Dynex™", "Belkin: InvisiGlass Ultra | TemperedCurve", "Spigen: GLAS.tR"],
            names: [
                "{brand} - {series} Screen Protector for {0} - Clear",
                "{brand} - Tempered Glass Screen Protector for {0} - Clear",
                "{brand} - {series} Privacy Screen Protector for {0}",
            ],
            options: [Vocabulary.phones], nouns: ["screen protector", "glass protector"]
        ),
        ProductLine(
            "Cell Phones > Cell Phone Accessories > Chargers & Cables", type: "Charging cables", price: 7.99...59.99, weight: 4,
            brands: ["Insignia™", "Platinum", "Belkin: BoostUp | MIXIT", "mophie", "Anker: PowerLine | PowerLine+ | PowerPort", "Dynex™", "Apple", "Samsung", "Scosche: StrikeLine | PowerVolt", "Griffin Technology"],
            names: [
                "{brand} - {0} USB-to-Lightning Charge-and-Sync Cable - {color} #cable, Lightning cable",
                "{brand} - {0} USB Type-C Charge-and-Sync Cable - {color} #cable, USB-C cable",
                "{brand} - {0} Micro USB Charge-and-Sync Cable - {color} #cable",
                "{brand} - {1} Vehicle Charger - {color} #car charger, charger",
                "{brand} - {1} Wall Charger - {color} #wall charger, charger",
                "{brand} - {series} {1} Wireless Charging Pad - {color} #wireless charger, charging pad",
            ],
            options: [["3'", "4'", "6'", "10'", "1m", "2m"], ["12W", "15W", "18W", "24W", "USB-C", "Dual USB", "Fast Charge", "Qi"]],
            colors: ["Black", "White", "Gray", "Rose Gold", "Space Gray", "Blue", "Red"], nouns: ["cable", "charger"]
        ),
        ProductLine(
            "Cell Phones > Cell Phone Accessories > Portable Chargers", type: "Portable chargers", price: 19.99...149.99, weight: 1.5,
            brands: ["mophie: powerstation | powerstation plus | juice pack", "Anker: PowerCore | PowerCore II", "myCharge: HubPlus | AdventureUltra", "Insignia™", "Belkin", "Tzumi: PocketJuice"],
            names: ["{brand} - {series} {0} Portable Charger for Most USB Devices - {color}", "{brand} - {0} Power Bank - {color}"],
            options: [["3000mAh", "5000mAh", "6000mAh", "10000mAh", "13000mAh", "20000mAh", "26800mAh"]],
            colors: ["Black", "White", "Gray", "Blue", "Rose Gold", "Red"], nouns: ["portable charger", "power bank"]
        ),
        ProductLine(
            "Cell Phones > Cell Phone Accessories > iPhone Accessories", type: "Mounts & holders", price: 9.99...69.99, weight: 1.5,
            brands: ["PopSockets", "iOttie: Easy One Touch | iTap", "Scosche: MagicMount | MagicMount Pro", "Belkin", "Insignia™"],
            names: ["{brand} - {series} {0} for Mobile Phones - {color}", "{brand} - {0} for Apple® iPhone® - {color}"],
            options: [["Car Mount", "Dash Mount", "Vent Mount", "Grip and Stand", "Selfie Stick", "Armband"]],
            colors: Vocabulary.accessoryColors, nouns: ["mount", "accessory"]
        ),
    ]

    static let computers: [ProductLine] = [
        ProductLine(
            "Computers & Tablets > Laptops > All Laptops", type: "Laptops", price: 199...2999, weight: 4,
            brands: [
                "HP: Pavilion | ENVY | Spectre x360 | 14 | 15 | OMEN", "Dell: Inspiron | XPS 13 | XPS 15 | G3 | Latitude",
                "Lenovo: IdeaPad 330 | Yoga 730 | ThinkPad E480 | Legion Y530 | Flex 14", "Apple: MacBook Air | MacBook Pro | MacBook",
                "ASUS: VivoBook | ZenBook | ROG Strix | TUF Gaming", "Acer: Aspire 5 | Swift 3 | Nitro 5 | Predator Helios 300 | Spin 3",
                "Microsoft: Surface Laptop 2 | Surface Book 2", "Samsung: Notebook 9 | Notebook Flash", "MSI: GF63 | GS65 Stealth",
                "Razer: Blade 15",
            ],
            names: [
                "{brand} - {series} {0} Laptop - {1} - {2} Memory - {3} - {color}",
                "{brand} - {series} {0} Touch-Screen Laptop - {1} - {2} Memory - {3} - {color}",
                "{brand} - {series} {0} Gaming Laptop - {1} - {2} Memory - NVIDIA GeForce GTX 1050 - {3}",
            ],
            options: [
                ["13.3\"", "14\"", "15.6\"", "17.3\"", "12.5\"", "13\""],
                ["Intel Core i3", "Intel Core i5", "Intel Core i7", "AMD Ryzen 5", "AMD Ryzen 7", "Intel Pentium", "AMD A9-Series", "Intel Core i9"],
                ["4GB", "8GB", "12GB", "16GB", "32GB"],
                ["128GB Solid State Drive", "256GB Solid State Drive", "512GB Solid State Drive", "1TB Hard Drive", "1TB SSD", "2TB Hard Drive"],
            ],
            colors: Vocabulary.deviceColors, nouns: ["laptop", "notebook"]
        ),
        ProductLine(
            "Computers & Tablets > Laptops > Chromebooks", type: "Laptops", price: 179...999, weight: 1,
            brands: ["Samsung: Chromebook 3 | Chromebook Plus | Chromebook Pro", "Acer: Chromebook 11 | Chromebook 15 | Chromebook Spin 13", "HP: Chromebook 14 | Chromebook x360", "ASUS: Chromebook Flip C302 | Chromebook C423", "Google: Pixelbook", "Lenovo: Chromebook C330 | 100e Chromebook"],
            names: ["{brand} - {series} {0} Chromebook - {1} - {2} Memory - {3} eMMC Flash Memory - {color}"],
            options: [["11.6\"", "12.3\"", "13.3\"", "14\"", "15.6\""], ["Intel Celeron", "Intel Core m3", "MediaTek", "Intel Pentium"], ["2GB", "4GB", "8GB"], ["16GB", "32GB", "64GB"]],
            colors: Vocabulary.deviceColors, nouns: ["Chromebook", "laptop"]
        ),
        ProductLine(
            "Computers & Tablets > Tablets > All Tablets", type: "Tablets", price: 49.99...1299, weight: 2,
            brands: ["Apple: iPad | iPad Pro 10.5-Inch | iPad Pro 12.9-Inch | iPad mini 4", "Samsung: Galaxy Tab A | Galaxy Tab S4 | Galaxy Tab E", "Amazon: Fire 7 | Fire HD 8 | Fire HD 10 | Fire HD 8 Kids Edition", "Microsoft: Surface Pro | Surface Go", "Lenovo: Tab 4 | Tab E10 | Yoga Tab 3", "Insignia™: Flex"],
            names: ["{brand} - {series} with Wi-Fi - {0} - {color}", "{brand} - {series} {1} Tablet {0} - {color}", "{brand} - {series} with Wi-Fi + Cellular - {0} ({2})"],
            options: [Vocabulary.storageSizes + ["16GB"], ["7\"", "8\"", "9.7\"", "10.1\"", "10.5\"", "12.9\""], ["Verizon", "AT&T", "Unlocked"]],
            colors: Vocabulary.deviceColors, nouns: ["tablet"]
        ),
        ProductLine(
            "Computers & Tablets > iPad & Tablet Accessories > Cases", type: "Tablet cases", price: 14.99...129.99, weight: 2.5,
            brands: ["OtterBox: Defender Series | Symmetry Series | Statement Series", "Logitech: Slim Folio | Crayon | Rugged Combo", "Speck: Balance Folio | StyleFolio", "Incipio: Faraday | Octane", "Insignia™: Flip Folio | Slim Folio", "Apple: Smart Cover | Smart Keyboard | Leather Sleeve", "ZAGG: Rugged Book | Slim Book", "Targus: VersaVu | Click-In"],
            names: ["{brand} - {series} Case for {0} - {color}", "{brand} - {series} Keyboard Folio for {0} - {color} #keyboard folio"],
            options: [Vocabulary.tablets], colors: Vocabulary.accessoryColors, nouns: ["tablet case", "folio"]
        ),
        ProductLine(
            "Computers & Tablets > Monitors > LED Monitors", type: "Monitors", price: 89.99...1499, weight: 2,
            brands: ["Samsung", "LG", "Dell", "ASUS", "Acer", "HP", "BenQ", "ViewSonic", "Insignia™", "AOC", "Alienware"],
            names: ["{brand} - {0} {1} LED {2} Monitor - {color}", "{brand} - {0} {1} IPS LED {2} Monitor ({model}) - {color}", "{brand} - {0} Curved {1} {2} Gaming Monitor with FreeSync - {color}"],
            options: [["21.5\"", "23.8\"", "24\"", "27\"", "31.5\"", "32\"", "34\""], ["FHD", "QHD", "4K UHD", "WQHD", "HD"], ["FreeSync", "G-SYNC", "HDR", "Widescreen", "Flat-Panel"]],
            colors: ["Black", "Silver", "White", "Dark Gray"], nouns: ["monitor", "display"], model: "LLddLLd"
        ),
        ProductLine(
            "Computers & Tablets > Hard Drives & Storage > External Hard Drives", type: "External hard drives", price: 49.99...399.99, weight: 1.5,
            brands: ["WD: My Passport | Easystore | My Book | Elements", "Seagate: Backup Plus | Expansion | FireCuda", "Samsung: T5 Portable SSD | X5 Portable SSD", "SanDisk: Extreme Portable SSD", "LaCie: Rugged Mini | Porsche Design", "Toshiba: Canvio Basics | Canvio Advance"],
            names: ["{brand} - {series} {0} External USB 3.0 Portable Hard Drive - {color}", "{brand} - {series} {0} External USB-C Solid State Drive - {color}"],
            options: [["500GB", "1TB", "2TB", "3TB", "4TB", "5TB", "8TB"]], colors: ["Black", "Blue", "Red", "White", "Silver"], nouns: ["hard drive", "drive"]
        ),
        ProductLine(
            "Computers & Tablets > USB Flash Drives > All Flash Drives", type: "Flash drives", price: 5.99...89.99, weight: 1,
            brands: ["SanDisk: Cruzer Glide | Ultra Flair | Extreme PRO | Ultra Dual Drive", "PNY: Turbo Attache | Elite-X", "Kingston: DataTraveler", "Lexar: JumpDrive S47", "Samsung: BAR Plus | FIT Plus"],
            names: ["{brand} - {series} {0} USB 3.0 Flash Drive - {color}", "{brand} - {series} {0} USB Type-C Flash Drive - {color}"],
            options: [["16GB", "32GB", "64GB", "128GB", "256GB"]], colors: ["Black", "Silver", "Red", "Blue", "Champagne Gold"], nouns: ["flash drive"]
        ),
        ProductLine(
            "Computers & Tablets > Mice & Keyboards > Mice", type: "Mice", price: 9.99...149.99, weight: 1.5,
            brands: ["Logitech: M325 | MX Master 2S | MX Anywhere 2S | G502 Hero | G305", "Microsoft: Arc | Bluetooth | Sculpt Ergonomic", "Razer: DeathAdder Elite | Basilisk | Naga Trinity", "Corsair: Harpoon RGB | Dark Core RGB", "Insignia™", "Apple: Magic Mouse 2", "SteelSeries: Rival 310 | Rival 600"],
            names: ["{brand} - {series} {0} Optical Mouse - {color}", "{brand} - {series} {0} Gaming Mouse with RGB Lighting - {color}"],
            options: [["Wireless", "Wired", "Bluetooth", "Ambidextrous", "Ergonomic"]], colors: ["Black", "Gray", "White", "Silver", "Blue", "Red"], nouns: ["mouse"]
        ),
        ProductLine(
            "Computers & Tablets > Mice & Keyboards > Computer Keyboards", type: "Keyboards", price: 19.99...199.99, weight: 1,
            brands: ["Logitech: K380 | K780 | MX Keys | G413 | G910 Orion Spectrum", "Microsoft: Sculpt Ergonomic | Surface | Wired Keyboard 600", "Razer: BlackWidow | Huntsman | Cynosa Chroma", "Corsair: K55 RGB | K70 RGB MK.2 | K95 RGB Platinum", "Apple: Magic Keyboard", "Insignia™"],
            names: ["{brand} - {series} {0} Keyboard - {color}", "{brand} - {series} {0} Mechanical Gaming Keyboard with {1} Switches - {color} #gaming keyboard, keyboard"],
            options: [["Wireless", "Wired", "Bluetooth", "Full-size", "Compact"], ["Cherry MX Red", "Cherry MX Brown", "Romer-G", "Razer Green", "Linear"]], colors: ["Black", "White", "Gray", "Silver"], nouns: ["keyboard"]
        ),
        ProductLine(
            "Computers & Tablets > Networking & Wireless > Wireless Routers", type: "Routers", price: 29.99...449.99, weight: 1,
            brands: ["NETGEAR: Nighthawk | Orbi | AC1200", "Linksys: Velop | Max-Stream | WRT", "TP-Link: Archer | Deco", "ASUS: RT | ROG Rapture", "Google: Wifi", "eero"],
            names: ["{brand} - {series} {0} Dual-Band Wi-Fi Router ({model})", "{brand} - {series} {0} Tri-Band Mesh Wi-Fi System ({1}-Pack)"],
            options: [["AC1200", "AC1750", "AC1900", "AC2200", "AC3000", "AX6000"], ["2", "3"]], nouns: ["router", "Wi-Fi system"], model: "LLdddd"
        ),
        ProductLine(
            "Computers & Tablets > All Desktops > Towers Only", type: "Desktops", price: 299...2499, weight: 1,
            brands: ["HP: Pavilion | ENVY | OMEN", "Dell: Inspiron | XPS | Alienware Aurora R7", "Lenovo: IdeaCentre 510 | Legion T530", "Acer: Aspire TC | Predator Orion 3000", "ASUS: VivoPC | ROG Strix GL12", "CyberPowerPC: Gamer Xtreme | Gamer Supreme", "iBUYPOWER: Element"],
            names: ["{brand} - {series} Desktop - {0} - {1} Memory - {2}", "{brand} - {series} Gaming Desktop - {0} - {1} Memory - NVIDIA GeForce GTX 1060 - {2}"],
            options: [["Intel Core i3", "Intel Core i5", "Intel Core i7", "AMD Ryzen 5", "AMD Ryzen 7"], ["8GB", "12GB", "16GB", "32GB"], ["1TB Hard Drive", "2TB Hard Drive", "256GB Solid State Drive", "512GB SSD + 1TB HDD"]],
            nouns: ["desktop", "computer"]
        ),
        ProductLine(
            "Computers & Tablets > Laptop Accessories > Laptop Bags & Cases", type: "Laptop bags", price: 19.99...249.99, weight: 1.5,
            brands: ["Targus: CitySmart | Groove X | Intellect", "Incase: Icon | City | Compass", "Samsonite: Xenon 3 | Modern Utility", "Insignia™", "Tumi: Alpha Bravo | Voyageur", "Case Logic: Huxton | Reflexion", "SwissGear: ScanSmart", "Timbuk2: Authority"],
            names: ["{brand} - {series} Backpack for {0} Laptops - {color}", "{brand} - {series} Sleeve for {0} Apple® MacBook® - {color} #sleeve", "{brand} - {series} Messenger Bag for {0} Laptops - {color} #messenger bag"],
            options: [["13\"", "14\"", "15\"", "15.6\"", "16\"", "17\""]], colors: Vocabulary.accessoryColors, nouns: ["laptop bag", "backpack", "sleeve"]
        ),
    ]

    static let tv: [ProductLine] = [
        ProductLine(
            "TV & Home Theater > TVs > 4K Ultra HD TVs", type: "TVs", price: 249.99...4999, weight: 2.5,
            brands: ["Samsung: NU6900 | NU7100 | NU8000 | Q6F | Q8FN | Q9FN", "LG: UK6300 | UK7700 | SK8000 | B8 OLED | C8 OLED", "Sony: X690E | X800F | X900F | A8F OLED", "Insignia™", "TCL: 4-Series | 6-Series", "VIZIO: E-Series | M-Series | P-Series", "Sharp", "Hisense: H8E | H9E Plus", "Toshiba: Fire TV Edition"],
            names: ["{brand} - {0} Class LED {series} Series 2160p Smart 4K UHD TV with HDR", "{brand} - {0} Class ({1} Diag.) - LED - 2160p - Smart - 4K UHD TV with High Dynamic Range", "{brand} - {0} Class {series} 4K UHD TV ({model})"],
            options: [["43\"", "49\"", "50\"", "55\"", "58\"", "65\"", "70\"", "75\"", "82\""], ["42.5\"", "48.5\"", "49.5\"", "54.6\"", "57.5\"", "64.5\"", "69.5\"", "74.5\""]],
            nouns: ["TV", "4K TV", "television"], model: "LLddLLdddd"
        ),
        ProductLine(
            "TV & Home Theater > TVs > All Flat-Panel TVs", type: "TVs", price: 79.99...899.99, weight: 1.5,
            brands: ["Insignia™", "Samsung", "LG", "TCL", "Sharp", "Element", "Toshiba", "VIZIO"],
            names: ["{brand} - {0} Class LED {1} Smart HDTV", "{brand} - {0} Class LED {1} HDTV ({model})", "{brand} - {0} Class LED {1} Smart HDTV - Roku TV"],
            options: [["24\"", "28\"", "32\"", "39\"", "40\"", "43\"", "50\""], ["720p", "1080p"]],
            nouns: ["HDTV", "TV"], model: "NS-ddLdddd"
        ),
        ProductLine(
            "TV & Home Theater > TV Mounts > TV Wall Mounts", type: "TV mounts", price: 19.99...399.99, weight: 1.2,
            brands: ["Insignia™", "Rocketfish™", "Sanus: Premium Series | Advanced Tilt | Simplicity", "Dynex™", "Mount-It!", "Peerless-AV"],
            names: ["{brand} - {0} TV Wall Mount for Most {1} Flat-Panel TVs - {color}", "{brand} - {series} {0} Wall Mount for {1} TVs - {color}"],
            options: [["Full-Motion", "Tilting", "Fixed", "Low-Profile", "Articulating"], ["19\" - 39\"", "32\" - 55\"", "40\" - 70\"", "47\" - 80\"", "42\" - 90\""]],
            colors: ["Black", "Silver"], nouns: ["mount", "wall mount"]
        ),
        ProductLine(
            "TV & Home Theater > Streaming Media Players > All Streaming Players", type: "Streaming media players", price: 24.99...199.99, weight: 1.2,
            brands: ["Roku: Express | Streaming Stick+ | Premiere+ | Ultra", "Amazon: Fire TV Stick | Fire TV Stick 4K | Fire TV Cube", "Google: Chromecast | Chromecast Ultra", "Apple: TV 4K | TV", "NVIDIA: SHIELD TV"],
            names: ["{brand} - {series} {0} Streaming Media Player - {color}", "{brand} - {series} with {1} Remote - {color}"],
            options: [["HD", "4K HDR", "4K Ultra HD", "1080p"], ["Alexa Voice", "Voice", "Siri", "Standard"]],
            colors: ["Black", "White", "Charcoal"], nouns: ["streaming player", "media player"]
        ),
        ProductLine(
            "TV & Home Theater > A/V Cables & Connectors > HDMI Cables", type: "HDMI cables", price: 6.99...99.99, weight: 1.5,
            brands: ["Insignia™", "Rocketfish™", "Dynex™", "Monster: Ultra HD | Black Platinum", "Belkin", "AudioQuest: Pearl | Cinnamon | Forest"],
            names: ["{brand} - {0} 4K Ultra HD In-Wall HDMI Cable - {color}", "{brand} - {0} High-Speed HDMI Cable with Ethernet - {color}", "{brand} - {series} {0} HDMI Cable - {color}"],
            options: [["3'", "4'", "6'", "8'", "12'", "15'", "25'"]], colors: ["Black", "Gray", "White"], nouns: ["cable", "HDMI cable"]
        ),
        ProductLine(
            "TV & Home Theater > Projectors & Screens > Projectors", type: "Projectors", price: 99.99...3999, weight: 0.6,
            brands: ["Epson: Home Cinema | PowerLite", "BenQ", "Optoma", "ViewSonic", "Sony", "LG: CineBeam"],
            names: ["{brand} - {series} {model} {0} 3LCD Projector - {color}", "{brand} - {0} DLP Projector ({model}) - {color}"],
            options: [["1080p", "4K", "720p", "WXGA", "4K PRO-UHD"]], colors: ["White", "Black"], nouns: ["projector"], model: "dddd"
        ),
        ProductLine(
            "TV & Home Theater > Blu-ray & DVD Players > Blu-ray Players", type: "Blu-ray players", price: 39.99...399.99, weight: 0.6,
            brands: ["Sony", "Samsung", "LG", "Insignia™", "Panasonic", "Philips"],
            names: ["{brand} - {0} Blu-ray Player with {1} ({model}) - Black", "{brand} - {0} DVD Player - Black #DVD player"],
            options: [["4K Ultra HD", "Streaming", "Wi-Fi Built-In", "3D"], ["HDR", "Wi-Fi", "Dolby Vision", "Hi-Res Audio"]], nouns: ["player"], model: "LLd-LLdddd"
        ),
        ProductLine(
            "TV & Home Theater > Remote Controls > Universal Remote Controls", type: "Remote controls", price: 9.99...349.99, weight: 0.5,
            brands: ["Logitech: Harmony 665 | Harmony Elite | Harmony Companion", "One For All", "GE", "Insignia™", "Philips"],
            names: ["{brand} - {series} {0}-Device Universal Remote - Black", "{brand} - {0}-Device Universal Remote - {color}"],
            options: [["3", "4", "6", "8", "10", "15"]], colors: ["Black", "Silver"], nouns: ["remote", "universal remote"]
        ),
    ]

    static let audio: [ProductLine] = [
        ProductLine(
            "Audio > Headphones > Earbud & In-Ear Headphones", type: "Headphones", price: 9.99...299.99, weight: 2.5,
            brands: ["Beats by Dr. Dre: Powerbeats3 | BeatsX | urBeats3", "Apple: AirPods | EarPods", "Sony: WI-C300 | MDR-XB50AP | WF-1000X", "JBL: Endurance SPRINT | T110BT | Free", "Skullcandy: Jib | Ink'd | Method", "Bose: SoundSport | QuietControl 30 | SoundSport Free", "Samsung: Galaxy Buds | Level U", "Jabra: Elite 65t | Elite Sport", "Jaybird: X4 | RUN XT | Tarah", "Insignia™", "Sennheiser: CX 6.00BT | Momentum Free"],
            names: ["{brand} - {series} {0} Earbud Headphones - {color}", "{brand} - {series} {0} In-Ear Headphones - {color}", "{brand} - {series} True Wireless Earbud Headphones - {color}"],
            options: [["Wireless", "Wired", "Bluetooth", "Sport", "Noise Cancelling"]], colors: Vocabulary.audioColors, nouns: ["earbuds", "headphones"]
        ),
        ProductLine(
            "Audio > Headphones > Over-Ear & On-Ear Headphones", type: "Headphones", price: 19.99...399.99, weight: 2,
            brands: ["Bose: QuietComfort 35 II | SoundLink Around-Ear II | QuietComfort 25", "Beats by Dr. Dre: Studio3 | Solo3 | Beats EP", "Sony: WH-1000XM3 | WH-CH700N | MDR-ZX110", "Sennheiser: HD 4.50 | Momentum 2.0 | HD 598", "JBL: Live 650BTNC | E55BT | Tune 500BT", "Skullcandy: Crusher | Hesh 3 | Venue", "Audio-Technica: ATH-M50x | ATH-M40x", "Insignia™", "Plantronics: BackBeat PRO 2"],
            names: ["{brand} - {series} {0} Over-the-Ear Headphones - {color}", "{brand} - {series} {0} On-Ear Headphones - {color}", "{brand} - {series} Wireless Noise Cancelling Over-the-Ear Headphones - {color}"],
            options: [["Wireless", "Wired", "Bluetooth", "Noise Cancelling", "Studio"]], colors: Vocabulary.audioColors, nouns: ["headphones"]
        ),
        ProductLine(
            "Audio > Portable & Wireless Speakers > Bluetooth Speakers", type: "Speakers", price: 19.99...399.99, weight: 2,
            brands: ["JBL: Flip 4 | Charge 3 | Clip 3 | Xtreme 2 | GO 2", "Bose: SoundLink Mini | SoundLink Color II | SoundLink Revolve | SoundLink Revolve+", "Ultimate Ears: BOOM 2 | MEGABOOM | WONDERBOOM | BLAST", "Sony: XB10 | XB20 | XB40 | SRS-XB31", "Beats by Dr. Dre: Pill+", "Anker: Soundcore 2 | Soundcore Flare", "Marshall: Stockwell | Kilburn", "Insignia™", "Tzumi"],
            names: ["{brand} - {series} Bluetooth Speaker - {color}", "{brand} - {series} Portable {0} Bluetooth Speaker - {color}", "{brand} - {series} Wireless Speaker - {color}"],
            options: [["Waterproof", "Wireless", "Rugged", "Splashproof", "Rechargeable"]], colors: Vocabulary.audioColors, nouns: ["speaker", "Bluetooth speaker"]
        ),
        ProductLine(
            "Audio > Home Audio > Sound Bars", type: "Sound bars", price: 79.99...1499, weight: 1.2,
            brands: ["Samsung", "Bose: Solo 5 | TV Speaker | SoundTouch 300 | Soundbar 700", "Sonos: Beam | Playbar | Playbase", "VIZIO", "Yamaha: YAS-108 | YAS-209", "Polk Audio: Signa S2 | MagniFi Mini", "Sony", "LG", "Insignia™"],
            names: ["{brand} - {0}-Channel Soundbar with Wireless Subwoofer - {color}", "{brand} - {series} {0} Soundbar with Dolby Atmos ({model}) - {color}", "{brand} - {series} TV Soundbar - {color}"],
            options: [["2.0", "2.1", "3.1", "5.1", "5.1.2", "7.1.4"]], colors: ["Black", "White", "Gray", "Silver"], nouns: ["soundbar", "speaker"], model: "HW-LLddd"
        ),
        ProductLine(
            "Audio > Home Audio > Speakers", type: "Speakers", price: 49.99...1999, weight: 1,
            brands: ["Polk Audio: Monitor 40 | Signature S20 | T15", "KEF: Q150 | LS50", "Klipsch: Reference R-51M | R-15M | RP-600M", "Sonos: One | Play:1 | Play:5", "Bose: 301 | Virtually Invisible 791", "Yamaha", "Bowers & Wilkins: 607 | 606", "MartinLogan: Motion 15", "Definitive Technology: Demand D7"],
            names: ["{brand} - {series} {0} Bookshelf Speakers (Pair) - {color}", "{brand} - {series} {0} Floorstanding Speaker (Each) - {color}", "{brand} - {series} {0} In-Ceiling Speakers (Pair) - White"],
            options: [["5-1/4\"", "6-1/2\"", "8\"", "Dual 6-1/2\"", "Passive 2-Way", "Powered"]], colors: ["Black", "White", "Walnut", "Cherry", "Black Ash"], nouns: ["speakers", "speaker"]
        ),
        ProductLine(
            "Audio > Home Audio > Receivers & Amplifiers", type: "Receivers", price: 149.99...2999, weight: 0.6,
            brands: ["Yamaha", "Denon", "Onkyo", "Sony", "Marantz", "Pioneer"],
            names: ["{brand} - {0} {1}-Ch. 4K Ultra HD A/V Home Theater Receiver ({model}) - Black", "{brand} - {0} Stereo Integrated Amplifier - Black #amplifier"],
            options: [["100W", "145W", "165W", "185W", "200W"], ["5.1", "5.2", "7.2", "9.2", "11.2"]], nouns: ["receiver", "amplifier"], model: "LLL-LdddL"
        ),
        ProductLine(
            "Audio > Turntables & Record Players > All Turntables", type: "Turntables", price: 59.99...799.99, weight: 0.5,
            brands: ["Audio-Technica: AT-LP60 | AT-LP120 | AT-LP60X", "Crosley: Cruiser | Executive", "Victrola", "Sony", "Pro-Ject: Debut Carbon", "Fluance: RT81"],
            names: ["{brand} - {series} {0} Turntable - {color}", "{brand} - {series} {0} Bluetooth Record Player - {color}"],
            options: [["Belt-Drive", "Direct-Drive", "Stereo", "Portable", "USB"]], colors: ["Black", "Walnut", "Turquoise", "Silver", "Brown"], nouns: ["turntable", "record player"]
        ),
    ]

    static let cameras: [ProductLine] = [
        ProductLine(
            "Cameras & Camcorders > Digital Cameras > DSLR Cameras", type: "Cameras", price: 399.99...3499, weight: 1.2,
            brands: ["Canon: EOS Rebel T6 | EOS Rebel T7i | EOS 80D | EOS 6D Mark II | EOS 5D Mark IV", "Nikon: D3400 | D5600 | D7500 | D750 | D850", "Pentax: K-70 | KP", "Sony: Alpha a68"],
            names: ["{brand} - {series} DSLR Camera with {0} Lens - Black", "{brand} - {series} DSLR Camera (Body Only) - Black", "{brand} - {series} DSLR Two Lens Kit with {0} and {1} Lenses - Black"],
            options: [["EF-S 18-55mm IS II", "AF-P DX 18-55mm VR", "EF-S 18-135mm IS USM", "AF-S DX 18-140mm VR", "24-105mm"], ["EF 75-300mm III", "AF-P DX 70-300mm", "55-250mm IS STM"]],
            nouns: ["camera", "DSLR"]
        ),
        ProductLine(
            "Cameras & Camcorders > Digital Cameras > Mirrorless Cameras", type: "Cameras", price: 449.99...3999, weight: 1,
            brands: ["Sony: Alpha a6000 | Alpha a6300 | Alpha a6500 | Alpha a7 III | Alpha a7R III", "Fujifilm: X-T3 | X-T20 | X-A5 | X100F", "Canon: EOS M50 | EOS M100 | EOS R", "Nikon: Z 6 | Z 7", "Panasonic: LUMIX GH5 | LUMIX G7 | LUMIX GX85", "Olympus: OM-D E-M10 Mark III | PEN E-PL9"],
            names: ["{brand} - {series} Mirrorless Camera with {0} Lens - {color}", "{brand} - {series} Mirrorless 4K Video Camera (Body Only) - {color}"],
            options: [["16-50mm", "18-55mm", "15-45mm", "14-42mm", "24-70mm", "28-70mm"]], colors: ["Black", "Silver", "Brown", "White"], nouns: ["camera", "mirrorless camera"]
        ),
        ProductLine(
            "Cameras & Camcorders > Digital Cameras > Point & Shoot Cameras", type: "Cameras", price: 99.99...1299, weight: 0.8,
            brands: ["Canon: PowerShot SX620 HS | PowerShot G7 X Mark II | PowerShot ELPH 180 | PowerShot SX740 HS", "Sony: Cyber-shot RX100 | Cyber-shot DSC-W800 | Cyber-shot HX80", "Nikon: COOLPIX B500 | COOLPIX A900 | COOLPIX W300", "Panasonic: LUMIX ZS70 | LUMIX FZ80", "Fujifilm: instax mini 9 | instax SQUARE SQ6"],
            names: ["{brand} - {series} {0}-Megapixel Digital Camera - {color}", "{brand} - {series} Instant Film Camera - {color} #instant camera"],
            options: [["16.0", "18.0", "20.1", "20.2", "20.3", "24.2"]], colors: ["Black", "Silver", "Red", "Blue", "White", "Ice Blue", "Flamingo Pink"], nouns: ["camera"]
        ),
        ProductLine(
            "Cameras & Camcorders > Camcorders > Action Camcorders", type: "Action cameras", price: 99.99...499.99, weight: 0.8,
            brands: ["GoPro: HERO7 Black | HERO7 Silver | HERO6 Black | HERO5 Black | Fusion", "DJI: Osmo Action | Osmo Pocket", "Sony: FDR-X3000 | HDR-AS300", "Insignia™", "Garmin: VIRB 360"],
            names: ["{brand} - {series} {0} Waterproof Action Camera - Black", "{brand} - {series} {0} Action Camera with Image Stabilization"],
            options: [["4K", "HD", "1080p", "360°"]], nouns: ["action camera", "camera"]
        ),
        ProductLine(
            "Cameras & Camcorders > Digital Camera Accessories > Camera Lenses", type: "Camera lenses", price: 99.99...2499, weight: 1,
            brands: ["Canon", "Nikon", "Sony", "Sigma", "Tamron", "Rokinon", "Fujifilm"],
            names: ["{brand} - {0} f/{1} Lens for {2} Cameras - Black", "{brand} - {0} f/{1} Zoom Lens for {2} Cameras - Black"],
            options: [["EF 50mm", "EF-S 10-18mm", "AF-S 35mm", "AF-P 70-300mm", "FE 85mm", "18-200mm", "24-70mm", "70-200mm", "150-600mm", "14mm"], ["1.4", "1.8", "2.8", "3.5-5.6", "4.5-6.3", "4"], ["Canon EF", "Nikon F", "Sony E-mount", "Fujifilm X", "Micro Four Thirds"]],
            nouns: ["lens"]
        ),
        ProductLine(
            "Cameras & Camcorders > Memory Cards > All Memory Cards", type: "Memory cards", price: 7.99...199.99, weight: 1.2,
            brands: ["SanDisk: Extreme | Extreme PRO | Ultra", "Lexar: Professional 1000x | Professional 633x", "Samsung: EVO Select | PRO Plus | EVO Plus", "PNY: Elite | Elite-X", "Sony: SF-G Tough"],
            names: ["{brand} - {series} {0} {1} Memory Card", "{brand} - {series} {0} microSDXC UHS-I Memory Card"],
            options: [["16GB", "32GB", "64GB", "128GB", "256GB", "400GB"], ["SDHC Class 10 UHS-I", "SDXC UHS-I", "SDXC UHS-II", "CompactFlash"]],
            nouns: ["memory card", "card"]
        ),
        ProductLine(
            "Cameras & Camcorders > Digital Camera Accessories > Tripods & Monopods", type: "Tripods", price: 14.99...399.99, weight: 0.6,
            brands: ["Manfrotto: Befree | 290 Xtra", "Joby: GorillaPod 3K | GorillaPod 5K", "Platinum", "Insignia™", "Vanguard: Alta Pro"],
            names: ["{brand} - {series} {0} Tripod - {color}", "{brand} - {series} {0} Monopod - Black #monopod"],
            options: [["50\"", "60\"", "65\"", "72\"", "Compact", "Aluminum", "Carbon Fiber"]], colors: ["Black", "Silver", "Red"], nouns: ["tripod"]
        ),
    ]

    static let appliances: [ProductLine] = [
        ProductLine(
            "Appliances > Refrigerators > French Door Refrigerators", type: "Refrigerators", price: 999...4999, weight: 1.2,
            brands: ["Samsung", "LG", "Whirlpool", "GE", "Frigidaire", "KitchenAid", "Maytag", "Bosch", "GE Profile", "Amana"],
            names: ["{brand} - {0} Cu. Ft. French Door Refrigerator - {color}", "{brand} - {0} Cu. Ft. 4-Door French Door Refrigerator with {1} - {color}", "{brand} - {0} Cu. Ft. Counter-Depth French Door Refrigerator ({model}) - {color}"],
            options: [["21.8", "22.1", "24.7", "25.0", "26.2", "27.8", "28.1", "30.0"], ["Thru-the-Door Ice and Water", "Family Hub", "Door-in-Door", "Dual Ice Maker", "InstaView"]],
            colors: Vocabulary.applianceColors, nouns: ["refrigerator", "fridge"], model: "LFdddddLL"
        ),
        ProductLine(
            "Appliances > Refrigerators > Top-Freezer Refrigerators", type: "Refrigerators", price: 449...1699, weight: 0.8,
            brands: ["Frigidaire", "GE", "Whirlpool", "Insignia™", "Samsung", "Amana", "Hotpoint"],
            names: ["{brand} - {0} Cu. Ft. Top-Freezer Refrigerator - {color}", "{brand} - {0} Cu. Ft. Mini Fridge - {color} #mini fridge"],
            options: [["3.1", "4.4", "10.1", "14.6", "18.0", "18.2", "20.5", "21.0"]], colors: Vocabulary.applianceColors, nouns: ["refrigerator", "fridge"]
        ),
        ProductLine(
            "Appliances > Washers & Dryers > Washing Machines", type: "Washers", price: 449...1999, weight: 1,
            brands: ["Samsung", "LG", "Whirlpool", "Maytag", "GE", "Electrolux", "Speed Queen", "Bosch"],
            names: ["{brand} - {0} Cu. Ft. {1} High-Efficiency Top-Load Washer - {color}", "{brand} - {0} Cu. Ft. {1} High-Efficiency Stackable Front-Load Washer with Steam - {color}"],
            options: [["4.2", "4.5", "4.8", "5.0", "5.2", "5.5"], ["8-Cycle", "10-Cycle", "12-Cycle", "14-Cycle"]],
            colors: ["White", "Black Stainless Steel", "Champagne", "Graphite Steel", "Metallic Carbon"], nouns: ["washer"]
        ),
        ProductLine(
            "Appliances > Washers & Dryers > Dryers", type: "Dryers", price: 449...1899, weight: 0.9,
            brands: ["Samsung", "LG", "Whirlpool", "Maytag", "GE", "Electrolux", "Speed Queen"],
            names: ["{brand} - {0} Cu. Ft. {1} Electric Dryer with Steam - {color}", "{brand} - {0} Cu. Ft. {1} Gas Dryer - {color}"],
            options: [["7.0", "7.3", "7.4", "7.5", "9.0"], ["10-Cycle", "12-Cycle", "14-Cycle"]],
            colors: ["White", "Black Stainless Steel", "Champagne", "Graphite Steel"], nouns: ["dryer"]
        ),
        ProductLine(
            "Appliances > Ranges, Cooktops & Ovens > Ranges", type: "Ranges", price: 499...3999, weight: 0.9,
            brands: ["GE", "Samsung", "Frigidaire", "Whirlpool", "LG", "KitchenAid", "Bosch", "Maytag"],
            names: ["{brand} - {0} Cu. Ft. Self-Cleaning Freestanding {1} Convection Range - {color}", "{brand} - {0} Cu. Ft. Slide-In {1} Range - {color}"],
            options: [["5.0", "5.3", "5.8", "6.3", "6.7"], ["Electric", "Gas", "Dual Fuel", "Induction"]],
            colors: Vocabulary.applianceColors, nouns: ["range", "oven"]
        ),
        ProductLine(
            "Appliances > Ranges, Cooktops & Ovens > Cooktops", type: "Cooktops", price: 299...2499, weight: 0.8,
            brands: ["GE", "Frigidaire", "Bosch", "Whirlpool", "KitchenAid", "Samsung", "Thermador"],
            names: ["{brand} - {0} Built-In {1} Cooktop - {color}", "{brand} - {0} {1} Cooktop with {2} Burners - {color}"],
            options: [["30\"", "36\"", "24\""], ["Electric", "Gas", "Induction"], ["4", "5", "6"]],
            colors: ["Black", "Stainless Steel", "White"], nouns: ["cooktop"]
        ),
        ProductLine(
            "Appliances > Dishwashers > Built-In Dishwashers", type: "Dishwashers", price: 349...1699, weight: 0.8,
            brands: ["Bosch: 100 Series | 300 Series | 500 Series | 800 Series", "Samsung", "LG", "KitchenAid", "Whirlpool", "GE", "Frigidaire"],
            names: ["{brand} - {series} {0} Tall Tub Built-In Dishwasher with {1} - {color}", "{brand} - {0} Top Control Built-In Dishwasher - {color}"],
            options: [["24\"", "18\""], ["Stainless Steel Tub", "Third Rack", "Steam", "QuadWash"]],
            colors: Vocabulary.applianceColors, nouns: ["dishwasher"]
        ),
        ProductLine(
            "Appliances > Microwaves > All Microwaves", type: "Microwaves", price: 59.99...899.99, weight: 1,
            brands: ["Samsung", "LG", "Whirlpool", "GE", "Panasonic", "Insignia™", "Frigidaire", "Toshiba", "Sharp"],
            names: ["{brand} - {0} Cu. Ft. Mid-Size Microwave - {color}", "{brand} - {0} Cu. Ft. Over-the-Range Microwave with Sensor Cooking - {color}", "{brand} - {0} Cu. Ft. {1}-Watt Countertop Microwave - {color}"],
            options: [["0.7", "0.9", "1.1", "1.2", "1.6", "1.9", "2.0", "2.2"], ["700", "900", "1000", "1100", "1200"]],
            colors: Vocabulary.applianceColors, nouns: ["microwave"]
        ),
        ProductLine(
            "Appliances > Small Kitchen Appliances > Coffee, Tea & Espresso", type: "Coffee makers", price: 19.99...699.99, weight: 1.5,
            brands: ["Keurig: K-Classic | K-Elite | K-Mini | K-Duo", "Ninja: Coffee Bar | Specialty", "Nespresso: VertuoPlus | Essenza Mini | Pixie", "Mr. Coffee", "Cuisinart", "Breville: Barista Express | Bambino Plus", "Hamilton Beach: FlexBrew", "De'Longhi: Dedica", "BUNN"],
            names: ["{brand} - {series} {0} Coffee Maker - {color}", "{brand} - {series} Single-Serve Coffee Maker - {color}", "{brand} - {series} Espresso Machine - {color} #espresso machine"],
            options: [["4-Cup", "5-Cup", "10-Cup", "12-Cup", "14-Cup", "Single-Serve"]], colors: Vocabulary.kitchenColors, nouns: ["coffee maker", "brewer"]
        ),
        ProductLine(
            "Appliances > Small Kitchen Appliances > Blenders & Juicers", type: "Blenders", price: 19.99...599.99, weight: 1,
            brands: ["Ninja: Professional | Nutri Ninja | Auto-iQ", "Vitamix: E310 | 5200 | A3500", "NutriBullet: Pro | Rx", "KitchenAid", "Hamilton Beach", "Cuisinart", "Breville: Juice Fountain", "Oster"],
            names: ["{brand} - {series} {0} Blender - {color}", "{brand} - {series} {0} Juicer - {color} #juicer"],
            options: [["48-Oz.", "64-Oz.", "72-Oz.", "32-Oz.", "1000-Watt", "1500-Watt"]], colors: Vocabulary.kitchenColors, nouns: ["blender"]
        ),
        ProductLine(
            "Appliances > Small Kitchen Appliances > Specialty Appliances", type: "Kitchen appliances", price: 19.99...399.99, weight: 1.2,
            brands: ["Instant Pot: Duo | Duo Plus | Ultra", "Ninja: Foodi", "KitchenAid: Artisan | Classic", "Cuisinart", "Hamilton Beach", "Crock-Pot", "Insignia™", "Power XL", "Breville: Smart Oven"],
            names: ["{brand} - {series} {0} Pressure Cooker - {color} #pressure cooker, multi-cooker", "{brand} - {series} {0} Air Fryer - {color} #air fryer", "{brand} - {series} {0} Tilt-Head Stand Mixer - {color} #stand mixer, mixer", "{brand} - {0} Slow Cooker - {color} #slow cooker", "{brand} - {series} {0} Toaster Oven - {color} #toaster oven"],
            options: [["3-Qt.", "5-Qt.", "6-Qt.", "8-Qt.", "4.5-Qt.", "2-Slice", "4-Slice"]], colors: Vocabulary.kitchenColors, nouns: ["appliance", "cooker"]
        ),
        ProductLine(
            "Appliances > Vacuums & Floor Care > Robot Vacuums", type: "Vacuums", price: 149.99...1099.99, weight: 0.8,
            brands: ["iRobot: Roomba 614 | Roomba 690 | Roomba 960 | Roomba i7+ | Braava jet", "Shark: ION Robot | IQ Robot", "ECOVACS: DEEBOT N79S | DEEBOT 711", "Neato: Botvac D7 | Botvac D4", "eufy: RoboVac 11S | RoboVac 30C", "Samsung: POWERbot"],
            names: ["{brand} - {series} {0} Robot Vacuum - {color}", "{brand} - {series} Robot Mop - {color} #robot mop"],
            options: [["Wi-Fi Connected", "Self-Charging", "App-Controlled", "Slim"]], colors: ["Black", "Charcoal", "White", "Gray"], nouns: ["robot vacuum", "vacuum"]
        ),
        ProductLine(
            "Appliances > Vacuums & Floor Care > Stick Vacuums", type: "Vacuums", price: 49.99...699.99, weight: 0.8,
            brands: ["Dyson: V7 Motorhead | V8 Absolute | V10 Animal | V11 Torque Drive", "Shark: Rocket | Navigator | APEX", "Bissell: CrossWave | PowerEdge", "Hoover: Linx | ONEPWR", "Black & Decker"],
            names: ["{brand} - {series} {0} Stick Vacuum - {color}", "{brand} - {series} {0} Upright Vacuum - {color} #upright vacuum, vacuum"],
            options: [["Cordless", "Corded", "Bagless", "Pet", "HEPA"]], colors: ["Iron/Purple", "Nickel", "Gray", "Blue", "Red", "Copper"], nouns: ["vacuum"]
        ),
    ]

    static let games: [ProductLine] = [
        ProductLine(
            "Video Games > PlayStation 4 > PS4 Games", type: "Video games", price: 9.99...69.99, weight: 1.5,
            brands: ["Sony", "Activision", "Electronic Arts", "Ubisoft", "Bethesda", "Warner Bros. Interactive", "Square Enix", "2K Games", "Bandai Namco", "Capcom"],
            names: ["{brand} - {0} {1} - PlayStation 4", "{brand} - {0} {1}: {2} Edition - PlayStation 4", "{brand} - {0} {1} {3} - PlayStation 4"],
            options: GameWords.options, nouns: ["game"]
        ),
        ProductLine(
            "Video Games > Xbox One > Xbox One Games", type: "Video games", price: 9.99...69.99, weight: 1.3,
            brands: ["Microsoft", "Activision", "Electronic Arts", "Ubisoft", "Bethesda", "Warner Bros. Interactive", "2K Games", "Square Enix", "Capcom"],
            names: ["{brand} - {0} {1} - Xbox One", "{brand} - {0} {1}: {2} Edition - Xbox One", "{brand} - {0} {1} {3} - Xbox One"],
            options: GameWords.options, nouns: ["game"]
        ),
        ProductLine(
            "Video Games > Nintendo Switch > Nintendo Switch Games", type: "Video games", price: 19.99...59.99, weight: 1.3,
            brands: ["Nintendo", "Ubisoft", "Bandai Namco", "Capcom", "Warner Bros. Interactive", "Electronic Arts"],
            names: ["{brand} - {0} {1} - Nintendo Switch", "{brand} - {0} {1} {3} - Nintendo Switch"],
            options: GameWords.options, nouns: ["game"]
        ),
        ProductLine(
            "Video Games > PlayStation 4 > PS4 Consoles", type: "Consoles", price: 199.99...499.99, weight: 0.4,
            brands: ["Sony: PlayStation 4 | PlayStation 4 Pro | PlayStation 4 Slim"],
            names: ["{brand} - {series} {0} {1} Bundle - {color}", "{brand} - {series} {0} Console - {color}"],
            options: [["500GB", "1TB", "2TB"], ["Spider-Man", "Fortnite", "Call of Duty", "Red Dead", "Holiday"]], colors: ["Jet Black", "Glacier White", "Black"], nouns: ["console"]
        ),
        ProductLine(
            "Video Games > Xbox One > Xbox One Consoles", type: "Consoles", price: 199.99...499.99, weight: 0.4,
            brands: ["Microsoft: Xbox One S | Xbox One X"],
            names: ["{brand} - {series} {0} {1} Bundle - {color}", "{brand} - {series} {0} Console - {color}"],
            options: [["500GB", "1TB", "2TB"], ["Minecraft", "Forza Horizon 4", "Battlefield V", "NBA 2K19", "Fallout 76"]], colors: ["White", "Black", "Robot White"], nouns: ["console"]
        ),
        ProductLine(
            "Video Games > Video Game Accessories > Controllers", type: "Controllers", price: 19.99...179.99, weight: 1,
            brands: ["Sony: DualShock 4", "Microsoft: Xbox Wireless Controller | Xbox Elite", "Nintendo: Joy-Con | Switch Pro Controller", "PowerA: Enhanced | MOGA", "PDP: Afterglow | Wired Fight Pad", "Turtle Beach", "SCUF: Impact | Vantage"],
            names: ["{brand} - {series} Wireless Controller for {0} - {color}", "{brand} - {series} Wired Controller for {0} - {color}"],
            options: [["PlayStation 4", "Xbox One", "Nintendo Switch", "PC"]], colors: ["Black", "White", "Red", "Blue", "Camo", "Steel Black", "Magma Red"], nouns: ["controller"]
        ),
        ProductLine(
            "Video Games > Video Game Accessories > Gaming Headsets", type: "Gaming headsets", price: 19.99...299.99, weight: 1,
            brands: ["Turtle Beach: Ear Force Recon 50 | Stealth 600 | Elite Pro 2", "Astro Gaming: A40 TR | A50", "HyperX: Cloud | Cloud Alpha | Cloud Stinger", "Razer: Kraken | Nari", "SteelSeries: Arctis 5 | Arctis 7", "Logitech: G Pro | G933", "Corsair: HS50 | VOID PRO"],
            names: ["{brand} - {series} {0} Gaming Headset for {1} - {color}"],
            options: [["Wired", "Wireless", "Stereo", "Surround Sound", "7.1"], ["PlayStation 4", "Xbox One", "PC", "Nintendo Switch", "Multiple Platforms"]],
            colors: ["Black", "White", "Black/Blue", "Black/Red", "Gray"], nouns: ["headset", "gaming headset"]
        ),
    ]

    static let car: [ProductLine] = [
        ProductLine(
            "Car Electronics & GPS > Car Audio > Car Stereo Receivers", type: "Car stereos", price: 49.99...1199.99, weight: 1,
            brands: ["Pioneer", "Kenwood", "JVC", "Alpine", "Sony", "BOSS Audio"],
            names: ["{brand} - {0} {1} Built-In Bluetooth Car Stereo Receiver ({model}) - Black", "{brand} - {0} Apple CarPlay and Android Auto {1} Car Stereo Receiver - Black"],
            options: [["6.2\"", "6.8\"", "7\"", "9\"", "Single-DIN", "Double-DIN"], ["CD", "Digital Media", "DVD", "In-Dash", "Satellite Radio-Ready"]],
            nouns: ["receiver", "car stereo"], model: "LLLL-LddddLL"
        ),
        ProductLine(
            "Car Electronics & GPS > Car Audio > Car Speakers", type: "Car speakers", price: 29.99...499.99, weight: 0.8,
            brands: ["Rockford Fosgate: Prime | Punch | Power", "Kicker: CS Series | KS Series", "JBL: Club | Stadium", "Pioneer", "Alpine: Type-R | Type-S", "Infinity: Reference", "Polk Audio: DB+"],
            names: ["{brand} - {series} {0} {1} Car Speakers with Polypropylene Cones (Pair) - Black", "{brand} - {series} {0} Single-Voice-Coil 4-Ohm Subwoofer - Black #subwoofer"],
            options: [["6-1/2\"", "6\" x 9\"", "5-1/4\"", "8\"", "10\"", "12\""], ["2-Way", "3-Way", "Component"]],
            nouns: ["speakers", "subwoofer"]
        ),
        ProductLine(
            "Car Electronics & GPS > GPS Navigation > Car GPS", type: "GPS", price: 89.99...499.99, weight: 0.6,
            brands: ["Garmin: DriveSmart 55 | DriveSmart 65 | Drive 52 | RV 770 | dezl 780", "TomTom: GO 520 | VIA 1535TM | GO Supreme", "Rand McNally: TND 750"],
            names: ["{brand} - {series} {0} GPS with Built-In Bluetooth, Lifetime Map and Traffic Updates - Black", "{brand} - {series} {0} GPS - Black"],
            options: [["5\"", "5.5\"", "6\"", "7\""]], nouns: ["GPS", "navigator"]
        ),
        ProductLine(
            "Car Electronics & GPS > Deck Installation Parts > Dash Installation Kits", type: "Installation kits", price: 9.99...149.99, weight: 0.8,
            brands: ["Metra", "Scosche", "Best Kits", "PAC", "Axxess"],
            names: ["{brand} - Dash Kit for Select {0} Vehicles {1} - Black #dash kit", "{brand} - Wiring Harness for Select {0} Vehicles {1} #wiring harness", "{brand} - Steering Wheel Control Interface for Select {0} Vehicles #interface"],
            options: [["Toyota", "Honda", "Ford", "Chevrolet", "GMC", "Nissan", "Dodge", "Jeep", "Hyundai", "Kia", "Subaru", "Volkswagen", "Mazda", "Chrysler", "Lexus"],
                      ["2002-2008", "2005-2012", "2007-2014", "2009-2016", "2012-2018", "2014-2019", "2016-Up", "1998-2004"]],
            nouns: ["installation kit", "kit"]
        ),
        ProductLine(
            "Car Electronics & GPS > Dash Cameras > All Dash Cameras", type: "Dash cameras", price: 49.99...349.99, weight: 0.5,
            brands: ["Garmin: Dash Cam 45 | Dash Cam 55 | Dash Cam Mini", "Cobra", "Rexing: V1", "Nextbase", "Insignia™"],
            names: ["{brand} - {series} {0} Dash Cam with {1} - Black"],
            options: [["1080p", "1440p", "4K", "720p"], ["GPS", "Wi-Fi", "Night Vision", "Parking Mode", "Voice Control"]], nouns: ["dash cam"]
        ),
    ]

    static let wearables: [ProductLine] = [
        ProductLine(
            "Wearable Technology > Smartwatches > All Smartwatches", type: "Smartwatches", price: 149.99...799.99, weight: 1.2,
            brands: ["Apple: Watch Series 3 | Watch Series 4", "Samsung: Galaxy Watch | Gear Sport | Gear S3 frontier", "Fitbit: Versa | Ionic | Versa Lite", "Garmin: vivoactive 3 | fenix 5 | Forerunner 645 Music", "Fossil: Q Explorist | Q Venture", "Michael Kors: Access Runway", "Misfit: Vapor 2"],
            names: ["{brand} - {series} (GPS) {0} {color} Aluminum Case with Sport Band", "{brand} - {series} Smartwatch {0} - {color}", "{brand} - {series} (GPS + Cellular) {0} Smartwatch - {color}"],
            options: [["38mm", "40mm", "42mm", "44mm", "46mm"]], colors: ["Space Gray", "Silver", "Gold", "Black", "Rose Gold", "Midnight Black"], nouns: ["smartwatch", "watch"]
        ),
        ProductLine(
            "Wearable Technology > Fitness & GPS Watches > Activity Trackers", type: "Activity trackers", price: 29.99...249.99, weight: 1,
            brands: ["Fitbit: Charge 3 | Alta HR | Inspire HR | Flex 2", "Garmin: vivosmart 4 | vivofit 4", "Samsung: Gear Fit2 Pro", "Misfit: Shine 2", "Withings: Steel HR"],
            names: ["{brand} - {series} Activity Tracker + Heart Rate ({0}) - {color}", "{brand} - {series} Fitness Tracker - {color}"],
            options: [["Small", "Large", "One Size"]], colors: ["Black", "Graphite", "Blue Grey", "Rose Gold", "Lavender", "Plum"], nouns: ["tracker", "fitness tracker"]
        ),
        ProductLine(
            "Wearable Technology > Apple Watch > Apple Watch Accessories", type: "Watch bands", price: 9.99...149.99, weight: 1,
            brands: ["Apple", "Platinum", "Insignia™", "Modal", "Nomad", "Speck", "Fossil"],
            names: ["{brand} - {0} Band for Apple Watch™ {1} - {color}", "{brand} - {0} Watch Strap for Apple Watch™ {1} - {color}"],
            options: [["Sport", "Leather", "Nylon", "Milanese Loop", "Silicone", "Stainless Steel", "Woven"], ["38mm", "40mm", "42mm", "44mm"]],
            colors: Vocabulary.accessoryColors, nouns: ["band", "strap"]
        ),
    ]

    static let smartHome: [ProductLine] = [
        ProductLine(
            "Smart Home > Smart Lighting > Smart Light Bulbs", type: "Smart bulbs", price: 9.99...199.99, weight: 0.8,
            brands: ["Philips: Hue White | Hue White and Color Ambiance | Hue White Ambiance", "LIFX: Mini | A19", "Sengled: Element Classic", "TP-Link: Kasa", "GE: C by GE", "Insignia™"],
            names: ["{brand} - {series} {0} Smart LED Bulb ({1}-Pack) - {color}", "{brand} - {series} {0} Smart Bulb Starter Kit"],
            options: [["A19", "BR30", "GU10", "A21", "E26"], ["1", "2", "3", "4"]], colors: ["Multicolor", "White", "Soft White", "Daylight"], nouns: ["light bulb", "bulb"]
        ),
        ProductLine(
            "Smart Home > Smart Speakers & Displays > Voice Assistants", type: "Smart speakers", price: 29.99...399.99, weight: 1,
            brands: ["Amazon: Echo | Echo Dot | Echo Plus | Echo Show | Echo Spot | Echo Input", "Google: Home | Home Mini | Home Max | Home Hub", "Sonos: One", "Apple: HomePod", "JBL: Link 10 | Link 20"],
            names: ["{brand} - {series} ({0} Gen) Smart Speaker with {1} - {color}", "{brand} - {series} Smart Display with {1} - {color} #smart display"],
            options: [["1st", "2nd", "3rd"], ["Alexa", "Google Assistant", "Siri"]], colors: ["Charcoal", "Chalk", "Sandstone", "Heather Gray", "Black", "White"], nouns: ["smart speaker", "speaker"]
        ),
        ProductLine(
            "Smart Home > Security Cameras & Surveillance > Security Cameras", type: "Security cameras", price: 29.99...599.99, weight: 0.8,
            brands: ["Arlo: Pro 2 | Ultra | Go | Q", "Ring: Video Doorbell | Video Doorbell 2 | Spotlight Cam | Stick Up Cam", "Nest: Cam IQ | Cam Outdoor | Hello", "Blink: XT2 | Indoor", "Swann", "Wyze: Cam", "Canary: Flex", "Logitech: Circle 2"],
            names: ["{brand} - {series} {0} Wire-Free Security Camera System ({1}) - {color} #security system, camera system", "{brand} - {series} {0} Indoor/Outdoor Wi-Fi Security Camera - {color}"],
            options: [["1080p", "4K", "720p", "HD"], ["2-Camera", "3-Camera", "4-Camera", "1-Camera"]], colors: ["White", "Black", "Satin Nickel"], nouns: ["security camera", "camera"]
        ),
        ProductLine(
            "Smart Home > Smart Thermostats > All Smart Thermostats", type: "Thermostats", price: 79.99...299.99, weight: 0.5,
            brands: ["Nest: Learning Thermostat | Thermostat E", "ecobee: ecobee4 | ecobee3 lite", "Honeywell: Lyric T5 | Lyric T6 Pro", "Emerson: Sensi"],
            names: ["{brand} - {series} ({0} Generation) Smart Wi-Fi Thermostat - {color}"],
            options: [["2nd", "3rd", "4th"]], colors: ["Stainless Steel", "Black", "White", "Copper", "Brass"], nouns: ["thermostat"]
        ),
    ]

    static let health: [ProductLine] = [
        ProductLine(
            "Health, Fitness & Beauty > Personal Care & Beauty > Shaving & Grooming", type: "Shavers", price: 19.99...349.99, weight: 0.8,
            brands: ["Philips Norelco: Series 3000 | Series 5000 | Series 9000 | OneBlade", "Braun: Series 3 | Series 7 | Series 9", "Panasonic: Arc3 | Arc5", "Remington", "Wahl", "Conair"],
            names: ["{brand} - {series} {0} Electric Shaver - {color} #shaver, electric shaver", "{brand} - {series} {0} Beard Trimmer - {color} #trimmer, beard trimmer"],
            options: [["Wet/Dry", "Cordless", "Rechargeable", "Multigroom"]], colors: ["Black", "Silver", "Blue", "Gray"], nouns: ["shaver", "trimmer"]
        ),
        ProductLine(
            "Health, Fitness & Beauty > Personal Care & Beauty > Hair Care", type: "Hair care", price: 14.99...449.99, weight: 0.6,
            brands: ["Dyson: Supersonic | Airwrap", "Conair: InfinitiPRO", "Remington: Pro", "Revlon: One-Step", "T3: Featherweight", "BaBylissPRO: Nano Titanium"],
            names: ["{brand} - {series} {0} Hair Dryer - {color} #hair dryer", "{brand} - {series} {0} Flat Iron - {color} #flat iron", "{brand} - {series} {0} Curling Iron - {color} #curling iron"],
            options: [["Ionic", "1\"", "1-1/4\"", "Ceramic", "1875-Watt"]], colors: ["Black", "Fuchsia", "White", "Rose Gold", "Purple"], nouns: ["styling tool", "hair dryer"]
        ),
        ProductLine(
            "Health, Fitness & Beauty > Personal Care & Beauty > Oral Care", type: "Electric toothbrushes", price: 19.99...279.99, weight: 0.6,
            brands: ["Philips Sonicare: DiamondClean | ProtectiveClean 4100 | FlexCare Platinum", "Oral-B: Pro 1000 | Genius 8000 | Pro 7000", "Waterpik: Aquarius | Cordless Advanced"],
            names: ["{brand} - {series} {0} Rechargeable Electric Toothbrush - {color}", "{brand} - {series} {0} Water Flosser - {color} #water flosser"],
            options: [["Sonic", "Bluetooth", "Travel", "Smart"]], colors: ["White", "Black", "Pink", "Blue", "Amethyst"], nouns: ["toothbrush"]
        ),
    ]

    static let office: [ProductLine] = [
        ProductLine(
            "Office & School Supplies > Printer Ink & Toner > Printer Ink", type: "Printer ink", price: 11.99...149.99, weight: 1.2,
            brands: ["HP", "Canon", "Epson", "Brother"],
            names: ["{brand} - {model} {0} Ink Cartridge - {1}", "{brand} - {model} {0} Ink Cartridges ({2}-Pack) - {1}"],
            options: [["High-Yield", "Standard Capacity", "Extra High-Yield", "Super High-Yield", "Combo"], ["Black", "Cyan", "Magenta", "Yellow", "Tri-Color", "Cyan/Magenta/Yellow"], ["2", "3", "4", "5"]],
            nouns: ["ink cartridge", "cartridge"], model: "dddLL"
        ),
        ProductLine(
            "Office Electronics > Printers, Ink & Toner > All Printers", type: "Printers", price: 49.99...699.99, weight: 1,
            brands: ["HP: OfficeJet Pro | ENVY | DeskJet | LaserJet Pro", "Canon: PIXMA | imageCLASS", "Epson: Expression | WorkForce | EcoTank", "Brother"],
            names: ["{brand} - {series} {model} Wireless {0} Printer - {color}", "{brand} - {series} {model} {0} Printer with {1}"],
            options: [["All-In-One Inkjet", "Black-and-White Laser", "Color Laser", "Photo", "Instant Ink Ready"], ["Automatic Duplexing", "Mobile Printing", "Fax", "Wi-Fi Direct"]],
            colors: ["White", "Black", "Gray"], nouns: ["printer"], model: "dddd"
        ),
    ]
}

enum GameWords {
    static let first = [
        "Shadow", "Crimson", "Iron", "Star", "Dragon", "Lost", "Dark", "Silent", "Rogue", "Eternal", "Frozen", "Neon",
        "Savage", "Ancient", "Galactic", "Wild", "Broken", "Hidden", "Last", "Burning", "Phantom", "Cyber", "Royal",
        "Mystic", "Thunder", "Solar", "Titan", "Steel", "Primal", "Hollow", "Super", "Mega", "Turbo", "Fallen",
    ]
    static let second = [
        "Legends", "Frontier", "Warfare", "Kingdom", "Odyssey", "Chronicles", "Rising", "Saga", "Horizon", "Empire",
        "Racing", "Arena", "Knights", "Dynasty", "Valor", "Quest", "Tactics", "Hunters", "Realms", "Siege", "Origins",
        "Revolution", "Outlaws", "Squadron", "Survivors", "Tournament", "Drift", "Heroes", "Assault", "Wasteland",
    ]
    static let editions = ["Deluxe", "Gold", "Standard", "Ultimate", "Collector's", "Launch", "Day One", "Complete", "Game of the Year"]
    static let suffixes = ["2", "3", "4", "II", "III", "Remastered", "Reloaded", "Definitive Edition", "HD", "2019", "2020", "Anthology", "World Tour"]
    static let options = [first, second, editions, suffixes]
}
