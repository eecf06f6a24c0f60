// libyaml through a table of pointers filled on first use: see library.h for why.
#include "library.h"

#include <courier_library_loader.h>
#include <dlfcn.h>
#include <pthread.h>

static struct {
    int (*parser_initialize)(yaml_parser_t *parser);
    void (*parser_delete)(yaml_parser_t *parser);
    void (*parser_set_input_string)(yaml_parser_t *parser, const unsigned char *input, size_t size);
    int (*parser_scan)(yaml_parser_t *parser, yaml_token_t *token);
    int (*parser_load)(yaml_parser_t *parser, yaml_document_t *document);
    void (*token_delete)(yaml_token_t *token);
    void (*document_delete)(yaml_document_t *document);
    yaml_node_t *(*document_get_node)(yaml_document_t *document, int index);
    yaml_node_t *(*document_get_root_node)(yaml_document_t *document);
} courier_yaml;

static pthread_once_t courier_yaml_once = PTHREAD_ONCE_INIT;
static bool courier_yaml_loaded;

static void courier_yaml_open(void) {
    struct courier_library_symbol symbols[] = {
        {"yaml_parser_initialize", (void **)&courier_yaml.parser_initialize},
        {"yaml_parser_delete", (void **)&courier_yaml.parser_delete},
        {"yaml_parser_set_input_string", (void **)&courier_yaml.parser_set_input_string},
        {"yaml_parser_scan", (void **)&courier_yaml.parser_scan},
        {"yaml_parser_load", (void **)&courier_yaml.parser_load},
        {"yaml_token_delete", (void **)&courier_yaml.token_delete},
        {"yaml_document_delete", (void **)&courier_yaml.document_delete},
        {"yaml_document_get_node", (void **)&courier_yaml.document_get_node},
        {"yaml_document_get_root_node", (void **)&courier_yaml.document_get_root_node},
    };
    courier_yaml_loaded = courier_library_load(COURIER_YAML_LIBRARY, RTLD_LAZY | RTLD_LOCAL, symbols,
                                               sizeof symbols / sizeof symbols[0], NULL, NULL, 0);
}

bool courier_yaml_load(void) {
    pthread_once(&courier_yaml_once, courier_yaml_open);
    return courier_yaml_loaded;
}

// libyaml's own names, as yaml.h declares them. A parser exists only once initialize succeeded, which needs
// the library, so the calls that take one find the table filled.
int yaml_parser_initialize(yaml_parser_t *parser) {
    return courier_yaml_load() ? courier_yaml.parser_initialize(parser) : 0;
}
void yaml_parser_delete(yaml_parser_t *parser) {
    if (courier_yaml_load()) courier_yaml.parser_delete(parser);
}
void yaml_parser_set_input_string(yaml_parser_t *parser, const unsigned char *input, size_t size) {
    courier_yaml.parser_set_input_string(parser, input, size);
}
int yaml_parser_scan(yaml_parser_t *parser, yaml_token_t *token) {
    return courier_yaml.parser_scan(parser, token);
}
int yaml_parser_load(yaml_parser_t *parser, yaml_document_t *document) {
    return courier_yaml.parser_load(parser, document);
}
void yaml_token_delete(yaml_token_t *token) {
    if (courier_yaml_load()) courier_yaml.token_delete(token);
}
void yaml_document_delete(yaml_document_t *document) {
    if (courier_yaml_load()) courier_yaml.document_delete(document);
}
yaml_node_t *yaml_document_get_node(yaml_document_t *document, int index) {
    return courier_yaml.document_get_node(document, index);
}
yaml_node_t *yaml_document_get_root_node(yaml_document_t *document) {
    return courier_yaml.document_get_root_node(document);
}
