import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one attempt of a call to one host came to.
enum AttemptResult: Sendable {
    /// An HTTP answer, whatever its status.
    case answered(status: Int, body: [UInt8])
    /// No answer: the connection failed or broke.
    case networkError(String)
    /// No answer within the timeout.
    case timedOut
    /// The caller's task was cancelled.
    case cancelled
}

/// Sends one request on URLSession with a timeout of its own, so a hung host is given up on
/// exactly when the retry strategy says (and a cancelled task stops waiting at once), on
/// every platform's URLSession.
struct HTTPTransport: Sendable {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    func send(_ request: URLRequest, timeout: Duration) async -> AttemptResult {
        var request = request
        // URLSession's own timeout is a backstop; the timer below decides.
        request.timeoutInterval = timeout.seconds + 1
        let completion = AttemptCompletion()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AttemptResult, Never>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let timedOut = (error as? URLError)?.code == .timedOut
                        completion.finish(timedOut ? .timedOut : .networkError(error.localizedDescription))
                    } else if let http = response as? HTTPURLResponse {
                        completion.finish(.answered(status: http.statusCode, body: Array(data ?? Data())))
                    } else {
                        completion.finish(.networkError("the answer was not HTTP"))
                    }
                }
                completion.start(continuation, task: task)
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { completion.finish(.timedOut) }
            }
        } onCancel: {
            completion.finish(.cancelled)
        }
    }
}

/// The first of the answer, the timer and the cancellation to arrive resumes the waiting task;
/// the others are ignored, and the request is cancelled if it is still running.
///
/// `@unchecked Sendable`: `continuation`, `task` and `result` are only read or written while
/// holding `lock`, and the continuation is taken out under it, so it is resumed exactly once.
private final class AttemptCompletion: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<AttemptResult, Never>?
    private var task: URLSessionDataTask?
    private var result: AttemptResult?

    func start(_ continuation: CheckedContinuation<AttemptResult, Never>, task: URLSessionDataTask) {
        let early: AttemptResult? = lock.withLock {
            self.task = task
            if let result { return result }
            self.continuation = continuation
            return nil
        }
        if let early {
            task.cancel()
            continuation.resume(returning: early)
        }
    }

    func finish(_ outcome: AttemptResult) {
        let (first, waiting, task) = lock.withLock { () -> (Bool, CheckedContinuation<AttemptResult, Never>?, URLSessionDataTask?) in
            guard result == nil else { return (false, nil, nil) }
            result = outcome
            let waiting = continuation
            continuation = nil
            return (true, waiting, self.task)
        }
        guard first else { return }
        if case .answered = outcome {} else { task?.cancel() }
        waiting?.resume(returning: outcome)
    }
}
