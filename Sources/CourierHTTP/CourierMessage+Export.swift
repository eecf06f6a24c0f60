// CourierHTTP's API speaks the one header list and response head (`HTTPRequest.headers`, `onHead`), so a module
// that imports the client core sees them without importing their leaf module too.
@_exported import CourierMessage
