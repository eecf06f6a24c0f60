#ifndef COURIER_CJAVASCRIPTCORE_SHIM_H
#define COURIER_CJAVASCRIPTCORE_SHIM_H
// JavaScriptCore's C API, as Debian's libjavascriptcoregtk-4.1-dev ships it.
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

// The execution time limit lives in JSContextRefPrivate.h, which the package does not install; the
// library exports both symbols (checked with `nm -D`), so they are declared here with the upstream
// signatures. Request scripts need them to stop a handler that never returns.
typedef bool (*CourierShouldTerminateCallback)(JSContextRef context, void *info);
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                         CourierShouldTerminateCallback callback, void *info);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

#endif
