#ifndef COURIER_CYAML_LIBRARY_H
#define COURIER_CYAML_LIBRARY_H
// libyaml, loaded with dlopen the first time a YAML description is read, not linked.
//
// Only importing an OpenAPI description written in YAML reads YAML; linked, libyaml was mapped and bound by
// every `courier` process before `main`, a one-shot send's included. The libyaml functions Courier calls keep
// their names: library.c defines each as a call through a table of pointers it fills from libyaml-0.so.2 on
// first use, so YAMLDocument reads as it would with the library linked.
#include <yaml.h>
#include <stdbool.h>

// The shared object Debian's libyaml-0-2 package installs, by its runtime name.
#define COURIER_YAML_LIBRARY "libyaml-0.so.2"

// Loads libyaml once (later calls return the first answer); false when the library or one of its functions
// is missing. Until it returned true, yaml_parser_initialize fails and the delete functions do nothing.
bool courier_yaml_load(void);

#endif
