import BarkeepCore

/// What an app's code says about its view types: why some are screens, and which view types each one creates.
struct Evidence {
    /// One reason a view type is a screen.
    struct Reason {
        /// The view type it makes a screen.
        var type: String
        /// The reason's words: `toolbar`, `sheet from SettingsView`.
        var text: String
        /// Whether the type's own code says it (a bar it declares), rather than code that shows it.
        var isOwn: Bool
        /// The code hosting a `TabView` when the reason comes from that tab view: dropped when the same code gives
        /// it a page style (a pager is not a tab bar).
        var tabViewOwner: String?
        /// The code showing the type (`C` of `pushed from C`); nil for its own reasons and hosting.
        var source: String?
    }

    /// The reasons, in the order the code gives them.
    var reasons: [Reason] = []
    /// The view types each view type's code creates.
    var creations: [String: Set<String>] = [:]
    /// The code that gives a `TabView` a page style (`.tabViewStyle(.page)`).
    var pagedTabViewOwners: Set<String> = []
    /// The controllers whose own code presents them over the presenting screen (`modalPresentationStyle =
    /// .overFullScreen` or `.overCurrentContext`): overlays such as a spinner, screens only with bars of their own.
    var overlays: Set<String> = []
    /// The views each view-building member returns at its top, by the member's name: `var destination: some View
    /// { switch self { case .a: AView() … } }` gives `destination: [AView]`.
    var memberViews: [String: [(owner: String, views: [String])]] = [:]
    /// Members named in presented content (`NavigationLink(destination: item.destination)`), with the reason
    /// they give the views those members return; `owner` is the type whose member a bare name (`content`,
    /// `self.content`) is, nil for a member of another value (`item.destination`), of any type.
    var presentedMembers: [(member: String, owner: String?, reason: String, tabViewOwner: String?)] = []
    /// The view controllers code outside every view type makes, until ``resolveMakings(names:)`` weighs them.
    var makings: [Making] = []
    /// The controllers embedded as children, until ``resolveMakings(names:)`` weighs the makings against them.
    var embeddings: [Embedding] = []
    /// The SwiftUI view each project `UIHostingController` subclass hosts (`class C: UIHostingController<V>`), by
    /// the controller: when the controller is a screen, the view is its content.
    var hosts: [String: String] = [:]
    /// What each type's code names (view types by their qualified names, other types of the project by their
    /// top-level ones), by the type (a type nested in one that is not a view type counts as that one): the
    /// paths from screens to the UIKit views they use (``ScreenDiscovery/referenceUses(_:viewTypes:uiKitViews:)``).
    var references: [String: Set<String>] = [:]

    /// The reasons the presented members give, once every member's views are known.
    mutating func resolvePresentedMembers() {
        for presented in presentedMembers {
            let members = (memberViews[presented.member] ?? []).filter {
                presented.owner == nil || $0.owner == presented.owner
            }
            for type in members.flatMap(\.views) {
                reasons.append(
                    Reason(type: type, text: presented.reason, isOwn: false, tabViewOwner: presented.tabViewOwner))
            }
        }
        presentedMembers = []
    }
}

extension ScreenDiscovery {
    /// Modifiers that give a SwiftUI view bar content of its own: each is its own reason.
    static let barModifiers: Set<String> = [
        "toolbar", "navigationTitle", "navigationBarTitle", "navigationBarItems", "navigationBarTitleDisplayMode",
        "navigationBarBackButtonHidden", "navigationBarHidden", "toolbarBackground", "toolbarRole", "toolbarTitleMenu",
        "searchable",
    ]

    /// SwiftUI containers whose hosting makes a view a screen (`hosts NavigationStack`).
    static let barContainers: Set<String> = ["NavigationStack", "NavigationView", "NavigationSplitView", "TabView"]

    /// Containers a presented view may be wrapped in: the views directly inside them are presented too.
    private static let transparentContainers: Set<String> = ["NavigationStack", "NavigationView", "Group", "Tab"]

    /// UIKit calls that show a view controller, with the reason's verb: Swift `pushViewController(vc, …)`,
    /// Objective-C `pushViewController:vc`.
    private static let showingCalls: [String: String] = [
        "pushViewController": "pushed", "present": "presented", "presentViewController": "presented",
        "show": "shown", "showViewController": "shown", "showDetailViewController": "shown",
    ]

    /// Adds what the code of `file` says to `evidence`.
    static func gatherEvidence(in file: ScannedFile, names: ViewTypeNames, into evidence: inout Evidence) {
        let tokens = file.tokens
        let bindings = bindings(in: file, names: names)
        let fileName = String(file.path.split(separator: "/").last ?? "")
        // The end of the presented content (or tabs) seen last: the bars and containers in
        // `.sheet { NavigationStack { … } }` are the presented view's, not the presenting one's.
        var presentedUntil = 0
        for index in tokens.indices where tokens[index].isIdentifier {
            let owner = file.owners[index]
            guard owner != previewOwner else { continue }
            let word = tokens[index].text
            let isMember = index > 0 && tokens[index - 1].is(".")
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            let isCall = next?.is("(") == true || next?.is("{") == true
            let from = owner ?? fileName

            func incoming(_ types: [String], _ reason: String, tabViewOwner: String? = nil) {
                for type in types where type != owner {
                    evidence.reasons.append(
                        Evidence.Reason(
                            type: type, text: reason, isOwn: false, tabViewOwner: tabViewOwner, source: from))
                }
            }
            // SwiftUI content: the views created in it, and those the members it names return.
            func presents(_ region: Range<Int>?, _ reason: String, tabViewOwner: String? = nil) {
                incoming(children(in: region, of: file, names: names), reason, tabViewOwner: tabViewOwner)
                for member in memberNames(in: region, of: file, names: names) {
                    evidence.presentedMembers.append(
                        (member.name, member.isOfOtherValue ? nil : owner, reason, tabViewOwner))
                }
            }

            gatherMakings(at: index, in: file, names: names, bindings: bindings, into: &evidence)
            if let owner, !isMember {
                gatherReference(at: index, in: file, owner: owner, names: names, into: &evidence)
            }
            if let owner, let member = viewBuildingMember(at: index, in: file) {
                evidence.memberViews[member.name, default: []].append(
                    (owner, children(in: member.body, of: file, names: names)))
            }

            if let owner, names.contains(owner) {
                if !isMember, let mention = names.mention(at: index, in: file, from: owner), mention.name != owner,
                    ViewTypeNames.isInstantiation(at: index, end: mention.end, in: file)
                {
                    evidence.creations[owner, default: []].insert(mention.name)
                }
                if index >= presentedUntil,
                    let reason = ownReason(
                        at: index, in: file, isMember: isMember, isCall: isCall,
                        isController: names.controllers.contains(owner))
                {
                    evidence.reasons.append(
                        Evidence.Reason(
                            type: owner, text: reason, isOwn: true, tabViewOwner: word == "TabView" ? owner : nil))
                }
            }
            if word == "modalPresentationStyle", let owner, names.controllers.contains(owner),
                !isMember || index > 1 && tokens[index - 2].isWord("self"), index + 3 < tokens.count,
                tokens[index + 1].is("="), tokens[index + 2].is("."),
                tokens[index + 3].isWord("overFullScreen") || tokens[index + 3].isWord("overCurrentContext")
            {
                evidence.overlays.insert(owner)
            }
            if isMember && word == "tabViewStyle", let owner, isPageStyle(after: index + 1, in: file) {
                evidence.pagedTabViewOwners.insert(owner)
            }

            // SwiftUI: what a view presents, pushes or hosts.
            if isMember, ["sheet", "fullScreenCover", "popover", "navigationDestination"].contains(word) {
                let call = callSyntax(in: file, at: index + 1)
                let label = word == "navigationDestination" ? "destination" : "content"
                let region = call.argument(labelled: label, in: file) ?? call.closures.first?.body
                presentedUntil = max(presentedUntil, region?.upperBound ?? 0)
                presents(region, "\(word) from \(from)")
            } else if !isMember && word == "NavigationLink" {
                let call = callSyntax(in: file, at: index + 1)
                var region = call.argument(labelled: "destination", in: file)
                if region == nil && call.argument(labelled: "value", in: file) == nil {
                    region = call.closures.first { $0.label == nil }?.body
                }
                presentedUntil = max(presentedUntil, region?.upperBound ?? 0)
                presents(region, "NavigationLink from \(from)")
            } else if !isMember && isCall,
                ["TabView", "NavigationStack", "NavigationView", "WindowGroup"].contains(word)
            {
                let call = callSyntax(in: file, at: index + 1)
                let region = call.argument(labelled: "content", in: file) ?? call.closures.first?.body
                if word == "TabView" || word == "WindowGroup" {
                    // A tab's bars are the tab's, not those of the view hosting the tab view.
                    presentedUntil = max(presentedUntil, region?.upperBound ?? 0)
                }
                switch word {
                case "TabView": presents(region, "tab of \(from)", tabViewOwner: owner ?? fileName)
                case "WindowGroup": presents(region, "scene root of \(from)")
                default: presents(region, "\(word) root in \(from)")
                }
            } else if !isMember && isCall && word == "NavigationSplitView" {
                let call = callSyntax(in: file, at: index + 1)
                for closure in call.closures {
                    presents(closure.body, "NavigationSplitView column in \(from)")
                }
            }

            // UIKit: what a controller pushes, presents or makes a root.
            let isSettingControllers = word == "setViewControllers" || word == "viewControllers"
            let tabOrRoot =
                isSettingControllers && isTabBarCode(before: index, in: file, owner: owner, names: names)
                ? "tab of" : "root of"
            if let verb = showingCalls[word] ?? (word == "setViewControllers" ? tabOrRoot : nil),
                let region = firstArgument(after: index, in: file)
            {
                let types = mentions(in: region, of: file, names: names, bindings: bindings)
                incoming(types, verb.hasSuffix("of") ? "\(verb) \(from)" : "\(verb) from \(from)")
            } else if !isMember && word == "UINavigationController" && next?.is("(") == true {
                if let region = callSyntax(in: file, at: index + 1).argument(labelled: "rootViewController", in: file) {
                    let types = mentions(in: region, of: file, names: names, bindings: bindings)
                    incoming(types, "navigation root in \(from)")
                }
            } else if word == "initWithRootViewController", let region = firstArgument(after: index, in: file) {
                incoming(mentions(in: region, of: file, names: names, bindings: bindings), "navigation root in \(from)")
            } else if word == "rootViewController" || word == "viewControllers", next?.is("=") == true,
                index + 2 < tokens.count, !tokens[index + 2].is("=")
            {
                let region = (index + 2)..<statementEnd(in: file, from: index + 2)
                let reason = word == "rootViewController" ? "rootViewController in \(from)" : "\(tabOrRoot) \(from)"
                incoming(mentions(in: region, of: file, names: names, bindings: bindings), reason)
            }
        }
    }

    /// Adds what the name at `index`, in `owner`'s code, refers to: a view type however named (`StatusCell.self`,
    /// `as? StatusCell`, `let cell: StatusCell`, `StatusCell()`) or another type of the project (`InboxViewModel`,
    /// `StatusSection`).
    private static func gatherReference(
        at index: Int, in file: ScannedFile, owner: String, names: ViewTypeNames, into evidence: inout Evidence
    ) {
        let word = file.tokens[index].text
        let from = referenceNode(owner, names: names)
        if names.nameParts.contains(word), let mention = names.mention(at: index, in: file, from: owner),
            mention.name != from
        {
            evidence.references[from, default: []].insert(mention.name)
        } else if names.projectTypes.contains(word), word != from, !names.contains(word) {
            evidence.references[from, default: []].insert(word)
        }
    }

    /// The node of the reference graph the code of `owner` is: a view type itself, else its outermost type.
    static func referenceNode(_ owner: String, names: ViewTypeNames) -> String {
        if names.contains(owner) { return owner }
        return owner.split(separator: ".").first.map(String.init) ?? owner
    }

    /// Adds what a file says outside its tokens' names: the types its declarations inherit or conform to
    /// (`extension Inbox: DataSourceProvider`), and the view types its one-word string literals name (a nib's
    /// name, `UINib(nibName: "StatusCell", …)`).
    static func gatherFileReferences(in file: ScannedFile, names: ViewTypeNames, into evidence: inout Evidence) {
        for (type, inherited) in file.inheritances {
            let from = referenceNode(type, names: names)
            for name in inherited {
                let last = name.split(separator: ".").last.map(String.init) ?? name
                if names.projectTypes.contains(last) && last != from && !names.contains(last) {
                    evidence.references[from, default: []].insert(last)
                }
            }
        }
        for word in file.words where word.index > 0 && names.contains(word.text) {
            guard let owner = file.owners[word.index - 1], owner != previewOwner else { continue }
            let from = referenceNode(owner, names: names)
            if from != word.text { evidence.references[from, default: []].insert(word.text) }
        }
    }

    /// The reason the token at `index` gives its own type, if any: a bar modifier, a toolbar item, a navigation or
    /// tab container it hosts, UIKit navigation or toolbar items, a title it sets.
    private static func ownReason(
        at index: Int, in file: ScannedFile, isMember: Bool, isCall: Bool, isController: Bool
    ) -> String? {
        let tokens = file.tokens
        let word = tokens[index].text
        if isMember && isCall && barModifiers.contains(word) { return word }
        if !isMember && isCall && (word == "ToolbarItem" || word == "ToolbarItemGroup") { return "toolbar" }
        if !isMember && isCall && barContainers.contains(word) { return "hosts \(word)" }
        if word == "navigationItem" || word == "tabBarItem" { return word }
        if word == "toolbarItems" || word == "setToolbarItems" { return "toolbarItems" }
        let previous = index > 0 ? tokens[index - 1] : nil
        let isOwnMember = isMember && index > 1 && tokens[index - 2].isWord("self")
        // `title = …` or `self.title = …` in a controller; `[self setTitle:…]` in Objective-C. A SwiftUI view's
        // `self.title = title` only stores what it was given.
        guard isController else { return nil }
        if word == "title", index + 2 < tokens.count, tokens[index + 1].is("="), !tokens[index + 2].is("="),
            !isMember || isOwnMember, previous?.isWord("let") != true, previous?.isWord("var") != true
        {
            return "title"
        }
        if word == "setTitle", previous?.isWord("self") == true, index + 1 < tokens.count, tokens[index + 1].is(":") {
            return "title"
        }
        return nil
    }

    /// Whether `.tabViewStyle(` at `start` gives a page style: `.page`, `PageTabViewStyle()`.
    private static func isPageStyle(after start: Int, in file: ScannedFile) -> Bool {
        guard start < file.tokens.count, file.tokens[start].is("(") else { return false }
        let end = min(file.closers[start], file.tokens.count)
        return file.tokens[start..<end].contains { $0.isWord("page") || $0.isWord("PageTabViewStyle") }
    }

    /// Whether the view controllers set at `index` are tabs: the code is a tab bar controller's, or what they are
    /// set on is named like one (`tabBarController.viewControllers`, `tabs.setViewControllers`).
    private static func isTabBarCode(before index: Int, in file: ScannedFile, owner: String?, names: ViewTypeNames)
        -> Bool
    {
        if let owner, names.tabBarControllers.contains(owner) { return true }
        var receiver = index - 1
        while receiver > 0, file.tokens[receiver].is(".") || file.tokens[receiver].is("?") {
            receiver -= 1
            if file.tokens[receiver].isIdentifier { return file.tokens[receiver].text.lowercased().contains("tab") }
        }
        return false
    }

    // MARK: - Call syntax

    /// A call's argument list and trailing closures.
    struct CallSyntax {
        /// Inside the parentheses.
        var arguments: Range<Int>?
        /// The trailing closures' insides, labelled but the first.
        var closures: [(label: String?, body: Range<Int>)] = []

        /// The value of the argument `label:`; the inside of a closure given as the value (`content: { … }`).
        func argument(labelled label: String, in file: ScannedFile) -> Range<Int>? {
            guard let arguments,
                let segment = ScreenDiscovery.argumentSegments(arguments, in: file).first(where: { segment in
                    segment.count > 2 && file.tokens[segment.lowerBound].isWord(label)
                        && file.tokens[segment.lowerBound + 1].is(":")
                })
            else { return nil }
            let value = (segment.lowerBound + 2)..<segment.upperBound
            if file.tokens[value.lowerBound].is("{") && file.closers[value.lowerBound] == value.upperBound - 1 {
                return (value.lowerBound + 1)..<(value.upperBound - 1)
            }
            return value
        }
    }

    /// The call syntax starting at `start`, right after the called name: `<…>`, `( … )`, `{ … } label: { … }`.
    static func callSyntax(in file: ScannedFile, at start: Int) -> CallSyntax {
        let tokens = file.tokens
        var call = CallSyntax()
        var index = start
        if index < tokens.count, tokens[index].is("<"), let end = skipAngles(tokens[...], from: index) { index = end }
        if index < tokens.count, tokens[index].is("(") {
            call.arguments = (index + 1)..<min(file.closers[index], tokens.count)
            index = file.closers[index] + 1
        }
        guard index < tokens.count, tokens[index].is("{") else { return call }
        call.closures.append((nil, (index + 1)..<min(file.closers[index], tokens.count)))
        index = file.closers[index] + 1
        while index + 2 < tokens.count, tokens[index].isIdentifier, tokens[index + 1].is(":"), tokens[index + 2].is("{")
        {
            let close = file.closers[index + 2]
            call.closures.append((tokens[index].text, (index + 3)..<min(close, tokens.count)))
            index = close + 1
        }
        return call
    }

    /// The arguments of a list, split at its top-level commas.
    static func argumentSegments(_ arguments: Range<Int>, in file: ScannedFile) -> [Range<Int>] {
        var segments: [Range<Int>] = []
        var start = arguments.lowerBound
        var index = start
        while index < arguments.upperBound {
            if file.closers[index] >= 0 {
                index = file.closers[index] + 1
                continue
            }
            if file.tokens[index].is(",") {
                segments.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        if start < arguments.upperBound { segments.append(start..<arguments.upperBound) }
        return segments
    }

    /// The first argument of the call or message part named at `index`: Swift `name(argument, …)`, Objective-C
    /// `name:argument other:…]`.
    static func firstArgument(after index: Int, in file: ScannedFile) -> Range<Int>? {
        let tokens = file.tokens
        guard index + 1 < tokens.count else { return nil }
        if tokens[index + 1].is("(") {
            let arguments = (index + 2)..<min(file.closers[index + 1], tokens.count)
            return argumentSegments(arguments, in: file).first
        }
        guard file.isObjectiveC, tokens[index + 1].is(":") else { return nil }
        var end = index + 2
        while end < tokens.count {
            if file.closers[end] >= 0 {
                end = file.closers[end] + 1
                continue
            }
            let token = tokens[end]
            if token.is("]") || token.is(")") || token.is("}") || token.is(";") { break }
            if end > index + 2, token.isIdentifier, end + 1 < tokens.count, tokens[end + 1].is(":") { break }
            end += 1
        }
        return (index + 2)..<min(end, tokens.count)
    }

    // MARK: - Presented views

    /// The views a SwiftUI content closure or argument presents: the view types created at its top, also inside
    /// `if`/`else`/`switch` and the containers a view is wrapped in (`NavigationStack { X() }`), not those inside
    /// other views (`VStack { Row() }`) or their arguments and labels.
    static func children(
        in region: Range<Int>?,
        of file: ScannedFile,
        names: ViewTypeNames,
        depth: Int = 0
    ) -> [String] {
        guard let region, depth < 32 else { return [] }
        let tokens = file.tokens
        var found: [String] = []
        var isTransparentPending = false
        var index = region.lowerBound
        while index < region.upperBound {
            let token = tokens[index]
            if file.closers[index] >= 0 {
                let close = min(file.closers[index], region.upperBound)
                if token.is("{") {
                    if isTransparentPending {
                        found += children(in: (index + 1)..<close, of: file, names: names, depth: depth + 1)
                    }
                    isTransparentPending = false
                }
                index = close + 1
                continue
            }
            let isMember = index > 0 && tokens[index - 1].is(".")
            if token.isIdentifier && !isMember {
                let isDirective = index > 0 && tokens[index - 1].is("#")
                if (["if", "else", "switch"].contains(token.text) && !isDirective)
                    || transparentContainers.contains(token.text)
                {
                    isTransparentPending = true
                } else if isStatementStart(index, in: region, of: file),
                    let mention = names.mention(at: index, in: file, from: file.owners[index]),
                    ViewTypeNames.isInstantiation(at: index, end: mention.end, in: file)
                {
                    if !found.contains(mention.name) { found.append(mention.name) }
                    index = mention.end
                    continue
                }
            }
            index += 1
        }
        return found
    }

    /// A member returning views declared at `index`: `var name: some View {`, `var name: AnyView {`, `func
    /// name(…) -> some View {` (also `SwiftUI.View`), with the inside of its body; never `body`, every view's own.
    static func viewBuildingMember(at index: Int, in file: ScannedFile) -> (name: String, body: Range<Int>)? {
        let tokens = file.tokens
        guard tokens[index].isWord("var") || tokens[index].isWord("func"), index + 1 < tokens.count,
            tokens[index + 1].isIdentifier, !tokens[index + 1].isWord("body")
        else { return nil }
        var cursor = index + 2
        var returnsViews = false
        while cursor < tokens.count && cursor < index + 200 {
            let token = tokens[cursor]
            if token.is("(") {
                cursor = file.closers[cursor] + 1
                continue
            }
            if token.is("{") {
                guard returnsViews else { return nil }
                return (tokens[index + 1].text, (cursor + 1)..<min(file.closers[cursor], tokens.count))
            }
            if token.is("}") || token.is("=") || token.is(";") || token.isWord("var") || token.isWord("func")
                || token.isWord("let")
            {
                return nil
            }
            if token.isWord("AnyView") || token.isWord("View") && tokens[cursor - 1].isWord("some")
                || token.isWord("View") && tokens[cursor - 1].is(".") && tokens[cursor - 2].isWord("SwiftUI")
                    && tokens[cursor - 3].isWord("some")
            {
                returnsViews = true
            }
            cursor += 1
        }
        return nil
    }

    /// The names `region` mentions outside nested brackets and that are not view types: the members presented
    /// content may return its views through (`item.destination`, `destination(for: item)`), and whether each is
    /// a member of another value (`item.destination`, not `self.destination`).
    static func memberNames(in region: Range<Int>?, of file: ScannedFile, names: ViewTypeNames)
        -> [(name: String, isOfOtherValue: Bool)]
    {
        guard let region else { return [] }
        var found: [(name: String, isOfOtherValue: Bool)] = []
        var index = region.lowerBound
        while index < region.upperBound {
            let token = file.tokens[index]
            if file.closers[index] >= 0 {
                index = file.closers[index] + 1
                continue
            }
            if token.isIdentifier, !names.contains(token.text), !found.contains(where: { $0.name == token.text }) {
                let isMember = index > 0 && file.tokens[index - 1].is(".")
                let isOfOtherValue = isMember && !(index > 1 && file.tokens[index - 2].isWord("self"))
                found.append((token.text, isOfOtherValue))
            }
            index += 1
        }
        return found
    }

    /// Whether the token at `index` starts a statement or expression of `region`.
    private static func isStatementStart(_ index: Int, in region: Range<Int>, of file: ScannedFile) -> Bool {
        guard index > region.lowerBound else { return true }
        let previous = file.tokens[index - 1]
        if previous.isIdentifier { return ["in", "return", "else"].contains(previous.text) }
        if ["{", "}", ";", ":"].contains(previous.text) { return true }
        return file.tokens[index].line > previous.line && ![".", ",", "(", "[", "=", "?"].contains(previous.text)
    }
}
