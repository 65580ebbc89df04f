// The catalog's home lines: appliances, smart home, personal care.
extension ProductCatalog {
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
}
