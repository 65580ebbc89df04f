/// HeadlessSearch: the UI-free half of a search screen, modelled on InstantSearch iOS.
///
/// Searchers own the request and call a `SearchService` (the local engine, a remote Algolia
/// client, or a test double); interactors hold UI state and publish events on the main actor;
/// controllers are the protocols views implement; connections wire them together.
public enum HeadlessSearch {}
