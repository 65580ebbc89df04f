/// SearchTestDoubles: wrappers of any `SearchService` for UI tests and previews.
public enum SearchTestDoubles {}
