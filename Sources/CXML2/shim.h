#ifndef COURIER_CXML2_SHIM_H
#define COURIER_CXML2_SHIM_H
// libxml2's parser and XPath engine, for XPath over XML responses, loaded on first use.
//
// The library is not linked: it brings in ICU and liblzma, whose loading cost every `courier` process
// about 2 ms at start, XPath or not. As for JavaScriptCore (see CJavaScriptCore/shim.h), the functions are
// reached through one table of pointers that dlopen/dlsym fill the first time an XPath is evaluated
// (`courier_xml_fill`); the table lives in Swift (CourierCollections' XPathQuery), never in this header.
// The few types are declared here as libxml2's public headers declare them (their layout is part of the
// libxml2.so.2 ABI), so no -dev package is needed to build or run.
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

// The shared object Debian's libxml2 package installs, by its runtime name.
#define COURIER_XML_LIBRARY "libxml2.so.2"

typedef unsigned char xmlChar;
typedef struct courier_xml_doc *xmlDocPtr;
typedef struct courier_xml_node *xmlNodePtr;
typedef struct courier_xml_buffer *xmlBufferPtr;
typedef struct courier_xml_xpath_context *xmlXPathContextPtr;

// xmlNodeSet and xmlXPathObject, as xpath.h declares them.
typedef struct {
    int nodeNr;
    int nodeMax;
    xmlNodePtr *nodeTab;
} courier_xml_node_set;
typedef struct {
    int type;                       // 1 node set, 2 boolean, 3 number, 4 string
    courier_xml_node_set *nodesetval;
    int boolval;
    double floatval;
    xmlChar *stringval;
    void *user;
    int index;
    void *user2;
    int index2;
} courier_xml_xpath_object;

// xmlError, as xmlerror.h declares it; Courier reads the message and the line.
typedef struct {
    int domain;
    int code;
    char *message;
    int level;
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2;
    void *ctxt;
    void *node;
} courier_xml_error;

// The parse options Courier allows, named once (parser.h's values): no network access, no error printing,
// CDATA as text. Entity substitution (NOENT), DTD loading (DTDLOAD) and XML_PARSE_HUGE stay off, so
// libxml2's own limits on depth and text size stay on.
static inline int courier_xml_safe_options(void) {
    return (1 << 11) /* NONET */ | (1 << 5) /* NOERROR */ | (1 << 6) /* NOWARNING */ | (1 << 14) /* NOCDATA */;
}

typedef void (*courier_xml_generic_handler)(void *context, const char *message, ...);
typedef void (*courier_xml_structured_handler)(void *context, courier_xml_error *error);
typedef void *(*courier_xml_entity_loader)(const char *url, const char *identifier, void *context);

// The functions Courier calls.
struct courier_xml_table {
    void (* _Nonnull xmlInitParser)(void);
    void (* _Nonnull xmlSetExternalEntityLoader)(courier_xml_entity_loader loader);
    void (* _Nonnull xmlSetGenericErrorFunc)(void *context, courier_xml_generic_handler handler);
    void (* _Nonnull xmlSetStructuredErrorFunc)(void *context, courier_xml_structured_handler handler);
    void (* _Nonnull xmlResetLastError)(void);
    courier_xml_error *(* _Nonnull xmlGetLastError)(void);
    xmlDocPtr (* _Nonnull xmlReadMemory)(const char *buffer, int size, const char *url, const char *encoding, int options);
    void (* _Nonnull xmlFreeDoc)(xmlDocPtr document);
    xmlXPathContextPtr (* _Nonnull xmlXPathNewContext)(xmlDocPtr document);
    void (* _Nonnull xmlXPathFreeContext)(xmlXPathContextPtr context);
    courier_xml_xpath_object *(* _Nonnull xmlXPathEvalExpression)(const xmlChar *expression, xmlXPathContextPtr context);
    void (* _Nonnull xmlXPathFreeObject)(courier_xml_xpath_object *object);
    xmlNodePtr (* _Nonnull xmlFirstElementChild)(xmlNodePtr node);
    xmlChar *(* _Nonnull xmlNodeGetContent)(const xmlNodePtr node);
    xmlBufferPtr (* _Nonnull xmlBufferCreate)(void);
    void (* _Nonnull xmlBufferFree)(xmlBufferPtr buffer);
    int (* _Nonnull xmlNodeDump)(xmlBufferPtr buffer, xmlDocPtr document, xmlNodePtr node, int level, int format);
    const xmlChar *(* _Nonnull xmlBufferContent)(const xmlBufferPtr buffer);
    // libxml2's deallocator is a variable holding a function; this is its value once loaded.
    void (* _Nonnull xmlFree)(void *pointer);
};

// Handlers that drop libxml2's messages (it prints them to standard error otherwise); Courier reads the last
// error back and says it itself.
static inline void courier_xml_ignore_generic(void *context, const char *message, ...) {
    (void)context; (void)message;
}
static inline void courier_xml_ignore_structured(void *context, courier_xml_error *error) {
    (void)context; (void)error;
}
// An external entity loader that loads nothing: a response may name files or URLs, none is ever read.
static inline void *courier_xml_no_external(const char *url, const char *identifier, void *context) {
    (void)url; (void)identifier; (void)context;
    return NULL;
}

/// Loads libxml2 and fills `table`; false when the library or one of its functions is missing (the table
/// is then incomplete and must not be used). The caller calls it once, then `courier_xml_prepare`.
static inline bool courier_xml_fill(struct courier_xml_table *table) {
    void *library = dlopen(COURIER_XML_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    void *found;
    // Function pointers cannot be assigned from void * in ISO C, hence the store through a void * lvalue.
#define COURIER_XML_FIND(name) \
    if ((found = dlsym(library, #name)) == NULL) return false; \
    *(void **)&table->name = found;
    COURIER_XML_FIND(xmlInitParser) COURIER_XML_FIND(xmlSetExternalEntityLoader)
    COURIER_XML_FIND(xmlSetGenericErrorFunc) COURIER_XML_FIND(xmlSetStructuredErrorFunc)
    COURIER_XML_FIND(xmlResetLastError) COURIER_XML_FIND(xmlGetLastError)
    COURIER_XML_FIND(xmlReadMemory) COURIER_XML_FIND(xmlFreeDoc)
    COURIER_XML_FIND(xmlXPathNewContext) COURIER_XML_FIND(xmlXPathFreeContext)
    COURIER_XML_FIND(xmlXPathEvalExpression) COURIER_XML_FIND(xmlXPathFreeObject)
    COURIER_XML_FIND(xmlFirstElementChild) COURIER_XML_FIND(xmlNodeGetContent)
    COURIER_XML_FIND(xmlBufferCreate) COURIER_XML_FIND(xmlBufferFree)
    COURIER_XML_FIND(xmlNodeDump) COURIER_XML_FIND(xmlBufferContent)
#undef COURIER_XML_FIND
    // `xmlFree` is a variable holding the deallocator.
    void **deallocator = dlsym(library, "xmlFree");
    if (deallocator == NULL || *deallocator == NULL) return false;
    *(void **)&table->xmlFree = *deallocator;
    table->xmlInitParser();
    table->xmlSetExternalEntityLoader(courier_xml_no_external);
    return true;
}

/// Silences libxml2's printing on the calling thread (its handlers are per thread) and forgets its last error.
static inline void courier_xml_prepare(const struct courier_xml_table *table) {
    table->xmlSetGenericErrorFunc(NULL, courier_xml_ignore_generic);
    table->xmlSetStructuredErrorFunc(NULL, courier_xml_ignore_structured);
    table->xmlResetLastError();
}

// The node at `index` of an XPath result's node set, and how many there are.
static inline int courier_xpath_node_count(const courier_xml_xpath_object *object) {
    return object->nodesetval ? object->nodesetval->nodeNr : 0;
}
static inline xmlNodePtr courier_xpath_node(const courier_xml_xpath_object *object, int index) {
    return object->nodesetval->nodeTab[index];
}
#endif
