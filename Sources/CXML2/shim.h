#ifndef COURIER_CXML2_SHIM_H
#define COURIER_CXML2_SHIM_H
// libxml2's parser and XPath engine, for XPath over XML responses. The parse options Courier allows are
// named here once, so no caller can turn on entity substitution, DTD loading or the network.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding header then pulls in the system's ICU headers, which
// clash with the copy Foundation carries. Courier never touches the converter fields those guard (it only
// holds pointers to encoding handlers), so the headers are read without them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

// No network access, no error printing to stderr (errors are read back), no entity substitution, no DTD
// loading, no XML_PARSE_HUGE (libxml2's own limits on depth and text size stay on).
static inline int courier_xml_safe_options(void) {
    return XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
}

// The XPath object's kind, for Swift: 1 node set, 2 boolean, 3 number, 4 string, 0 other.
static inline int courier_xpath_kind(xmlXPathObjectPtr object) {
    switch (object->type) {
    case XPATH_NODESET: return 1;
    case XPATH_BOOLEAN: return 2;
    case XPATH_NUMBER: return 3;
    case XPATH_STRING: return 4;
    default: return 0;
    }
}
static inline int courier_xpath_node_count(xmlXPathObjectPtr object) {
    return object->nodesetval ? object->nodesetval->nodeNr : 0;
}
static inline xmlNodePtr courier_xpath_node(xmlXPathObjectPtr object, int index) {
    return object->nodesetval->nodeTab[index];
}
// Whether the node is an element with an element among its children (shown as markup, not text).
static inline int courier_xml_has_element_children(xmlNodePtr node) {
    if (node->type != XML_ELEMENT_NODE) return 0;
    for (xmlNodePtr child = node->children; child; child = child->next) {
        if (child->type == XML_ELEMENT_NODE) return 1;
    }
    return 0;
}
// libxml2's deallocator is a global function pointer, which Swift 6 cannot read safely.
static inline void courier_xml_free(void *pointer) { xmlFree(pointer); }

// libxml2 prints parse and XPath errors to standard error unless told otherwise; Courier reads them back
// (xmlGetLastError) and says them itself. The handlers are per thread, so this is called before each use.
static inline void courier_xml_ignore_generic(void *context, const char *message, ...) {
    (void)context; (void)message;
}
static inline void courier_xml_ignore_structured(void *context, xmlErrorPtr error) {
    (void)context; (void)error;
}
static inline void courier_xml_silence(void) {
    xmlSetGenericErrorFunc(NULL, courier_xml_ignore_generic);
    xmlSetStructuredErrorFunc(NULL, courier_xml_ignore_structured);
}

// An external entity loader that loads nothing: a response may name files or URLs, none is ever read.
static inline xmlParserInputPtr courier_xml_no_external(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url; (void)id; (void)context;
    return NULL;
}
static inline void courier_xml_refuse_external_entities(void) {
    xmlSetExternalEntityLoader(courier_xml_no_external);
}
#endif
