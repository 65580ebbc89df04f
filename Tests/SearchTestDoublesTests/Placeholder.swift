import Testing
@testable import SearchTestDoubles
