/// The bookkeeping behind "latest request wins" for one searcher.
///
/// Each request gets a ticket. A *new search* (a new query, index, filter state, or an explicit
/// `search()`) starts a new generation: every request of older generations is cancelled and
/// its ticket revoked. A *page load* joins the current generation without revoking anything.
/// A response is delivered only if its ticket is still held (`finish(_:)` answers that), so a
/// response to a superseded request never reaches results or errors, whether it arrives
/// before or after the newer one. `isLoading` is true exactly while a deliverable ticket is out.
@MainActor
final class RequestSequencer {
    struct Ticket: Hashable, Sendable {
        let id: Int
        let generation: Int
    }

    let isLoading: Observer<Bool>
    private(set) var generation = 0
    private var nextID = 0
    /// Deliverable tickets and the task that runs each (nil when another searcher runs it).
    private var inFlight: [Int: Task<Void, Never>?] = [:]
    /// Every task started and not yet finished, superseded ones included (for `settle()`).
    private var running: [Int: Task<Void, Never>] = [:]

    init() {
        isLoading = Observer(retainLastData: true)
        isLoading.fire(false)
    }

    var hasPendingRequests: Bool { !inFlight.isEmpty }

    /// Revokes every ticket (cancelling the tasks this searcher runs) and opens a new generation.
    /// `isLoading` stays true across the switch when a request was in flight.
    func beginGeneration() -> Ticket {
        revokeAll(updatingLoading: false)
        generation += 1
        return issue()
    }

    /// A ticket in the current generation, revoking nothing.
    func beginPage() -> Ticket { issue() }

    private func issue() -> Ticket {
        nextID += 1
        inFlight[nextID] = .some(nil)
        updateLoading()
        return Ticket(id: nextID, generation: generation)
    }

    /// Records the task that runs a ticket's request, so revoking the ticket cancels it.
    func attach(_ task: Task<Void, Never>, to ticket: Ticket) {
        running[ticket.id] = task
        if inFlight[ticket.id] != nil { inFlight[ticket.id] = task } else { task.cancel() }
    }

    /// Called when a ticket's request is over, whatever its outcome: true when the outcome
    /// may be delivered (the ticket was still held), false when it was superseded.
    func finish(_ ticket: Ticket) -> Bool {
        running[ticket.id] = nil
        finishedCount += 1
        guard inFlight.removeValue(forKey: ticket.id) != nil else { return false }
        updateLoading()
        return true
    }

    /// Revokes every ticket and cancels the tasks this searcher runs; the generation stays.
    func revokeAll(updatingLoading: Bool = true) {
        for case let task? in inFlight.values { task.cancel() }
        inFlight.removeAll()
        if updatingLoading { updateLoading() }
    }

    /// How many requests came back (delivered or dropped); tests wait on it.
    private(set) var finishedCount = 0

    /// Waits for every task started so far, superseded ones included, to end (tests use it to
    /// be sure a late response has come back and been dropped).
    func settle() async {
        while let (_, task) = running.first {
            await task.value
            running = running.filter { $0.value != task }
        }
    }

    private func updateLoading() {
        let loading = !inFlight.isEmpty
        if isLoading.lastValue != loading { isLoading.fire(loading) }
    }
}
