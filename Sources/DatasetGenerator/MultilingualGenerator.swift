import SearchAPI

/// Products named and described in eight languages (English, French, German, Spanish, Italian,
/// Russian, Japanese, Chinese): the multilingual demo index, to show what the language settings
/// do. A name holds the product's singular or its plural (so `ignorePlurals` has something to
/// join), German names are compounds (`Fußballschuhe`, for `decompoundedAttributes`), and the
/// Japanese and Chinese ones are written without spaces (a word is found inside them).
enum MultilingualGenerator {
    static let salt: UInt64 = 0x4D55_4C54_494C_4E47  // "MULTILNG"

    /// One language's words: the eight product types in the order of `materialsByType`, as
    /// (singular, plural, category), and the rest.
    struct Language {
        var code: String
        var products: [(singular: String, plural: String, category: String)]
        var colors: [String]
        var materials: [String]
        /// The name: `{brand}`, `{product}` (singular or plural), `{material}`, `{color}`.
        var name: String
        /// The description: the same, with `{plural}`.
        var description: String
    }

    static let languages: [Language] = [
        Language(code: "en",
                 products: [("shoe", "shoes", "Footwear"), ("bag", "bags", "Bags"), ("jacket", "jackets", "Clothing"),
                            ("watch", "watches", "Accessories"), ("lamp", "lamps", "Home"), ("chair", "chairs", "Furniture"),
                            ("cup", "cups", "Kitchen"), ("backpack", "backpacks", "Bags")],
                 colors: ["black", "white", "red", "blue", "green", "brown"], materials: ["leather", "cotton", "wood", "steel"],
                 name: "{brand} {material} {product}, {color}",
                 description: "The {plural} of {brand} are made for every day, in {material}."),
        Language(code: "fr",
                 products: [("chaussure", "chaussures", "Chaussures"), ("sac", "sacs", "Sacs"), ("veste", "vestes", "Vêtements"),
                            ("montre", "montres", "Accessoires"), ("lampe", "lampes", "Maison"), ("chaise", "chaises", "Meubles"),
                            ("tasse", "tasses", "Cuisine"), ("chapeau", "chapeaux", "Accessoires")],
                 colors: ["noir", "blanc", "rouge", "bleu", "vert", "marron"], materials: ["cuir", "coton", "bois", "acier"],
                 name: "{brand} {product} en {material}, coloris {color}",
                 description: "Nos {plural} {brand} en {material}, pour tous les jours."),
        Language(code: "de",
                 products: [("Fußballschuh", "Fußballschuhe", "Schuhe"), ("Handtasche", "Handtaschen", "Taschen"),
                            ("Regenjacke", "Regenjacken", "Bekleidung"), ("Armbanduhr", "Armbanduhren", "Accessoires"),
                            ("Schreibtischlampe", "Schreibtischlampen", "Wohnen"), ("Bürostuhl", "Bürostühle", "Möbel"),
                            ("Kaffeetasse", "Kaffeetassen", "Küche"), ("Rucksack", "Rucksäcke", "Taschen")],
                 colors: ["Schwarz", "Weiß", "Rot", "Blau", "Grün", "Braun"], materials: ["Leder", "Baumwolle", "Holz", "Stahl"],
                 name: "{brand} {product} aus {material}, Farbe {color}",
                 description: "Unsere {plural} von {brand} aus {material}, für jeden Tag."),
        Language(code: "es",
                 products: [("zapato", "zapatos", "Calzado"), ("bolso", "bolsos", "Bolsos"), ("chaqueta", "chaquetas", "Ropa"),
                            ("reloj", "relojes", "Accesorios"), ("lámpara", "lámparas", "Hogar"), ("silla", "sillas", "Muebles"),
                            ("taza", "tazas", "Cocina"), ("mochila", "mochilas", "Bolsos")],
                 colors: ["negro", "blanco", "rojo", "azul", "verde", "marrón"], materials: ["cuero", "algodón", "madera", "acero"],
                 name: "{brand} {product} de {material}, color {color}",
                 description: "Productos {brand}: {plural} de {material} para todos los días."),
        Language(code: "it",
                 products: [("scarpa", "scarpe", "Calzature"), ("borsa", "borse", "Borse"), ("giacca", "giacche", "Abbigliamento"),
                            ("orologio", "orologi", "Accessori"), ("lampada", "lampade", "Casa"), ("sedia", "sedie", "Mobili"),
                            ("tazza", "tazze", "Cucina"), ("zaino", "zaini", "Borse")],
                 colors: ["nero", "bianco", "rosso", "blu", "verde", "marrone"], materials: ["pelle", "cotone", "legno", "acciaio"],
                 name: "{brand} {product} in {material}, colore {color}",
                 description: "Prodotti {brand}: {plural} in {material} per tutti i giorni."),
        Language(code: "ru",
                 products: [("ботинок", "ботинки", "Обувь"), ("сумка", "сумки", "Сумки"), ("куртка", "куртки", "Одежда"),
                            ("браслет", "браслеты", "Аксессуары"), ("лампа", "лампы", "Дом"), ("стул", "стулья", "Мебель"),
                            ("чашка", "чашки", "Кухня"), ("рюкзак", "рюкзаки", "Сумки")],
                 colors: ["чёрный", "белый", "красный", "синий", "зелёный", "коричневый"],
                 materials: ["из кожи", "из хлопка", "из дерева", "из стали"],
                 name: "{brand} {product} {material}, цвет {color}",
                 description: "Наши {plural} {brand} {material} на каждый день."),
        Language(code: "ja",
                 products: [("ランニングシューズ", "ランニングシューズ", "靴"), ("手提げ鞄", "手提げ鞄", "バッグ"), ("ジャケット", "ジャケット", "衣類"),
                            ("腕時計", "腕時計", "アクセサリー"), ("電気スタンド", "電気スタンド", "インテリア"), ("椅子", "椅子", "家具"),
                            ("湯呑み", "湯呑み", "キッチン"), ("リュックサック", "リュックサック", "バッグ")],
                 colors: ["黒", "白", "赤", "青", "緑", "茶色"], materials: ["革", "綿", "木", "鋼"],
                 name: "{brand} {color}の{material}製{product}",
                 description: "{brand}の{material}製{plural}は毎日使えるデザインです。"),
        Language(code: "zh",
                 products: [("跑步鞋", "跑步鞋", "鞋类"), ("手提包", "手提包", "箱包"), ("夹克", "夹克", "服装"),
                            ("手表", "手表", "配饰"), ("台灯", "台灯", "家居"), ("椅子", "椅子", "家具"),
                            ("杯子", "杯子", "厨房"), ("背包", "背包", "箱包")],
                 colors: ["黑色", "白色", "红色", "蓝色", "绿色", "棕色"], materials: ["真皮", "纯棉", "实木", "钢制"],
                 name: "{brand} {color}{material}{product}",
                 description: "{brand}的{material}{plural}，适合每天使用。"),
    ]

    /// The materials (indices in each language's `materials`: leather, cotton, wood, steel) each
    /// product type is made of: footwear, bag, jacket, watch, lamp, chair, cup, the last type.
    static let materialsByType: [[Int]] = [[0, 1], [0, 1], [0, 1], [0, 3], [2, 3], [2, 3], [3], [0, 1]]

    static let brands = ["Lumière", "Nordwind", "Sakura", "Aurora", "Vento", "Berkut", "Long Feng", "Atlas"]

    /// Record `index`: the languages in turn, the rest drawn from the seed.
    static func product(seed: UInt64, index: Int) -> JSONValue {
        var rng = SplitMix64(seed: seed, salt: salt, index: index)
        let language = languages[index % languages.count]
        let type = rng.below(language.products.count)
        let product = language.products[type]
        let brand = rng.pick(brands)
        let color = rng.pick(language.colors)
        let material = language.materials[rng.pick(materialsByType[type])]
        let plural = rng.chance(0.4)
        let values = ["brand": brand, "product": plural ? product.plural : product.singular, "plural": product.plural,
                      "material": material, "color": color]
        func fill(_ template: String) -> String {
            // `{key}` replaced by its value; the generator stays free of Foundation.
            var result = ""
            var key: String?
            for character in template {
                if character == "{" { key = ""; continue }
                if character == "}", let name = key { result += values[name] ?? ""; key = nil; continue }
                if key != nil { key!.append(character) } else { result.append(character) }
            }
            return result
        }
        let price = Double(5 + rng.below(300)) - 0.01
        return [
            "objectID": .string("ml-\(index)"),
            "language": .string(language.code),
            "name": .string(fill(language.name)),
            "description": .string(fill(language.description)),
            "category": .string(product.category),
            "brand": .string(brand),
            "price": .number(price),
            "popularity": .int(Int64(rng.logUniform(1, 10_000))),
        ]
    }
}
