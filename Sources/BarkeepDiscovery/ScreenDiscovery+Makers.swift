/// A view controller that code outside every view type makes (a coordinator, router, factory, delegate, free
/// function): a screen that code shows, unless the app embeds it as a child.
struct Making {
    /// The controller made.
    var type: String
    /// The code making it: a type's name, or the file's name for code outside types.
    var maker: String
    /// The member whose code makes it (`makeSettings`, a stored property `settingsController`); nil in an
    /// initializer or at file level.
    var member: String?
    /// The maker's own name (its last component) when it makes the controller as it is made itself (in an
    /// initializer or a stored property's value): creating the maker makes the controller.
    var makerName: String?

    /// Whether `embedding` reaches the controller: by its name, through the member making it (`x.makeChart()`,
    /// `x.chartController`; a bare name only in the maker's own code), or through the maker it is made with.
    func isEmbedded(by embedding: Embedding) -> Bool {
        if embedding.names.contains(type) { return true }
        if let makerName, embedding.names.contains(makerName) { return true }
        guard let member else { return false }
        return embedding.members.contains(member) || embedding.owner == maker && embedding.names.contains(member)
    }
}

/// A controller embedded as a child of another (`addChild(x)`): the names its argument reaches.
struct Embedding {
    /// The code embedding it; nil at file level.
    var owner: String?
    /// The names in the argument and, through the variables of the same code it names, in their values (`let x =
    /// f.makeChart()` gives `x`, `f`, `makeChart`).
    var names: Set<String>
    /// Those of `names` that are members or calls (`makeChart` above).
    var members: Set<String>
}

extension Evidence {
    /// Turns the makings into reasons (`made by SceneCoordinator`), once every embedding is known. A making that
    /// an embedding reaches is no reason: the view type embedding the controller uses it. A making is no reason
    /// either when its maker gives the controller another one already (`pushed from C`).
    mutating func resolveMakings(names: ViewTypeNames) {
        // A controller a view type creates is that view's part wherever else it is made, unless it is shown.
        let createdByViews = Set(creations.values.joined())
        for making in makings where !createdByViews.contains(making.type) {
            let embedders = embeddings.filter(making.isEmbedded(by:))
            guard embedders.isEmpty else {
                for owner in embedders.compactMap(\.owner) where names.contains(owner) && owner != making.type {
                    creations[owner, default: []].insert(making.type)
                }
                continue
            }
            if reasons.contains(where: { $0.type == making.type && $0.source == making.maker }) { continue }
            reasons.append(
                Reason(type: making.type, text: "made by \(making.maker)", isOwn: false, source: making.maker))
        }
        makings = []
        embeddings = []
    }
}

extension ScreenDiscovery {
    /// UIKit members whose code embeds the controller it makes in a SwiftUI view
    /// (`UIViewControllerRepresentable`): not a making.
    static let representableMembers: Set<String> = ["makeUIViewController", "updateUIViewController"]

    /// Whether the code of `owner` is outside every view type, so that a controller it makes is shown by it: not a
    /// view type's code (nor an extension's), not an extension of a UIKit type or protocol (`UIViewController`,
    /// `UITableViewDelegate`: code running in views), not preview code.
    static func isMakerCode(_ owner: String?, names: ViewTypeNames) -> Bool {
        guard let owner else { return true }
        if owner == previewOwner || names.contains(owner) { return false }
        let scalars = Array(owner.unicodeScalars.prefix(3))
        let isUIKit =
            scalars.count == 3 && scalars[0] == "U" && scalars[1] == "I" && ("A"..."Z").contains(scalars[2])
        return !isUIKit
    }

    /// The view controller made at `index`, and the index after what names it: `X(…)`, `X { … }`, `X.init`,
    /// `[X alloc]`, `[X new]`, or, as the value assigned or returned (after `=` or `return`), what a class method of
    /// the controller returns: `X.instantiate(…)`, `[X controller]` (not `[X class]`).
    static func madeController(at index: Int, in file: ScannedFile, names: ViewTypeNames) -> (name: String, end: Int)? {
        let tokens = file.tokens
        guard let mention = names.mention(at: index, in: file, from: file.owners[index]),
            names.controllers.contains(mention.name)
        else { return nil }
        if ViewTypeNames.isInstantiation(at: index, end: mention.end, in: file) { return mention }
        let end = mention.end
        let isObjectiveCMessage = file.isObjectiveC && index > 0 && tokens[index - 1].is("[")
        let valueStart = isObjectiveCMessage ? index - 1 : index
        guard valueStart > 0, end + 1 < tokens.count else { return nil }
        let previous = tokens[valueStart - 1]
        // `=` but not the end of `==`, `!=`, `<=`, `>=`.
        let isAssigned =
            previous.is("=") && !(valueStart > 1 && ["=", "!", "<", ">"].contains(tokens[valueStart - 2].text))
        guard isAssigned || previous.isWord("return") else { return nil }
        if isObjectiveCMessage {
            return tokens[end].isIdentifier && !tokens[end].isWord("class") ? mention : nil
        }
        let isClassMethodCall =
            tokens[end].is(".") && tokens[end + 1].isIdentifier && end + 2 < tokens.count && tokens[end + 2].is("(")
        return isClassMethodCall ? mention : nil
    }

    /// The member of `owner` whose code holds `index`, outermost first: a `func`, `init` or `subscript` whose body
    /// holds it, or a `var` or `let` whose value or accessors do; and whether its code runs as the owner is made
    /// (an initializer, a stored property's value).
    static func enclosingMember(of index: Int, in file: ScannedFile) -> (name: String, isInitializer: Bool)? {
        let tokens = file.tokens
        let owner = file.owners[index]
        var found: (name: String, isInitializer: Bool)?
        var cursor = index - 1
        while cursor >= 0 && cursor > index - 50_000 {
            defer { cursor -= 1 }
            let token = tokens[cursor]
            guard token.isIdentifier, file.owners[cursor] == owner, cursor == 0 || !tokens[cursor - 1].is("."),
                ["func", "init", "subscript", "var", "let"].contains(token.text)
            else { continue }
            let isFunction = token.text != "var" && token.text != "let"
            var end = statementEnd(in: file, from: cursor + 1)
            if isFunction {
                guard let body = bodyBrace(after: cursor, in: file) else { continue }
                end = file.closers[body]
            } else {
                // `weak var delegate: D?` ends its line, though `?` may continue an expression.
                if let next = topLevelDeclaration(in: (cursor + 2)..<end, of: file) {
                    end = next
                } else if end < tokens.count, tokens[end].is("{") {
                    end = file.closers[end]
                }
            }
            guard end > index else { continue }
            let name =
                token.text == "func" || !isFunction
                ? (cursor + 1 < tokens.count ? tokens[cursor + 1].text : token.text) : token.text
            found = (name, token.text == "init" || !isFunction)
        }
        return found
    }

    /// Words that start a declaration, ending the property before them.
    private static let declarationWords: Set<String> = [
        "var", "let", "func", "init", "subscript", "class", "struct", "enum", "case", "extension", "protocol",
    ]

    /// The first declaration word of `range` outside brackets.
    static func topLevelDeclaration(in range: Range<Int>, of file: ScannedFile) -> Int? {
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            if file.closers[cursor] >= 0 {
                cursor = file.closers[cursor] + 1
                continue
            }
            if file.tokens[cursor].isIdentifier && declarationWords.contains(file.tokens[cursor].text) { return cursor }
            cursor += 1
        }
        return nil
    }

    /// The `{` opening the body of the function declared at `start`, past its parameters and result type.
    private static func bodyBrace(after start: Int, in file: ScannedFile) -> Int? {
        var cursor = start + 1
        while cursor < file.tokens.count && cursor < start + 400 {
            let token = file.tokens[cursor]
            if token.is("{") { return cursor }
            if token.is("}") || token.is(";") { return nil }
            cursor = token.is("(") || token.is("[") ? file.closers[cursor] + 1 : cursor + 1
        }
        return nil
    }

    /// Whether the identifier at `index` embeds a child controller: a call or Objective-C message part whose name
    /// holds `addChild` (`addChild(vc)`, `[self addChildViewController:vc]`, a helper `vc_addChildViewController`).
    static func isEmbedding(at index: Int, in file: ScannedFile) -> Bool {
        let tokens = file.tokens
        guard index + 1 < tokens.count, tokens[index + 1].is("(") || file.isObjectiveC && tokens[index + 1].is(":")
        else { return false }
        return tokens[index].text.contains("addChild")
    }

    /// The embedding of the controller named by `region`: the names it holds and, through the variables of the
    /// same code it reads (``Bindings/lookup(_:of:at:isOwnMember:)``), the names of their values, a few bindings
    /// deep.
    static func embedding(
        of region: Range<Int>, in file: ScannedFile, owner: String?, bindings: Bindings
    ) -> Embedding {
        var embedding = Embedding(owner: owner, names: [], members: [])
        var pending: [(range: Range<Int>, depth: Int)] = [(region, 0)]
        var expanded: Set<Int> = []
        while let (range, depth) = pending.popLast() {
            for index in range where file.tokens[index].isIdentifier {
                let word = file.tokens[index].text
                embedding.names.insert(word)
                let isMember = index > 0 && file.tokens[index - 1].is(".")
                let isCall = index + 1 < file.tokens.count && file.tokens[index + 1].is("(")
                if isMember || isCall { embedding.members.insert(word) }
                // Labels (`viewController: x`) and members of other values name no variable of this code.
                let isLabel = index + 1 < file.tokens.count && file.tokens[index + 1].is(":") && !file.isObjectiveC
                let isOwnMember = isMember && index > 1 && file.tokens[index - 2].isWord("self")
                guard depth < 4, !isLabel, !isMember || isOwnMember else { continue }
                guard
                    let binding = bindings.lookup(
                        word, of: file.owners[index], at: index, isOwnMember: isOwnMember),
                    let value = bindings[binding].value, expanded.insert(binding).inserted
                else { continue }
                pending.append((value, depth + 1))
            }
        }
        return embedding
    }

    /// Adds the controllers the call at `index` embeds: children (``isEmbedding(at:in:)``) and a context menu's
    /// preview (`UIContextMenuConfiguration(identifier:) { Preview() } actionProvider: …`, or `previewProvider:`;
    /// also a subclass named `…ContextMenuConfiguration`), which floats over the screen.
    private static func gatherEmbeddings(
        at index: Int, in file: ScannedFile, bindings: Bindings, into evidence: inout Evidence
    ) {
        let owner = file.owners[index]
        if isEmbedding(at: index, in: file), let region = firstArgument(after: index, in: file) {
            evidence.embeddings.append(embedding(of: region, in: file, owner: owner, bindings: bindings))
        }
        guard file.tokens[index + 1].is("("), file.tokens[index].text.hasSuffix("ContextMenuConfiguration") else {
            return
        }
        let call = callSyntax(in: file, at: index + 1)
        if let region = call.argument(labelled: "previewProvider", in: file)
            ?? call.closures.first(where: { $0.label == nil })?.body
        {
            evidence.embeddings.append(embedding(of: region, in: file, owner: owner, bindings: bindings))
        }
    }

    /// Adds what the token at `index` says of controllers made outside view types, and of embedded children and
    /// context menu previews.
    static func gatherMakings(
        at index: Int, in file: ScannedFile, names: ViewTypeNames, bindings: Bindings, into evidence: inout Evidence
    ) {
        let tokens = file.tokens
        let owner = file.owners[index]
        if index + 1 < tokens.count && (tokens[index + 1].is("(") || tokens[index + 1].is(":")) {
            gatherEmbeddings(at: index, in: file, bindings: bindings, into: &evidence)
        }
        // Most tokens name no controller: a cheap test first (a module prefix may come before the name).
        let isNamePart =
            names.controllerNameParts.contains(tokens[index].text)
            || index + 2 < tokens.count && tokens[index + 1].is(".")
                && names.controllerNameParts.contains(tokens[index + 2].text)
        guard isNamePart, isMakerCode(owner, names: names), let made = madeController(at: index, in: file, names: names)
        else { return }
        let member = enclosingMember(of: index, in: file)
        if let member, representableMembers.contains(member.name) { return }
        let fileName = String(file.path.split(separator: "/").last ?? "")
        let isMadeWithMaker = owner != nil && member?.isInitializer != false
        evidence.makings.append(
            Making(
                type: made.name, maker: owner ?? fileName, member: member?.name == "init" ? nil : member?.name,
                makerName: isMadeWithMaker ? owner?.split(separator: ".").last.map(String.init) : nil))
    }
}
