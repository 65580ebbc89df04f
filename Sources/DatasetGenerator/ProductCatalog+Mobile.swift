// The catalog's mobile lines: cell phones and their accessories, wearable technology.
extension ProductCatalog {
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
}
