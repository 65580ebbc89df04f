/// Which groups a clear-filters button clears.
public enum ClearMode: Sendable, Hashable {
    /// The groups given.
    case specified
    /// Every group but those given.
    case except
}

/// A "clear filters" button. InstantSearch's `FilterClearInteractor` (named as the issue asks).
///
/// ```swift
/// let clear = ClearFiltersInteractor()
/// clear.connectFilterState(filterState)   // clears everything
/// clear.trigger()
/// ```
@MainActor
public final class ClearFiltersInteractor {
    /// Fired when the button is pressed.
    public let onTriggered: Observer<Void>

    /// A button not connected yet: a press clears nothing until `connectFilterState` is called.
    public init() {
        onTriggered = Observer()
    }

    /// Presses the button.
    public func trigger() { onTriggered.fire(()) }

    /// Clears the filters of `filterState` on each press: every group (no `groupIDs`), the
    /// groups given (`.specified`), or all but them (`.except`).
    @discardableResult
    public func connectFilterState(_ filterState: FilterState, filterGroupIDs groupIDs: [FilterGroup.ID]? = nil,
                                   clearMode: ClearMode = .specified) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.onTriggered.subscribe(with: filterState) { filterState, _ in
                if let groupIDs {
                    switch clearMode {
                    case .specified: filterState.removeAll(fromGroupsWithIDs: groupIDs)
                    case .except: filterState.removeAllExcept(groupIDs)
                    }
                } else {
                    filterState.removeAll()
                }
                filterState.notifyChange()
            }
        }, disconnect: { [weak self, weak filterState] in
            guard let self, let filterState else { return }
            self.onTriggered.cancelSubscription(for: filterState)
        })
    }

    /// Presses the button when the user clicks `controller`.
    @discardableResult
    public func connectController(_ controller: some ClearFiltersController) -> any Connection {
        ClosureConnection.connected(connect: { [weak self, weak controller] in
            controller?.onClick = { [weak self] in self?.trigger() }
        }, disconnect: { [weak controller] in
            controller?.onClick = nil
        })
    }
}

/// What a clear-filters button implements.
@MainActor
public protocol ClearFiltersController: AnyObject {
    /// Set by the connection: call it when the user clicks.
    var onClick: (() -> Void)? { get set }
}
