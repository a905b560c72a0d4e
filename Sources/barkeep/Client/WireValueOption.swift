import BarkeepProtocol

/// A value of a request's field read from the command line as the daemon would read it: a bad one is refused with
/// the daemon's words and code, before anything is sent.
func wireValue<V: WireValue>(_ text: String, key: String) throws(CLIError) -> V {
    do {
        return try V(wire: text)
    } catch {
        throw .refused(.badArgument, FieldProblem(key: key, jsonName: key, problem: error).message)
    }
}
