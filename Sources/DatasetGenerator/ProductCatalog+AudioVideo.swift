// The catalog's audio and video lines: TV & home theater, audio, cameras, car electronics.
extension ProductCatalog {
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
}
