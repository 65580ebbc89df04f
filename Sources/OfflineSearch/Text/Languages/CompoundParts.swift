/// The words that may be parts of a compound, for `decompoundedAttributes` (Danish, Dutch, Finnish,
/// German, Norwegian, Swedish): `lists` in `CompoundParts+Words.swift`, made by
/// `make_compound_parts.py`. The splitting they serve is specified by
/// `Benchmarks/decompound/split.py`. Words are lowercase and keep their diacritics; fold them as
/// the text is folded when a language is first used.
enum CompoundParts {}
