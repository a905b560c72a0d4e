/// Where the names of one file's code are visible: the block (`{ … }`) around each token, and the names a block's
/// header declares for its code — a function's parameters, a closure's, a `for` loop's variable — which hide a
/// property of the same name there (`func sidebar(_ sidebarViewController: SidebarViewController)` does not
/// read the property `sidebarViewController`).
struct BlockScopes {
    /// For each token, the index of the `{` of the innermost block holding it; -1 at file level.
    let enclosing: [Int]
    /// The names each block's header declares, by the index of its `{`; blocks declaring none are absent.
    let declared: [Int: Set<String>]

    /// The scopes of `file`'s tokens.
    init(_ file: ScannedFile) {
        let tokens = file.tokens
        var enclosing = [Int](repeating: -1, count: tokens.count)
        var openers = [Int](repeating: -1, count: tokens.count)
        var stack: [Int] = []
        for index in tokens.indices {
            while let top = stack.last, file.closers[top] < index { stack.removeLast() }
            enclosing[index] = stack.last ?? -1
            let closer = file.closers[index]
            if closer >= 0 && closer < tokens.count { openers[closer] = index }
            if tokens[index].is("{") { stack.append(index) }
        }
        var declared: [Int: Set<String>] = [:]
        for index in tokens.indices where tokens[index].is("{") && !file.typeBodies.contains(index) {
            let names = Self.headerNames(before: index, in: file, openers: openers)
                .union(file.isObjectiveC ? [] : Self.closureParameters(after: index, in: file))
            if !names.isEmpty { declared[index] = names }
        }
        self.enclosing = enclosing
        self.declared = declared
    }

    /// Words that cannot be a closure's parameter: `{ for x in xs … }` and `{ return x }` start code.
    private static let statementWords: Set<String> = [
        "for", "if", "guard", "let", "var", "return", "switch", "case", "while", "repeat", "do", "try", "await",
        "throw", "defer", "break", "continue", "else", "self", "super", "true", "false", "nil",
    ]

    /// The names a block's header declares: a function's or initializer's parameters (the names used inside, not
    /// the labels), a `for` loop's variables, an Objective-C method's or block's parameters.
    private static func headerNames(before brace: Int, in file: ScannedFile, openers: [Int]) -> Set<String> {
        let tokens = file.tokens
        // The header: back from the brace to the end of the previous statement, over bracketed groups.
        var start = brace - 1
        var steps = 0
        while start >= 0 && steps < 300 {
            steps += 1
            let token = tokens[start]
            if token.is(")") || token.is("]"), openers[start] >= 0 {
                start = openers[start] - 1
                continue
            }
            if token.is(";") || token.is("{") || token.is("}") { break }
            start -= 1
        }
        let header = (start + 1)..<brace
        guard !header.isEmpty else { return [] }
        var names: Set<String> = []
        if file.isObjectiveC {
            // `- (void)show:(UIViewController *)controller {`: the word after each `)`; a block's `^(X *x) {`: the
            // word before each `,` or `)` of its parentheses.
            let isBlock = header.contains { tokens[$0].is("^") }
            for index in header where tokens[index].isIdentifier && index > header.lowerBound {
                let previous = tokens[index - 1]
                let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                if previous.is(")") || isBlock && (next?.is(",") == true || next?.is(")") == true) {
                    names.insert(tokens[index].text)
                }
            }
            return names
        }
        let first = tokens[header.lowerBound]
        if first.isWord("for") {
            for index in header.dropFirst() {
                if tokens[index].isWord("in") { break }
                if tokens[index].isIdentifier && !["case", "let", "var"].contains(tokens[index].text) {
                    names.insert(tokens[index].text)
                }
            }
            return names
        }
        guard
            let keyword = header.first(where: { index in
                ["func", "init", "subscript"].contains(tokens[index].text) && tokens[index].isIdentifier
                    && (index == 0 || !tokens[index - 1].is("."))
            }),
            let open = header.first(where: { $0 > keyword && tokens[$0].is("(") }),
            file.closers[open] > open, file.closers[open] <= brace
        else { return names }
        for segment in ScreenDiscovery.argumentSegments((open + 1)..<file.closers[open], in: file) {
            // `label name: Type`, `_ name: Type`, `name: Type`: the last word before the colon.
            guard let colon = segment.first(where: { tokens[$0].is(":") }), colon > segment.lowerBound,
                tokens[colon - 1].isIdentifier
            else { continue }
            names.insert(tokens[colon - 1].text)
        }
        return names
    }

    /// The parameters of a closure whose `{` is at `brace`: `{ a, b in`, `{ [weak self] (a: A) -> B in`; empty when
    /// the block does not start so.
    private static func closureParameters(after brace: Int, in file: ScannedFile) -> Set<String> {
        let tokens = file.tokens
        var names: Set<String> = []
        var index = brace + 1
        var steps = 0
        while index < tokens.count && steps < 60 {
            steps += 1
            let token = tokens[index]
            if token.is("(") || token.is("[") {
                let close = file.closers[index]
                guard close > index, close < tokens.count else { return [] }
                for inner in (index + 1)..<close where tokens[inner].isIdentifier && !token.is("[") {
                    names.insert(tokens[inner].text)
                }
                index = close + 1
                continue
            }
            if token.isWord("in") { return names }
            if token.isIdentifier {
                guard !statementWords.contains(token.text) else { return [] }
                names.insert(token.text)
            } else if ![",", "->", ":", ".", "?", "!", "<", ">"].contains(token.text) {
                return []
            }
            index += 1
        }
        return []
    }
}
