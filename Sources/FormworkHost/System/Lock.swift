import Synchronization

/// The host's one lock style: a `Synchronization.Mutex` around a few statements, in a class so that the
/// objects that share it (a cell type's create/destroy, the isolated cells' children) can hold a reference.
final class Lock: Sendable {
    private let mutex = Mutex(())
    func run<R>(_ body: () -> R) -> R { mutex.withLock { _ in body() } }
}
