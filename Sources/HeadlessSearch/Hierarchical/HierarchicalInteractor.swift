import Foundation
import SearchAPI

/// One row of a hierarchical menu: a value, its depth, and whether it is on the selected path.
public struct HierarchicalFacet: Hashable, Sendable {
    /// The value and its count.
    public let facet: Facet
    /// 0 for the top level.
    public let level: Int
    /// Whether the value is on the selected path.
    public let isSelected: Bool

    /// A row of `facet` at depth `level` (0 for the top).
    public init(facet: Facet, level: Int, isSelected: Bool) {
        self.facet = facet
        self.level = level
        self.isSelected = isSelected
    }
}

/// A hierarchical menu (`hierarchicalCategories.lvl0`, `.lvl1`, `.lvl2`, values such as
/// `"Cell Phones > Accessories"`): the counts of each level and the selected path.
/// InstantSearch's `HierarchicalInteractor`.
///
/// Selecting a value selects the path down to it; selecting the deepest selected value
/// selects its parent. Connected to a `FilterState`, the path becomes the hierarchical group's
/// filters, and a searcher connected to the same state counts each level above the selection
/// with the selection of the level above (so the siblings stay listed), in one multi-search.
///
/// ```swift
/// let categories = HierarchicalInteractor(hierarchicalAttributes: ["hierarchicalCategories.lvl0",
///     "hierarchicalCategories.lvl1", "hierarchicalCategories.lvl2"], separator: " > ")
/// categories.connectSearcher(searcher)
/// categories.connectFilterState(filterState)
/// categories.computeSelection(key: "Cell Phones > Cell Phone Accessories")
/// categories.presentation()   // the rows of the menu, the selected path unfolded
/// ```
@MainActor
public final class HierarchicalInteractor {
    /// The levels' attributes, from the top (`hierarchicalCategories.lvl0`, `.lvl1`, ...).
    public let hierarchicalAttributes: [String]
    /// What separates the levels in a value (`" > "` by default).
    public let separator: String

    /// The values of each level, from the top.
    public var items: [[Facet]] {
        didSet { if oldValue != items { onItemsChanged.fire(items) } }
    }

    /// The selected path: one value per level, from the top.
    public var selections: [String] {
        didSet { if oldValue != selections { onSelectionsChanged.fire(selections) } }
    }

    /// Fired with the values of each level when they change (the last kept as `lastValue`).
    public let onItemsChanged: Observer<[[Facet]]>
    /// Fired with the selected path when it changes (the last kept as `lastValue`).
    public let onSelectionsChanged: Observer<[String]>
    /// Fired with the path a user action asks for (the filter state connection applies it).
    public let onSelectionsComputed: Observer<[String]>

    /// A menu of these levels, with no values and nothing selected until it is connected.
    public init(hierarchicalAttributes: [String], separator: String = " > ") {
        self.hierarchicalAttributes = hierarchicalAttributes
        self.separator = separator
        items = []
        selections = []
        onItemsChanged = Observer(retainLastData: true)
        onSelectionsChanged = Observer(retainLastData: true)
        onSelectionsComputed = Observer()
    }

    /// Selects the path down to `key` (`"A > B"` selects `["A", "A > B"]`), or, when `key` is
    /// the deepest selected value, the path down to its parent.
    public func computeSelection(key: String) {
        let parts = key.components(separatedBy: separator)
        var path = (1...max(parts.count, 1)).map { parts.prefix($0).joined(separator: separator) }
        path = Array(path.prefix(hierarchicalAttributes.count))
        if selections.last == key { path.removeLast() }
        selections = path
        onSelectionsComputed.fire(path)
    }

    /// The rows of the menu: the top level, and under each selected value the values of the
    /// next level that are its children.
    public func presentation() -> [HierarchicalFacet] {
        var rows: [HierarchicalFacet] = []
        func add(level: Int, parent: String?) {
            guard level < items.count else { return }
            for facet in items[level] {
                if let parent, !facet.value.hasPrefix(parent + separator) { continue }
                let isSelected = level < selections.count && selections[level] == facet.value
                rows.append(HierarchicalFacet(facet: facet, level: level, isSelected: isSelected))
                if isSelected { add(level: level + 1, parent: facet.value) }
            }
        }
        add(level: 0, parent: nil)
        return rows
    }

    // MARK: Connections

    /// Shows the counts of every level from `searcher`'s responses (and asks for them).
    @discardableResult
    public func connectSearcher(_ searcher: HitsSearcher) -> any Connection {
        let attributes = hierarchicalAttributes
        return ClosureConnection.connected(connect: { [weak self, weak searcher] in
            guard let self, let searcher else { return }
            for attribute in attributes { searcher.requestFacet(attribute) }
            searcher.onResults.subscribePast(with: self) { interactor, response in
                interactor.items = attributes.map { response.facetValues($0) ?? [] }
            }
        }, disconnect: { [weak self, weak searcher] in
            guard let self else { return }
            searcher?.onResults.cancelSubscription(for: self)
        })
    }

    /// Keeps the selected path and the hierarchical group `groupName` (the first level's
    /// attribute by default) of `filterState` in step.
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, groupName: String? = nil) -> any Connection {
        let name = groupName ?? hierarchicalAttributes.first ?? "hierarchical"
        let attributes = hierarchicalAttributes
        return ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState[hierarchical: name].set(attributes)
            self.selections = filterState[hierarchical: name].hierarchicalFilters.map(\.value.description)
            filterState.onChange.subscribe(with: self) { interactor, filters in
                interactor.selections = (filters.hierarchicalFilters[name] ?? []).map(\.value.description)
            }
            self.onSelectionsComputed.subscribe(with: filterState) { filterState, path in
                let filters = zip(attributes, path).map { Filter.Facet(attribute: $0.0, stringValue: $0.1) }
                filterState[hierarchical: name].set(filters)
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            filterState.onChange.cancelSubscription(for: self)
            self.onSelectionsComputed.cancelSubscription(for: filterState)
        })
    }

    /// Shows the menu's rows in `controller` and selects the value the user clicks.
    @discardableResult
    public func connectController(_ controller: some HierarchicalController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = { [weak self] value in self?.computeSelection(key: value) }
            self.onItemsChanged.subscribe(with: controller) { [weak self] controller, _ in
                if let self { controller.setItem(self.presentation()) }
            }
            self.onSelectionsChanged.subscribe(with: controller) { [weak self] controller, _ in
                if let self { controller.setItem(self.presentation()) }
            }
            controller.setItem(self.presentation())
        }, disconnect: { [weak self, weak controller] in
            guard let self, let controller else { return }
            controller.onClick = nil
            self.onItemsChanged.cancelSubscription(for: controller)
            self.onSelectionsChanged.cancelSubscription(for: controller)
        })
    }
}

/// What a hierarchical menu view implements. InstantSearch's `HierarchicalController`.
@MainActor
public protocol HierarchicalController: AnyObject {
    /// Set by the connection: call it with the value the user clicked.
    var onClick: ((String) -> Void)? { get set }
    /// The rows to show, in order.
    func setItem(_ item: [HierarchicalFacet])
}

/// A hierarchical menu, wired to a searcher, a filter state and, if given, a controller.
@MainActor
public final class HierarchicalConnector {
    /// The menu's state.
    public let interactor: HierarchicalInteractor
    /// The connections made, disconnected together by `disconnect()`.
    public private(set) var connections: [any Connection] = []

    /// A menu of `hierarchicalAttributes` counted from `searcher`'s responses, its selected path
    /// kept in the hierarchical group `groupName` (the first level's attribute by default) of
    /// `filterState`; connects `searcher` to `filterState` unless it already is.
    public init(searcher: HitsSearcher, filterState: FilterState, hierarchicalAttributes: [String], separator: String = " > ",
                groupName: String? = nil) {
        interactor = HierarchicalInteractor(hierarchicalAttributes: hierarchicalAttributes, separator: separator)
        connections.append(interactor.connectSearcher(searcher))
        connections.append(interactor.connectFilterState(filterState, groupName: groupName))
        if searcher.filterState !== filterState { connections.append(searcher.connectFilterState(filterState)) }
    }

    /// Shows the menu's rows in `controller` and selects the value the user clicks.
    public func connectController(_ controller: some HierarchicalController) {
        connections.append(interactor.connectController(controller))
    }

    /// Disconnects every connection made.
    public func disconnect() { connections.forEach { $0.disconnect() } }
}
