#ifndef COURIER_CJAVASCRIPTCORE_SHIM_H
#define COURIER_CJAVASCRIPTCORE_SHIM_H
// JavaScriptCore's C API (Debian's libjavascriptcoregtk-4.1), loaded on first use.
//
// The library is not linked: it brings in about fifty more shared libraries (GLib, GIO, ICU, ...) whose
// loading and relocation was most of the time every `courier` process took to start, scripts or not.
// The functions Courier calls are reached through one table of function pointers that dlopen/dlsym fill
// the first time a script runs (`courier_jsc_fill`). The table itself lives in Swift (CourierScript's
// JavaScriptContext), not here: a header's static storage is emitted once per object file that uses it,
// and a release build compiles a module into one object file per source file, so a table filled through
// one copy was read through another, empty one (the optimiser then treated every call as unreachable).
// The types are the API's own opaque handles, declared here as JSBase.h and JSObjectRef.h declare
// them, so that no other JavaScriptCore header (and no -dev package at run time) is needed.
#include <dlfcn.h>
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
typedef struct OpaqueJSScript *JSScriptRef;
typedef unsigned JSPropertyAttributes;
enum { kJSPropertyAttributeNone = 0, kJSPropertyAttributeReadOnly = 1 << 1,
       kJSPropertyAttributeDontEnum = 1 << 2, kJSPropertyAttributeDontDelete = 1 << 3 };
typedef JSValueRef (*JSObjectCallAsFunctionCallback)(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject,
                                                     size_t argumentCount, const JSValueRef arguments[],
                                                     JSValueRef *exception);

// The execution time limit lives in JSContextRefPrivate.h and the API lock in JSLockRefPrivate.h, which the
// package does not install; the library exports their symbols (checked with `nm -D`), so their upstream
// signatures are declared here. Request scripts need them to stop a handler that never returns: the time
// limit's callback is where a script is stopped, and holding the lock keeps JavaScriptCore from running
// promise jobs, which it does whenever the lock is let go, where the time limit cannot stop them.
typedef bool (*CourierShouldTerminateCallback)(JSContextRef context, void *info);
// A script parsed once for a group (JSScriptRefPrivate.h, also not installed; exported likewise): evaluated in
// each fresh context of that group without its text being copied and hashed again for the code cache.

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

// The functions Courier calls. A returned handle marked _Nonnull is one the API always makes.
struct courier_jsc_table {
    JSContextGroupRef _Nonnull (* _Nonnull JSContextGroupCreate)(void);
    void (* _Nonnull JSContextGroupRelease)(JSContextGroupRef group);
    void (* _Nonnull JSContextGroupSetExecutionTimeLimit)(JSContextGroupRef group, double limit, CourierShouldTerminateCallback callback, void *info);
    void (* _Nonnull JSContextGroupClearExecutionTimeLimit)(JSContextGroupRef group);
    void (* _Nonnull JSLock)(JSContextRef context);
    void (* _Nonnull JSUnlock)(JSContextRef context);
    // From the library's GObject API (jsc/JSCOptions.h): options must be set before the first virtual machine.
    int (* _Nonnull jsc_options_set_boolean)(const char *option, int value);
    JSGlobalContextRef _Nonnull (* _Nonnull JSGlobalContextCreateInGroup)(JSContextGroupRef group, JSClassRef globalObjectClass);
    void (* _Nonnull JSGlobalContextRelease)(JSGlobalContextRef context);
    JSObjectRef _Nonnull (* _Nonnull JSContextGetGlobalObject)(JSContextRef context);
    JSValueRef (* _Nonnull JSEvaluateScript)(JSContextRef context, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber, JSValueRef *exception);
    JSScriptRef (* _Nonnull JSScriptCreateFromString)(JSContextGroupRef group, JSStringRef url, int startingLineNumber, JSStringRef source, JSStringRef *errorMessage, int *errorLine);
    JSValueRef (* _Nonnull JSScriptEvaluate)(JSContextRef context, JSScriptRef script, JSValueRef thisValue, JSValueRef *exception);
    void (* _Nonnull JSScriptRelease)(JSScriptRef script);
    JSValueRef (* _Nonnull JSObjectGetProperty)(JSContextRef context, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception);
    void (* _Nonnull JSObjectSetProperty)(JSContextRef context, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes, JSValueRef *exception);
    JSObjectRef _Nonnull (* _Nonnull JSObjectMakeFunctionWithCallback)(JSContextRef context, JSStringRef name, JSObjectCallAsFunctionCallback callAsFunction);
    JSStringRef _Nonnull (* _Nonnull JSStringCreateWithUTF8CString)(const char *string);
    size_t (* _Nonnull JSStringGetMaximumUTF8CStringSize)(JSStringRef string);
    size_t (* _Nonnull JSStringGetUTF8CString)(JSStringRef string, char *buffer, size_t bufferSize);
    void (* _Nonnull JSStringRelease)(JSStringRef string);
    bool (* _Nonnull JSValueIsNull)(JSContextRef context, JSValueRef value);
    bool (* _Nonnull JSValueIsNumber)(JSContextRef context, JSValueRef value);
    bool (* _Nonnull JSValueIsObject)(JSContextRef context, JSValueRef value);
    bool (* _Nonnull JSValueIsUndefined)(JSContextRef context, JSValueRef value);
    JSValueRef _Nonnull (* _Nonnull JSValueMakeNull)(JSContextRef context);
    JSValueRef _Nonnull (* _Nonnull JSValueMakeString)(JSContextRef context, JSStringRef string);
    double (* _Nonnull JSValueToNumber)(JSContextRef context, JSValueRef value, JSValueRef *exception);
    JSObjectRef (* _Nonnull JSValueToObject)(JSContextRef context, JSValueRef value, JSValueRef *exception);
    JSStringRef (* _Nonnull JSValueToStringCopy)(JSContextRef context, JSValueRef value, JSValueRef *exception);
};

/// Loads JavaScriptCore and fills `table` with its functions; false when the library or one of the
/// functions is missing (the table is then incomplete and must not be used). The caller calls it once.
static inline bool courier_jsc_fill(struct courier_jsc_table *table) {
    void *library = dlopen(courier_jsc_library(), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return false;
    void *found;
    // Function pointers cannot be assigned from void * in ISO C, hence the store through a void * lvalue.
#define COURIER_JSC_FIND(name) \
    if ((found = dlsym(library, #name)) == NULL) return false; \
    *(void **)&table->name = found;
    COURIER_JSC_FIND(JSContextGroupCreate) COURIER_JSC_FIND(JSContextGroupRelease)
    COURIER_JSC_FIND(JSContextGroupSetExecutionTimeLimit) COURIER_JSC_FIND(JSContextGroupClearExecutionTimeLimit)
    COURIER_JSC_FIND(JSLock) COURIER_JSC_FIND(JSUnlock) COURIER_JSC_FIND(jsc_options_set_boolean)
    COURIER_JSC_FIND(JSGlobalContextCreateInGroup)
    COURIER_JSC_FIND(JSGlobalContextRelease) COURIER_JSC_FIND(JSContextGetGlobalObject)
    COURIER_JSC_FIND(JSEvaluateScript) COURIER_JSC_FIND(JSObjectGetProperty)
    COURIER_JSC_FIND(JSScriptCreateFromString) COURIER_JSC_FIND(JSScriptEvaluate) COURIER_JSC_FIND(JSScriptRelease)
    COURIER_JSC_FIND(JSObjectSetProperty) COURIER_JSC_FIND(JSObjectMakeFunctionWithCallback)
    COURIER_JSC_FIND(JSStringCreateWithUTF8CString) COURIER_JSC_FIND(JSStringGetMaximumUTF8CStringSize)
    COURIER_JSC_FIND(JSStringGetUTF8CString) COURIER_JSC_FIND(JSStringRelease)
    COURIER_JSC_FIND(JSValueIsNull) COURIER_JSC_FIND(JSValueIsNumber)
    COURIER_JSC_FIND(JSValueIsObject) COURIER_JSC_FIND(JSValueIsUndefined)
    COURIER_JSC_FIND(JSValueMakeNull) COURIER_JSC_FIND(JSValueMakeString)
    COURIER_JSC_FIND(JSValueToNumber) COURIER_JSC_FIND(JSValueToObject)
    COURIER_JSC_FIND(JSValueToStringCopy)
#undef COURIER_JSC_FIND
    return true;
}

#endif
