import SearchAPI

/// Product descriptions: 2–4 sentences assembled from fragments that fit the product's
/// kind (chosen by the line's `type`), naming the brand, family and a noun such as "case".
enum Descriptions {
    struct Pool {
        let openers: [Template]
        let details: [Template]

        init(_ openers: [String], _ details: [String]) {
            self.openers = openers.map(Template.init)
            self.details = (details + Descriptions.generic).map(Template.init)
        }
    }

    static let generic = [
        "Backed by a manufacturer's warranty for extra peace of mind.",
        "Premium materials are built to last through daily use.",
        "Its clean, modern design fits right in at home or on the go.",
    ]

    static let closers: [Template] = [
        "An ideal choice for everyday use.",
        "It makes a great gift for friends and family.",
        "Enjoy reliable performance for years to come.",
        "It's a smart upgrade at a great value.",
        "Trusted {brand} quality you can count on.",
        "Order today and see what you have been missing.",
        "Experience the difference {brand} design makes.",
    ].map(Template.init)

    /// Pool name for each product `type` of the catalog.
    static let poolForType: [String: String] = [
        "Cell phones": "phones", "Prepaid phones": "phones",
        "Cases": "protection", "Screen protectors": "protection", "Tablet cases": "protection",
        "Laptop bags": "protection", "Watch bands": "protection",
        "Charging cables": "power", "Portable chargers": "power", "HDMI cables": "power",
        "Mounts & holders": "mounts", "TV mounts": "mounts", "Tripods": "mounts",
        "Laptops": "computers", "Tablets": "computers", "Desktops": "computers",
        "Monitors": "displays", "TVs": "displays", "Projectors": "displays",
        "External hard drives": "storage", "Flash drives": "storage", "Memory cards": "storage",
        "Mice": "peripherals", "Keyboards": "peripherals", "Controllers": "peripherals", "Remote controls": "peripherals",
        "Routers": "smart", "Smart bulbs": "smart", "Smart speakers": "smart", "Security cameras": "smart", "Thermostats": "smart",
        "Streaming media players": "players", "Blu-ray players": "players",
        "Headphones": "headphones", "Gaming headsets": "headphones",
        "Speakers": "speakers", "Sound bars": "speakers", "Receivers": "speakers", "Turntables": "speakers", "Car speakers": "speakers",
        "Cameras": "cameras", "Action cameras": "cameras", "Camera lenses": "lenses",
        "Refrigerators": "appliances", "Washers": "appliances", "Dryers": "appliances", "Ranges": "appliances",
        "Cooktops": "appliances", "Dishwashers": "appliances", "Microwaves": "appliances",
        "Coffee makers": "kitchen", "Blenders": "kitchen", "Kitchen appliances": "kitchen", "Vacuums": "vacuums",
        "Video games": "games", "Consoles": "consoles",
        "Car stereos": "car", "GPS": "navigation", "Installation kits": "car", "Dash cameras": "navigation",
        "Smartwatches": "wearables", "Activity trackers": "wearables",
        "Shavers": "grooming", "Hair care": "grooming", "Electric toothbrushes": "grooming",
        "Printer ink": "ink", "Printers": "printers",
    ]

    static let pools: [String: Pool] = [
        "phones": Pool(
            ["Stay connected wherever you go with this {brand} {series} {noun}.",
             "Keep your day on track with this {brand} {noun}, built for calls, texts and streaming.",
             "This {brand} {series} {noun} pairs a sleek design with everyday performance."],
            ["A long-lasting battery keeps you talking, browsing and sharing from morning to night.",
             "Its vivid display makes photos, videos and games look sharp and colorful.",
             "Fast charging support gets you back to full power quickly.",
             "4G LTE speeds let you download apps and stream music without waiting.",
             "A high-resolution rear camera captures detailed photos, even in low light.",
             "A fingerprint sensor unlocks the phone in an instant."]),
        "protection": Pool(
            ["Protect your device in style with this {brand} {series} {noun}.",
             "This {brand} {series} {noun} guards against everyday bumps, drops and scratches.",
             "Keep your gear looking new with this {brand} {noun}."],
            ["Precise cutouts give easy access to ports, buttons and cameras.",
             "Raised edges help protect the screen and camera from scratches and drops.",
             "A slim profile slides easily into a pocket, purse or bag.",
             "Shock-absorbing materials help cushion impacts.",
             "A soft lining helps prevent scuffs and scratches."]),
        "power": Pool(
            ["Stay powered up with this {brand} {series} {noun}.",
             "Charge and sync your devices with this {brand} {noun}.",
             "Keep a spare charge close at hand with this {brand} {noun}."],
            ["Reinforced connectors stand up to repeated plugging and unplugging.",
             "Fast charging support gets your devices back to full power quickly.",
             "Built-in protection guards against overheating and overcharging.",
             "A tangle-free design makes it easy to pack and carry."]),
        "mounts": Pool(
            ["Position your device just right with this {brand} {series} {noun}.",
             "Free up space and get a better view with this {brand} {noun}."],
            ["Sturdy construction holds your device securely in place.",
             "Adjustable arms tilt and swivel for the perfect viewing angle.",
             "Installation hardware is included for a quick setup.",
             "A compact design folds away when not in use."]),
        "computers": Pool(
            ["Get more done with this {brand} {series} {noun}.",
             "Work, stream and create with this {brand} {noun}, designed for everyday productivity.",
             "This {brand} {series} {noun} keeps up with your busy schedule."],
            ["A fast processor and ample memory let you run multiple applications smoothly.",
             "Fast storage boots up quickly and keeps your files within reach.",
             "Wi-Fi and Bluetooth connectivity link your devices without extra cables.",
             "The lightweight, slim design slips easily into a bag for travel.",
             "A high-resolution display shows crisp text and lifelike images.",
             "All-day battery life keeps you productive away from an outlet."]),
        "displays": Pool(
            ["Bring stunning picture quality to your space with this {brand} {series} {noun}.",
             "Upgrade your setup with this {brand} {noun}.",
             "Enjoy every frame with this {brand} {series} {noun}."],
            ["High resolution and HDR support deliver rich colors and deep contrast.",
             "Multiple HDMI inputs connect game consoles, computers and streaming players.",
             "A slim bezel keeps the focus on the picture.",
             "Fast response times keep action scenes smooth and sharp.",
             "Built-in smart features put movies, shows and music a click away."]),
        "storage": Pool(
            ["Keep your files safe and portable with this {brand} {series} {noun}.",
             "Expand your storage with this {brand} {noun}."],
            ["Fast transfer speeds move photos, videos and documents in seconds.",
             "A durable design withstands the bumps of everyday travel.",
             "Plug-and-play setup works without extra software.",
             "Plenty of capacity holds thousands of photos and hours of HD video."]),
        "peripherals": Pool(
            ["Take control with this {brand} {series} {noun}.",
             "Work and play comfortably with this {brand} {noun}."],
            ["A comfortable, ergonomic shape reduces strain during long sessions.",
             "Responsive input and a reliable wireless connection keep you in control.",
             "Long battery life means fewer interruptions.",
             "Programmable buttons put your favorite shortcuts at your fingertips."]),
        "smart": Pool(
            ["Make your home smarter with this {brand} {series} {noun}.",
             "Control your home from anywhere with this {brand} {noun}."],
            ["Control it with your voice or from the companion app on your phone.",
             "It works with Amazon Alexa, Google Assistant and other smart home systems.",
             "Receive alerts on your smartphone whenever something needs your attention.",
             "Create schedules that fit your routine and save energy.",
             "Setup takes minutes with your home Wi-Fi network."]),
        "players": Pool(
            ["Stream and play your favorite entertainment with this {brand} {series} {noun}.",
             "Turn any TV into an entertainment hub with this {brand} {noun}."],
            ["Access thousands of movies, shows and apps in stunning picture quality.",
             "A simple remote makes it easy to find something to watch.",
             "Compact and easy to set up, it connects directly to your TV's HDMI port.",
             "Support for 4K and HDR delivers vivid, lifelike images."]),
        "headphones": Pool(
            ["Hear every detail with this {brand} {series} {noun}.",
             "Enjoy your music, calls and games with this {brand} {noun}."],
            ["Active noise cancellation blocks out distractions on the go.",
             "Soft cushions and an adjustable fit keep you comfortable during long listening sessions.",
             "A built-in microphone lets you take calls hands-free.",
             "Deep bass and crisp highs bring your favorite playlists to life.",
             "A rechargeable battery provides hours of wireless playback."]),
        "speakers": Pool(
            ["Immerse yourself in rich, room-filling sound with this {brand} {series} {noun}.",
             "Take your music further with this {brand} {noun}."],
            ["Bluetooth connectivity lets you stream music wirelessly from your phone or tablet.",
             "Deep bass and crisp highs bring your favorite playlists to life.",
             "Its rugged, water-resistant build is ready for the pool, the beach or the trail.",
             "Clear dialogue and wide sound make movies more immersive.",
             "Easy setup gets your system running in minutes."]),
        "cameras": Pool(
            ["Capture life's moments in stunning detail with this {brand} {series} {noun}.",
             "Take your photography further with this {brand} {noun}.",
             "Tell your story in pictures with this {brand} {series} {noun}."],
            ["A high-resolution sensor and fast autofocus produce sharp images even in low light.",
             "Record 4K video to share your adventures in crisp detail.",
             "Built-in Wi-Fi transfers photos to your smartphone for quick sharing.",
             "The compact, lightweight body is easy to carry on trips.",
             "Image stabilization reduces blur from shaky hands."]),
        "lenses": Pool(
            ["Expand your creative options with this {brand} {noun}.",
             "Get closer to the action with this {brand} {noun}."],
            ["Fast, quiet autofocus is ideal for both photos and video.",
             "Advanced optics reduce distortion and chromatic aberration.",
             "A wide aperture creates beautiful background blur."]),
        "appliances": Pool(
            ["Simplify household chores with this {brand} {series} {noun}.",
             "This {brand} {noun} combines thoughtful design with dependable performance.",
             "Upgrade your home with this {brand} {noun}."],
            ["Energy-efficient operation helps lower utility bills.",
             "Smart sensors adjust settings automatically for consistent results.",
             "The spacious interior holds more, so you can do less.",
             "Easy-to-clean surfaces and intuitive controls make daily use a breeze.",
             "Multiple preset programs handle everything from delicate items to heavy loads.",
             "Quiet operation lets you run it any time of day."]),
        "kitchen": Pool(
            ["Whip up your favorite recipes with this {brand} {series} {noun}.",
             "Bring cafe-style convenience to your kitchen with this {brand} {noun}."],
            ["Simple controls and preset programs take the guesswork out of cooking.",
             "Dishwasher-safe parts make cleanup quick.",
             "A compact footprint saves counter space.",
             "Powerful performance handles everything from morning coffee to weeknight dinners."]),
        "vacuums": Pool(
            ["Keep your floors spotless with this {brand} {series} {noun}.",
             "Take the work out of cleaning with this {brand} {noun}."],
            ["Strong suction lifts dirt, dust and pet hair from carpets and hard floors.",
             "A washable filter traps fine dust and allergens.",
             "Long battery life covers multiple rooms on a single charge.",
             "Its low profile reaches under beds and furniture."]),
        "games": Pool(
            ["Jump into the action with this {brand} {noun}.",
             "Play for hours with this {noun} from {brand}."],
            ["Explore vast worlds, complete missions and unlock new abilities.",
             "Online multiplayer lets you team up or compete with players around the world.",
             "Stunning graphics and immersive audio pull you into every battle.",
             "A story campaign and endless replay value keep the fun going."]),
        "consoles": Pool(
            ["Level up your gaming with this {brand} {series} {noun}.",
             "Bring home the next generation of play with this {brand} {noun}."],
            ["Play games, stream movies and chat with friends online.",
             "Ample storage holds your favorite games and downloadable content.",
             "The included wireless controller offers precise, responsive play."]),
        "car": Pool(
            ["Upgrade your ride with this {brand} {series} {noun}.",
             "Enjoy every mile with this {brand} {noun}."],
            ["It is designed for easy installation in compatible vehicles.",
             "Durable construction withstands vibration and temperature changes.",
             "Factory-style fit and finish blend right into your dashboard."]),
        "navigation": Pool(
            ["Drive with confidence using this {brand} {series} {noun}.",
             "Keep an eye on the road with this {brand} {noun}."],
            ["Clear turn-by-turn directions guide you to your destination.",
             "Hands-free voice control keeps your eyes on the road.",
             "A bright display stays readable in direct sunlight.",
             "A simple suction-cup mount moves easily between vehicles."]),
        "wearables": Pool(
            ["Track your progress with this {brand} {series} {noun}.",
             "Reach your fitness goals with this {brand} {noun}.",
             "Stay on top of your day with this {brand} {series} {noun}."],
            ["Monitor steps, heart rate and sleep to understand your habits.",
             "Receive notifications for calls, texts and apps right on your wrist.",
             "Water resistance makes it ready for swimming and workouts.",
             "Built-in GPS maps your runs and rides without your phone."]),
        "grooming": Pool(
            ["Look and feel your best with this {brand} {series} {noun}.",
             "Upgrade your daily routine with this {brand} {noun}."],
            ["Multiple settings let you customize your routine.",
             "A rechargeable battery provides weeks of use between charges.",
             "It is gentle on skin while delivering professional results.",
             "An ergonomic handle offers precise control."]),
        "ink": Pool(
            ["Keep your printer running with this {brand} {noun}.",
             "Print sharp documents and photos with this {brand} {noun}."],
            ["Fade-resistant ink produces crisp text and vivid color graphics.",
             "High-yield cartridges print more pages and need fewer replacements.",
             "Genuine supplies are engineered for reliable results page after page."]),
        "printers": Pool(
            ["Keep your office productive with this {brand} {series} {noun}.",
             "Handle school projects and business reports with this {brand} {noun}."],
            ["Wireless printing lets you print from smartphones, tablets and computers.",
             "Automatic two-sided printing saves paper and time.",
             "Fast print speeds keep up with busy households and small offices.",
             "A touch-screen control panel makes copying and scanning simple."]),
    ]

    /// The pool of each catalog line, indexed like `ProductCatalog.lines`.
    static let lineDetails: [Pool] = ProductCatalog.lines.map { line in
        guard let key = poolForType[line.type], let pool = pools[key] else {
            preconditionFailure("no description pool for type \(line.type)")
        }
        return pool
    }

    static func make(line: Int, _ values: borrowing SlotValues, _ rng: inout SplitMix64) -> String {
        let pool = lineDetails[line]
        var out = ""
        out.reserveCapacity(320)
        pool.openers[rng.below(pool.openers.count)].render(into: &out, values)
        // 2–4 sentences: the opener, distinct details, and usually a closer.
        let sentences = 2 + rng.below(3)
        let hasCloser = rng.chance(0.7)
        var previous = -1
        for _ in 0..<(sentences - 1 - (hasCloser ? 1 : 0)) {
            var k = rng.below(pool.details.count)
            if k == previous { k = (k + 1) % pool.details.count }
            previous = k
            out += " "
            pool.details[k].render(into: &out, values)
        }
        if hasCloser {
            out += " "
            closers[rng.below(closers.count)].render(into: &out, values)
        }
        return out
    }
}
