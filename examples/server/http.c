/* http.c - the HTTP side over libmicrohttpd: one route table, capped bodies, JSON replies and event streams. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "accounts.h"
#include "http.h"
#include "lobby.h"
#include "rated.h"

/* A request in progress: its body, read up to the cap. */
struct request {
    char *body;
    size_t len;
    int too_large;
    struct game_entry *entry; /* the game it holds, released when it completes */
};

static enum MHD_Result send_text(struct MHD_Connection *conn, int http, char *text,
                                 size_t len, const char *type)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (http == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer");
    enum MHD_Result rc = MHD_queue_response(conn, (unsigned)http, resp);
    MHD_destroy_response(resp);
    return rc;
}

char *reply_line(struct reply r, size_t *len)
{
    char *text = r.text ? r.text : r.body ? json_dumps(r.body, JSON_COMPACT) : NULL;
    json_decref(r.body);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    /* One more byte for a newline, so a reply reads well in a terminal. */
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    *len = n + 1;
    return line;
}

json_t *reply_json(struct reply r)
{
    if (!r.text)
        return r.body;
    json_t *v = json_loads(r.text, 0, NULL);
    free(r.text);
    json_decref(r.body);
    return v;
}

enum MHD_Result send_reply(struct MHD_Connection *conn, struct reply r)
{
    size_t len;
    char *line = reply_line(r, &len);
    return line ? send_text(conn, r.http, line, len, "application/json") : MHD_NO;
}

static const struct static_file *find_static(const struct server *srv, const char *url)
{
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    for (size_t i = 0; i < srv->static_count; i++)
        if (strcmp(url + 1, srv->statics[i].name) == 0)
            return &srv->statics[i];
    return NULL;
}

static enum MHD_Result send_static(struct MHD_Connection *conn, const struct static_file *f)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        f->len, (void *)(uintptr_t)f->data, MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", f->type);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; connect-src 'self'; object-src 'none'");
    enum MHD_Result rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return rc;
}

int http_server_init(struct server *srv)
{
    srv->stream_counts = calloc(srv->max_streams ? srv->max_streams : 1,
                                sizeof *srv->stream_counts);
    if (!srv->stream_counts)
        return -1;
    pthread_mutex_init(&srv->lock, NULL);
    return 0;
}

void http_server_free(struct server *srv)
{
    free(srv->stream_counts);
    pthread_mutex_destroy(&srv->lock);
}

void address_of(struct MHD_Connection *conn, struct addr_key *key)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    memset(key, 0, sizeof *key);
    const struct sockaddr *sa = info ? info->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET) {
        key->len = 4;
        memcpy(key->bytes, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    } else if (sa && sa->sa_family == AF_INET6) {
        key->len = 16;
        memcpy(key->bytes, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
    }
}

static void now_monotonic(struct timespec *t)
{
    clock_gettime(CLOCK_MONOTONIC, t);
}

void http_notify_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                            enum MHD_ConnectionNotificationCode code)
{
    struct server *srv = cls;
    struct conn_rec *c = *socket_context;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        c = calloc(1, sizeof *c);
        if (!c || !info) {
            free(c); /* then this connection is timed by --idle-timeout only */
            return;
        }
        c->fd = info->connect_fd;
        c->waiting = 1;
        now_monotonic(&c->since);
        address_of(conn, &c->addr);
        pthread_mutex_lock(&srv->lock);
        c->next = srv->conns;
        if (srv->conns)
            srv->conns->prev = c;
        srv->conns = c;
        pthread_mutex_unlock(&srv->lock);
        *socket_context = c;
    } else if (c) {
        /* libmicrohttpd closes the socket after this call: from here on
         * the sweep no longer sees it. */
        pthread_mutex_lock(&srv->lock);
        if (c->prev)
            c->prev->next = c->next;
        else
            srv->conns = c->next;
        if (c->next)
            c->next->prev = c->prev;
        pthread_mutex_unlock(&srv->lock);
        free(c);
        *socket_context = NULL;
    }
}

/* A connection starts or stops waiting for a request's headers. */
static void set_waiting(struct server *srv, struct MHD_Connection *conn, int waiting)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct conn_rec *c = info ? info->socket_context : NULL;
    if (!c)
        return;
    pthread_mutex_lock(&srv->lock);
    c->waiting = waiting;
    now_monotonic(&c->since);
    pthread_mutex_unlock(&srv->lock);
}

void http_sweep(struct server *srv)
{
    struct timespec now;
    now_monotonic(&now);
    pthread_mutex_lock(&srv->lock);
    for (struct conn_rec *c = srv->conns; c; c = c->next)
        if (c->waiting && now.tv_sec - c->since.tv_sec > (time_t)srv->header_timeout) {
            /* The connection's own thread then reads the end of the
             * stream and closes it. */
            shutdown(c->fd, SHUT_RDWR);
            c->waiting = 0;
            srv->header_timeouts++;
        }
    pthread_mutex_unlock(&srv->lock);
}

/* Counts a new stream from addr: 0, or the HTTP status refusing it. */
static int stream_count(struct server *srv, const struct addr_key *addr)
{
    int refused = 0;
    pthread_mutex_lock(&srv->lock);
    unsigned free_slot = srv->max_streams, slot = srv->max_streams;
    for (unsigned i = 0; i < srv->max_streams; i++) {
        if (srv->stream_counts[i].count == 0) {
            if (free_slot == srv->max_streams)
                free_slot = i;
        } else if (memcmp(&srv->stream_counts[i].addr, addr, sizeof *addr) == 0) {
            slot = i;
        }
    }
    if (srv->streams >= srv->max_streams)
        refused = 503;
    else if (slot < srv->max_streams && srv->max_streams_per_address &&
             srv->stream_counts[slot].count >= srv->max_streams_per_address)
        refused = 429;
    if (!refused) {
        if (slot == srv->max_streams) {
            slot = free_slot;
            srv->stream_counts[slot].addr = *addr;
        }
        srv->stream_counts[slot].count++;
        srv->streams++;
    } else {
        srv->streams_refused++;
    }
    pthread_mutex_unlock(&srv->lock);
    return refused;
}

void stream_close(struct server *srv, const struct addr_key *addr)
{
    pthread_mutex_lock(&srv->lock);
    for (unsigned i = 0; i < srv->max_streams; i++)
        if (srv->stream_counts[i].count &&
            memcmp(&srv->stream_counts[i].addr, addr, sizeof *addr) == 0) {
            srv->stream_counts[i].count--;
            srv->streams--;
            break;
        }
    pthread_mutex_unlock(&srv->lock);
}

/* An event stream being written to one connection: an event that did not
 * fit into libmicrohttpd's buffer waits in pending for the next call. */
struct stream {
    struct server *srv;
    struct addr_key addr;
    struct manager *mgr;
    struct game_entry *entry;
    struct stream_cursor cursor;
    char pending[1024];
    size_t pending_len, pending_sent;
};

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct stream *s = cls;
    (void)pos;
    if (s->pending_sent == s->pending_len) {
        s->pending_len = s->pending_sent = 0;
        /* Up to keepalive one-second waits, then a comment line to keep
         * the connection (and any proxy) awake, well within the idle
         * timeout. */
        for (unsigned i = 0; i < s->srv->keepalive && s->pending_len == 0; i++) {
            long n = stream_next(s->mgr, s->entry, &s->cursor, s->pending,
                                 sizeof s->pending);
            if (n < 0)
                return MHD_CONTENT_READER_END_OF_STREAM;
            s->pending_len = (size_t)n;
        }
        if (s->pending_len == 0) {
            memcpy(s->pending, ":\n\n", 3);
            s->pending_len = 3;
        }
    }
    size_t n = s->pending_len - s->pending_sent;
    if (n > max)
        n = max;
    memcpy(buf, s->pending + s->pending_sent, n);
    s->pending_sent += n;
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    struct stream *s = cls;
    stream_close(s->srv, &s->addr);
    manager_release_stream(s->mgr, s->entry);
    free(s);
}

int stream_open(struct server *srv, struct MHD_Connection *conn, struct addr_key *addr,
                struct reply *err)
{
    address_of(conn, addr);
    int refused = stream_count(srv, addr);
    if (refused == 429)
        *err = error_reply(429, "too_many_streams", 429,
                           "this address holds its %u event streams",
                           srv->max_streams_per_address);
    else if (refused)
        *err = error_reply(503, "too_many_streams", 503, "the server holds its %u event streams",
                           srv->max_streams);
    return refused ? -1 : 0;
}

enum MHD_Result queue_event_stream(struct MHD_Connection *conn, MHD_ContentReaderCallback read,
                                   void *cls, MHD_ContentReaderFreeCallback done)
{
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read, cls, done);
    if (!resp) {
        done(cls);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    enum MHD_Result rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return rc;
}

static enum MHD_Result send_stream(struct server *srv, struct MHD_Connection *conn,
                                   struct game_entry *entry)
{
    struct addr_key addr;
    struct reply err;
    if (stream_open(srv, conn, &addr, &err) != 0)
        return send_reply(conn, err);
    struct stream *s = calloc(1, sizeof *s);
    if (!s) {
        stream_close(srv, &addr);
        return MHD_NO;
    }
    s->srv = srv;
    s->addr = addr;
    s->mgr = srv->mgr;
    s->entry = entry;
    manager_hold_stream(srv->mgr, entry); /* for as long as the stream lasts */
    const char *last = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
    if (!last)
        last = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "last_event_id");
    if (last) {
        char *end;
        long n = strtol(last, &end, 10);
        if (end != last && *end == '\0' && n > 0)
            s->cursor.next_event = n > 1 << 22 ? 1 << 22 : (int)n;
    }
    return queue_event_stream(conn, stream_read, s, stream_free);
}

static int valid_id(const char *id, size_t len)
{
    if (len == 0 || len > 23)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'z')))
            return 0;
    return 1;
}

static struct reply not_found(void)
{
    return error_reply(404, "not_found", 404, "no such route");
}

static struct reply bad_method(void)
{
    return error_reply(405, "method_not_allowed", 405, "this route takes another method");
}

/* The seat of the bearer token, or an error reply (401 none, 403 wrong). */
static int authorize(struct MHD_Connection *conn, struct game_entry *entry, struct reply *err)
{
    const char *auth = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
    /* The scheme's name is case-insensitive (RFC 9110, 11.1), then one or
     * more spaces. */
    if (!auth || strncasecmp(auth, "Bearer ", 7) != 0) {
        *err = error_reply(401, "unauthorized", 401, "send the seat's token as Authorization: Bearer <token>");
        return 0;
    }
    const char *token = auth + 7;
    while (*token == ' ')
        token++;
    int seat = game_seat_for_token(entry, token, strlen(token));
    if (!seat)
        *err = error_reply(403, "forbidden", 403, "this token holds no seat in this game");
    return seat;
}

/* A body is read only as application/json: a page on another site can
 * POST text/plain or a form without asking first, but not this type, which
 * needs a CORS preflight the server never grants. */
int json_content(struct MHD_Connection *conn, struct reply *err)
{
    const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    size_t n = strlen("application/json");
    if (type && strncasecmp(type, "application/json", n) == 0 &&
        (type[n] == '\0' || type[n] == ';' || type[n] == ' '))
        return 1;
    *err = error_reply(415, "unsupported_media_type", 415,
                       "send the body with Content-Type: application/json");
    return 0;
}

/* A request a browser sent from a page of another origin: its Origin's
 * host is not the Host it was sent to. Requests without Origin (curl,
 * programs, same-origin GETs) pass. */
static int cross_origin(struct MHD_Connection *conn)
{
    const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
    if (!origin)
        return 0;
    if (strncasecmp(origin, "http://", 7) == 0)
        origin += 7;
    else if (strncasecmp(origin, "https://", 8) == 0)
        origin += 8;
    else
        return 1; /* "null" (a sandboxed page, a file) or another scheme */
    return !host || strcasecmp(origin, host) != 0;
}

static json_t *parse_body(const struct request *req, struct reply *err)
{
    json_error_t jerr;
    json_t *v = json_loadb(req->body ? req->body : "", req->len, JSON_REJECT_DUPLICATES, &jerr);
    if (!v)
        *err = error_reply(400, "TTT_E_PARSE", TTT_E_PARSE, "malformed JSON at byte %d: %s",
                           jerr.position, jerr.text);
    return v;
}

static enum MHD_Result route(struct server *srv, struct MHD_Connection *conn, const char *url,
                             const char *method, struct request *req)
{
    /* HEAD is GET without the body (libmicrohttpd leaves it out). */
    int head = strcmp(method, "HEAD") == 0;
    int get = head || strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    struct reply r, err;
    if ((post || strcmp(method, "DELETE") == 0) && cross_origin(conn))
        return send_reply(conn, error_reply(403, "cross_origin", 403,
                                            "requests from pages of another origin are refused"));
    if (strncmp(url, "/api/", 5) != 0) {
        const struct static_file *f = find_static(srv, url);
        if (!f)
            return send_reply(conn, not_found());
        return get ? send_static(conn, f) : send_reply(conn, bad_method());
    }
    const char *path = url + 5;
    if (strcmp(path, "accounts") == 0 || strncmp(path, "sessions", 8) == 0) {
        if (strcmp(path, "sessions/current") == 0 && strcmp(method, "DELETE") == 0)
            lobby_logout(srv, conn); /* while the session still names its account */
        return accounts_route(srv, conn, path, method, req->body, req->len);
    }
    if (lobby_path(path))
        return lobby_route(srv, conn, path, method, req->body, req->len);
    if (strcmp(path, "health") == 0)
        return send_reply(conn, get ? health_view(srv->mgr) : bad_method());
    if (strcmp(path, "players") == 0)
        return send_reply(conn, get ? players_view(srv->mgr,
            MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "game"),
            MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "limit"),
            MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "after"))
            : bad_method());
    if (strncmp(path, "players/", 8) == 0)
        return send_reply(conn, get ? player_view(srv->mgr, path + 8) : bad_method());
    if (strcmp(path, "games") == 0) {
        if (!post)
            return send_reply(conn, bad_method());
        if (!json_content(conn, &err))
            return send_reply(conn, err);
        json_t *body = parse_body(req, &err);
        if (!body)
            return send_reply(conn, err);
        if (check_create_body(body, &err) != 0) {
            json_decref(body);
            return send_reply(conn, err);
        }
        r = json_is_true(json_object_get(body, "rated")) ? rated_create(srv, conn, body)
                                                         : game_create(srv->mgr, body);
        json_decref(body);
        return send_reply(conn, r);
    }
    if (strncmp(path, "games/", 6) != 0)
        return send_reply(conn, not_found());
    const char *id = path + 6, *slash = strchr(id, '/');
    size_t id_len = slash ? (size_t)(slash - id) : strlen(id);
    const char *action = slash ? slash + 1 : "";
    if (!valid_id(id, id_len) || strchr(action, '/'))
        return send_reply(conn, not_found());
    char key[24];
    memcpy(key, id, id_len);
    key[id_len] = '\0';
    int unreadable;
    struct game_entry *entry = manager_find(srv->mgr, key, &unreadable);
    if (!entry && unreadable)
        return send_reply(conn, error_reply(503, "store_failed", 503,
                                            "the store cannot be read; retry"));
    if (!entry)
        return send_reply(conn, error_reply(404, "not_found", 404, "no game %s", key));
    req->entry = entry; /* held until the request completes */
    if (strcmp(action, "moves") != 0)
        manager_refresh(srv->mgr, entry); /* the moves other servers stored */
    rated_refresh(srv, entry); /* the o seat another server's join took */

    if (action[0] == '\0')
        return send_reply(conn, get ? game_view(srv->mgr, entry) : bad_method());
    if (strcmp(action, "events") == 0)
        return get && !head ? send_stream(srv, conn, entry) : send_reply(conn, bad_method());
    if (strcmp(action, "record") == 0) {
        if (!get)
            return send_reply(conn, bad_method());
        char *text = game_record(entry);
        if (!text)
            return send_reply(conn, error_reply(503, "out_of_memory", 503, "out of memory"));
        return send_text(conn, 200, text, strlen(text), "text/plain; charset=utf-8");
    }
    if (strcmp(action, "join") == 0)
        return send_reply(conn, post ? rated_join(srv, conn, entry) : bad_method());
    int is_move = strcmp(action, "moves") == 0, is_resign = strcmp(action, "resign") == 0;
    int is_draw = strcmp(action, "draw") == 0;
    if (!is_move && !is_resign && !is_draw)
        return send_reply(conn, not_found());
    if (!post)
        return send_reply(conn, bad_method());
    int seat;
    if (!rated_seat(srv, conn, entry, &seat, &err))
        seat = authorize(conn, entry, &err);
    if (!seat)
        return send_reply(conn, err);
    if (is_resign)
        return send_reply(conn, game_resign(srv->mgr, entry, seat));
    if (is_draw)
        return send_reply(conn, game_draw(srv->mgr, entry, seat));
    if (!json_content(conn, &err))
        return send_reply(conn, err);
    json_t *body = parse_body(req, &err);
    if (!body)
        return send_reply(conn, err);
    if (check_move_body(body, &err) != 0) {
        json_decref(body);
        return send_reply(conn, err);
    }
    r = game_move(srv->mgr, entry, seat, body);
    json_decref(body);
    return send_reply(conn, r);
}

enum MHD_Result http_handle(void *cls, struct MHD_Connection *conn, const char *url,
                            const char *method, const char *version,
                            const char *upload_data, size_t *upload_size, void **con_cls)
{
    struct server *srv = cls;
    struct request *req = *con_cls;
    (void)version;
    if (!req) {
        set_waiting(srv, conn, 0);
        req = calloc(1, sizeof *req);
        if (!req)
            return MHD_NO;
        *con_cls = req;
        const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                         "Content-Length");
        if (length && strtoull(length, NULL, 10) > srv->max_body) {
            req->too_large = 1;
            return send_reply(conn, error_reply(413, "too_large", 413,
                                                "a request body has at most %zu bytes",
                                                srv->max_body));
        }
        return MHD_YES;
    }
    if (*upload_size) {
        if (!req->too_large && req->len + *upload_size <= srv->max_body) {
            char *grown = realloc(req->body, req->len + *upload_size + 1);
            if (!grown)
                return MHD_NO;
            req->body = grown;
            memcpy(req->body + req->len, upload_data, *upload_size);
            req->len += *upload_size;
        } else {
            req->too_large = 1;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (req->too_large)
        return send_reply(conn, error_reply(413, "too_large", 413,
                                            "a request body has at most %zu bytes",
                                            srv->max_body));
    return route(srv, conn, url, method, req);
}

void http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                    enum MHD_RequestTerminationCode why)
{
    struct request *req = *con_cls;
    (void)why;
    /* A kept-alive connection has header_timeout for its next request. */
    set_waiting(cls, conn, 1);
    if (req) {
        manager_release(((struct server *)cls)->mgr, req->entry);
        free(req->body);
        free(req);
        *con_cls = NULL;
    }
}
