/* threat.c - threat-space search: VCF (victory by continuous fours) on a board of its own, and the strong bot's root check (play our VCF, stop the opponent's). */
#include <string.h>

#include "threat.h"

#define VCF_MAX_DEPTH 48   /* attacker moves in one line */
#define VCF_WIDTH 64       /* fours tried at one node */
#define REFUTED_SLOTS 16384 /* positions known to hold no VCF (power of 2) */
#define DEFENCE_MAX 128    /* answers tried against the opponent's VCF */
#define VCT_MAX_DEPTH 6    /* attacker threats in one VCT line */
#define VCT_WIDTH 24       /* threats tried at one VCT node */
#define VCT_VCF_NODES 400  /* nodes for each VCF asked inside a VCT */
#define MARKS_PER_NODE 16  /* marks on the board one node's charge covers */
/* The root searches VCTs only with this many nodes: with fewer they found
 * nothing in play against a Gomocup engine and cost the alpha-beta its
 * nodes (see docs/engine.md's Rapfi match). */
#define VCT_MIN_BUDGET 50000

static const int32_t step_row[4] = {0, 1, 1, 1};
static const int32_t step_col[4] = {1, 0, 1, -1};

typedef struct tboard {
    int32_t width, height, k, cells_n;
    int32_t rows[4], cols[4], col0[4], base[4]; /* window starts per direction */
    int8_t *cells;
    int16_t *counts;       /* 2 per window: X's marks, O's marks */
    int32_t *played[2];    /* each side's marks, in the order placed */
    int32_t played_count[2];
    int32_t open_fours[2];  /* windows of K - 1 marks of p and none of the other */
    int32_t open_threes[2]; /* windows of K - 2 marks of p and none of the other */
    uint32_t *stamp;       /* per cell: dedupe of candidate lists */
    uint32_t stamp_now;
    int32_t *candidates;   /* VCF_MAX_DEPTH * VCF_WIDTH */
    int32_t *threat_moves; /* VCT_MAX_DEPTH * VCT_WIDTH */
    int32_t *answers;      /* VCT_MAX_DEPTH * DEFENCE_MAX */
    uint64_t *refuted;     /* REFUTED_SLOTS keys */
    uint64_t key;
    uint64_t epoch;        /* runs so far: refutations of older runs are stale */
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

static void carve_board(carver *parts, tboard *t)
{
    size_t cells = (size_t)t->cells_n;
    t->cells = carve(parts, cells, 1);
    t->counts = carve(parts, window_total(t), 2 * sizeof(int16_t));
    t->played[0] = carve(parts, cells, sizeof(int32_t));
    t->played[1] = carve(parts, cells, sizeof(int32_t));
    t->stamp = carve(parts, cells, sizeof(uint32_t));
    t->candidates = carve(parts, (size_t)VCF_MAX_DEPTH * VCF_WIDTH, sizeof(int32_t));
    t->threat_moves = carve(parts, (size_t)VCT_MAX_DEPTH * VCT_WIDTH, sizeof(int32_t));
    t->answers = carve(parts, (size_t)VCT_MAX_DEPTH * DEFENCE_MAX, sizeof(int32_t));
    t->refuted = carve(parts, REFUTED_SLOTS, sizeof(uint64_t));
}

/* The window of direction d starting at (row, col), or -1 off the board. */
static int32_t window_at(const tboard *t, int d, int32_t row, int32_t col)
{
    int32_t c = col - t->col0[d];
    if (row < 0 || row >= t->rows[d] || c < 0 || c >= t->cols[d])
        return -1;
    return t->base[d] + row * t->cols[d] + c;
}

/* Adds sign times window w's share of the open-window counters. */
static void count_window(tboard *t, int32_t w, int32_t sign)
{
    for (int p = 0; p < 2; p++) {
        if (t->counts[2 * w + 1 - p] != 0)
            continue;
        int32_t marks = t->counts[2 * w + p];
        if (marks == t->k - 1)
            t->open_fours[p] += sign;
        else if (marks == t->k - 2)
            t->open_threes[p] += sign;
    }
}

static void change(tboard *t, int32_t cell, int p, int16_t delta)
{
    int32_t row = cell / t->width, col = cell % t->width;
    for (int d = 0; d < 4; d++) {
        for (int32_t i = 0; i < t->k; i++) {
            int32_t w = window_at(t, d, row - i * step_row[d], col - i * step_col[d]);
            if (w < 0)
                continue;
            count_window(t, w, -1);
            t->counts[2 * w + p] = (int16_t)(t->counts[2 * w + p] + delta);
            count_window(t, w, 1);
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
    if (t->open_fours[p] > 0)
        windows_near(t, p, t->k - 1, visit_completion, &found);
    *cell = found.first;
    return found.count;
}

typedef struct four_list {
    int32_t *cells;
    int32_t count;
    int32_t cap;
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
        if (list->count == list->cap)
            return 0;
    }
    return 1;
}

static void new_stamp(tboard *t)
{
    if (++t->stamp_now == 0) {
        memset(t->stamp, 0, (size_t)t->cells_n * sizeof(uint32_t));
        t->stamp_now = 1;
    }
}

/* The cells where p makes a four (up to VCF_WIDTH), into out. */
static int32_t four_cells(tboard *t, int p, int32_t *out)
{
    new_stamp(t);
    four_list list = {out, 0, VCF_WIDTH};
    if (t->k >= 3 && t->open_threes[p] > 0)
        windows_near(t, p, t->k - 2, visit_four, &list);
    return list.count;
}

/* The cells where p makes a four or a three (a window of K - 2 marks and
 * two empty cells), fours first, up to VCT_WIDTH, into out. */
static int32_t threat_cells(tboard *t, int p, int32_t *out)
{
    new_stamp(t);
    four_list list = {out, 0, VCT_WIDTH};
    if (t->k >= 3 && t->open_threes[p] > 0)
        windows_near(t, p, t->k - 2, visit_four, &list);
    if (t->k >= 4 && list.count < VCT_WIDTH)
        windows_near(t, p, t->k - 3, visit_four, &list);
    return list.count;
}

/* The windows in which a's mark on cell would make a three (K - 2 of a's
 * marks, none of the other side's). */
static int32_t threes_made(const tboard *t, int a, int32_t cell)
{
    int32_t row = cell / t->width, col = cell % t->width, made = 0;
    for (int d = 0; d < 4; d++) {
        for (int32_t i = 0; i < t->k; i++) {
            int32_t w = window_at(t, d, row - i * step_row[d], col - i * step_col[d]);
            made += w >= 0 && t->counts[2 * w + a] == t->k - 3 && t->counts[2 * w + 1 - a] == 0;
        }
    }
    return made;
}

/*
 * Orders a VCT node's threats: the moves that make the most threes first,
 * the order threat_cells gave (fours first) among equals. A move that
 * makes several threes leaves the defender the fewest answers: in the
 * games the bot lost as white, `ttt-bench-bot 200000 vct` finds 82 VCTs
 * where the listing order found 67, with 54% of the nodes.
 */
static void order_threats(const tboard *t, int a, int32_t *moves, int32_t count)
{
    int32_t made[VCT_WIDTH];
    for (int32_t i = 0; i < count; i++) {
        int32_t move = moves[i], m = threes_made(t, a, move), j = i;
        while (j > 0 && made[j - 1] < m) {
            made[j] = made[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        made[j] = m;
        moves[j] = move;
    }
}

/* Refutations are kept per search kind and attacker: the position's key
 * salted with both. */
static uint64_t refuted_key(const tboard *t, int a, int kind)
{
    static const uint64_t salt[2][2] = {
        {0, UINT64_C(0x5851F42D4C957F2D)},
        {UINT64_C(0x14057B7EF767814F), UINT64_C(0x2545F4914F6CDD1D)},
    };
    /* Each run has its own epoch, so the table needs no clearing. */
    return t->key ^ salt[kind][a] ^ (t->epoch * UINT64_C(0xD6E8FEB86659FD93));
}

static int refuted(const tboard *t, uint64_t key)
{
    return key != 0 && t->refuted[key & (REFUTED_SLOTS - 1)] == key;
}

static void set_refuted(tboard *t, uint64_t key)
{
    t->refuted[key & (REFUTED_SLOTS - 1)] = key;
}

/* Counts a node against the budget, or stops the search (0) if it does not
 * fit. Its scans pass over every mark of a
 * side, so past MARKS_PER_NODE marks on the board a node counts as more
 * than one: the budget keeps bounding the time late in a game too. */
static int charge_node(tboard *t)
{
    uint64_t charge = 1 + (uint64_t)(t->played_count[0] + t->played_count[1]) / MARKS_PER_NODE;
    if (t->nodes + charge > t->budget) {
        t->stopped = 1;
        return 0;
    }
    t->nodes += charge;
    return 1;
}

/* Whether attacker a, to move, wins by fours alone; the line into t->line
 * from index 2 * depth on. */
static int vcf(tboard *t, int a, int depth)
{
    if (t->stopped || !charge_node(t))
        return 0;
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
    uint64_t key = refuted_key(t, a, 0);
    if (refuted(t, key))
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
    set_refuted(t, key);
    return 0;
}

/* Runs a VCF search for a within budget more nodes; 1 found. */
static int run_vcf(tboard *t, int a, uint64_t budget)
{
    t->epoch++;
    t->stopped = 0;
    t->budget = t->nodes + budget;
    t->line_len = 0;
    return vcf(t, a, 0);
}

/* A VCF of a within limit more nodes (and the overall budget): 1 found, 0
 * not found or not within the limit; only the overall budget stops the
 * caller. The line is left in t->line. */
static int vcf_within(tboard *t, int a, uint64_t limit)
{
    uint64_t budget = t->budget;
    if (t->nodes + limit < budget)
        t->budget = t->nodes + limit;
    t->line_len = 0;
    int found = vcf(t, a, 0);
    if (t->stopped && t->nodes < budget)
        t->stopped = 0; /* only the limit ran out */
    t->budget = budget;
    return found;
}

/* Adds cell to list (room for DEFENCE_MAX) once, under the current stamp. */
static void add_cell(tboard *t, int32_t *list, int32_t *count, int32_t cell)
{
    if (*count >= DEFENCE_MAX || t->cells[cell] != TTT_EMPTY || t->stamp[cell] == t->stamp_now)
        return;
    t->stamp[cell] = t->stamp_now;
    list[(*count)++] = cell;
}

/*
 * The defender's moves that might stop a winning line of fours (line, from
 * t->line): the empty cells within K - 1 of its cells along the four
 * directions (where its windows lie, and where a defender's mark could make
 * a four with one of its forced replies), then the defender's own fours
 * anywhere. Any other move leaves the line as it was. Returns how many, or
 * -1 if they do not fit in DEFENCE_MAX.
 */
static int32_t line_answers(tboard *t, int d, const int32_t *line, int32_t line_len,
                            int32_t *out)
{
    int32_t fours[VCF_WIDTH];
    int32_t four_count = four_cells(t, d, fours);
    new_stamp(t);
    int32_t count = 0;
    for (int32_t i = 0; i < line_len; i++)
        add_cell(t, out, &count, line[i]);
    for (int32_t i = 0; i < line_len; i++) {
        int32_t row = line[i] / t->width, col = line[i] % t->width;
        for (int dir = 0; dir < 4; dir++) {
            for (int32_t off = 1 - t->k; off < t->k; off++) {
                int32_t r = row + off * step_row[dir], c = col + off * step_col[dir];
                if (r >= 0 && r < t->height && c >= 0 && c < t->width)
                    add_cell(t, out, &count, r * t->width + c);
            }
        }
    }
    for (int32_t i = 0; i < four_count; i++)
        add_cell(t, out, &count, fours[i]);
    return count >= DEFENCE_MAX || four_count >= VCF_WIDTH ? -1 : count;
}

/* Adds the empty cells of the fours that a's mark on cell makes. */
static void add_four_windows(tboard *t, int a, int32_t cell, int32_t *out, int32_t *count)
{
    int32_t row = cell / t->width, col = cell % t->width;
    for (int d = 0; d < 4; d++) {
        for (int32_t i = 0; i < t->k; i++) {
            int32_t srow = row - i * step_row[d], scol = col - i * step_col[d];
            int32_t w = window_at(t, d, srow, scol);
            if (w < 0 || t->counts[2 * w + a] != t->k - 2 || t->counts[2 * w + 1 - a] != 0)
                continue;
            int32_t start = srow * t->width + scol, step = step_row[d] * t->width + step_col[d];
            for (int32_t j = 0; j < t->k; j++)
                add_cell(t, out, count, start + j * step);
        }
    }
}

/*
 * The defender's answers to a three inside the VCT: the cells of the
 * attacker's line of fours, the other empty cells of the windows its first
 * four lies in (where a mark spoils that four or the open four it makes),
 * and the defender's own fours. Narrower than line_answers, so the VCT is
 * a guide, not a proof (see vct). Returns how many.
 */
static int32_t three_answers(tboard *t, int a, const int32_t *line, int32_t line_len,
                             int32_t *out)
{
    int32_t fours[VCF_WIDTH];
    int32_t four_count = four_cells(t, 1 - a, fours);
    new_stamp(t);
    int32_t count = 0;
    for (int32_t i = 0; i < line_len; i++)
        add_cell(t, out, &count, line[i]);
    if (line_len > 0)
        add_four_windows(t, a, line[0], out, &count);
    for (int32_t i = 0; i < four_count; i++)
        add_cell(t, out, &count, fours[i]);
    return count;
}

/*
 * Victory by continuous threats (Allis's threat-space search, with fours
 * and threes): attacker a, to move, wins if it has a VCF, or a move after
 * which it would have one (a three, or a four with its forced reply) and
 * every defender answer that might stop it (three_answers, with the
 * defender's own fours) still leaves a a VCT one level down. A three is
 * dropped if the defender, to move, has a VCF of its own. The answers are
 * the usual ones, not every move that might help, and the VCFs asked along
 * the way have VCT_VCF_NODES each: the bot's guide, not the solver's
 * proof. *first gets the first move at depth 0.
 */
static int vct(tboard *t, int a, int depth, int32_t *first)
{
    if (t->stopped || !charge_node(t))
        return 0;
    int d = 1 - a;
    int32_t cell;
    if (completion_cells(t, a, &cell) > 0) {
        *first = cell;
        return 1;
    }
    int32_t must = -1;
    int32_t threats = completion_cells(t, d, &must);
    if (threats >= 2)
        return 0;
    if (threats == 0 && vcf_within(t, a, VCT_VCF_NODES)) {
        *first = t->line[0];
        return 1;
    }
    if (depth >= VCT_MAX_DEPTH || t->stopped)
        return 0;
    uint64_t key = refuted_key(t, a, 1);
    if (refuted(t, key))
        return 0;
    int32_t *moves = t->threat_moves + (size_t)depth * VCT_WIDTH;
    int32_t count = threats == 1 ? 1 : threat_cells(t, a, moves);
    if (threats == 1)
        moves[0] = must;
    else
        order_threats(t, a, moves, count);
    int32_t *answers = t->answers + (size_t)depth * DEFENCE_MAX;
    for (int32_t i = 0; i < count && !t->stopped; i++) {
        int32_t move = moves[i];
        place(t, move, a);
        int32_t reply, ignored;
        int32_t made = completion_cells(t, a, &reply);
        int won = 0;
        if (made >= 2) {
            won = 1;
        } else if (made == 1) {
            place(t, reply, d);
            won = vct(t, a, depth + 1, &ignored);
            take_back(t, reply, d);
        } else if (!vcf_within(t, d, VCT_VCF_NODES) && !t->stopped &&
                   vcf_within(t, a, VCT_VCF_NODES)) {
            /* A three: a wins next move unless the defender stops it. */
            int32_t line[2 * VCF_MAX_DEPTH + 2];
            int32_t line_len = t->line_len;
            memcpy(line, t->line, (size_t)line_len * sizeof(int32_t));
            int32_t answer_count = three_answers(t, a, line, line_len, answers);
            won = answer_count > 0;
            for (int32_t j = 0; won && j < answer_count; j++) {
                place(t, answers[j], d);
                won = vct(t, a, depth + 1, &ignored);
                take_back(t, answers[j], d);
            }
        }
        take_back(t, move, a);
        if (won && !t->stopped) {
            *first = move;
            return 1;
        }
    }
    if (!t->stopped)
        set_refuted(t, key);
    return 0;
}

/* Runs a VCT search for a within budget more nodes; 1 found (*first). */
static int run_vct(tboard *t, int a, uint64_t budget, int32_t *first)
{
    t->epoch++;
    t->stopped = 0;
    t->budget = t->nodes + budget;
    return vct(t, a, 0, first);
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
    memset(t->refuted, 0, REFUTED_SLOTS * sizeof(uint64_t));
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

int ttt__threat_vct(const ttt_game *game, int32_t width, int32_t height,
                    int32_t k, const int8_t *cells, int attacker,
                    uint64_t budget, int32_t *move, uint64_t *nodes)
{
    tboard t;
    void *block = start_board(game, &t, width, height, k, cells);
    if (!block)
        return TTT_E_NOMEM;
    *move = -1;
    int found = run_vct(&t, ttt__player_of(attacker), budget, move);
    *nodes = t.nodes;
    engine_free(game, block);
    return found;
}

/*
 * Marks in safe[] the answers of me not shown to lose to a win of the
 * opponent's of the given kind (0 VCF, 1 VCT) within the budget (up to
 * t->nodes = end): the cells line_answers gives for the opponent's line
 * (its VCF, or the first move of its VCT). Our own four is answered by its
 * block before the opponent's search. Returns whether any answer is safe.
 */
static int mark_safe_answers(tboard *t, int me, const int32_t *line, int32_t line_len,
                             int kind, uint64_t end, uint8_t *safe)
{
    int opp = 1 - me;
    int32_t answers[DEFENCE_MAX];
    int32_t count = line_answers(t, me, line, line_len, answers);
    if (count < 0)
        count = DEFENCE_MAX; /* the first ones, nearest the line */
    int any = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t cell = answers[i];
        /* Only an answer after which the opponent's win was found is
         * dropped: one the budget left unsearched, or whose search ran out,
         * stays for the alpha-beta to judge. Moves that are no answer at
         * all lose to the line found. */
        int unsafe = 0;
        if (t->nodes < end) {
            place(t, cell, me);
            int32_t block_cell = -1, first;
            int32_t made = completion_cells(t, me, &block_cell);
            if (made == 1)
                place(t, block_cell, opp);
            uint64_t share = (end - t->nodes) / (uint64_t)(count - i);
            if (made < 2)
                unsafe = kind == 0 ? run_vcf(t, opp, share) : run_vct(t, opp, share, &first);
            if (made == 1)
                take_back(t, block_cell, opp);
            take_back(t, cell, me);
        }
        if (!unsafe) {
            safe[cell] = 1;
            any = 1;
        }
    }
    return any;
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
    uint8_t *safe = engine_alloc(game, (size_t)t.cells_n);
    if (!safe) {
        engine_free(game, block);
        return TTT_E_NOMEM;
    }
    memset(safe, 0, (size_t)t.cells_n);
    int me = snap->ply & 1, opp = 1 - me;
    int32_t line[2 * VCF_MAX_DEPTH + 2];
    int32_t first = -1;

    /* In order of urgency, each with its share of the budget: our VCF,
     * the opponent's (as if we passed), our VCT, the opponent's. */
    if (run_vcf(&t, me, budget / 8)) {
        out->kind = THREAT_WIN;
        out->move = t.line[0];
    } else if (run_vcf(&t, opp, budget / 8)) {
        int32_t line_len = t.line_len;
        memcpy(line, t.line, (size_t)line_len * sizeof(int32_t));
        if (mark_safe_answers(&t, me, line, line_len, 0, budget, safe))
            out->kind = THREAT_DEFEND;
    } else if (budget < VCT_MIN_BUDGET) {
        /* Too few nodes for the slower threats to show. */
    } else if (run_vct(&t, me, budget / 4, &first)) {
        out->kind = THREAT_WIN;
        out->move = first;
    } else if (t.nodes < budget && run_vct(&t, opp, (budget - t.nodes) / 2, &first)) {
        line[0] = first;
        if (mark_safe_answers(&t, me, line, 1, 1, budget, safe))
            out->kind = THREAT_DEFEND;
    }
    out->nodes = t.nodes;
    engine_free(game, block);
    if (out->kind == THREAT_DEFEND)
        out->safe = safe;
    else
        engine_free(game, safe);
    return TTT_OK;
}

#define SOLVE_VCF_NODES 65536 /* the VCF's nodes when ttt_solve has no cap */

int ttt__threat_answer(const ttt_game *game, int32_t width, int32_t height,
                       const snapshot *snap, int all_moves, uint64_t *budget,
                       solve_result *r, ttt_solution *found)
{
    if (all_moves || snap->misere || snap->limit_empty > 0 ||
        snap->state != TTT_IN_PROGRESS)
        return 0;
    uint64_t limit = *budget ? *budget / 4 : SOLVE_VCF_NODES;
    if (limit == 0)
        return 0;
    int32_t move = -1;
    uint64_t nodes = 0;
    int found_vcf = ttt__threat_vcf(game, width, height, snap->k, snap->cells,
                                    ttt__mover_at(snap->ply), limit, &move, &nodes);
    if (found_vcf < 0)
        return found_vcf;
    found->nodes += nodes;
    if (found_vcf != 1) {
        if (*budget)
            *budget -= nodes < *budget ? nodes : *budget - 1;
        return 0;
    }
    r->value = r->value_min = r->value_max = TTT_VALUE_WIN;
    r->plies = -1;
    r->best[0] = move;
    r->best_count = 1;
    found->value = found->value_min = found->value_max = TTT_VALUE_WIN;
    found->plies = -1;
    found->method = TTT_METHOD_THREATS;
    return 1;
}

void ttt__threat_release(const ttt_game *game, threat_root *out)
{
    engine_free(game, out->safe);
    out->safe = NULL;
}
