#if canImport(Glibc)
    import Glibc
#endif

/// The text of the error number `code`, by default the last call's (`errno`): for the messages of the spawner, the
/// listeners and the sync sources.
public func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
