import Testing
@testable import HeadlessSearch
