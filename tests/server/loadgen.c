/* loadgen.c - ttt-server-load: C connections playing random moves over G games on a running ttt-server (moves/s, p50/p99), or holding G idle clocked games (the server's CPU). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define BUCKETS 200000 /* latency histogram: 1 us buckets up to 200 ms */
#define MAX_CELLS 1024

struct game {
    char id[32], token[2][40];
    int ply, free_count;
    short *free_cells; /* width * height of them */
};

struct worker {
    pthread_t thread;
    struct game *games;
    int count, fd;
    uint64_t rng;
    unsigned long long moves, created, failures;
    unsigned *histogram; /* BUCKETS + 1 (the last: 200 ms and more) */
};

static int port = 8080, width = 9, height = 9, k = 5;
/* --clock S+I: every game gets a Fischer clock; --idle: the games are
 * started (one move each, so their clocks run) and left alone while the
 * server's CPU (--server-pid) is measured. */
static int clock_initial, clock_increment, idle, server_pid;
static double seconds = 10, deadline;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds used by this process (every thread), user plus system. */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int connect_server(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {10, 0};
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* One request on the worker's connection; the status, the body in body
 * (NUL-terminated, at most cap - 1 bytes), or -1. */
static int request(int fd, const char *path, const char *token, const char *json, char *body,
                   size_t cap)
{
    char out[1024];
    int n = snprintf(out, sizeof out,
                     "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "%s%s%sContent-Length: %zu\r\n\r\n%s", path,
                     token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", strlen(json), json);
    if (n < 0 || (size_t)n >= sizeof out || write(fd, out, (size_t)n) != n)
        return -1;
    static __thread char in[65536];
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        ssize_t got = read(fd, in + have, sizeof in - 1 - have);
        if (got <= 0)
            return -1;
        have += (size_t)got;
        in[have] = '\0';
        end = strstr(in, "\r\n\r\n");
        if (!end && have == sizeof in - 1)
            return -1;
    }
    int status = atoi(in + 9);
    char *length = strcasestr(in, "Content-Length:");
    size_t want = length && length < end ? strtoul(length + 15, NULL, 10) : 0;
    size_t head = (size_t)(end + 4 - in);
    if (head + want > sizeof in - 1)
        return -1;
    while (have < head + want) {
        ssize_t got = read(fd, in + have, head + want - have);
        if (got <= 0)
            return -1;
        have += (size_t)got;
    }
    size_t copy = want < cap - 1 ? want : cap - 1;
    memcpy(body, in + head, copy);
    body[copy] = '\0';
    return status;
}

static int copy_field(const char *body, const char *key, char *out, size_t cap)
{
    const char *p = strstr(body, key);
    if (!p)
        return -1;
    p += strlen(key);
    size_t i = 0;
    while (p[i] && p[i] != '"' && i + 1 < cap) {
        out[i] = p[i];
        i++;
    }
    out[i] = '\0';
    return 0;
}

static int create_game(int fd, struct game *g, uint64_t *rng)
{
    char json[256], clock[96] = "", body[8192];
    if (clock_initial > 0)
        snprintf(clock, sizeof clock, ",\"clock\":{\"initial_s\":%d,\"increment_s\":%d}",
                 clock_initial, clock_increment);
    snprintf(json, sizeof json, "{\"width\":%d,\"height\":%d,\"k\":%d,"
             "\"x\":{\"name\":\"load-x\"},\"o\":{\"name\":\"load-o\"}%s}", width, height, k,
             clock);
    if (!g->free_cells && !(g->free_cells = malloc((size_t)(width * height) * sizeof(short))))
        return -1;
    if (request(fd, "/api/games", NULL, json, body, sizeof body) != 201 ||
        copy_field(body, "\"id\":\"", g->id, sizeof g->id) ||
        copy_field(body, "\"x\":\"", g->token[0], sizeof g->token[0]) ||
        copy_field(body, "\"o\":\"", g->token[1], sizeof g->token[1]))
        return -1;
    g->ply = 0;
    g->free_count = width * height;
    for (int i = 0; i < g->free_count; i++)
        g->free_cells[i] = (short)i;
    for (int i = g->free_count - 1; i > 0; i--) {
        int j = (int)(next_random(rng) % (uint64_t)(i + 1));
        short t = g->free_cells[i];
        g->free_cells[i] = g->free_cells[j];
        g->free_cells[j] = t;
    }
    return 0;
}

static void cell_name(int cell, char *out)
{
    int col = cell % width, row = cell / width;
    char letters[8];
    int n = 0;
    for (int c = col + 1; c > 0; c = (c - 1) / 26)
        letters[n++] = (char)('a' + (c - 1) % 26);
    int i = 0;
    while (n > 0)
        out[i++] = letters[--n];
    sprintf(out + i, "%d", row + 1);
}

/* Plays g's next move (a random free cell); the status, the body in body. */
static int play_next(int fd, struct game *g, char *body, size_t cap)
{
    char path[96], json[96], cell[16];
    cell_name(g->free_cells[--g->free_count], cell);
    snprintf(path, sizeof path, "/api/games/%s/moves", g->id);
    snprintf(json, sizeof json, "{\"ply\":%d,\"cell\":\"%s\"}", g->ply, cell);
    return request(fd, path, g->token[g->ply % 2], json, body, cap);
}

/* Creates a worker's games (with --idle, each one started by a move). */
static void *setup_worker(void *arg)
{
    struct worker *w = arg;
    char body[65536];
    for (int i = 0; i < w->count; i++) {
        if (create_game(w->fd, &w->games[i], &w->rng) != 0 ||
            (idle && play_next(w->fd, &w->games[i], body, sizeof body) != 200)) {
            w->failures++;
            break;
        }
        w->games[i].ply += idle;
    }
    return NULL;
}

/* The CPU seconds the server process has used (user plus system), or -1. */
static double server_cpu_seconds(void)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", server_pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    char *p = strrchr(text, ')'); /* after the command's name: fields 3 on */
    unsigned long long utime, stime;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                     &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* The server's resident memory in kB, or -1. */
static long server_rss_kb(void)
{
    char path[64], line[256];
    long kb = -1;
    snprintf(path, sizeof path, "/proc/%d/status", server_pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

/* --idle: nobody moves for the given seconds while the server holds the
 * games' clocks; prints the server's CPU time meanwhile. 0, or -1. */
static int idle_phase(int games)
{
    long rss = server_rss_kb();
    double start = now(), cpu = server_cpu_seconds();
    struct timespec rest = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&rest, NULL);
    double elapsed = now() - start, used = server_cpu_seconds() - cpu;
    printf("idle: %d clocked games in progress, untouched for %.1f s: the server used "
           "%.3f s of CPU (%.2f%% of a core); %ld kB resident\n", games, elapsed, used,
           100.0 * used / elapsed, rss);
    return cpu < 0 ? -1 : 0;
}

static void *run_worker(void *arg)
{
    struct worker *w = arg;
    char body[65536];
    for (int i = 0; now() < deadline; i = (i + 1) % w->count) {
        struct game *g = &w->games[i];
        double start = now();
        int status = play_next(w->fd, g, body, sizeof body);
        double us = (now() - start) * 1e6;
        if (status != 200) {
            w->failures++;
            fprintf(stderr, "ttt-server-load: a move answered %d: %.200s\n", status, body);
            break;
        }
        w->histogram[us < BUCKETS ? (size_t)us : BUCKETS]++;
        w->moves++;
        g->ply++;
        if (!strstr(body, "\"state\":\"in_progress\"") || g->free_count == 0) {
            if (create_game(w->fd, g, &w->rng) != 0) {
                w->failures++;
                fprintf(stderr, "ttt-server-load: creating a game failed (the server's "
                                "--max-games?)\n");
                break;
            }
            w->created++;
        }
    }
    return NULL;
}

static double percentile(const unsigned long long *h, unsigned long long total, double p)
{
    unsigned long long want = (unsigned long long)(p * (double)total), seen = 0;
    for (size_t i = 0; i <= BUCKETS; i++) {
        seen += h[i];
        if (seen > want)
            return (double)i / 1000.0;
    }
    return BUCKETS / 1000.0;
}

int main(int argc, char **argv)
{
    int games = 1000, conns = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *f = argv[i], *v = argv[i + 1];
        if (!strcmp(f, "--port")) port = atoi(v);
        else if (!strcmp(f, "--games")) games = atoi(v);
        else if (!strcmp(f, "--connections")) conns = atoi(v);
        else if (!strcmp(f, "--seconds")) seconds = atof(v);
        else if (!strcmp(f, "--width")) width = atoi(v);
        else if (!strcmp(f, "--height")) height = atoi(v);
        else if (!strcmp(f, "--k")) k = atoi(v);
        else if (!strcmp(f, "--clock")) {
            if (sscanf(v, "%d+%d", &clock_initial, &clock_increment) != 2)
                clock_initial = -1;
        } else if (!strcmp(f, "--idle")) {
            idle = 1, server_pid = atoi(v);
        } else {
            fprintf(stderr, "usage: ttt-server-load [--port N] [--games G] [--connections C] "
                            "[--seconds S] [--width W] [--height H] [--k K] "
                            "[--clock INITIAL+INCREMENT] [--idle SERVER_PID]\n");
            return 2;
        }
    }
    if (games < 1 || conns < 1 || conns > games || width * height > MAX_CELLS ||
        seconds <= 0 || seconds > 3600 || clock_initial < 0 ||
        (idle && (server_pid <= 0 || clock_initial == 0))) {
        fprintf(stderr, "ttt-server-load: 1 <= connections <= games, at most %d cells, "
                        "0 < seconds <= 3600; --idle needs the server's pid and --clock\n",
                MAX_CELLS);
        return 2;
    }
    struct worker *workers = calloc((size_t)conns, sizeof *workers);
    struct game *all = calloc((size_t)games, sizeof *all);
    if (!workers || !all)
        return 1;
    for (int t = 0; t < conns; t++) {
        struct worker *w = &workers[t];
        w->rng = (uint64_t)t * 7919u + 1;
        w->histogram = calloc(BUCKETS + 1, sizeof *w->histogram);
        w->games = all + (size_t)games * (size_t)t / (size_t)conns;
        w->count = (int)((size_t)games * (size_t)(t + 1) / (size_t)conns -
                         (size_t)games * (size_t)t / (size_t)conns);
        w->fd = connect_server();
        if (w->fd < 0 || !w->histogram) {
            fprintf(stderr, "ttt-server-load: cannot connect to 127.0.0.1:%d\n", port);
            return 1;
        }
    }
    for (int t = 0; t < conns; t++)
        pthread_create(&workers[t].thread, NULL, setup_worker, &workers[t]);
    int setup_failed = 0;
    for (int t = 0; t < conns; t++) {
        pthread_join(workers[t].thread, NULL);
        setup_failed |= workers[t].failures != 0;
    }
    if (setup_failed)
        fprintf(stderr, "ttt-server-load: cannot create (and start) the games (the server's "
                        "--max-games?)\n");
    if (setup_failed || idle) {
        int rc = setup_failed || idle_phase(games) != 0;
        for (int t = 0; t < conns; t++) {
            free(workers[t].histogram);
            close(workers[t].fd);
        }
        for (int i = 0; i < games; i++)
            free(all[i].free_cells);
        free(workers);
        free(all);
        return rc;
    }
    /* The timed phase starts here: a caller measuring the server's CPU
     * time samples it at this line and after the last. */
    printf("load: %d games created; moving for %g s\n", games, seconds);
    fflush(stdout);
    double start = now(), cpu_start = cpu_seconds();
    deadline = start + seconds;
    for (int t = 0; t < conns; t++)
        pthread_create(&workers[t].thread, NULL, run_worker, &workers[t]);
    unsigned long long moves = 0, created = 0, failures = 0;
    unsigned long long *histogram = calloc(BUCKETS + 1, sizeof *histogram);
    for (int t = 0; t < conns; t++) {
        pthread_join(workers[t].thread, NULL);
        moves += workers[t].moves;
        created += workers[t].created;
        failures += workers[t].failures;
        for (size_t i = 0; histogram && i <= BUCKETS; i++)
            histogram[i] += workers[t].histogram[i];
        free(workers[t].histogram);
        close(workers[t].fd);
    }
    double elapsed = now() - start, cpu = cpu_seconds() - cpu_start;
    printf("load: %llu moves acknowledged in %.1f s over %d games and %d connections: "
           "%.0f moves/s, p50 %.2f ms, p99 %.2f ms (%llu games replaced)\n",
           moves, elapsed, games, conns, (double)moves / elapsed,
           histogram ? percentile(histogram, moves, 0.50) : 0.0,
           histogram ? percentile(histogram, moves, 0.99) : 0.0, created);
    printf("load: the client used %.1f s of CPU (%.2f cores)\n", cpu, cpu / elapsed);
    free(histogram);
    free(workers);
    for (int i = 0; i < games; i++)
        free(all[i].free_cells);
    free(all);
    return failures || moves == 0 ? 1 : 0;
}
