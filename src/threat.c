/* threat.c - threat-space search: VCF (victory by continuous fours) on a board of its own, and the strong bot's root check (play our VCF, stop the opponent's). */
#include <string.h>

#include "threat.h"

#define VCF_MAX_DEPTH 48   /* attacker moves in one line */
#define VCF_WIDTH 64       /* fours tried at one node */
#define REFUTED_SLOTS 16384 /* positions known to hold no VCF (power of 2) */
#define DEFENCE_MAX 128    /* answers tried against the opponent's VCF */

static const int32_t step_row[4] = {0, 1, 1, 1};
static const int32_t step_col[4] = {1, 0, 1, -1};

typedef struct tboard {
    int32_t width, height, k, cells_n;
    int32_t rows[4], cols[4], col0[4], base[4]; /* window starts per direction */
    int8_t *cells;
    int16_t *counts;       /* 2 per window: X's marks, O's marks */
    int32_t *played[2];    /* each side's marks, in the order placed */
    int32_t played_count[2];
    uint32_t *stamp;       /* per cell: dedupe of candidate lists */
    uint32_t stamp_now;
    int32_t *candidates;   /* VCF_MAX_DEPTH * VCF_WIDTH */
    uint64_t *refuted;     /* REFUTED_SLOTS keys */
    uint64_t key;
    uint64_t nodes, budget;
    int stopped;
    int32_t line[2 * VCF_MAX_DEPTH + 2]; /* the VCF found: attacker, reply, ... */
    int32_t line_len;
} tboard;

/* A pseudo-random key term for a mark of p on cell (splitmix64): no
 * table, no state. */
static uint64_t key_term(int32_t cell, int p)
{
    uint64_t z = (uint64_t)cell * 2 + (uint64_t)p + UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static size_t window_total(const tboard *t)
{
    return (size_t)t->base[3] + (size_t)t->rows[3] * (size_t)t->cols[3];
}

static void layout(tboard *t, int32_t width, int32_t height, int32_t k)
{
    t->width = width;
    t->height = height;
    t->k = k;
    t->cells_n = width * height;
    int32_t base = 0;
    for (int d = 0; d < 4; d++) {
        t->rows[d] = step_row[d] ? height - k + 1 : height;
        t->cols[d] = step_col[d] ? width - k + 1 : width;
        if (t->rows[d] < 0 || t->cols[d] < 0)
            t->rows[d] = t->cols[d] = 0;
        t->col0[d] = step_col[d] < 0 ? k - 1 : 0;
        t->base[d] = base;
        base += t->rows[d] * t->cols[d];
    }
}

static void carve_board(carver *carver, tboard *t)
{
    size_t cells = (size_t)t->cells_n;
    t->cells = carve(carver, cells, 1);
    t->counts = carve(carver, window_total(t), 2 * sizeof(int16_t));
    t->played[0] = carve(carver, cells, sizeof(int32_t));
    t->played[1] = carve(carver, cells, sizeof(int32_t));
    t->stamp = carve(carver, cells, sizeof(uint32_t));
    t->candidates = carve(carver, (size_t)VCF_MAX_DEPTH * VCF_WIDTH, sizeof(int32_t));
    t->refuted = carve(carver, REFUTED_SLOTS, sizeof(uint64_t));
}

/* The window of direction d starting at (row, col), or -1 off the board. */
static int32_t window_at(const tboard *t, int d, int32_t row, int32_t col)
{
    int32_t c = col - t->col0[d];
    if (row < 0 || row >= t->rows[d] || c < 0 || c >= t->cols[d])
        return -1;
    return t->base[d] + row * t->cols[d] + c;
}

static void change(tboard *t, int32_t cell, int p, int16_t delta)
{
    int32_t row = cell / t->width, col = cell % t->width;
    for (int d = 0; d < 4; d++) {
        for (int32_t i = 0; i < t->k; i++) {
            int32_t w = window_at(t, d, row - i * step_row[d], col - i * step_col[d]);
            if (w >= 0)
                t->counts[2 * w + p] = (int16_t)(t->counts[2 * w + p] + delta);
        }
    }
    t->key ^= key_term(cell, p);
}

static void place(tboard *t, int32_t cell, int p)
{
    t->cells[cell] = (int8_t)ttt__mark_of(p);
    t->played[p][t->played_count[p]++] = cell;
    change(t, cell, p, 1);
}

/* Removes the last mark placed (the search undoes in order). */
static void take_back(tboard *t, int32_t cell, int p)
{
    t->cells[cell] = TTT_EMPTY;
    t->played_count[p]--;
    change(t, cell, p, -1);
}

/* Calls each window through p's marks holding `marks` of p and none of the
 * other side, with its first cell and step; windows through several marks
 * come more than once. visit returns 0 to stop; so does this. */
typedef int (*window_visit)(tboard *t, int32_t start, int32_t step, void *user);

static int windows_near(tboard *t, int p, int32_t marks, window_visit visit, void *user)
{
    for (int32_t m = 0; m < t->played_count[p]; m++) {
        int32_t cell = t->played[p][m];
        int32_t row = cell / t->width, col = cell % t->width;
        for (int d = 0; d < 4; d++) {
            for (int32_t i = 0; i < t->k; i++) {
                int32_t srow = row - i * step_row[d], scol = col - i * step_col[d];
                int32_t w = window_at(t, d, srow, scol);
                if (w < 0 || t->counts[2 * w + p] != marks || t->counts[2 * w + 1 - p] != 0)
                    continue;
                if (!visit(t, srow * t->width + scol, step_row[d] * t->width + step_col[d], user))
                    return 0;
            }
        }
    }
    return 1;
}

typedef struct completions {
    int32_t count; /* distinct cells found, at most 2 */
    int32_t first;
} completions;

static int visit_completion(tboard *t, int32_t start, int32_t step, void *user)
{
    completions *found = user;
    for (int32_t i = 0; i < t->k; i++) {
        int32_t cell = start + i * step;
        if (t->cells[cell] != TTT_EMPTY)
            continue;
        if (found->count == 0) {
            found->count = 1;
            found->first = cell;
        } else if (cell != found->first) {
            found->count = 2;
            return 0;
        }
    }
    return 1;
}

/* p's completion cells: 0, 1 (into *cell) or 2 meaning two or more. */
static int32_t completion_cells(tboard *t, int p, int32_t *cell)
{
    completions found = {0, -1};
    windows_near(t, p, t->k - 1, visit_completion, &found);
    *cell = found.first;
    return found.count;
}

typedef struct four_list {
    int32_t *cells;
    int32_t count;
} four_list;

static int visit_four(tboard *t, int32_t start, int32_t step, void *user)
{
    four_list *list = user;
    for (int32_t i = 0; i < t->k; i++) {
        int32_t cell = start + i * step;
        if (t->cells[cell] != TTT_EMPTY || t->stamp[cell] == t->stamp_now)
            continue;
        t->stamp[cell] = t->stamp_now;
        list->cells[list->count++] = cell;
        if (list->count == VCF_WIDTH)
            return 0;
    }
    return 1;
}

/* The cells where p makes a four (up to VCF_WIDTH), into out. */
static int32_t four_cells(tboard *t, int p, int32_t *out)
{
    if (++t->stamp_now == 0) {
        memset(t->stamp, 0, (size_t)t->cells_n * sizeof(uint32_t));
        t->stamp_now = 1;
    }
    four_list list = {out, 0};
    if (t->k >= 3)
        windows_near(t, p, t->k - 2, visit_four, &list);
    return list.count;
}

static uint64_t *refuted_slot(tboard *t)
{
    return &t->refuted[t->key & (REFUTED_SLOTS - 1)];
}

/* Whether attacker a, to move, wins by fours alone; the line into t->line
 * from index 2 * depth on. */
static int vcf(tboard *t, int a, int depth)
{
    if (t->stopped)
        return 0;
    if (t->nodes >= t->budget) {
        t->stopped = 1;
        return 0;
    }
    t->nodes++;
    int d = 1 - a;
    int32_t cell;
    if (completion_cells(t, a, &cell) > 0) {
        t->line[2 * depth] = cell;
        t->line_len = 2 * depth + 1;
        return 1;
    }
    int32_t must = -1;
    int32_t threats = completion_cells(t, d, &must);
    if (threats >= 2 || depth >= VCF_MAX_DEPTH)
        return 0;
    uint64_t *slot = refuted_slot(t);
    if (*slot == t->key && t->key != 0)
        return 0;
    int32_t *fours = t->candidates + (size_t)depth * VCF_WIDTH;
    int32_t count = four_cells(t, a, fours);
    for (int32_t i = 0; i < count; i++) {
        int32_t move = fours[i];
        if (threats == 1 && move != must)
            continue;
        place(t, move, a);
        int32_t reply;
        int32_t made = completion_cells(t, a, &reply);
        int won = 0;
        if (made >= 2) {
            /* A double four: the defender has no completion cell left (it
             * had none, or this move took it), so one of them wins. */
            t->line[2 * depth] = move;
            t->line_len = 2 * depth + 1;
            won = 1;
        } else if (made == 1) {
            place(t, reply, d);
            won = vcf(t, a, depth + 1);
            take_back(t, reply, d);
            if (won) {
                t->line[2 * depth] = move;
                t->line[2 * depth + 1] = reply;
            }
        }
        take_back(t, move, a);
        if (won)
            return 1;
        if (t->stopped)
            return 0;
    }
    *slot = t->key;
    return 0;
}

/* Runs a VCF search for a within budget more nodes; 1 found. */
static int run_vcf(tboard *t, int a, uint64_t budget)
{
    memset(t->refuted, 0, REFUTED_SLOTS * sizeof(uint64_t));
    t->stopped = 0;
    t->budget = t->nodes + budget;
    t->line_len = 0;
    return vcf(t, a, 0);
}

/* Lays out and fills a board for cells; returns its block or NULL. */
static void *start_board(const ttt_game *game, tboard *t, int32_t width,
                         int32_t height, int32_t k, const int8_t *cells)
{
    memset(t, 0, sizeof *t);
    layout(t, width, height, k);
    carver sizes = {NULL, 0, 0};
    carve_board(&sizes, t);
    if (sizes.overflow)
        return NULL;
    void *block = engine_alloc(game, sizes.used);
    if (!block)
        return NULL;
    carver parts = {block, 0, 0};
    carve_board(&parts, t);
    memset(t->cells, 0, (size_t)t->cells_n);
    memset(t->counts, 0, window_total(t) * 2 * sizeof(int16_t));
    memset(t->stamp, 0, (size_t)t->cells_n * sizeof(uint32_t));
    for (int32_t cell = 0; cell < t->cells_n; cell++) {
        if (cells[cell] != TTT_EMPTY)
            place(t, cell, ttt__player_of(cells[cell]));
    }
    return block;
}

int ttt__threat_vcf(const ttt_game *game, int32_t width, int32_t height,
                    int32_t k, const int8_t *cells, int attacker,
                    uint64_t budget, int32_t *move, uint64_t *nodes)
{
    tboard t;
    void *block = start_board(game, &t, width, height, k, cells);
    if (!block)
        return TTT_E_NOMEM;
    int found = run_vcf(&t, ttt__player_of(attacker), budget);
    *move = found ? t.line[0] : -1;
    *nodes = t.nodes;
    engine_free(game, block);
    return found;
}

/* Adds cell to the answers to try, once. */
static void add_answer(tboard *t, int32_t *answers, int32_t *count, int32_t cell)
{
    if (*count >= DEFENCE_MAX || t->cells[cell] != TTT_EMPTY || t->stamp[cell] == t->stamp_now)
        return;
    t->stamp[cell] = t->stamp_now;
    answers[(*count)++] = cell;
}

int ttt__threat_root_search(const ttt_game *game, int32_t width,
                            int32_t height, const snapshot *snap,
                            uint64_t budget, threat_root *out)
{
    out->kind = THREAT_NONE;
    out->move = -1;
    out->nodes = 0;
    out->safe = NULL;
    tboard t;
    void *block = start_board(game, &t, width, height, snap->k, snap->cells);
    if (!block)
        return TTT_E_NOMEM;
    int me = snap->ply & 1, opp = 1 - me;

    /* Ours first, with half the budget. */
    if (run_vcf(&t, me, budget / 2)) {
        out->kind = THREAT_WIN;
        out->move = t.line[0];
        out->nodes = t.nodes;
        engine_free(game, block);
        return TTT_OK;
    }
    /* The opponent's, as if we passed. */
    if (!run_vcf(&t, opp, (budget - t.nodes) / 2)) {
        out->nodes = t.nodes;
        engine_free(game, block);
        return TTT_OK;
    }

    /* Answers: the cells of its line, our own fours (which it must answer
     * first), then the cells along the lines of its moves within K - 1
     * of them (where the fours it makes, and the last double four, lie). */
    int32_t answers[DEFENCE_MAX];
    int32_t count = 0;
    int32_t line[2 * VCF_MAX_DEPTH + 2];
    int32_t line_len = t.line_len;
    memcpy(line, t.line, (size_t)line_len * sizeof(int32_t));
    int32_t fours[VCF_WIDTH];
    int32_t four_count = four_cells(&t, me, fours);
    if (++t.stamp_now == 0) {
        memset(t.stamp, 0, (size_t)t.cells_n * sizeof(uint32_t));
        t.stamp_now = 1;
    }
    for (int32_t i = 0; i < line_len; i++)
        add_answer(&t, answers, &count, line[i]);
    for (int32_t i = 0; i < four_count; i++)
        add_answer(&t, answers, &count, fours[i]);
    for (int32_t i = 0; i < line_len; i += 2) {
        int32_t row = line[i] / t.width, col = line[i] % t.width;
        for (int d = 0; d < 4; d++) {
            for (int32_t off = 1 - t.k; off < t.k; off++) {
                int32_t r = row + off * step_row[d], c = col + off * step_col[d];
                if (r >= 0 && r < t.height && c >= 0 && c < t.width)
                    add_answer(&t, answers, &count, r * t.width + c);
            }
        }
    }

    uint8_t *safe = engine_alloc(game, (size_t)t.cells_n);
    if (!safe) {
        engine_free(game, block);
        return TTT_E_NOMEM;
    }
    memset(safe, 0, (size_t)t.cells_n);
    int any = 0;
    for (int32_t i = 0; i < count && t.nodes < budget; i++) {
        int32_t cell = answers[i];
        place(&t, cell, me);
        int32_t block_cell = -1;
        int32_t made = completion_cells(&t, me, &block_cell);
        if (made == 1)
            place(&t, block_cell, opp); /* our four: its block comes first */
        uint64_t share = (budget - t.nodes) / (uint64_t)(count - i);
        /* Safe only if the search ended without finding one. */
        int unsafe = made >= 2 ? 0 : run_vcf(&t, opp, share) || t.stopped;
        if (made == 1)
            take_back(&t, block_cell, opp);
        take_back(&t, cell, me);
        if (!unsafe) {
            safe[cell] = 1;
            any = 1;
        }
    }
    out->nodes = t.nodes;
    engine_free(game, block);
    if (!any) {
        /* Nothing found stops it: the usual search plays on. */
        engine_free(game, safe);
        return TTT_OK;
    }
    out->kind = THREAT_DEFEND;
    out->safe = safe;
    return TTT_OK;
}

void ttt__threat_release(const ttt_game *game, threat_root *out)
{
    engine_free(game, out->safe);
    out->safe = NULL;
}
