#ifndef COURIER_CJAVASCRIPTCORE_SHIM_H
#define COURIER_CJAVASCRIPTCORE_SHIM_H
// JavaScriptCore's C API (Debian's libjavascriptcoregtk-4.1), loaded on first use.
//
// The library is not linked: it brings in about fifty more shared libraries (GLib, GIO, ICU, ...) whose
// loading and relocation was most of the time every `courier` process took to start, scripts or not.
// The functions Courier calls are reached through `courier_*` wrappers over one table that dlopen/dlsym
// fill the first time a script runs (`courier_jsc_load`). The types are the API's own opaque handles,
// declared here as JSBase.h and JSObjectRef.h declare them, so that no other JavaScriptCore header (and
// no -dev package at run time) is needed.
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

typedef const struct OpaqueJSContextGroup *JSContextGroupRef;
typedef const struct OpaqueJSContext *JSContextRef;
typedef struct OpaqueJSContext *JSGlobalContextRef;
typedef struct OpaqueJSString *JSStringRef;
typedef struct OpaqueJSClass *JSClassRef;
typedef const struct OpaqueJSValue *JSValueRef;
typedef struct OpaqueJSValue *JSObjectRef;
typedef unsigned JSPropertyAttributes;
enum { kJSPropertyAttributeNone = 0, kJSPropertyAttributeReadOnly = 1 << 1,
       kJSPropertyAttributeDontEnum = 1 << 2, kJSPropertyAttributeDontDelete = 1 << 3 };
typedef JSValueRef (*JSObjectCallAsFunctionCallback)(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject,
                                                     size_t argumentCount, const JSValueRef arguments[],
                                                     JSValueRef *exception);

// The execution time limit lives in JSContextRefPrivate.h, which the package does not install; the
// library exports the symbol (checked with `nm -D`), so its upstream signature is declared here. Request
// scripts need it to stop a handler that never returns.
typedef bool (*CourierShouldTerminateCallback)(JSContextRef context, void *info);

// The shared object the -dev package's pkg-config file links against, by its runtime name.
#define COURIER_JSC_LIBRARY "libjavascriptcoregtk-4.1.so.0"
// Names another file to load instead (a build of JavaScriptCore outside the library path); a path that
// does not exist is how the tests see what a machine without the library does.
#define COURIER_JSC_LIBRARY_VARIABLE "COURIER_JAVASCRIPTCORE_LIBRARY"

/// The library that is (or was) loaded: $COURIER_JAVASCRIPTCORE_LIBRARY when set and not empty.
static inline const char *courier_jsc_library(void) {
    const char *chosen = getenv(COURIER_JSC_LIBRARY_VARIABLE);
    return chosen != NULL && chosen[0] != '\0' ? chosen : COURIER_JSC_LIBRARY;
}

struct courier_jsc_table {
    JSContextGroupRef (*JSContextGroupCreate)(void);
    void (*JSContextGroupRelease)(JSContextGroupRef group);
    void (*JSContextGroupSetExecutionTimeLimit)(JSContextGroupRef group, double limit, CourierShouldTerminateCallback callback, void *info);
    JSGlobalContextRef (*JSGlobalContextCreateInGroup)(JSContextGroupRef group, JSClassRef globalObjectClass);
    void (*JSGlobalContextRelease)(JSGlobalContextRef context);
    JSObjectRef (*JSContextGetGlobalObject)(JSContextRef context);
    JSValueRef (*JSEvaluateScript)(JSContextRef context, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber, JSValueRef *exception);
    JSValueRef (*JSObjectGetProperty)(JSContextRef context, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception);
    void (*JSObjectSetProperty)(JSContextRef context, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes, JSValueRef *exception);
    JSObjectRef (*JSObjectMakeFunctionWithCallback)(JSContextRef context, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction);
    JSStringRef (*JSStringCreateWithUTF8CString)(const char *string);
    size_t (*JSStringGetMaximumUTF8CStringSize)(JSStringRef string);
    size_t (*JSStringGetUTF8CString)(JSStringRef string, char *buffer, size_t bufferSize);
    void (*JSStringRelease)(JSStringRef string);
    bool (*JSValueIsNull)(JSContextRef context, JSValueRef value);
    bool (*JSValueIsNumber)(JSContextRef context, JSValueRef value);
    bool (*JSValueIsObject)(JSContextRef context, JSValueRef value);
    bool (*JSValueIsUndefined)(JSContextRef context, JSValueRef value);
    JSValueRef (*JSValueMakeNull)(JSContextRef context);
    JSValueRef (*JSValueMakeString)(JSContextRef context, JSStringRef string);
    double (*JSValueToNumber)(JSContextRef context, JSValueRef value, JSValueRef *exception);
    JSObjectRef (*JSValueToObject)(JSContextRef context, JSValueRef value, JSValueRef *exception);
    JSStringRef (*JSValueToStringCopy)(JSContextRef context, JSValueRef value, JSValueRef *exception);
    bool loaded;
};

// The table and its once-flag live in functions (Swift emits a header's functions, not its globals);
// CourierScript is the only module that imports this header, so there is one copy of each.
static inline struct courier_jsc_table *courier_jsc_table(void) {
    static struct courier_jsc_table table;
    return &table;
}

static inline pthread_once_t *courier_jsc_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static inline void courier_jsc_fill(void) {
    void *library = dlopen(courier_jsc_library(), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    struct courier_jsc_table *t = courier_jsc_table();
    bool complete = true;
    complete = complete && (*(void **)&t->JSContextGroupCreate = dlsym(library, "JSContextGroupCreate")) != NULL;
    complete = complete && (*(void **)&t->JSContextGroupRelease = dlsym(library, "JSContextGroupRelease")) != NULL;
    complete = complete && (*(void **)&t->JSContextGroupSetExecutionTimeLimit = dlsym(library, "JSContextGroupSetExecutionTimeLimit")) != NULL;
    complete = complete && (*(void **)&t->JSGlobalContextCreateInGroup = dlsym(library, "JSGlobalContextCreateInGroup")) != NULL;
    complete = complete && (*(void **)&t->JSGlobalContextRelease = dlsym(library, "JSGlobalContextRelease")) != NULL;
    complete = complete && (*(void **)&t->JSContextGetGlobalObject = dlsym(library, "JSContextGetGlobalObject")) != NULL;
    complete = complete && (*(void **)&t->JSEvaluateScript = dlsym(library, "JSEvaluateScript")) != NULL;
    complete = complete && (*(void **)&t->JSObjectGetProperty = dlsym(library, "JSObjectGetProperty")) != NULL;
    complete = complete && (*(void **)&t->JSObjectSetProperty = dlsym(library, "JSObjectSetProperty")) != NULL;
    complete = complete && (*(void **)&t->JSObjectMakeFunctionWithCallback = dlsym(library, "JSObjectMakeFunctionWithCallback")) != NULL;
    complete = complete && (*(void **)&t->JSStringCreateWithUTF8CString = dlsym(library, "JSStringCreateWithUTF8CString")) != NULL;
    complete = complete && (*(void **)&t->JSStringGetMaximumUTF8CStringSize = dlsym(library, "JSStringGetMaximumUTF8CStringSize")) != NULL;
    complete = complete && (*(void **)&t->JSStringGetUTF8CString = dlsym(library, "JSStringGetUTF8CString")) != NULL;
    complete = complete && (*(void **)&t->JSStringRelease = dlsym(library, "JSStringRelease")) != NULL;
    complete = complete && (*(void **)&t->JSValueIsNull = dlsym(library, "JSValueIsNull")) != NULL;
    complete = complete && (*(void **)&t->JSValueIsNumber = dlsym(library, "JSValueIsNumber")) != NULL;
    complete = complete && (*(void **)&t->JSValueIsObject = dlsym(library, "JSValueIsObject")) != NULL;
    complete = complete && (*(void **)&t->JSValueIsUndefined = dlsym(library, "JSValueIsUndefined")) != NULL;
    complete = complete && (*(void **)&t->JSValueMakeNull = dlsym(library, "JSValueMakeNull")) != NULL;
    complete = complete && (*(void **)&t->JSValueMakeString = dlsym(library, "JSValueMakeString")) != NULL;
    complete = complete && (*(void **)&t->JSValueToNumber = dlsym(library, "JSValueToNumber")) != NULL;
    complete = complete && (*(void **)&t->JSValueToObject = dlsym(library, "JSValueToObject")) != NULL;
    complete = complete && (*(void **)&t->JSValueToStringCopy = dlsym(library, "JSValueToStringCopy")) != NULL;
    t->loaded = complete;
}

/// Loads JavaScriptCore once; false when the library (or one of its functions) is missing.
static inline bool courier_jsc_load(void) {
    pthread_once(courier_jsc_once(), courier_jsc_fill);
    return courier_jsc_table()->loaded;
}

static inline JSContextGroupRef courier_JSContextGroupCreate(void) { return courier_jsc_table()->JSContextGroupCreate(); }
static inline void courier_JSContextGroupRelease(JSContextGroupRef group) { courier_jsc_table()->JSContextGroupRelease(group); }
static inline void courier_JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, CourierShouldTerminateCallback callback, void *info) { courier_jsc_table()->JSContextGroupSetExecutionTimeLimit(group, limit, callback, info); }
static inline JSGlobalContextRef courier_JSGlobalContextCreateInGroup(JSContextGroupRef group, JSClassRef globalObjectClass) { return courier_jsc_table()->JSGlobalContextCreateInGroup(group, globalObjectClass); }
static inline void courier_JSGlobalContextRelease(JSGlobalContextRef context) { courier_jsc_table()->JSGlobalContextRelease(context); }
static inline JSObjectRef courier_JSContextGetGlobalObject(JSContextRef context) { return courier_jsc_table()->JSContextGetGlobalObject(context); }
static inline JSValueRef courier_JSEvaluateScript(JSContextRef context, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber, JSValueRef *exception) { return courier_jsc_table()->JSEvaluateScript(context, script, thisObject, sourceURL, startingLineNumber, exception); }
static inline JSValueRef courier_JSObjectGetProperty(JSContextRef context, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception) { return courier_jsc_table()->JSObjectGetProperty(context, object, propertyName, exception); }
static inline void courier_JSObjectSetProperty(JSContextRef context, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes, JSValueRef *exception) { courier_jsc_table()->JSObjectSetProperty(context, object, propertyName, value, attributes, exception); }
static inline JSObjectRef courier_JSObjectMakeFunctionWithCallback(JSContextRef context, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction) { return courier_jsc_table()->JSObjectMakeFunctionWithCallback(context, name, callAsFunction); }
static inline JSStringRef courier_JSStringCreateWithUTF8CString(const char *string) { return courier_jsc_table()->JSStringCreateWithUTF8CString(string); }
static inline size_t courier_JSStringGetMaximumUTF8CStringSize(JSStringRef string) { return courier_jsc_table()->JSStringGetMaximumUTF8CStringSize(string); }
static inline size_t courier_JSStringGetUTF8CString(JSStringRef string, char *buffer, size_t bufferSize) { return courier_jsc_table()->JSStringGetUTF8CString(string, buffer, bufferSize); }
static inline void courier_JSStringRelease(JSStringRef string) { courier_jsc_table()->JSStringRelease(string); }
static inline bool courier_JSValueIsNull(JSContextRef context, JSValueRef value) { return courier_jsc_table()->JSValueIsNull(context, value); }
static inline bool courier_JSValueIsNumber(JSContextRef context, JSValueRef value) { return courier_jsc_table()->JSValueIsNumber(context, value); }
static inline bool courier_JSValueIsObject(JSContextRef context, JSValueRef value) { return courier_jsc_table()->JSValueIsObject(context, value); }
static inline bool courier_JSValueIsUndefined(JSContextRef context, JSValueRef value) { return courier_jsc_table()->JSValueIsUndefined(context, value); }
static inline JSValueRef courier_JSValueMakeNull(JSContextRef context) { return courier_jsc_table()->JSValueMakeNull(context); }
static inline JSValueRef courier_JSValueMakeString(JSContextRef context, JSStringRef string) { return courier_jsc_table()->JSValueMakeString(context, string); }
static inline double courier_JSValueToNumber(JSContextRef context, JSValueRef value, JSValueRef *exception) { return courier_jsc_table()->JSValueToNumber(context, value, exception); }
static inline JSObjectRef courier_JSValueToObject(JSContextRef context, JSValueRef value, JSValueRef *exception) { return courier_jsc_table()->JSValueToObject(context, value, exception); }
static inline JSStringRef courier_JSValueToStringCopy(JSContextRef context, JSValueRef value, JSValueRef *exception) { return courier_jsc_table()->JSValueToStringCopy(context, value, exception); }

#endif
