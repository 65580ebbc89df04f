// Placeholder until make_cjk_dictionaries.py writes it.
extension CJKDictionary {
    static let chineseWords = "我们 中国 北京 大学 北京大学 喜欢 图书馆 学生 中国人 电话 银行"
    static let japaneseWords = "東京 日本 日本語 京都 東京都 大学 学生 携帯 電話 携帯電話 銀行 勉強 します"
}
