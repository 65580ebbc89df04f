import SearchAPI

/// Shops, cafés and services around the world's cities, with `_geoloc`: the geo demo index
/// (a store locator, a map that searches as it pans).
///
/// Each place belongs to a city (large cities get more places, Zipf-like) and lies around its
/// center: most within a few kilometres, a tail out to the suburbs, so the density falls off
/// from the center as in a real city. A few chains have two entrances (`_geoloc` as an array).
enum PlaceGenerator {
    static let salt: UInt64 = 0x504C_4143_4553_5F31  // "PLACES_1"

    struct City {
        var name: String
        var country: String
        var lat: Double
        var lng: Double
        /// Degrees of longitude per degree of latitude at this latitude (1 / cos(lat)), so
        /// places spread as far east–west as north–south. Precomputed: no libm at generation.
        var lngStretch: Double
    }

    /// Ordered by size: the Zipf table favours the first.
    static let cities: [City] = [
        City(name: "Tokyo", country: "Japan", lat: 35.6762, lng: 139.6503, lngStretch: 1.231),
        City(name: "Delhi", country: "India", lat: 28.7041, lng: 77.1025, lngStretch: 1.141),
        City(name: "Shanghai", country: "China", lat: 31.2304, lng: 121.4737, lngStretch: 1.169),
        City(name: "São Paulo", country: "Brazil", lat: -23.5558, lng: -46.6396, lngStretch: 1.091),
        City(name: "Mexico City", country: "Mexico", lat: 19.4326, lng: -99.1332, lngStretch: 1.060),
        City(name: "Cairo", country: "Egypt", lat: 30.0444, lng: 31.2357, lngStretch: 1.155),
        City(name: "Mumbai", country: "India", lat: 19.0760, lng: 72.8777, lngStretch: 1.058),
        City(name: "New York", country: "United States", lat: 40.7128, lng: -74.0060, lngStretch: 1.320),
        City(name: "Buenos Aires", country: "Argentina", lat: -34.6037, lng: -58.3816, lngStretch: 1.215),
        City(name: "Istanbul", country: "Turkey", lat: 41.0082, lng: 28.9784, lngStretch: 1.325),
        City(name: "Lagos", country: "Nigeria", lat: 6.5244, lng: 3.3792, lngStretch: 1.006),
        City(name: "Los Angeles", country: "United States", lat: 34.0522, lng: -118.2437, lngStretch: 1.208),
        City(name: "Paris", country: "France", lat: 48.8566, lng: 2.3522, lngStretch: 1.520),
        City(name: "London", country: "United Kingdom", lat: 51.5074, lng: -0.1278, lngStretch: 1.608),
        City(name: "Seoul", country: "South Korea", lat: 37.5665, lng: 126.9780, lngStretch: 1.262),
        City(name: "Bangkok", country: "Thailand", lat: 13.7563, lng: 100.5018, lngStretch: 1.030),
        City(name: "Jakarta", country: "Indonesia", lat: -6.2088, lng: 106.8456, lngStretch: 1.006),
        City(name: "Madrid", country: "Spain", lat: 40.4168, lng: -3.7038, lngStretch: 1.313),
        City(name: "Chicago", country: "United States", lat: 41.8781, lng: -87.6298, lngStretch: 1.344),
        City(name: "Toronto", country: "Canada", lat: 43.6532, lng: -79.3832, lngStretch: 1.383),
        City(name: "Sydney", country: "Australia", lat: -33.8688, lng: 151.2093, lngStretch: 1.204),
        City(name: "Berlin", country: "Germany", lat: 52.5200, lng: 13.4050, lngStretch: 1.643),
        City(name: "Rome", country: "Italy", lat: 41.9028, lng: 12.4964, lngStretch: 1.344),
        City(name: "Singapore", country: "Singapore", lat: 1.3521, lng: 103.8198, lngStretch: 1.000),
        City(name: "San Francisco", country: "United States", lat: 37.7749, lng: -122.4194, lngStretch: 1.266),
        City(name: "Montreal", country: "Canada", lat: 45.5017, lng: -73.5673, lngStretch: 1.427),
        City(name: "Amsterdam", country: "Netherlands", lat: 52.3676, lng: 4.9041, lngStretch: 1.638),
        City(name: "Barcelona", country: "Spain", lat: 41.3874, lng: 2.1686, lngStretch: 1.333),
        City(name: "Melbourne", country: "Australia", lat: -37.8136, lng: 144.9631, lngStretch: 1.266),
        City(name: "Cape Town", country: "South Africa", lat: -33.9249, lng: 18.4241, lngStretch: 1.205),
        City(name: "Stockholm", country: "Sweden", lat: 59.3293, lng: 18.0686, lngStretch: 1.962),
        City(name: "Dublin", country: "Ireland", lat: 53.3498, lng: -6.2603, lngStretch: 1.674),
        City(name: "Lisbon", country: "Portugal", lat: 38.7223, lng: -9.1393, lngStretch: 1.282),
        City(name: "Vancouver", country: "Canada", lat: 49.2827, lng: -123.1207, lngStretch: 1.531),
        City(name: "Auckland", country: "New Zealand", lat: -36.8485, lng: 174.7633, lngStretch: 1.249),
        City(name: "Reykjavík", country: "Iceland", lat: 64.1466, lng: -21.9426, lngStretch: 2.293),
        City(name: "Suva", country: "Fiji", lat: -18.1248, lng: 178.4501, lngStretch: 1.052),
        City(name: "Anchorage", country: "United States", lat: 61.2181, lng: -149.9003, lngStretch: 2.077),
    ]
    static let cityTable = ZipfTable(count: cities.count, exponent: 0.9)

    struct Category {
        var name: String
        var chains: [String]
        var nouns: [String]
    }

    static let categories: [Category] = [
        Category(name: "Coffee shop", chains: ["Blue Bottle", "Café Lumière", "Daily Grind", "Bean There", "Kopi Corner"],
                 nouns: ["Coffee", "Espresso Bar", "Roasters", "Café"]),
        Category(name: "Bakery", chains: ["Maison Farine", "Golden Crust", "Le Pétrin", "Rise & Shine"],
                 nouns: ["Bakery", "Boulangerie", "Bread Company", "Pâtisserie"]),
        Category(name: "Pharmacy", chains: ["CityCare", "Green Cross", "MediPlus", "Apotheka"],
                 nouns: ["Pharmacy", "Drugstore", "Chemist"]),
        Category(name: "Grocery", chains: ["FreshMart", "Corner Market", "Daily Basket", "Épicerie Centrale", "Harvest Foods"],
                 nouns: ["Market", "Grocery", "Supermarket", "Food Hall"]),
        Category(name: "Bookshop", chains: ["Paper Lantern", "Chapter One", "Librairie du Quai", "Dog-Eared Books"],
                 nouns: ["Books", "Bookshop", "Booksellers"]),
        Category(name: "Restaurant", chains: ["Trattoria Sole", "Golden Dragon", "Taquería El Sol", "Sushi Kaze", "The Grill House"],
                 nouns: ["Restaurant", "Kitchen", "Bistro", "Diner", "Brasserie"]),
        Category(name: "Hardware store", chains: ["ToolBox", "Fix-It Depot", "Bricoland"],
                 nouns: ["Hardware", "Home Supplies", "DIY Center"]),
        Category(name: "Florist", chains: ["Petal & Stem", "Bloom Room", "Fleurs de Ville"],
                 nouns: ["Florist", "Flowers", "Garden Shop"]),
        Category(name: "Bike shop", chains: ["Spoke & Chain", "Vélo Libre", "Pedal Power"],
                 nouns: ["Cycles", "Bike Shop", "Bike Repair"]),
        Category(name: "Gym", chains: ["IronWorks", "FitLab", "Pulse Fitness"],
                 nouns: ["Gym", "Fitness Club", "Training Studio"]),
        Category(name: "Electronics", chains: ["Circuit City Store", "GadgetHub", "Volt"],
                 nouns: ["Electronics", "Phone Repair", "Tech Store"]),
        Category(name: "Ice cream", chains: ["Gelato Uno", "Scoops", "Frosty Bear"],
                 nouns: ["Gelateria", "Ice Cream", "Creamery"]),
    ]
    static let categoryTable = ZipfTable(count: categories.count, exponent: 0.6)

    static let streets = [
        "Main Street", "Market Street", "Station Road", "Harbour Lane", "Park Avenue", "King Street", "Queen Street",
        "Rue de la Paix", "Calle Mayor", "Via Roma", "Hauptstraße", "Avenida Central", "Church Road", "Mill Lane",
        "High Street", "River Walk", "Garden Row", "Bridge Street", "Old Town Square", "University Avenue",
        "Rua Augusta", "Sakura-dori", "Nehru Place", "Orchard Road", "Bay Street", "Elm Street", "Oak Avenue",
        "Liberty Square", "Canal Street", "Hill Road",
    ]
    static let districts = ["Downtown", "Old Town", "Riverside", "Uptown", "Harbourfront", "Midtown", "Westside",
                            "Eastgate", "North End", "Southbank", "University District", "Airport"]

    static func place(seed: UInt64, index: Int) -> JSONValue {
        var rng = SplitMix64(seed: seed, salt: salt, index: index)
        let city = cities[rng.pick(cityTable)]
        let category = categories[rng.pick(categoryTable)]
        let chain = rng.chance(0.6) ? rng.pick(category.chains) : nil
        let street = rng.pick(streets)
        let district = rng.pick(districts)
        let name = (chain ?? (rng.pick(streets).split(separator: " ").first.map(String.init) ?? "Corner")) + " " + rng.pick(category.nouns)

        // Distance from the center: 60 % within ~3 km, the rest out to ~25 km; a direction
        // from two uniform draws (a point in the square, kept when in the disc).
        let reach = rng.chance(0.6) ? 0.03 * rng.unit() : 0.03 + 0.2 * rng.unit() * rng.unit()
        var dx = 0.0, dy = 0.0
        repeat {
            dx = 2 * rng.unit() - 1
            dy = 2 * rng.unit() - 1
        } while dx * dx + dy * dy > 1
        func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
        let lat = rounded(city.lat + dy * reach)
        let lng = rounded(city.lng + dx * reach * city.lngStretch)
        var geoloc: JSONValue = ["lat": .number(lat), "lng": .number(lng)]
        if chain != nil, rng.chance(0.05) {   // a second entrance round the corner
            geoloc = [geoloc, ["lat": .number(rounded(lat + 0.0008)), "lng": .number(rounded(lng - 0.0006))]]
        }
        let rating = Double(20 + rng.below(31)) / 10
        let reviews = Int(rng.logUniform(1, 5_000))
        let number = 1 + rng.below(240)
        return [
            "objectID": .string("place-\(index)"),
            "name": .string(name),
            "category": .string(category.name),
            "address": .string("\(number) \(street)"),
            "district": .string(district),
            "city": .string(city.name),
            "country": .string(city.country),
            "rating": .number(rating),
            "reviews": .int(Int64(reviews)),
            "open_24h": .bool(rng.chance(0.08)),
            "price_level": .int(Int64(1 + rng.below(4))),
            "_geoloc": geoloc,
        ]
    }
}
