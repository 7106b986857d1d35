import FormworkCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error from the dynamic loader, carrying `dlerror()`'s text.
struct DynamicLibraryError: Error, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A shared library opened with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`.
///
/// Libraries are never closed: a pack may contain Swift code, and the Swift
/// runtime keeps its type records after `dlclose`, so a later lookup would crash.
struct DynamicLibrary: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Opens the library at `path`.
    ///
    /// The corresponding C function is `dlopen`; failures carry `dlerror()`.
    static func open(_ path: String) throws(DynamicLibraryError) -> DynamicLibrary {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw DynamicLibraryError(message: lastError() ?? "dlopen failed")
        }
        return DynamicLibrary(handle: handle)
    }

    /// The address of `name` in this library, or nil when it does not export it.
    ///
    /// The corresponding C function is `dlsym`.
    func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        _ = dlerror()
        return dlsym(handle, name)
    }

    /// The corresponding C function is `dlerror`.
    private static func lastError() -> String? {
        guard let text = dlerror() else { return nil }
        return String(cString: text)
    }
}
