import SearchAPI

/// Actors and movies share one pool of people: actor `j` has the same name in the actors
/// index and in every movie cast that picks `j`, so searches can hop between the two.
enum PeopleGenerator {
    static let salt: UInt64 = 0x4143_544F_5253_0001  // "ACTORS"

    static let firstNames = [
        "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
        "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
        "Christopher", "Nancy", "Daniel", "Lisa", "Matthew", "Margaret", "Anthony", "Betty", "Mark", "Sandra",
        "Donald", "Ashley", "Steven", "Dorothy", "Paul", "Kimberly", "Andrew", "Emily", "Joshua", "Donna",
        "Kenneth", "Michelle", "Kevin", "Carol", "Brian", "Amanda", "George", "Melissa", "Edward", "Deborah",
        "Ronald", "Stephanie", "Timothy", "Rebecca", "Jason", "Laura", "Jeffrey", "Sharon", "Ryan", "Cynthia",
        "Jacob", "Kathleen", "Gary", "Amy", "Nicholas", "Shirley", "Eric", "Angela", "Jonathan", "Helen",
        "Stephen", "Anna", "Larry", "Brenda", "Justin", "Pamela", "Scott", "Nicole", "Brandon", "Emma",
        "Benjamin", "Samantha", "Samuel", "Katherine", "Gregory", "Christine", "Frank", "Debra", "Alexander", "Rachel",
        "Raymond", "Catherine", "Patrick", "Carolyn", "Jack", "Janet", "Dennis", "Ruth", "Jerry", "Maria",
        "Tyler", "Heather", "Aaron", "Diane", "Jose", "Virginia", "Adam", "Julie", "Henry", "Joyce",
        "Nathan", "Victoria", "Douglas", "Olivia", "Zachary", "Kelly", "Peter", "Christina", "Kyle", "Lauren",
        "Walter", "Joan", "Ethan", "Evelyn", "Jeremy", "Judith", "Harold", "Megan", "Keith", "Cheryl",
        "Christian", "Andrea", "Roger", "Hannah", "Noah", "Martha", "Gerald", "Jacqueline", "Carl", "Frances",
        "Terry", "Gloria", "Sean", "Ann", "Austin", "Teresa", "Arthur", "Kathryn", "Lawrence", "Sara",
        "Jesse", "Janice", "Dylan", "Jean", "Bryan", "Alice", "Joe", "Madison", "Jordan", "Doris",
        "Billy", "Abigail", "Bruce", "Julia", "Albert", "Judy", "Willie", "Grace", "Gabriel", "Denise",
        "Logan", "Amber", "Alan", "Marilyn", "Juan", "Beverly", "Wayne", "Danielle", "Roy", "Theresa",
        "Ralph", "Sophia", "Randy", "Marie", "Eugene", "Diana", "Vincent", "Brittany", "Russell", "Natalie",
        "Elijah", "Isabella", "Louis", "Charlotte", "Bobby", "Rose", "Philip", "Alexis", "Johnny", "Kayla",
        "Idris", "Saoirse", "Mahershala", "Lupita", "Oscar", "Penelope", "Javier", "Monica", "Hugh", "Cate",
        "Keanu", "Greta", "Rami", "Zendaya", "Dev", "Priyanka", "Ken", "Zhang", "Omar", "Salma",
        "Viggo", "Tilda", "Joaquin", "Marion", "Chiwetel", "Thandiwe", "Riz", "Gemma", "Adrien", "Lea",
        "Mads", "Noomi", "Stellan", "Alicia", "Gael", "Ana", "Diego", "Paz", "Luca", "Sofia",
    ]

    static let lastNames = [
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
        "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
        "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper",
        "Peterson", "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson",
        "Watson", "Brooks", "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes",
        "Price", "Alvarez", "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez",
        "Powell", "Jenkins", "Perry", "Russell", "Sullivan", "Bell", "Coleman", "Butler", "Henderson", "Barnes",
        "Gonzales", "Fisher", "Vasquez", "Simmons", "Romero", "Jordan", "Patterson", "Alexander", "Hamilton", "Graham",
        "Reynolds", "Griffin", "Wallace", "Moreno", "West", "Cole", "Hayes", "Bryant", "Herrera", "Gibson",
        "Ellis", "Tran", "Medina", "Aguilar", "Stevens", "Murray", "Ford", "Castro", "Marshall", "Owens",
        "Harrison", "Fernandez", "McDonald", "Woods", "Washington", "Kennedy", "Wells", "Vargas", "Henry", "Chen",
        "Freeman", "Webb", "Tucker", "Guzman", "Burns", "Crawford", "Olson", "Simpson", "Porter", "Hunter",
        "Gordon", "Mendez", "Silva", "Shaw", "Snyder", "Mason", "Dixon", "Munoz", "Hunt", "Hicks",
        "Holmes", "Palmer", "Wagner", "Black", "Robertson", "Boyd", "Rose", "Stone", "Salazar", "Fox",
        "Warren", "Mills", "Meyer", "Rice", "Schmidt", "Garza", "Daniels", "Ferguson", "Nichols", "Stephens",
        "Soto", "Weaver", "Ryan", "Gardner", "Payne", "Grant", "Dunn", "Kelley", "Spencer", "Hawkins",
        "Arnold", "Pierce", "Vazquez", "Hansen", "Peters", "Santos", "Hart", "Bradley", "Knight", "Elliott",
        "Cunningham", "Duncan", "Armstrong", "Hudson", "Carroll", "Lane", "Riley", "Andrews", "Alvarado", "Ray",
        "Delgado", "Berry", "Perkins", "Hoffman", "Johnston", "Matthews", "Pena", "Richards", "Contreras", "Willis",
        "Carpenter", "Lawrence", "Sandoval", "Guerrero", "George", "Chapman", "Rios", "Estrada", "Ortega", "Watkins",
        "Greene", "Nunez", "Wheeler", "Valdez", "Harper", "Burke", "Larson", "Santiago", "Maldonado", "Morrison",
        "Franklin", "Carlson", "Austin", "Dominguez", "Carr", "Lawson", "Jacobs", "Obrien", "Lynch", "Singh",
        "Vega", "Bishop", "Montgomery", "Oliver", "Jensen", "Harvey", "Williamson", "Gilbert", "Dean", "Sims",
        "Espinoza", "Howell", "Li", "Wong", "Reid", "Hanson", "Le", "McCoy", "Garrett", "Burton",
        "Fuller", "Wang", "Weber", "Welch", "Rojas", "Lucas", "Marquez", "Fields", "Park", "Yang",
        "Little", "Banks", "Padilla", "Day", "Walsh", "Bowman", "Schultz", "Luna", "Fowler", "Mejia",
        "Davidson", "Acosta", "Brewer", "May", "Holland", "Juarez", "Newman", "Pearson", "Curtis", "Cortez",
        "Douglas", "Schneider", "Joseph", "Barrett", "Navarro", "Figueroa", "Keller", "Avila", "Wade", "Molina",
        "Stanley", "Hopkins", "Campos", "Barnett", "Bates", "Chambers", "Caldwell", "Beck", "Lambert", "Miranda",
        "Byrd", "Craig", "Ayala", "Lowe", "Frazier", "Powers", "Neal", "Leonard", "Gregory", "Carrillo",
        "Sutton", "Fleming", "Rhodes", "Shelton", "Schwartz", "Norris", "Jennings", "Watts", "Duran", "Walters",
        "Cohen", "McDaniel", "Moran", "Parks", "Steele", "Vaughn", "Becker", "Holt", "Deleon", "Barker",
        "Okafor", "Adeyemi", "Nakamura", "Tanaka", "Kowalski", "Novak", "Rossi", "Bianchi", "Dubois", "Laurent",
        "Lindqvist", "Johansson", "Fischer", "Hoffmann", "Costa", "Ferreira", "Kapoor", "Sharma", "Okonkwo", "Haddad",
        "Petrov", "Ivanova", "Murakami", "Sato", "Moretti", "Delacroix", "Van Dyke", "O'Connell", "MacLeod", "Fitzgerald",
    ]

    static var poolSize: Int { firstNames.count * lastNames.count }
    /// A prime larger than the pool, so j → (j·m + offset) mod pool is a bijection.
    static let nameMultiplier = 1_000_003

    /// The name of person `j`; distinct for every `j` (first 100k-ish plain, then with
    /// middle initials, then numbered).
    static func name(seed: UInt64, person j: Int) -> String {
        let size = poolSize
        let offset = Int(SplitMix64.mix(seed ^ salt ^ 0xA5A5) % UInt64(size))
        let cycle = j / size
        let k = ((j % size) * (nameMultiplier % size) % size + offset) % size
        let first = firstNames[k / lastNames.count]
        let last = lastNames[k % lastNames.count]
        if cycle == 0 { return first + " " + last }
        let c = cycle - 1
        let initial = Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(c % 26)))
        let suffix = c >= 26 ? " \(c / 26 + 1)" : ""
        return "\(first) \(initial). \(last)\(suffix)"
    }

    /// Fame falls with the person's number: low numbers are stars, cast more often.
    static func rating(person j: Int, _ rng: inout SplitMix64) -> Int {
        let base = 5000.0 / power(Double(j + 1), 0.35)
        return min(5000, max(1, Int(base * (0.6 + 0.8 * rng.unit()))))
    }

    static let base62: StaticString = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    /// "/<27 base-62 characters>.jpg", the shape of TMDB image paths.
    static func imagePath(_ rng: inout SplitMix64) -> String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            buffer[0] = UInt8(ascii: "/")
            for i in 1...27 { buffer[i] = base62.utf8Start[rng.below(62)] }
            buffer[28] = UInt8(ascii: ".")
            buffer[29] = UInt8(ascii: "j")
            buffer[30] = UInt8(ascii: "p")
            buffer[31] = UInt8(ascii: "g")
            return 32
        }
    }

    static func actor(seed: UInt64, index j: Int) -> JSONValue {
        var rng = SplitMix64(seed: seed, salt: salt, index: j)
        var object = JSONObject()
        object.appendUnique("name", .string(name(seed: seed, person: j)))
        object.appendUnique("rating", .int(Int64(rating(person: j, &rng))))
        object.appendUnique("image_path", .string(imagePath(&rng)))
        object.appendUnique("objectID", .string(String(550_000_000 + j)))
        return .object(object)
    }
}

enum MovieGenerator {
    static let salt: UInt64 = 0x4D4F_5649_4553_0002  // "MOVIES"

    /// Most common first: picked with Zipf weights.
    static let genres = [
        "Drama", "Comedy", "Thriller", "Action", "Romance", "Adventure", "Crime", "Horror", "Science Fiction",
        "Family", "Fantasy", "Mystery", "Animation", "Documentary", "History", "Music", "War", "Western", "TV Movie",
    ]
    static let genreTable = ZipfTable(count: genres.count, exponent: 0.8)

    static let adjectives = [
        "Silent", "Last", "Broken", "Hidden", "Golden", "Dark", "Lost", "Crimson", "Secret", "Endless", "Wild",
        "Forgotten", "Burning", "Frozen", "Distant", "Little", "Perfect", "Final", "Midnight", "Savage", "Quiet",
        "Electric", "Fallen", "Hollow", "Bright", "Invisible", "Restless", "Sweet", "Bitter", "Lonely", "Dangerous",
        "Beautiful", "Strange", "Eternal", "Scarlet", "Iron", "Velvet", "Shattered", "Wicked", "Gentle", "Reckless",
        "Blue", "Black", "White", "Red", "Green", "Southern", "Northern", "American", "Summer", "Winter", "Autumn",
        "Crooked", "Stolen", "Sacred", "Deadly", "Brave", "Curious", "Infinite", "Ordinary", "Impossible",
    ]
    static let nouns = [
        "River", "Road", "Night", "Heart", "Storm", "City", "Garden", "Horizon", "Shadow", "Kingdom", "Promise",
        "Secret", "Summer", "Winter", "Echo", "Mirror", "Island", "Harbor", "Frontier", "Empire", "Dream", "Whisper",
        "Stranger", "Mountain", "Ocean", "Forest", "Desert", "Station", "Bridge", "Tower", "Letter", "Game", "Hunt",
        "Journey", "Legacy", "Voyage", "Reckoning", "Crossing", "Signal", "Circle", "Machine", "Witness", "Outlaw",
        "Detective", "Soldier", "Dancer", "Queen", "King", "Prince", "Daughter", "Son", "Brother", "Sister", "Wife",
        "Ghost", "Angel", "Devil", "Wolf", "Fox", "Raven", "Lion", "Tiger", "Thunder", "Fire", "Rain", "Snow", "Moon",
        "Sun", "Star", "Sky", "Sea", "Valley", "Canyon", "Highway", "Avenue", "Hotel", "Diner", "Carnival", "Circus",
        "Orchestra", "Heist", "Escape", "Rebellion", "Invasion", "Awakening", "Revenge", "Redemption", "Inheritance",
    ]
    static let places = [
        "Paris", "Brooklyn", "Tokyo", "Berlin", "Casablanca", "Havana", "Memphis", "Montana", "Alaska", "Venice",
        "Marseille", "Shanghai", "Chicago", "Texas", "Vienna", "Lisbon", "Dublin", "Cairo", "Sicily", "Manhattan",
        "Hollywood", "Nevada", "Mars", "Saturn", "Atlantis", "Eden", "Oz", "Avalon", "Tombstone", "Monterey",
    ]
    static let subtitles = [
        "The Beginning", "Resurrection", "Reckoning", "Homecoming", "The Final Chapter", "Rise of the Machines",
        "Dawn", "Legacy", "Retribution", "Revelations", "Origins", "Part II", "The Return", "Endgame", "Reborn",
    ]

    static func title(_ rng: inout SplitMix64, seed: UInt64) -> String {
        var t: String
        switch rng.below(12) {
        case 0, 1: t = "The " + rng.pick(adjectives) + " " + rng.pick(nouns)
        case 2: t = rng.pick(nouns) + " of " + rng.pick(places)
        case 3:
            let a = rng.below(nouns.count)
            t = "The " + nouns[a] + " of the " + nouns[(a + 1 + rng.below(nouns.count - 1)) % nouns.count]
        case 4: t = rng.pick(adjectives) + " " + rng.pick(nouns)
        case 5:
            let noun = rng.pick(nouns)
            t = ("AEIOU".contains(noun.first!) ? "An " : "A ") + noun + " in " + rng.pick(places)
        case 6: t = rng.pick(PeopleGenerator.firstNames) + "'s " + rng.pick(nouns)
        case 7: t = "The " + rng.pick(nouns)
        case 8: t = rng.pick(adjectives) + " " + rng.pick(places)
        case 9:
            let a = rng.below(nouns.count)
            t = "The " + nouns[a] + " and the " + nouns[(a + 1 + rng.below(nouns.count - 1)) % nouns.count]
        case 10: t = "Return to " + rng.pick(places)
        default: t = rng.pick(nouns) + " " + String(2 + rng.below(3))
        }
        if rng.chance(0.08) { t += ": " + rng.pick(subtitles) }
        return t
    }

    static func movie(seed: UInt64, index: Int) -> JSONValue {
        var rng = SplitMix64(seed: seed, salt: salt, index: index)
        let title = title(&rng, seed: seed)
        let u = rng.unit()
        let year = max(1920, 2024 - Int(105 * u * u * u))  // most films are recent

        var genre: [JSONValue] = []
        let genreCount = 1 + rng.below(3)
        genre.reserveCapacity(genreCount)
        var picked: [Int] = []
        while picked.count < genreCount {
            let g = rng.pick(genreTable)
            if !picked.contains(g) { picked.append(g); genre.append(.string(genres[g])) }
        }

        // Cast: 2–5 distinct people, log-uniform over 10,000 so stars recur across films.
        var cast: [Int] = []
        let castCount = 2 + rng.below(4)
        while cast.count < castCount {
            let j = Int(exponential(rng.unit() * logarithm(10_000.0))) - 1
            if j >= 0, !cast.contains(j) { cast.append(j) }
        }

        // Score: a bell around 6.3 (sum of uniforms), one decimal.
        let raw = 1.5 + (rng.unit() + rng.unit() + rng.unit()) * 3.2 + (rng.unit() - 0.5)
        let score = Double(Int((min(10, max(0, raw)) * 10).rounded())) / 10
        let rating = min(5, max(1, Int(score / 2) + 1))

        var image = "https://image.tmdb.org/t/p/w154"
        image += PeopleGenerator.imagePath(&rng)

        var object = JSONObject()
        object.appendUnique("title", .string(title))
        object.appendUnique("year", .int(Int64(year)))
        object.appendUnique("genre", .array(genre))
        object.appendUnique("actors", .array(cast.map { .string(PeopleGenerator.name(seed: seed, person: $0)) }))
        object.appendUnique("rating", .int(Int64(rating)))
        object.appendUnique("score", .double(score))
        object.appendUnique("image", .string(image))
        object.appendUnique("objectID", .string(String(439_000_000 + index)))
        return .object(object)
    }
}
