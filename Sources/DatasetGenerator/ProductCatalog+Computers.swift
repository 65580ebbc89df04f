// The catalog's computer lines: computers, tablets and their accessories, printers and ink.
extension ProductCatalog {
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
