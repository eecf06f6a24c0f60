#ifndef COURIER_CHTTPPARSER_RESPONSE_H
#define COURIER_CHTTPPARSER_RESPONSE_H
// What `courier load`'s own wire loop reads of each response (Swift's WireResponse): the status, the body counted
// and dropped, whether the connection stays open, and the two header fields that change what happens next
// (Set-Cookie for the jar, Location for a redirect) handed to `header` whole. Interim 1xx responses are skipped.
#include "library.h"

enum courier_wire_header { COURIER_WIRE_OTHER = 0, COURIER_WIRE_SET_COOKIE = 1, COURIER_WIRE_LOCATION = 2 };

typedef void (*courier_wire_header_cb)(void *userp, int kind, const char *value, size_t length);

struct courier_wire_response {
    http_parser parser;           // first: the callbacks find the rest from the parser's address
    int status;                   // of the final response; 0 until its head is complete
    int complete;                 // the final response is complete (the parser is paused there)
    int keep_alive;               // the connection may carry the next request (set with `complete`)
    int head_only;                // the request was HEAD: no body, whatever the head says
    long long body;               // body bytes as they came (chunk framing not counted)
    long long limit;              // more body bytes than this stop the parser (`exceeded`)
    int exceeded;
    int wants_cookies;            // Set-Cookie values go to `header` only when a jar keeps them
    courier_wire_header_cb header;
    void *userp;
    // The header field being read, and the value of a kept one being gathered.
    char field[12];
    size_t field_length;
    int reading_value;
    int kind;
    char *value;
    size_t value_length;
    size_t value_capacity;
};

// Ready for the first response on a new connection.
void courier_wire_response_init(struct courier_wire_response *response);
// Ready for the next response on the same connection (unpauses the parser).
void courier_wire_response_next(struct courier_wire_response *response);
// Parses `length` bytes; 0 (with `length` 0) tells it the connection ended. Returns the parser's error
// (HPE_OK, or HPE_PAUSED once the final response is complete).
enum http_errno courier_wire_response_feed(struct courier_wire_response *response, const char *data, size_t length);
// The parser's description of its error.
const char *courier_wire_response_error(enum http_errno error);
// Whether the server switched protocols (101, or an Upgrade the parser stopped at).
int courier_wire_response_upgraded(const struct courier_wire_response *response);
// Frees what the gathering of header values allocated.
void courier_wire_response_free(struct courier_wire_response *response);

#endif
