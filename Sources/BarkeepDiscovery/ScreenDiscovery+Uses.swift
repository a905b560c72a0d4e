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
    /// The UIKit views among them (``ViewType/Kind/uiKitView``).
    let uiKitViews: Set<String>
    /// The components of all their names, as `controllerNameParts`.
    let nameParts: Set<String>
    /// The types the project declares at file level, view types or not (`InboxViewModel`, `StatusSection`): the
    /// code that names them may lead to the UIKit views they name.
    let projectTypes: Set<String>

    /// Names of `names`, with `controllers`, `tabBarControllers` and `uiKitViews` among them; `projectTypes`
    /// every type the project declares at file level.
    init(
        names: Set<String>, controllers: Set<String>, tabBarControllers: Set<String>, uiKitViews: Set<String> = [],
        projectTypes: Set<String> = []
    ) {
        self.names = names
        self.controllers = controllers
        self.tabBarControllers = tabBarControllers
        self.uiKitViews = uiKitViews
        self.projectTypes = projectTypes
        controllerNameParts = Set(controllers.flatMap { $0.split(separator: ".").map(String.init) })
        nameParts = Set(names.flatMap { $0.split(separator: ".").map(String.init) })
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
    /// The `{` of the block it is local to (a function's, a closure's); nil for a property (or a variable at file
    /// level), which every code of its owner sees.
    var block: Int?
}

/// The bindings of one file, found by name, with the scopes that say which one a name reads.
struct Bindings {
    /// Every binding, in source order.
    private(set) var all: [Binding] = []
    /// The positions in `all` of each name's bindings, in source order.
    private var byName: [String: [Int]] = [:]
    /// The file's blocks.
    let scopes: BlockScopes
    /// The `{` of each type body of the file.
    let typeBodies: Set<Int>

    init(scopes: BlockScopes, typeBodies: Set<Int>) {
        self.scopes = scopes
        self.typeBodies = typeBodies
    }

    subscript(position: Int) -> Binding { all[position] }

    /// Adds a binding.
    mutating func append(_ binding: Binding) {
        byName[binding.name, default: []].append(all.count)
        all.append(binding)
    }

    /// The block a binding at `index` is local to: the innermost block holding it, unless that is a type's body
    /// or there is none (a property, a variable at file level).
    func localBlock(of index: Int) -> Int? {
        let block = scopes.enclosing[index]
        return block < 0 || typeBodies.contains(block) ? nil : block
    }

    /// The position of the binding the name `name` of `owner`'s code reads at `index`: the nearest local binding
    /// before it in a block holding it, unless a block in between declares the name itself (a parameter); else the
    /// owner's property of that name (the nearest before, else the first after). `self.name` reads the property.
    /// Nil when no binding is visible. (Positions, not copies: this runs for every name of every statement.)
    func lookup(_ name: String, of owner: String?, at index: Int, isOwnMember: Bool = false) -> Int? {
        guard let positions = byName[name] else { return nil }
        if !isOwnMember {
            var block = index < scopes.enclosing.count ? scopes.enclosing[index] : -1
            while block >= 0 && !typeBodies.contains(block) {
                if let local = positions.last(where: {
                    all[$0].block == block && all[$0].index < index && all[$0].owner == owner
                }) {
                    return local
                }
                if scopes.declared[block]?.contains(name) == true { return nil }
                block = scopes.enclosing[block]
            }
        }
        var first: Int?
        var nearest: Int?
        for position in positions where all[position].block == nil && all[position].owner == owner {
            if first == nil { first = position }
            if all[position].index < index { nearest = position }
        }
        return nearest ?? first
    }
}

extension ScreenDiscovery {
    /// The bindings of one file, in source order.
    static func bindings(in file: ScannedFile, names: ViewTypeNames) -> Bindings {
        let tokens = file.tokens
        var bindings = Bindings(scopes: BlockScopes(file), typeBodies: file.typeBodies)
        for index in tokens.indices where tokens[index].isIdentifier && index + 1 < tokens.count {
            let owner = file.owners[index]
            var value: Range<Int>?
            var declaredType: Range<Int>?
            if (tokens[index].isWord("let") || tokens[index].isWord("var")), tokens[index + 1].isIdentifier {
                // `let vc = X()`, `var vc: X = …`, `var vc: X?` (the annotation counts, as an Objective-C
                // declaration's class does), up to the next declaration: `var a: A?` may end its line with `?`.
                let start = index + 2
                var end = statementEnd(in: file, from: start)
                if let next = topLevelDeclaration(in: start..<end, of: file) { end = next }
                let equals = topLevelIndex(of: "=", in: start..<end, of: file)
                let value = equals.map { ($0 + 1)..<end } ?? (start..<start)
                let annotation = start < end && tokens[start].is(":") ? (start + 1)..<(equals ?? end) : start..<start
                bindings.append(
                    Binding(
                        owner: owner, name: tokens[index + 1].text, index: index,
                        types: [annotation, value].flatMap {
                            mentions(in: $0, of: file, names: names, bindings: bindings)
                        },
                        value: annotation.isEmpty ? value : annotation.lowerBound..<end,
                        block: bindings.localBlock(of: index)
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
            // An assignment stores into what the name reads there: a local in scope, else a property.
            let isMember = index > 0 && tokens[index - 1].is(".")
            let isOwnMember = isMember && index > 1 && tokens[index - 2].isWord("self")
            guard !isMember || isOwnMember else { continue }
            let block: Int?
            if declaredType != nil {
                block = bindings.localBlock(of: index)
            } else if !isOwnMember, let local = bindings.lookup(tokens[index].text, of: owner, at: index) {
                block = bindings[local].block
            } else {
                block = nil
            }
            bindings.append(
                Binding(
                    owner: owner, name: tokens[index].text, index: index, types: types, value: range, block: block))
        }
        return bindings
    }

    /// The view types named in `range` of `file`, in order, once each: by their names, or through the variables
    /// bound to them that the code there reads (``Bindings/lookup(_:of:at:isOwnMember:)``). A variable whose member
    /// is read (`present(x.picker)`) is not itself named, nor is an argument's label (`scene:`).
    static func mentions(
        in range: Range<Int>,
        of file: ScannedFile,
        names: ViewTypeNames,
        bindings: Bindings
    ) -> [String] {
        var found: [String] = []
        func add(_ name: String) { if !found.contains(name) { found.append(name) } }
        let tokens = file.tokens
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
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
            let isMember = index > 0 && tokens[index - 1].is(".")
            let isOwnMember = index > 1 && isMember && tokens[index - 2].isWord("self")
            if !isMember || isOwnMember, !isReadThrough(at: index, in: file),
                let binding = bindings.lookup(token.text, of: owner, at: index, isOwnMember: isOwnMember)
            {
                for name in bindings[binding].types { add(name) }
            }
            index += 1
        }
        return found
    }

    /// Whether the name at `index` is not read as a value of its own: a label (`scene: …`, an Objective-C
    /// selector's part), or a value whose property is read (`x.picker`, `x?.picker`; a method call on it,
    /// `x.embedded()`, still counts).
    private static func isReadThrough(at index: Int, in file: ScannedFile) -> Bool {
        let tokens = file.tokens
        guard index + 1 < tokens.count else { return false }
        if tokens[index + 1].is(":") { return !(index > 0 && tokens[index - 1].is("?")) }
        var dot = index + 1
        if tokens[dot].is("?") || tokens[dot].is("!") { dot += 1 }
        guard dot + 1 < tokens.count, tokens[dot].is("."), tokens[dot + 1].isIdentifier else { return false }
        return !(dot + 2 < tokens.count && tokens[dot + 2].is("("))
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

    /// The first `text` punctuation of `range` outside brackets.
    static func topLevelIndex(of text: String, in range: Range<Int>, of file: ScannedFile) -> Int? {
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            if file.closers[cursor] >= 0 {
                cursor = file.closers[cursor] + 1
                continue
            }
            if file.tokens[cursor].is(text) { return cursor }
            cursor += 1
        }
        return nil
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
