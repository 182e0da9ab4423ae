/* accounts.c - accounts and sessions: Argon2id password hashes on a worker pool, session tokens, login rate limits. */
#include "accounts.h"

#include <arpa/inet.h>

#include <argon2.h>
#include <microhttpd.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdint.h>
#include <time.h>

#include "accounts_db.h"
#include "http.h"
#include "store.h"

/* A password to hash or to check, waiting for a hash thread. */
struct hash_job {
    const char *password;
    size_t len;
    const char *encoded; /* to verify against, or NULL: hash into out */
    char out[192];
    int ok;
    sem_t done;
    struct hash_job *next;
};

/* A count of failed logins for one account or one address. */
struct limit {
    char key[64]; /* "n:" + name key, or "a:" + address; "" for a free slot */
    unsigned failures;
    long long until, last; /* CLOCK_MONOTONIC seconds */
};
enum { LIMIT_SLOTS = 4096 };

struct accounts {
    struct accounts_config cfg;
    char params[64]; /* "$m=...,t=...,p=1$" as in the hashes made now */
    char dummy[192]; /* checked when the name is unknown, so timing says nothing */
    struct account_db *db; /* the tables: SQLite's or PostgreSQL's (accounts_db.h) */
    pthread_mutex_t queue_lock;
    pthread_cond_t queue_wake;
    struct hash_job *head, *tail;
    unsigned queued;
    int stopping;
    pthread_t *threads;
    unsigned started;
    pthread_mutex_t limit_lock;
    struct limit *limits;
};

static long long mono_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec;
}

static void *hash_main(void *arg)
{
    struct accounts *acc = arg;
    pthread_mutex_lock(&acc->queue_lock);
    for (;;) {
        while (!acc->head && !acc->stopping)
            pthread_cond_wait(&acc->queue_wake, &acc->queue_lock);
        if (!acc->head)
            break;
        struct hash_job *job = acc->head;
        acc->head = job->next;
        if (!acc->head)
            acc->tail = NULL;
        acc->queued--;
        pthread_mutex_unlock(&acc->queue_lock);
        if (job->encoded) {
            job->ok = argon2id_verify(job->encoded, job->password, job->len) == ARGON2_OK;
        } else {
            unsigned char salt[16];
            job->ok = random_bytes(salt, sizeof salt) == 0 &&
                      argon2id_hash_encoded(acc->cfg.argon2_time, acc->cfg.argon2_memory_kib,
                                            1, job->password, job->len, salt, sizeof salt,
                                            32, job->out, sizeof job->out) == ARGON2_OK;
        }
        sem_post(&job->done);
        pthread_mutex_lock(&acc->queue_lock);
    }
    pthread_mutex_unlock(&acc->queue_lock);
    return NULL;
}

/* Runs job on a hash thread and waits for it: 0, or -1 when the queue is
 * full (the caller answers 503) or the server is stopping. */
static int run_hash(struct accounts *acc, struct hash_job *job)
{
    pthread_mutex_lock(&acc->queue_lock);
    if (acc->stopping || acc->queued >= acc->cfg.hash_queue) {
        pthread_mutex_unlock(&acc->queue_lock);
        return -1;
    }
    sem_init(&job->done, 0, 0);
    job->next = NULL;
    if (acc->tail)
        acc->tail->next = job;
    else
        acc->head = job;
    acc->tail = job;
    acc->queued++;
    pthread_cond_signal(&acc->queue_wake);
    pthread_mutex_unlock(&acc->queue_lock);
    while (sem_wait(&job->done) != 0)
        ; /* EINTR: wait on */
    sem_destroy(&job->done);
    return 0;
}

struct accounts *accounts_open(const char *where, const struct accounts_config *cfg, char *err,
                               size_t err_len)
{
    struct accounts *acc = calloc(1, sizeof *acc);
    if (!acc || !(acc->limits = calloc(LIMIT_SLOTS, sizeof *acc->limits)) ||
        !(acc->threads = calloc(cfg->hash_threads, sizeof *acc->threads))) {
        if (acc)
            free(acc->limits);
        free(acc);
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    acc->cfg = *cfg;
    snprintf(acc->params, sizeof acc->params, "$m=%u,t=%u,p=1$", cfg->argon2_memory_kib,
             cfg->argon2_time);
    pthread_mutex_init(&acc->queue_lock, NULL);
    pthread_cond_init(&acc->queue_wake, NULL);
    pthread_mutex_init(&acc->limit_lock, NULL);
    if (store_is_url(where)) {
#ifdef TTT_HAVE_POSTGRESQL
        acc->db = account_db_open_pg(where, err, err_len);
#else
        snprintf(err, err_len, "this ttt-server was built without PostgreSQL (libpq)");
#endif
    } else {
        acc->db = account_db_open_sqlite(where, cfg->synchronous_full, err, err_len);
    }
    if (!acc->db) {
        accounts_close(acc);
        return NULL;
    }
    /* A hash of a random password: an unknown name costs a check too. */
    unsigned char salt[16], pw[16];
    if (random_bytes(salt, sizeof salt) != 0 || random_bytes(pw, sizeof pw) != 0 ||
        argon2id_hash_encoded(cfg->argon2_time, cfg->argon2_memory_kib, 1, pw, sizeof pw,
                              salt, sizeof salt, 32, acc->dummy, sizeof acc->dummy) != ARGON2_OK) {
        snprintf(err, err_len, "cannot hash with Argon2id (t=%u, m=%u KiB)", cfg->argon2_time,
                 cfg->argon2_memory_kib);
        accounts_close(acc);
        return NULL;
    }
    for (; acc->started < cfg->hash_threads; acc->started++)
        if (pthread_create(&acc->threads[acc->started], NULL, hash_main, acc) != 0) {
            snprintf(err, err_len, "cannot start the hash threads");
            accounts_close(acc);
            return NULL;
        }
    return acc;
}

void accounts_close(struct accounts *acc)
{
    if (!acc)
        return;
    pthread_mutex_lock(&acc->queue_lock);
    acc->stopping = 1;
    pthread_cond_broadcast(&acc->queue_wake);
    pthread_mutex_unlock(&acc->queue_lock);
    for (unsigned i = 0; i < acc->started; i++)
        pthread_join(acc->threads[i], NULL);
    if (acc->db)
        acc->db->ops->close(acc->db);
    pthread_mutex_destroy(&acc->queue_lock);
    pthread_cond_destroy(&acc->queue_wake);
    pthread_mutex_destroy(&acc->limit_lock);
    free(acc->threads);
    free(acc->limits);
    free(acc);
}

/* Login rate limits. A key's failures are forgotten once its delay is
 * over and login_max_delay seconds pass with no further failure. */
static struct limit *limit_find(struct accounts *acc, const char *key, int create, long long now)
{
    struct limit *oldest = NULL;
    for (size_t i = 0; i < LIMIT_SLOTS; i++) {
        struct limit *l = &acc->limits[i];
        if (l->key[0] && now - (l->until > l->last ? l->until : l->last) >
                             acc->cfg.login_max_delay)
            l->key[0] = '\0';
        if (l->key[0] && strcmp(l->key, key) == 0)
            return l;
        if (!oldest || (oldest->key[0] && (!l->key[0] || l->last < oldest->last)))
            oldest = l;
    }
    if (!create)
        return NULL;
    /* Full: the entry idle longest makes room. */
    memset(oldest, 0, sizeof *oldest);
    snprintf(oldest->key, sizeof oldest->key, "%s", key);
    return oldest;
}

/* Seconds until key may try again, 0 if now. */
static long limit_wait(struct accounts *acc, const char *key, long long now)
{
    struct limit *l = limit_find(acc, key, 0, now);
    return l && l->until > now ? (long)(l->until - now) : 0;
}

/* Counts a failure; the delay it starts in seconds (0: none yet). */
static long limit_fail(struct accounts *acc, const char *key, long long now)
{
    struct limit *l = limit_find(acc, key, 1, now);
    l->failures++;
    l->last = now;
    if (l->failures <= acc->cfg.login_free)
        return 0;
    unsigned over = l->failures - acc->cfg.login_free - 1;
    long delay = acc->cfg.login_delay;
    for (unsigned i = 0; i < over && delay < acc->cfg.login_max_delay; i++)
        delay *= 2;
    if (delay > acc->cfg.login_max_delay)
        delay = acc->cfg.login_max_delay;
    l->until = now + delay;
    return delay;
}

/* step (limit_wait or limit_fail) on the address's limit and, when the
 * name is shaped as one, the account's, under the lock: the larger delay. */
static long limit_both(struct accounts *acc,
                       long (*step)(struct accounts *, const char *, long long),
                       const char *addr_limit, const char *name_limit, long long now)
{
    pthread_mutex_lock(&acc->limit_lock);
    long delay = step(acc, addr_limit, now);
    if (name_limit) {
        long d = step(acc, name_limit, now);
        delay = d > delay ? d : delay;
    }
    pthread_mutex_unlock(&acc->limit_lock);
    return delay;
}

static void limit_clear(struct accounts *acc, const char *key, long long now)
{
    struct limit *l = limit_find(acc, key, 0, now);
    if (l)
        l->key[0] = '\0';
}

/* Checks a name: 0, or -1 with the reason in why. The key is the name in
 * lower case, the form that is unique. */
static int check_name(const json_t *name, char key[ACCOUNT_NAME_MAX + 1], const char **why)
{
    *why = "a name is 3 to 24 characters from A-Z a-z 0-9 _ -";
    if (!json_is_string(name))
        return -1;
    const char *s = json_string_value(name);
    size_t len = json_string_length(name);
    if (len < ACCOUNT_NAME_MIN || len > ACCOUNT_NAME_MAX)
        return -1;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return -1;
        key[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    key[len] = '\0';
    return 0;
}

static int check_password(const json_t *pw, const char **why)
{
    *why = "a password is a string of 8 to 1024 bytes";
    if (!json_is_string(pw))
        return -1;
    size_t len = json_string_length(pw);
    if (len < PASSWORD_MIN || len > PASSWORD_MAX)
        return -1;
    if (strlen(json_string_value(pw)) != len) {
        *why = "a password has no NUL bytes";
        return -1;
    }
    return 0;
}

/* The body of the account routes: an object of name and password only. */
static int check_body(json_t *body, struct account_reply *out)
{
    const char *key;
    json_t *value;
    if (!json_is_object(body)) {
        out->reply = error_reply(400, "TTT_E_INVALID", TTT_E_INVALID,
                                 "the body must be a JSON object");
        return -1;
    }
    json_object_foreach(body, key, value) {
        if (strcmp(key, "name") != 0 && strcmp(key, "password") != 0) {
            out->reply = error_reply(422, "TTT_E_INVALID", TTT_E_INVALID,
                                     "unknown field \"%.40s\"", key);
            return -1;
        }
    }
    return 0;
}

static struct account_reply busy(void)
{
    struct account_reply out = {.retry_after = 1};
    out.reply = error_reply(503, "busy", 503, "the server is busy checking passwords; retry");
    return out;
}

struct account_reply accounts_create(struct accounts *acc, json_t *body)
{
    struct account_reply out = {0};
    if (check_body(body, &out) != 0)
        return out;
    char key[ACCOUNT_NAME_MAX + 1];
    const char *why;
    json_t *jname = json_object_get(body, "name"), *jpw = json_object_get(body, "password");
    if (check_name(jname, key, &why) != 0) {
        out.reply = error_reply(422, "TTT_E_NAME", TTT_E_NAME, "%s", why);
        json_object_set_new(out.reply.body, "field", json_string("name"));
        return out;
    }
    if (check_password(jpw, &why) != 0) {
        out.reply = error_reply(422, "TTT_E_INVALID", TTT_E_INVALID, "%s", why);
        json_object_set_new(out.reply.body, "field", json_string("password"));
        return out;
    }
    struct hash_job job = {.password = json_string_value(jpw), .len = json_string_length(jpw)};
    if (run_hash(acc, &job) != 0)
        return busy();
    if (!job.ok) {
        out.reply = error_reply(503, "hash_failed", 503, "the password could not be hashed");
        return out;
    }
    int rc = acc->db->ops->add_account(acc->db, json_string_value(jname), key, job.out,
                                       (long long)time(NULL));
    explicit_bzero(job.out, sizeof job.out);
    if (rc == 0)
        out.reply = (struct reply){201, json_pack("{s:s}", "name", json_string_value(jname)),
                                   NULL};
    else if (rc == 1)
        out.reply = error_reply(409, "name_taken", 409, "the name %s is taken", key);
    else
        out.reply = error_reply(503, "store_failed", 503, "the account could not be stored");
    return out;
}

/* The stored form of a session token: Argon2id with one pass over 8 KiB
 * and a fixed salt. The token's 128 random bits need no slow hash; this
 * only keeps a copy of the table from being a set of live tokens. */
static int token_hash(const char *token, size_t len, char hex[65])
{
    static const char salt[] = "ttt-server-session";
    unsigned char raw[32];
    if (argon2id_hash_raw(1, 8, 1, token, len, salt, sizeof salt - 1, raw, sizeof raw) !=
        ARGON2_OK)
        return -1;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

static int token_shape(const char *token, size_t len)
{
    if (!token || len != 32)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((token[i] >= '0' && token[i] <= '9') || (token[i] >= 'a' && token[i] <= 'f')))
            return 0;
    return 1;
}

int accounts_session(struct accounts *acc, const char *token, size_t len, struct account *out)
{
    char hash[65];
    if (!token_shape(token, len) || token_hash(token, len, hash) != 0)
        return 0;
    int found = acc->db->ops->session(acc->db, hash, (long long)time(NULL), out);
    if (found == 1)
        memcpy(out->session, hash, sizeof out->session);
    return found;
}

int accounts_session_lasts(struct accounts *acc, const char *session)
{
    struct account a;
    return acc->db->ops->session(acc->db, session, (long long)time(NULL), &a);
}

int accounts_rated_add(struct accounts *acc, const char *game_id, long long x_account)
{
    return acc->db->ops->rated_add(acc->db, game_id, x_account);
}

int accounts_rated_seats(struct accounts *acc, const char *game_id, long long seats[2])
{
    return acc->db->ops->rated_seats(acc->db, game_id, seats);
}

int accounts_rated_join(struct accounts *acc, const char *game_id, const struct account *joiner)
{
    return acc->db->ops->rated_join(acc->db, game_id, joiner->id);
}

int accounts_rated_leave(struct accounts *acc, const char *game_id, long long account)
{
    return acc->db->ops->rated_leave(acc->db, game_id, account);
}

int accounts_rated_o_name(struct accounts *acc, const char *game_id,
                          char name[ACCOUNT_NAME_MAX + 1])
{
    return acc->db->ops->rated_o_name(acc->db, game_id, name);
}

static struct account_reply wrong_login(long delay)
{
    struct account_reply out = {.retry_after = delay};
    out.reply = error_reply(401, "wrong_login", 401, "wrong name or password");
    return out;
}

struct account_reply accounts_login(struct accounts *acc, json_t *body, const char *address)
{
    struct account_reply out = {0};
    if (check_body(body, &out) != 0)
        return out;
    json_t *jname = json_object_get(body, "name"), *jpw = json_object_get(body, "password");
    const char *why;
    if (!json_is_string(jname) || json_string_length(jname) > 256) {
        out.reply = error_reply(422, "TTT_E_NAME", TTT_E_NAME, "name must be a string");
        return out;
    }
    if (check_password(jpw, &why) != 0) {
        /* Too long or not a string: refused before any hashing. */
        out.reply = error_reply(422, "TTT_E_INVALID", TTT_E_INVALID, "%s", why);
        return out;
    }
    char key[ACCOUNT_NAME_MAX + 1] = "", name_limit[72], addr_limit[72];
    int shaped = check_name(jname, key, &why) == 0;
    snprintf(name_limit, sizeof name_limit, "n:%s", shaped ? key : "");
    snprintf(addr_limit, sizeof addr_limit, "a:%s", address);

    long long now = mono_seconds();
    long wait = limit_both(acc, limit_wait, addr_limit, shaped ? name_limit : NULL, now);
    if (wait > 0) {
        out.retry_after = wait;
        out.reply = error_reply(429, "too_many_failures", 429,
                                "too many failed logins; retry in %ld s", wait);
        json_object_set_new(out.reply.body, "retry_after", json_integer(wait));
        return out;
    }

    struct account a = {0};
    char hash[192];
    int found = shaped ? acc->db->ops->find_account(acc->db, key, &a, hash, sizeof hash) : 0;
    if (found < 0) {
        out.reply = error_reply(503, "store_failed", 503, "the accounts could not be read");
        return out;
    }
    struct hash_job job = {.password = json_string_value(jpw), .len = json_string_length(jpw),
                           .encoded = found ? hash : acc->dummy};
    if (run_hash(acc, &job) != 0)
        return busy();
    now = mono_seconds();
    if (!found || !job.ok) {
        return wrong_login(
            limit_both(acc, limit_fail, addr_limit, shaped ? name_limit : NULL, now));
    }
    pthread_mutex_lock(&acc->limit_lock);
    limit_clear(acc, name_limit, now);
    pthread_mutex_unlock(&acc->limit_lock);

    /* A hash made with other parameters than today's is made again. */
    if (!strstr(hash, acc->params)) {
        struct hash_job again = {.password = job.password, .len = job.len};
        if (run_hash(acc, &again) == 0 && again.ok)
            acc->db->ops->set_hash(acc->db, a.id, again.out);
        explicit_bzero(again.out, sizeof again.out);
    }
    explicit_bzero(hash, sizeof hash);

    unsigned char raw[16];
    char token[33], th[65];
    if (random_bytes(raw, sizeof raw) != 0) {
        out.reply = error_reply(503, "no_randomness", 503, "no random bytes for a token");
        return out;
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(token + 2 * i, 3, "%02x", raw[i]);
    long long wall = (long long)time(NULL), expires = wall + acc->cfg.session_lifetime;
    /* Sessions that ended and were never used again go with a login, so the
     * table holds live sessions and the ones a login will sweep (by the
     * index). */
    if (token_hash(token, 32, th) != 0 ||
        acc->db->ops->add_session(acc->db, th, a.id, expires, wall) != 0) {
        out.reply = error_reply(503, "store_failed", 503, "the session could not be stored");
        return out;
    }
    out.reply = (struct reply){201, json_pack("{s:s, s:s, s:I}", "token", token, "name", a.name,
                                              "expires", (json_int_t)expires), NULL};
    snprintf(out.cookie, sizeof out.cookie,
             "ttt_session=%s; Path=/api; Max-Age=%ld; HttpOnly; SameSite=Strict", token,
             acc->cfg.session_lifetime);
    explicit_bzero(token, sizeof token);
    return out;
}

static struct account_reply no_session(void)
{
    struct account_reply out = {0};
    out.reply = error_reply(401, "unauthorized", 401,
                            "log in first: send the session token as Authorization: Bearer"
                            " <token> or the ttt_session cookie");
    return out;
}

/* The 503 of a session that could not be read. */
static struct account_reply unreadable(void)
{
    struct account_reply out = {.retry_after = 1};
    out.reply = error_reply(503, "store_failed", 503, "the session could not be read");
    return out;
}

struct account_reply accounts_current(struct accounts *acc, const char *token, size_t len)
{
    struct account a;
    int found = accounts_session(acc, token, len, &a);
    if (found != 1)
        return found < 0 ? unreadable() : no_session();
    struct account_reply out = {0};
    out.reply = (struct reply){200, json_pack("{s:s, s:I}", "name", a.name, "expires",
                                              (json_int_t)a.expires), NULL};
    return out;
}

struct account_reply accounts_logout(struct accounts *acc, const char *token, size_t len)
{
    struct account a;
    int found = accounts_session(acc, token, len, &a);
    if (found != 1)
        return found < 0 ? unreadable() : no_session();
    struct account_reply out = {0};
    if (acc->db->ops->end_session(acc->db, a.session) != 0) {
        out.reply = error_reply(503, "store_failed", 503, "the session could not be ended");
        return out;
    }
    out.reply = (struct reply){200, json_pack("{s:s}", "status", "logged_out"), NULL};
    snprintf(out.cookie, sizeof out.cookie,
             "ttt_session=; Path=/api; Max-Age=0; HttpOnly; SameSite=Strict");
    return out;
}

const char *accounts_request_token(struct MHD_Connection *conn, size_t *len)
{
    const char *auth = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
    const char *token = NULL;
    /* The scheme's name is case-insensitive (RFC 9110, 11.1). */
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
        token = auth + 7;
        while (*token == ' ')
            token++;
    } else {
        token = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "ttt_session");
    }
    *len = token ? strlen(token) : 0;
    return token;
}

/* Sends a reply with the headers the account routes add. */
static enum MHD_Result send_account_reply(struct MHD_Connection *conn, struct account_reply r)
{
    size_t len;
    char *line = reply_line(r.reply, &len);
    if (!line)
        return MHD_NO;
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, line, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(line);
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "application/json");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (r.reply.http == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer");
    if (r.cookie[0])
        MHD_add_response_header(resp, "Set-Cookie", r.cookie);
    if (r.retry_after > 0) {
        char secs[24];
        snprintf(secs, sizeof secs, "%ld", r.retry_after);
        MHD_add_response_header(resp, "Retry-After", secs);
    }
    explicit_bzero(r.cookie, sizeof r.cookie);
    enum MHD_Result rc = MHD_queue_response(conn, (unsigned)r.reply.http, resp);
    MHD_destroy_response(resp);
    return rc;
}

static struct account_reply plain(struct reply r)
{
    struct account_reply out = {.reply = r};
    return out;
}

enum MHD_Result accounts_route(struct server *srv, struct MHD_Connection *conn, const char *path,
                               const char *method, const char *body, size_t len)
{
    struct accounts *acc = srv->accounts;
    if (!acc)
        return send_account_reply(conn, plain(error_reply(503, "no_accounts", 503,
                                  "the account tables did not open (--salvage); see the log")));
    int post = strcmp(method, "POST") == 0;
    int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    int del = strcmp(method, "DELETE") == 0;
    if (strcmp(path, "sessions/current") == 0) {
        size_t tlen;
        const char *token = accounts_request_token(conn, &tlen);
        if (get)
            return send_account_reply(conn, accounts_current(acc, token, tlen));
        if (del)
            return send_account_reply(conn, accounts_logout(acc, token, tlen));
        return send_account_reply(conn, plain(error_reply(405, "method_not_allowed", 405,
                                                          "this route takes another method")));
    }
    int create = strcmp(path, "accounts") == 0, login = strcmp(path, "sessions") == 0;
    if (!create && !login)
        return send_account_reply(conn, plain(error_reply(404, "not_found", 404,
                                                          "no such route")));
    if (!post)
        return send_account_reply(conn, plain(error_reply(405, "method_not_allowed", 405,
                                                          "this route takes another method")));
    struct reply err;
    if (!json_content(conn, &err))
        return send_account_reply(conn, plain(err));
    json_error_t jerr;
    json_t *req = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req)
        return send_account_reply(conn, plain(error_reply(400, "TTT_E_PARSE", TTT_E_PARSE,
                                                          "malformed JSON at byte %d: %s",
                                                          jerr.position, jerr.text)));
    struct account_reply r;
    if (create) {
        r = accounts_create(acc, req);
    } else {
        struct addr_key key;
        char text[INET6_ADDRSTRLEN] = "";
        address_of(conn, &key);
        if (key.len)
            inet_ntop(key.len == 4 ? AF_INET : AF_INET6, key.bytes, text, sizeof text);
        r = accounts_login(acc, req, text);
    }
    /* The password's copy in the parsed body is wiped before it is freed. */
    json_t *pw = json_object_get(req, "password");
    if (json_is_string(pw))
        explicit_bzero((char *)(uintptr_t)json_string_value(pw), json_string_length(pw));
    json_decref(req);
    return send_account_reply(conn, r);
}
