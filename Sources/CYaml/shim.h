#ifndef COURIER_CYAML_SHIM_H
#define COURIER_CYAML_SHIM_H
// libyaml's document API with typed accessors for the node union, which Swift reads awkwardly.
#include <yaml.h>

// Kinds: 1 scalar, 2 sequence, 3 mapping, 0 none.
static inline int courier_yaml_node_kind(yaml_node_t *node) {
    switch (node->type) {
    case YAML_SCALAR_NODE: return 1;
    case YAML_SEQUENCE_NODE: return 2;
    case YAML_MAPPING_NODE: return 3;
    default: return 0;
    }
}
static inline const char *courier_yaml_scalar(yaml_node_t *node, size_t *length, int *plain) {
    *length = node->data.scalar.length;
    *plain = node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    return (const char *)node->data.scalar.value;
}
static inline int courier_yaml_sequence_count(yaml_node_t *node) {
    return (int)(node->data.sequence.items.top - node->data.sequence.items.start);
}
static inline int courier_yaml_sequence_item(yaml_node_t *node, int index) {
    return node->data.sequence.items.start[index];
}
static inline int courier_yaml_mapping_count(yaml_node_t *node) {
    return (int)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
}
static inline void courier_yaml_mapping_pair(yaml_node_t *node, int index, int *key, int *value) {
    *key = node->data.mapping.pairs.start[index].key;
    *value = node->data.mapping.pairs.start[index].value;
}
static inline size_t courier_yaml_problem_line(yaml_parser_t *parser) { return parser->problem_mark.line + 1; }
static inline const char *courier_yaml_problem(yaml_parser_t *parser) {
    return parser->problem ? parser->problem : "malformed YAML";
}
#endif
