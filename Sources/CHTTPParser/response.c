// The callbacks of courier_wire_response: see response.h.
#include "response.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct courier_wire_response *owner(http_parser *parser) {
    return (struct courier_wire_response *)parser;
}

// Hands the gathered value of a kept field to Swift.
static void flush_value(struct courier_wire_response *response) {
    if (response->kind != COURIER_WIRE_OTHER && response->header) {
        response->header(response->userp, response->kind, response->value ? response->value : "",
                         response->value_length);
    }
    response->kind = COURIER_WIRE_OTHER;
    response->value_length = 0;
}

// Forgets the message under way: its status, body count and the header field being read.
static void begin_message(struct courier_wire_response *response) {
    response->status = 0;
    response->body = 0;
    response->field_length = 0;
    response->reading_value = 0;
    response->kind = COURIER_WIRE_OTHER;
    response->value_length = 0;
}

static int on_message_begin(http_parser *parser) {
    begin_message(owner(parser));
    return 0;
}

static int on_header_field(http_parser *parser, const char *at, size_t length) {
    struct courier_wire_response *response = owner(parser);
    if (response->reading_value) {
        flush_value(response);
        response->reading_value = 0;
        response->field_length = 0;
    }
    // Only names up to the longest kept one ("set-cookie") matter; a longer one is none of them.
    size_t room = sizeof response->field - response->field_length;
    size_t take = length < room ? length : room;
    memcpy(response->field + response->field_length, at, take);
    response->field_length += take;
    return 0;
}

static int kind_of(const struct courier_wire_response *response) {
    size_t length = response->field_length;
    if (length == 10 && response->wants_cookies && strncasecmp(response->field, "set-cookie", 10) == 0) {
        return COURIER_WIRE_SET_COOKIE;
    }
    if (length == 8 && strncasecmp(response->field, "location", 8) == 0) return COURIER_WIRE_LOCATION;
    return COURIER_WIRE_OTHER;
}

static int on_header_value(http_parser *parser, const char *at, size_t length) {
    struct courier_wire_response *response = owner(parser);
    if (!response->reading_value) {
        response->reading_value = 1;
        response->kind = kind_of(response);
        response->value_length = 0;
    }
    if (response->kind == COURIER_WIRE_OTHER) return 0;
    if (response->value_length + length > response->value_capacity) {
        size_t capacity = (response->value_length + length) * 2 + 64;
        char *grown = realloc(response->value, capacity);
        if (!grown) return 1;
        response->value = grown;
        response->value_capacity = capacity;
    }
    memcpy(response->value + response->value_length, at, length);
    response->value_length += length;
    return 0;
}

static int on_headers_complete(http_parser *parser) {
    struct courier_wire_response *response = owner(parser);
    if (response->reading_value) flush_value(response);
    response->reading_value = 0;
    response->field_length = 0;
    response->status = (int)parser->status_code;
    // A response to HEAD has no body whatever its Content-Length or Transfer-Encoding say.
    return response->head_only ? 1 : 0;
}

static int on_body(http_parser *parser, const char *at, size_t length) {
    (void)at;
    struct courier_wire_response *response = owner(parser);
    response->body += (long long)length;
    if (response->body > response->limit) {
        response->exceeded = 1;
        return 1;
    }
    return 0;
}

static int on_message_complete(http_parser *parser) {
    struct courier_wire_response *response = owner(parser);
    int status = (int)parser->status_code;
    // An interim response (100 Continue, 103 Early Hints) is skipped: the final one follows on the same bytes.
    if (status >= 100 && status < 200 && status != 101) return 0;
    response->keep_alive = courier_http_parser.should_keep_alive(parser);
    response->complete = 1;
    // Stops at the end of this response: nothing is sent before the next request.
    courier_http_parser.pause(parser, 1);
    return 0;
}

static http_parser_settings courier_wire_settings = {
    .on_message_begin = on_message_begin,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

void courier_wire_response_init(struct courier_wire_response *response) {
    courier_http_parser.init(&response->parser, HTTP_RESPONSE);
    begin_message(response);
    response->complete = 0;
    response->keep_alive = 0;
    response->exceeded = 0;
}

void courier_wire_response_next(struct courier_wire_response *response) {
    courier_http_parser.pause(&response->parser, 0);
    response->status = 0;
    response->complete = 0;
    response->keep_alive = 0;
    response->body = 0;
    response->exceeded = 0;
}

enum http_errno courier_wire_response_feed(struct courier_wire_response *response, const char *data, size_t length) {
    courier_http_parser.execute(&response->parser, &courier_wire_settings, data, length);
    return HTTP_PARSER_ERRNO(&response->parser);
}

const char *courier_wire_response_error(enum http_errno error) {
    return courier_http_parser.errno_description(error);
}

int courier_wire_response_upgraded(const struct courier_wire_response *response) {
    return response->parser.upgrade || (response->complete && response->status == 101);
}

void courier_wire_response_free(struct courier_wire_response *response) {
    free(response->value);
    response->value = NULL;
    response->value_capacity = 0;
    response->value_length = 0;
}
