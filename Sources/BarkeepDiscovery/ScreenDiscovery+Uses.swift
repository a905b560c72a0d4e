/// The view types discovery classifies, and how code refers to them by name.
struct ViewTypeNames {
    /// The qualified names of the view types that may be screens or components (base classes left out).
    let names: Set<String>
    /// The view controllers among them (a SwiftUI view's `title` is data, a controller's is its bar's title).
    let controllers: Set<String>
    /// The view controllers deriving from `UITabBarController`, directly or through the project's classes.
    let tabBarControllers: Set<String>
    /// The components of the controllers' names (`Inbox` and `Row` of `Inbox.Row`): a name starts with one of
    /// them, or with a module prefix followed by one.
    let controllerNameParts: Set<String>

    /// Names of `names`, with `controllers` and `tabBarControllers` among them.
    init(names: Set<String>, controllers: Set<String>, tabBarControllers: Set<String>) {
        self.names = names
        self.controllers = controllers
        self.tabBarControllers = tabBarControllers
        controllerNameParts = Set(controllers.flatMap { $0.split(separator: ".").map(String.init) })
    }

    /// Whether `name` is one of the view types.
    func contains(_ name: String) -> Bool { names.contains(name) }

    /// The view type a dotted name names in the code of `owner`: looked up from the innermost enclosing type
    /// outwards, then without a module prefix (`MyApp.InboxView`).
    func resolve(_ chain: ArraySlice<String>, from owner: String?) -> String? {
        let dotted = chain.joined(separator: ".")
        var enclosing = owner?.split(separator: ".").map(String.init) ?? []
        while true {
            let candidate = (enclosing + [dotted]).joined(separator: ".")
            if names.contains(candidate) { return candidate }
            guard !enclosing.isEmpty else { break }
            enclosing.removeLast()
        }
        guard chain.count > 1 else { return nil }
        let unqualified = chain.dropFirst().joined(separator: ".")
        return names.contains(unqualified) ? unqualified : nil
    }

    /// The view type named by the tokens starting at `index` (`Row`, `InboxView.Row`, `List<Item>`), and the index
    /// after the name and its generic arguments; nil when they name none or `index` is a member (`x.Row`).
    func mention(at index: Int, in file: ScannedFile, from owner: String?) -> (name: String, end: Int)? {
        let tokens = file.tokens
        guard tokens[index].isIdentifier, index == 0 || !tokens[index - 1].is(".") else { return nil }
        var chain = [tokens[index].text]
        var next = index + 1
        while chain.count < 8, next + 1 < tokens.count, tokens[next].is("."), tokens[next + 1].isIdentifier {
            chain.append(tokens[next + 1].text)
            next += 2
        }
        for count in stride(from: chain.count, through: 1, by: -1) {
            guard let name = resolve(chain[..<count], from: owner) else { continue }
            var end = index + 2 * count - 1
            if end < tokens.count, tokens[end].is("<"),
                let afterAngles = ScreenDiscovery.skipAngles(tokens[...], from: end)
            {
                end = afterAngles
            }
            return (name, end)
        }
        return nil
    }

    /// Whether the mention at `index`, ending at `end`, creates an instance: `Row(`, `Row { … }`, `Row.init`,
    /// `[Row alloc]`, `[Row new]`.
    static func isInstantiation(at index: Int, end: Int, in file: ScannedFile) -> Bool {
        let tokens = file.tokens
        guard end < tokens.count else { return false }
        let previous = index > 0 ? tokens[index - 1] : nil
        if tokens[end].is("(") {
            return previous?.isWord("func") != true
        }
        if tokens[end].is("{") {
            // `extension Row {`, `var row: Row {`, `-> Row {`, `x as? Row {` declare or test, never create.
            guard let previous else { return true }
            return !(previous.isIdentifier && notCreatingBeforeBrace.contains(previous.text))
                && !notCreatingPunctuationBeforeBrace.contains(previous.text)
        }
        if tokens[end].is("."), end + 1 < tokens.count, tokens[end + 1].isWord("init") { return true }
        return previous?.is("[") == true && (tokens[end].isWord("alloc") || tokens[end].isWord("new"))
    }

    private static let notCreatingBeforeBrace: Set<String> = [
        "struct", "class", "enum", "extension", "protocol", "actor", "is", "as", "some", "any", "in", "where",
    ]
    private static let notCreatingPunctuationBeforeBrace: Set<String> = [":", "->", ",", "?", "!", "&"]
}

/// A name given a value in a type's code (`let vc = InboxViewController()`, `InboxViewController *vc = …`), and
/// the view types that value is made of.
struct Binding {
    /// The code the binding is in.
    var owner: String?
    /// The variable or property.
    var name: String
    /// Where it is bound.
    var index: Int
    /// The view types its value names, directly or through earlier bindings.
    var types: [String]
    /// The tokens of its value (with an Objective-C declaration's class); nil when it has none.
    var value: Range<Int>?
}

extension ScreenDiscovery {
    /// The bindings of one file, in source order.
    static func bindings(in file: ScannedFile, names: ViewTypeNames) -> [Binding] {
        let tokens = file.tokens
        var bindings: [Binding] = []
        for index in tokens.indices where tokens[index].isIdentifier && index + 1 < tokens.count {
            let owner = file.owners[index]
            var value: Range<Int>?
            var declaredType: Range<Int>?
            if (tokens[index].isWord("let") || tokens[index].isWord("var")), tokens[index + 1].isIdentifier {
                let end = statementEnd(in: file, from: index + 2)
                bindings.append(
                    Binding(
                        owner: owner, name: tokens[index + 1].text, index: index,
                        types: mentions(in: (index + 2)..<end, of: file, names: names, bindings: bindings),
                        value: (index + 2)..<end
                    ))
                continue
            }
            if tokens[index + 1].is("="), index + 2 < tokens.count, !tokens[index + 2].is("="),
                index == 0 || !(tokens[index - 1].isWord("let") || tokens[index - 1].isWord("var"))
            {
                value = (index + 2)..<statementEnd(in: file, from: index + 2)
            }
            // Objective-C `InboxViewController *vc`: the declared class counts, with or without a value.
            if index >= 2, tokens[index - 1].is("*"), tokens[index - 2].isIdentifier {
                declaredType = (index - 2)..<(index - 1)
            }
            guard value != nil || declaredType != nil else { continue }
            let types = [declaredType, value].compactMap { $0 }.flatMap {
                mentions(in: $0, of: file, names: names, bindings: bindings)
            }
            // `X *vc = …`: from the class to the end of the value.
            let range = (declaredType?.lowerBound ?? value?.lowerBound).map {
                $0..<(value ?? declaredType ?? $0..<$0).upperBound
            }
            bindings.append(
                Binding(owner: owner, name: tokens[index].text, index: index, types: types, value: range))
        }
        return bindings
    }

    /// The view types named in `range` of `file`, in order, once each: by their names, or through the variables
    /// bound to them in the same code (the nearest binding before `range`, else the first after).
    static func mentions(
        in range: Range<Int>,
        of file: ScannedFile,
        names: ViewTypeNames,
        bindings: [Binding]
    ) -> [String] {
        var found: [String] = []
        func add(_ name: String) { if !found.contains(name) { found.append(name) } }
        var index = range.lowerBound
        while index < range.upperBound {
            let token = file.tokens[index]
            guard token.isIdentifier else {
                index += 1
                continue
            }
            let owner = file.owners[index]
            if let mention = names.mention(at: index, in: file, from: owner) {
                add(mention.name)
                index = mention.end
                continue
            }
            let isMember = index > 0 && file.tokens[index - 1].is(".")
            let isOwnMember = index > 1 && isMember && file.tokens[index - 2].isWord("self")
            if !isMember || isOwnMember,
                let binding = binding(named: token.text, of: owner, before: range, in: bindings)
            {
                for name in bindings[binding].types { add(name) }
            }
            index += 1
        }
        return found
    }

    /// The position in `bindings` of the variable `name` of `owner`'s code that `range` reads: the nearest binding
    /// before it, else the first after. (Indices, not copies: this runs for every name of every statement.)
    static func binding(named name: String, of owner: String?, before range: Range<Int>, in bindings: [Binding]) -> Int?
    {
        var first: Int?
        var nearest: Int?
        for position in bindings.indices where bindings[position].name == name && bindings[position].owner == owner {
            if first == nil { first = position }
            if bindings[position].index < range.lowerBound { nearest = position }
        }
        return nearest ?? first
    }

    /// The end of the expression or statement starting at `start`: a `;`, a closing bracket, `else`, a `{` that
    /// does not follow `=`, or (in Swift) a line that does not continue the previous one.
    static func statementEnd(in file: ScannedFile, from start: Int) -> Int {
        let tokens = file.tokens
        var index = start
        while index < tokens.count && index < start + 2_000 {
            let token = tokens[index]
            if file.closers[index] >= 0 {
                if token.is("{") && index > start && !tokens[index - 1].is("=") { break }
                index = file.closers[index] + 1
                continue
            }
            if token.is(";") || token.is(")") || token.is("]") || token.is("}") || token.isWord("else") { break }
            if index > start, token.line > tokens[index - 1].line, !token.is("."),
                !continuingPunctuation.contains(tokens[index - 1].text) || tokens[index - 1].isIdentifier
            {
                break
            }
            index += 1
        }
        return min(index, tokens.count)
    }

    /// Punctuation that ends a line whose expression goes on on the next.
    private static let continuingPunctuation: Set<String> = ["=", ",", "(", "[", ".", "+", "-", "?", ":", "&", "|"]

    // MARK: - Uses

    /// The components each screen uses, directly or through other components, sorted by name.
    static func componentUses(
        of screens: Set<String>,
        edges: [String: Set<String>]
    ) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for screen in screens {
            var seen: Set<String> = []
            var pending = Array(edges[screen] ?? [])
            while let name = pending.popLast() {
                guard !screens.contains(name), seen.insert(name).inserted else { continue }
                pending += edges[name] ?? []
            }
            result[screen] = seen.sorted()
        }
        return result
    }
}
