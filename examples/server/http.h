/* http.h - the server's HTTP handler and what it serves. */
#ifndef TTT_SERVER_HTTP_H
#define TTT_SERVER_HTTP_H

#include <microhttpd.h>
#include <stddef.h>

#include "games.h"

/* A file of the browser client, read once at start: the only files served. */
struct static_file {
    const char *name;
    const char *type;
    char *data;
    size_t len;
};

struct server {
    struct manager *mgr;
    size_t max_body;
    struct static_file statics[3];
    size_t static_count;
};

enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url,
                            const char *method, const char *version,
                            const char *upload_data, size_t *upload_size, void **con_cls);
void http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                    enum MHD_RequestTerminationCode why);

#endif
