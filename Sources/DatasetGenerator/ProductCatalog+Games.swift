// The catalog's video game lines, and the words the games' titles are made of (GameWords).
extension ProductCatalog {
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
