/// The word lists of the Chinese and Japanese segmenter, in CJKDictionary+Words.swift (made by
/// make_cjk_dictionaries.py, whose docstring specifies the segmentation algorithm; the Python
/// reference implementation is Benchmarks/cjk/segment.py).
enum CJKDictionary {}
