import CXML2
import Foundation

/// An XPath 1.0 expression over an XML response body, answered by libxml2: the REST Client's
/// `{{login.response.body.//token}}` and httpyac's `?? xpath //token == …`.
///
/// A response is untrusted input, so the document is parsed with no network access, no entity substitution
/// and no DTD loading, libxml2's size and depth limits on, an external-entity loader that loads nothing, and
/// a document declaring entities (`<!ENTITY`, the way to a "billion laughs" blow-up or to files on this
/// machine) is refused before it is parsed.
struct XPathQuery: Sendable {
    /// Why an expression gave no value; `message` does not repeat the expression, callers name it.
    struct Failure: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Documents larger than this are refused rather than built into a tree (several times their size).
    static let maximumDocumentSize = 32 << 20

    let expression: String

    init(_ expression: String) { self.expression = expression }

    /// Whether a body looks like XML: an XML media type, or text starting with `<`.
    static func isXML(_ body: Data, contentType: String?) -> Bool {
        if let contentType = contentType?.lowercased(), contentType.contains("xml") { return true }
        let first = body.prefix(64).first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "<")
    }

    /// The value the expression selects in `body`: a number, string or boolean result as text; one node's
    /// text (an element holding other elements as its markup). No node, or several, is a failure.
    func evaluate(_ body: Data) -> Result<String, Failure> {
        guard let xml = Self.library else {
            return .failure(Failure("XPath needs libxml2 (\(COURIER_XML_LIBRARY)), which is not installed here; "
                                    + "install Debian's libxml2 package"))
        }
        guard body.count <= Self.maximumDocumentSize else {
            return .failure(Failure("the XML response is over \(Self.maximumDocumentSize >> 20) MB"))
        }
        guard body.range(of: Data("<!ENTITY".utf8)) == nil else {
            return .failure(Failure("the XML response declares entities (<!ENTITY>), which Courier does not expand"))
        }
        withUnsafePointer(to: xml) { courier_xml_prepare($0) }
        let document = body.withUnsafeBytes { raw in
            xml.xmlReadMemory(raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), "response.xml",
                              nil, courier_xml_safe_options())
        }
        guard let document else {
            return .failure(Failure("the response is not well-formed XML" + Self.lastError(xml)))
        }
        defer { xml.xmlFreeDoc(document) }
        guard let context = xml.xmlXPathNewContext(document) else { return .failure(Failure("out of memory")) }
        defer { xml.xmlXPathFreeContext(context) }
        guard let object = Self.evaluate(expression, in: context, xml) else {
            return .failure(Failure("not a valid XPath expression" + Self.lastError(xml)))
        }
        defer { xml.xmlXPathFreeObject(object) }
        switch object.pointee.type {
        case 1: return single(object, document: document, context: context, xml)
        case 2: return .success(object.pointee.boolval != 0 ? "true" : "false")
        case 3: return .success(Self.number(object.pointee.floatval))
        case 4: return .success(object.pointee.stringval.map { String(cString: $0) } ?? "")
        default: return .failure(Failure("the expression's result is not a node, string, number or boolean"))
        }
    }

    private func single(_ object: UnsafeMutablePointer<courier_xml_xpath_object>, document: xmlDocPtr,
                        context: xmlXPathContextPtr, _ xml: courier_xml_table) -> Result<String, Failure> {
        let count = courier_xpath_node_count(object)
        guard count > 0 else {
            var message = "the XML response has nothing there"
            if let namespace = Self.evaluate("namespace-uri(/*)", in: context, xml) {
                defer { xml.xmlXPathFreeObject(namespace) }
                if let uri = namespace.pointee.stringval, uri.pointee != 0 {
                    message += " (its elements are in a namespace: match them by name with //*[local-name()='…'])"
                }
            }
            return .failure(Failure(message))
        }
        guard count == 1 else {
            return .failure(Failure("it selects \(count) nodes; select one, as in (\(expression))[1]"))
        }
        guard let node = courier_xpath_node(object, 0) else { return .success("") }
        if xml.xmlFirstElementChild(node) != nil {
            // An element holding elements is passed on as its markup, so a request can send the subtree.
            guard let buffer = xml.xmlBufferCreate() else { return .failure(Failure("out of memory")) }
            defer { xml.xmlBufferFree(buffer) }
            _ = xml.xmlNodeDump(buffer, document, node, 0, 0)
            return .success(xml.xmlBufferContent(buffer).map { String(cString: $0) } ?? "")
        }
        guard let content = xml.xmlNodeGetContent(node) else { return .success("") }
        defer { xml.xmlFree(content) }
        return .success(String(cString: content))
    }

    private static func evaluate(_ expression: String, in context: xmlXPathContextPtr,
                                 _ xml: courier_xml_table) -> UnsafeMutablePointer<courier_xml_xpath_object>? {
        Array(expression.utf8CString).withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: xmlChar.self) { xml.xmlXPathEvalExpression($0.baseAddress, context) }
        }
    }

    /// XPath numbers are doubles; whole ones print without a fraction, as JSON numbers do.
    private static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// libxml2's last message on this thread, as `: message (line N)`.
    private static func lastError(_ xml: courier_xml_table) -> String {
        guard let error = xml.xmlGetLastError(), let message = error.pointee.message else { return "" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        let line = error.pointee.line > 0 ? " (line \(error.pointee.line))" : ""
        return text.isEmpty ? "" : ": \(text)\(line)"
    }

    /// libxml2's functions, loaded the first time an XPath is evaluated (`dispatch_once`-like, thread-safe);
    /// nil when the library or one of its functions is missing. This is the one table the process uses.
    private static let library: courier_xml_table? = {
        let table = UnsafeMutablePointer<courier_xml_table>.allocate(capacity: 1)
        defer { table.deallocate() }
        return courier_xml_fill(table) ? table.pointee : nil
    }()
}
