/// What a project knows about one SDK symbol an item needs.
public struct SymbolFacts: Sendable, Equatable {
    /// The symbol, as the symbol table writes it.
    public var symbol: String
    /// The first SDK that declares it: the project's own record (the team's word, or its SDK check's
    /// availability) before the symbol table. nil when no SDK declares it, or nobody knows which.
    public var introduced: SDKVersion?
    /// What the team's SDK check found for the project's current SDK: whether that SDK declares the symbol. nil
    /// when no check of that SDK mentioned it. A check outranks the table: it looked at the real SDK.
    public var foundByCheck: Bool?

    /// Facts about one symbol.
    public init(symbol: String, introduced: SDKVersion?, foundByCheck: Bool? = nil) {
        self.symbol = symbol
        self.introduced = introduced
        self.foundByCheck = foundByCheck
    }

    /// Whether the project's SDK declares the symbol.
    public func isAvailable(in sdk: SDKVersion) -> Bool {
        if let foundByCheck { return foundByCheck }
        guard let introduced else { return false }
        return introduced <= sdk
    }
}

/// Where an item stands with the project's SDK.
public enum SDKVerdict: Sendable, Equatable {
    /// Every symbol it needs is in the project's SDK. `gate` is the iOS version of the newest of them when it is
    /// above the deployment target: the code must be wrapped in `if #available(iOS gate, *)`.
    case available(gate: SDKVersion?)
    /// Some symbol is missing from the project's SDK; `reason` says which and what SDK would bring it
    /// (`needs the iOS 27.1 SDK (axisBehavior)`), `missing` lists them.
    case blocked(reason: String, missing: [SymbolFacts])

    /// Whether the item is blocked.
    public var isBlocked: Bool {
        if case .blocked = self { return true }
        return false
    }

    /// The availability gate, for an available item that needs one.
    public var gate: SDKVersion? {
        if case .available(let gate) = self { return gate }
        return nil
    }
}

/// Decides whether an item's SDK symbols are available, and which need an availability gate. Pure: the store
/// gathers the facts, this decides, so the rule is in one place.
public enum SDKAvailability {
    /// The verdict for an item needing `needs`, in a project building with `sdk` for `deploymentTarget`.
    public static func verdict(
        needs: [SymbolFacts],
        sdk: SDKVersion,
        deploymentTarget: SDKVersion
    ) -> SDKVerdict {
        let missing = needs.filter { !$0.isAvailable(in: sdk) }
        guard missing.isEmpty else { return .blocked(reason: reason(missing: missing, sdk: sdk), missing: missing) }
        let newest = needs.compactMap(\.introduced).max()
        guard let newest, newest > deploymentTarget else { return .available(gate: nil) }
        return .available(gate: newest)
    }

    /// `needs the iOS 27.1 SDK (axisBehavior, toolbarVerticalEdge)`, one clause per SDK, newest first; symbols no
    /// SDK declares and symbols the team's SDK check did not find have their own clauses.
    static func reason(missing: [SymbolFacts], sdk: SDKVersion) -> String {
        var bySDK: [SDKVersion: [String]] = [:]
        var undeclared: [String] = []
        var notFound: [String] = []
        for facts in missing {
            if facts.foundByCheck == false, facts.introduced.map({ $0 <= sdk }) ?? true {
                notFound.append(facts.symbol)
            } else if let introduced = facts.introduced {
                bySDK[introduced, default: []].append(facts.symbol)
            } else {
                undeclared.append(facts.symbol)
            }
        }
        var clauses = bySDK.keys.sorted(by: >).map { version in
            "needs the iOS \(version) SDK (\(bySDK[version, default: []].sorted().joined(separator: ", ")))"
        }
        if !undeclared.isEmpty {
            clauses.append("needs a symbol no iOS SDK declares (\(undeclared.sorted().joined(separator: ", ")))")
        }
        if !notFound.isEmpty {
            clauses.append(
                "the SDK check did not find \(notFound.sorted().joined(separator: ", ")) in the iOS \(sdk) SDK")
        }
        return clauses.joined(separator: "; ")
    }
}
