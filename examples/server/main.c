/* main.c - ttt-server: flags, start-up (rebuilding games from the store), serving until SIGTERM. */
#include <arpa/inet.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accounts.h"
#include "http.h"
#include "lobby.h"

static const char usage[] =
    "Usage: ttt-server [options]\n"
    "Serves libttt games over HTTP+JSON (API under /api, browser client at /),\n"
    "keeping every move in an SQLite or a PostgreSQL database.\n"
    "\n"
    "  --listen ADDR          address to bind, IPv4 or IPv6 (default 127.0.0.1)\n"
    "  --port N               TCP port (default 8080)\n"
    "  --db PATH|URL          SQLite database, created if missing (default ./ttt-games.db),\n"
    "                         or a PostgreSQL URL postgresql://user@host/dbname\n"
    "  --unload-idle S        with a PostgreSQL --db: seconds a game in progress stays in\n"
    "                         memory once nothing uses it; it is loaded again on demand\n"
    "                         (default 60; 0: never)\n"
    "  --sync full|normal     full: each commit is synced to disk and survives a power cut;\n"
    "                         normal: survives a crash of the server only (default full)\n"
    "  --max-games N          games in progress at most (default 200000); finished\n"
    "                         games leave memory and are loaded from the database\n"
    "  --max-size N           widest and tallest board accepted, 3..1024 (default 19)\n"
    "  --max-body BYTES       largest request body (default 8192)\n"
    "  --max-header BYTES     memory per connection for the request line and headers\n"
    "                         (default 16384; larger requests get 431)\n"
    "  --max-connections N    connections at once (default 512)\n"
    "  --max-connections-per-address N\n"
    "                         connections at once from one client address\n"
    "                         (default 64; 0: no cap)\n"
    "  --max-streams N        event streams at once, counted apart from requests\n"
    "                         (default 256, at most --max-connections)\n"
    "  --max-streams-per-address N\n"
    "                         event streams at once from one client address\n"
    "                         (default 16; 0: no cap)\n"
    "  --header-timeout S     seconds a connection has to send a request's line and\n"
    "                         headers, from its start or its previous answer (default 10)\n"
    "  --idle-timeout S       seconds of silence after which a connection is closed\n"
    "                         (default 30)\n"
    "  --max-budget N         largest node budget of a bot seat (default 2000000)\n"
    "  --bot-threads N        threads for deep bot searches (default 2); cheap moves\n"
    "                         (random bots, small boards or budgets) have one more\n"
    "  --bot-time MS          the longest a deep bot move searches, in milliseconds\n"
    "                         (default 1000); its node budget bounds it too\n"
    "  --static DIR           serve index.html, app.js and style.css from DIR, read once\n"
    "                         at start, instead of the copies built into the program\n"
    "                         (for working on the client; default: the built-in copies)\n"
    "";
/* Split in two: C limits a string literal's length. */
static const char usage_more[] =
    "  --session-lifetime S   seconds a login session lasts (default 2592000, 30 days)\n"
    "  --login-free-failures N\n"
    "                         failed logins per account and per address before any\n"
    "                         delay (default 5)\n"
    "  --login-delay S        the first delay after those, in seconds; it doubles with\n"
    "                         each further failure (default 1)\n"
    "  --login-max-delay S    the longest delay, in seconds (default 900)\n"
    "  --argon2-time N        Argon2id passes for new password hashes (default 2)\n"
    "  --argon2-memory KIB    Argon2id memory for new password hashes, in KiB\n"
    "                         (default 19456); stored hashes keep their own\n"
    "  --hash-threads N       threads that hash and check passwords (default 1)\n"
    "  --hash-queue N         password checks waiting at most; past it 503 (default 64)\n"
    "  --seek-grace S         seconds a seek (or a place in the pairing pool) lasts once\n"
    "                         its account has no account event stream open (default 60)\n"
    "  --pairing-window N     the rating difference quick pairing accepts at once\n"
    "                         (default 100)\n"
    "  --pairing-widen N      added to that window per 10 s of waiting (default 50)\n"
    "  --pairing-bot-wait S   seconds in the pairing pool before a bot of the player's\n"
    "                         level is paired instead (default 30; 0: never)\n"
    "  --salvage              start on a damaged database: load the games that read and\n"
    "                         replay, report each one skipped (default: refuse to start)\n"
    "  --export ID            print game ID's libttt record from the database and exit\n"
    "  --help                 this text\n"
    "\n"
    "Routes: POST /api/games, GET /api/games/ID, POST /api/games/ID/moves,\n"
    "/resign and /draw (with Authorization: Bearer SEAT-TOKEN, or a rated game's\n"
    "session token), POST /api/games/ID/join, GET /api/games/ID/events\n"
    "(Server-Sent Events), GET /api/games/ID/record, GET /api/players, GET /api/health,\n"
    "POST /api/accounts, POST /api/sessions, GET and DELETE /api/sessions/current,\n"
    "GET and POST /api/seeks, DELETE /api/seeks/ID, POST /api/seeks/ID/accept,\n"
    "GET /api/lobby/events, GET /api/account/events, POST, GET and DELETE /api/pairing;\n"
    "docs/server.md describes each with an example.\n"
    "\n"
    "SIGTERM or SIGINT stops the server cleanly. Seat tokens, passwords, their hashes\n"
    "and session tokens are never logged.\n";

static int parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static char *read_file(const char *dir, const char *name, size_t *len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            if (cap >= (size_t)1 << 24)
                break;
            char *grown = realloc(data, cap = cap ? 2 * cap : 65536);
            if (!grown)
                break;
            data = grown;
        }
        size_t got = fread(data + *len, 1, cap - *len, f);
        if (got == 0)
            break;
        *len += got;
    }
    fclose(f);
    return data;
}

/* --static DIR: the client's files read from DIR into loaded, their bytes
 * in owned (the caller frees them, also after a failure); -1 names the
 * file missing. */
static int load_statics(struct static_file loaded[], char *owned[], const char *dir)
{
    for (size_t i = 0; i < embedded_static_count; i++) {
        size_t len;
        char *data = owned[i] = read_file(dir, embedded_statics[i].name, &len);
        if (!data) {
            fprintf(stderr, "ttt-server: cannot read %s/%s\n", dir, embedded_statics[i].name);
            return -1;
        }
        loaded[i] = embedded_statics[i];
        loaded[i].data = data;
        loaded[i].len = len;
    }
    return 0;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    const char *listen_addr = "127.0.0.1", *db_path = "./ttt-games.db";
    const char *static_dir = NULL, *export_id = NULL;
    long port = 8080, max_games = 200000, max_size = 19, max_body = 8192;
    long max_header = 16384, max_conns = 512, max_budget = 2000000, bot_threads = 2;
    long conns_per_addr = 64, max_streams = 256, streams_per_addr = 16;
    long header_timeout = 10, idle_timeout = 30, bot_time = 1000;
    int sync_full = 1, salvage = 0;
    long session_lifetime = 2592000, login_free = 5, login_delay = 1, login_max_delay = 900;
    long unload_idle = 60;
    long seek_grace = 60, pairing_window = 100, pairing_widen = 50, pairing_bot_wait = 30;
    long argon2_time = 2, argon2_memory = 19456, hash_threads = 1, hash_queue = 64;
    enum { O_LISTEN = 256, O_PORT, O_DB, O_SYNC, O_GAMES, O_SIZE, O_BODY, O_HEADER,
           O_CONNS, O_CONNS_ADDR, O_STREAMS, O_STREAMS_ADDR, O_HEADER_TIMEOUT,
           O_IDLE_TIMEOUT, O_BUDGET, O_BOTS, O_BOT_TIME, O_STATIC, O_EXPORT, O_HELP, O_SALVAGE,
           O_SESSION_LIFETIME, O_LOGIN_FREE, O_LOGIN_DELAY, O_LOGIN_MAX_DELAY, O_ARGON2_TIME,
           O_ARGON2_MEMORY, O_HASH_THREADS, O_HASH_QUEUE, O_SEEK_GRACE, O_PAIRING_WINDOW,
           O_PAIRING_WIDEN, O_PAIRING_BOT_WAIT,
           O_UNLOAD_IDLE, O_ACCOUNTS_DB };
    static const struct option options[] = {
        {"listen", required_argument, NULL, O_LISTEN}, {"port", required_argument, NULL, O_PORT},
        {"db", required_argument, NULL, O_DB}, {"sync", required_argument, NULL, O_SYNC},
        {"max-games", required_argument, NULL, O_GAMES},
        {"max-size", required_argument, NULL, O_SIZE},
        {"max-body", required_argument, NULL, O_BODY},
        {"max-header", required_argument, NULL, O_HEADER},
        {"max-connections", required_argument, NULL, O_CONNS},
        {"max-connections-per-address", required_argument, NULL, O_CONNS_ADDR},
        {"max-streams", required_argument, NULL, O_STREAMS},
        {"max-streams-per-address", required_argument, NULL, O_STREAMS_ADDR},
        {"header-timeout", required_argument, NULL, O_HEADER_TIMEOUT},
        {"idle-timeout", required_argument, NULL, O_IDLE_TIMEOUT},
        {"max-budget", required_argument, NULL, O_BUDGET},
        {"bot-threads", required_argument, NULL, O_BOTS},
        {"bot-time", required_argument, NULL, O_BOT_TIME},
        {"static", required_argument, NULL, O_STATIC},
        {"export", required_argument, NULL, O_EXPORT},
        {"salvage", no_argument, NULL, O_SALVAGE},
        {"session-lifetime", required_argument, NULL, O_SESSION_LIFETIME},
        {"login-free-failures", required_argument, NULL, O_LOGIN_FREE},
        {"login-delay", required_argument, NULL, O_LOGIN_DELAY},
        {"login-max-delay", required_argument, NULL, O_LOGIN_MAX_DELAY},
        {"argon2-time", required_argument, NULL, O_ARGON2_TIME},
        {"argon2-memory", required_argument, NULL, O_ARGON2_MEMORY},
        {"hash-threads", required_argument, NULL, O_HASH_THREADS},
        {"hash-queue", required_argument, NULL, O_HASH_QUEUE},
        {"unload-idle", required_argument, NULL, O_UNLOAD_IDLE},
        {"accounts-db", required_argument, NULL, O_ACCOUNTS_DB},
        {"seek-grace", required_argument, NULL, O_SEEK_GRACE},
        {"pairing-window", required_argument, NULL, O_PAIRING_WINDOW},
        {"pairing-widen", required_argument, NULL, O_PAIRING_WIDEN},
        {"pairing-bot-wait", required_argument, NULL, O_PAIRING_BOT_WAIT},
        {"help", no_argument, NULL, O_HELP}, {NULL, 0, NULL, 0},
    };
    int opt, bad = 0;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case O_LISTEN: listen_addr = optarg; break;
        case O_PORT: bad |= parse_long(optarg, 0, 65535, &port); break;
        case O_DB: db_path = optarg; break;
        case O_UNLOAD_IDLE: bad |= parse_long(optarg, 0, 86400, &unload_idle); break;
        case O_ACCOUNTS_DB:
            /* 1.5.0's option: refused by name rather than as unknown, so an
             * upgraded server says why instead of starting without the
             * accounts that file holds. */
            fprintf(stderr, "ttt-server: --accounts-db is gone: with a PostgreSQL --db, accounts"
                    " and sessions live in that database, and the accounts in %s are not read"
                    " (see \"PostgreSQL\" in docs/server.md); remove the"
                    " option\n", optarg);
            return 2;
        case O_SYNC:
            if (strcmp(optarg, "full") == 0) sync_full = 1;
            else if (strcmp(optarg, "normal") == 0) sync_full = 0;
            else bad = 1;
            break;
        case O_GAMES: bad |= parse_long(optarg, 1, 50000000, &max_games); break;
        case O_SIZE: bad |= parse_long(optarg, 3, TTT_MAX_SIZE, &max_size); break;
        case O_BODY: bad |= parse_long(optarg, 64, 1 << 24, &max_body); break;
        case O_HEADER: bad |= parse_long(optarg, 1024, 1 << 24, &max_header); break;
        case O_CONNS: bad |= parse_long(optarg, 1, 100000, &max_conns); break;
        case O_CONNS_ADDR: bad |= parse_long(optarg, 0, 100000, &conns_per_addr); break;
        case O_STREAMS: bad |= parse_long(optarg, 1, 100000, &max_streams); break;
        case O_STREAMS_ADDR: bad |= parse_long(optarg, 0, 100000, &streams_per_addr); break;
        case O_HEADER_TIMEOUT: bad |= parse_long(optarg, 1, 3600, &header_timeout); break;
        case O_IDLE_TIMEOUT: bad |= parse_long(optarg, 2, 86400, &idle_timeout); break;
        case O_BUDGET: bad |= parse_long(optarg, 1, 4000000000L, &max_budget); break;
        case O_BOTS: bad |= parse_long(optarg, 1, 64, &bot_threads); break;
        case O_BOT_TIME: bad |= parse_long(optarg, 1, 3600000, &bot_time); break;
        case O_STATIC: static_dir = optarg; break;
        case O_EXPORT: export_id = optarg; break;
        case O_SALVAGE: salvage = 1; break;
        case O_SESSION_LIFETIME: bad |= parse_long(optarg, 1, 315360000, &session_lifetime); break;
        case O_LOGIN_FREE: bad |= parse_long(optarg, 0, 1000, &login_free); break;
        case O_LOGIN_DELAY: bad |= parse_long(optarg, 1, 86400, &login_delay); break;
        case O_LOGIN_MAX_DELAY: bad |= parse_long(optarg, 1, 86400, &login_max_delay); break;
        case O_ARGON2_TIME: bad |= parse_long(optarg, 1, 100, &argon2_time); break;
        case O_ARGON2_MEMORY: bad |= parse_long(optarg, 8, 4194304, &argon2_memory); break;
        case O_HASH_THREADS: bad |= parse_long(optarg, 1, 64, &hash_threads); break;
        case O_HASH_QUEUE: bad |= parse_long(optarg, 1, 100000, &hash_queue); break;
        case O_SEEK_GRACE: bad |= parse_long(optarg, 1, 86400, &seek_grace); break;
        case O_PAIRING_WINDOW: bad |= parse_long(optarg, 0, 10000, &pairing_window); break;
        case O_PAIRING_WIDEN: bad |= parse_long(optarg, 0, 10000, &pairing_widen); break;
        case O_PAIRING_BOT_WAIT: bad |= parse_long(optarg, 0, 86400, &pairing_bot_wait); break;
        case O_HELP: fputs(usage, stdout); fputs(usage_more, stdout); return 0;
        default: bad = 1;
        }
    }
    if (bad || optind != argc) {
        fputs(usage, stderr);
        fputs(usage_more, stderr);
        return 2;
    }
    if (max_streams > max_conns)
        max_streams = max_conns;
    if (login_max_delay < login_delay)
        login_max_delay = login_delay;

    union {
        struct sockaddr sa;
        struct sockaddr_in in4;
        struct sockaddr_in6 in6;
    } addr;
    memset(&addr, 0, sizeof addr);
    unsigned ipv6 = 0;
    if (inet_pton(AF_INET, listen_addr, &addr.in4.sin_addr) == 1) {
        addr.in4.sin_family = AF_INET;
        addr.in4.sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, listen_addr, &addr.in6.sin6_addr) == 1) {
        addr.in6.sin6_family = AF_INET6;
        addr.in6.sin6_port = htons((uint16_t)port);
        ipv6 = MHD_USE_IPv6;
    } else {
        fprintf(stderr, "ttt-server: --listen takes a numeric IPv4 or IPv6 address\n");
        return 2;
    }

    /* Signals go to sigwait below only, never to a worker thread. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char err[512];
    /* A URL's password never reaches a message: they name the store by db_shown. */
    char db_shown[512];
    store_redact(db_path, db_shown, sizeof db_shown);
    struct store *store = store_open(db_path, sync_full, salvage, err, sizeof err);
    if (!store) {
        fprintf(stderr, "ttt-server: %s\n", err);
        return 1;
    }
    struct manager_limits limits = {.max_games = max_games, .max_size = (int)max_size,
                                    .max_budget = max_budget, .bot_threads = (int)bot_threads,
                                    .salvage = salvage, .bot_time_ms = bot_time,
                                    .shared = store_is_url(db_path),
                                    .unload_idle_ms = unload_idle * 1000};
    struct manager *mgr = manager_new(store, &limits);
    long games = 0, events = 0, skipped = 0;
    if (!mgr || manager_load(mgr, &games, &events, &skipped, err, sizeof err) != 0) {
        fprintf(stderr, "ttt-server: cannot read the games in %s: %s\n", db_shown,
                mgr ? err : "out of memory");
        if (mgr)
            manager_free(mgr);
        store_close(store);
        return 1;
    }
    if (export_id) {
        struct game_entry *entry = manager_find(mgr, export_id, NULL);
        char *record = entry ? game_record(entry) : NULL;
        manager_release(mgr, entry);
        if (record)
            fputs(record, stdout);
        else
            fprintf(stderr, "ttt-server: no game %s in %s\n", export_id, db_shown);
        free(record);
        manager_free(mgr);
        store_close(store);
        return record ? 0 : 1;
    }
    if (manager_listen(mgr) != 0) {
        fprintf(stderr, "ttt-server: cannot listen for other servers' moves in %s\n",
                db_shown);
        manager_free(mgr);
        store_close(store);
        return 1;
    }
    if (manager_start_bots(mgr) != 0) {
        fprintf(stderr, "ttt-server: cannot start the bot threads\n");
        manager_free(mgr);
        store_close(store);
        return 1;
    }

    struct accounts_config acfg = {
        .argon2_time = (unsigned)argon2_time, .argon2_memory_kib = (unsigned)argon2_memory,
        .hash_threads = (unsigned)hash_threads, .hash_queue = (unsigned)hash_queue,
        .session_lifetime = session_lifetime, .login_free = (unsigned)login_free,
        .login_delay = login_delay, .login_max_delay = login_max_delay,
        .synchronous_full = sync_full};
    /* Accounts, sessions and rated seats live beside the games: in the
     * SQLite file, or in the PostgreSQL database every server shares. */
    struct accounts *accounts = accounts_open(db_path, &acfg, err, sizeof err);
    if (!accounts && salvage) {
        /* Serving the games that read is what --salvage is for. */
        fprintf(stderr, "ttt-server: --salvage: %s; accounts, logins and rated games"
                " between accounts are unavailable\n", err);
    } else if (!accounts) {
        fprintf(stderr, "ttt-server: %s\n", err);
        manager_free(mgr);
        store_close(store);
        return 1;
    }
    struct server srv;
    memset(&srv, 0, sizeof srv);
    srv.mgr = mgr;
    srv.accounts = accounts;
    srv.max_body = (size_t)max_body;
    srv.statics = embedded_statics;
    srv.static_count = embedded_static_count;
    srv.max_streams = (unsigned)max_streams;
    srv.max_streams_per_address = (unsigned)streams_per_addr;
    srv.header_timeout = (unsigned)header_timeout;
    srv.keepalive = idle_timeout / 2 < 15 ? (unsigned)idle_timeout / 2 : 15;
    if (http_server_init(&srv) != 0) {
        fprintf(stderr, "ttt-server: out of memory\n");
        accounts_close(accounts);
        manager_free(mgr);
        store_close(store);
        return 1;
    }
    struct lobby_config lcfg = {.seek_grace_s = seek_grace, .pairing_window = pairing_window,
                                .pairing_widen = pairing_widen,
                                .pairing_bot_wait = pairing_bot_wait};
    srv.lobby = lobby_new(&srv, &lcfg);
    if (!srv.lobby) {
        fprintf(stderr, "ttt-server: cannot start the lobby's thread\n");
        http_server_free(&srv);
        accounts_close(accounts);
        manager_free(mgr);
        store_close(store);
        return 1;
    }
    struct static_file loaded[STATIC_FILES];
    char *loaded_data[STATIC_FILES] = {NULL};
    if (static_dir) {
        if (load_statics(loaded, loaded_data, static_dir) != 0) {
            for (size_t i = 0; i < STATIC_FILES; i++)
                free(loaded_data[i]);
            lobby_free(srv.lobby);
            http_server_free(&srv);
            accounts_close(accounts);
            manager_free(mgr);
            store_close(store);
            return 1;
        }
        srv.statics = loaded;
    }

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_THREAD_PER_CONNECTION | ipv6, 0, NULL, NULL,
        http_handle, &srv,
        MHD_OPTION_SOCK_ADDR, &addr.sa,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)max_header,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)max_conns,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)conns_per_addr,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)idle_timeout,
        MHD_OPTION_NOTIFY_COMPLETED, http_completed, &srv,
        MHD_OPTION_NOTIFY_CONNECTION, http_notify_connection, &srv,
        MHD_OPTION_END);
    int status = 0;
    if (!daemon) {
        fprintf(stderr, "ttt-server: cannot listen on %s port %ld\n", listen_addr, port);
        status = 1;
    } else {
        if (skipped)
            printf("ttt-server: --salvage: %ld damaged games or rows skipped (see above)\n",
                   skipped);
        printf("ttt-server: %ld games (%ld events) rebuilt in %.2f s; serving http://%s%s%s:%ld/\n",
               games, events, seconds_since(&start), ipv6 ? "[" : "", listen_addr,
               ipv6 ? "]" : "", port);
        fflush(stdout);
        /* This thread waits for the stop signal and, each second, closes
         * the connections too slow to send a request and lets idle games
         * go (a shared store). */
        const struct timespec second = {1, 0};
        while (sigtimedwait(&stop_signals, NULL, &second) < 0) {
            http_sweep(&srv);
            manager_unload_idle(mgr);
        }
        printf("ttt-server: stopping\n");
        fflush(stdout);
        manager_stop_streams(mgr);
        lobby_stop_streams(srv.lobby);
        MHD_stop_daemon(daemon);
    }
    lobby_free(srv.lobby);
    http_server_free(&srv);
    accounts_close(accounts);
    manager_free(mgr);
    store_close(store);
    for (size_t i = 0; i < STATIC_FILES; i++)
        free(loaded_data[i]);
    return status;
}
