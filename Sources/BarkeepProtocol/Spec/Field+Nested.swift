extension Field {
    /// `field`, a field of a group of fields (`Inner`, such as the filter keys of every command that selects
    /// findings), as a field of a type that holds the group at `path`: one declaration of the group, reused by every
    /// request that takes it.
    public init<Inner>(_ field: Field<Inner>, in path: WritableKeyPath<Root, Inner> & Sendable) {
        key = field.key
        jsonName = field.jsonName
        summary = field.summary
        placement =
            switch field.placement {
            case .positional: .positional
            case .key: .key
            case .repeatedKey: .repeatedKey
            }
        isRequired = field.isRequired
        names = field.names
        versions = field.versions
        schema = field.schema
        read = { root, text throws(ValueProblem) in try field.read(&root[keyPath: path], text) }
        write = { root in field.write(root[keyPath: path]) }
        writeEach = { root in field.writeEach(root[keyPath: path]) }
        readJSON = { root, json throws(ValueProblem) in try field.readJSON(&root[keyPath: path], json) }
        writeJSON = { root in field.writeJSON(root[keyPath: path]) }
        setExample = { root in field.setExample(&root[keyPath: path]) }
    }
}
