import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML (or XHTML) document read with Foundation's `XMLParser`: its elements in document order with their
/// attributes and text. Building one fails the test when the parser reports an error.
public struct XMLDocumentScan {
    /// One element.
    public struct Element {
        /// Its name.
        public var name: String
        /// Its attributes.
        public var attributes: [String: String]
        /// The text directly and indirectly inside it.
        public var text: String
    }

    /// Every element, in document order.
    public let elements: [Element]

    /// Parses `text`.
    public init(_ text: String) throws {
        let collector = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        let parsed = parser.parse()
        if let error = parser.parserError ?? collector.error {
            throw ParseFailure(description: "line \(parser.lineNumber): \(error)")
        }
        guard parsed else { throw ParseFailure(description: "XMLParser refused the document") }
        elements = collector.finished.sorted { $0.order < $1.order }.map(\.element)
    }

    /// The first element.
    public var root: Element? { elements.first }

    /// Every element with this name, in order.
    public func elements(named name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The text of the first element with this name.
    public func text(of name: String) -> String? { elements(named: name).first?.text }

    /// Why parsing failed.
    public struct ParseFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var open: [(order: Int, element: Element)] = []
        var finished: [(order: Int, element: Element)] = []
        var count = 0
        var error: Error?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append((count, Element(name: elementName, attributes: attributes, text: "")))
            count += 1
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            for index in open.indices { open[index].element.text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let last = open.popLast() else { return }
            finished.append(last)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
    }
}
