/* sboard.c - the search board: laying it out, placing and removing marks, the threat questions. */
#include <string.h>

#include "random.h"
#include "sboard.h"

/* What one window adds to each of its cells' sums. */
typedef struct window_share {
    int32_t live;
    int32_t touched;
    int32_t building[2];
    int64_t weight[2];
} window_share;

/* What an empty window adds to each of its cells' sums, the only window
 * the board is laid out with: live, open for both players with no mark
 * (weight[0] each), touched by nothing and building nothing (K >= 3). */
static window_share empty_window_share(const sboard *b)
{
    window_share share = {1, 0, {0, 0}, {b->weight[0], b->weight[0]}};
    return share;
}

static void threat_change(sboard *b, int p, int32_t cell, int sign)
{
    int32_t hits = (b->threat_hits[p][cell] += sign);
    if (sign > 0 && hits == 1) {
        b->threat_cells[p]++;
        b->threat_sum[p] += cell;
    } else if (sign < 0 && hits == 0) {
        b->threat_cells[p]--;
        b->threat_sum[p] -= cell;
    }
}

/* Adds change to the cell's touched count, keeping the touched list. */
static void touched_change(sboard *b, int32_t cell, int32_t change)
{
    int32_t before = b->sums[cell].touched;
    int32_t now = (b->sums[cell].touched += change);
    if (before == 0 && now > 0) {
        b->touched_at[cell] = b->touched_count;
        b->touched[b->touched_count++] = cell;
    } else if (before > 0 && now == 0) {
        /* The last listed cell takes the leaver's place. */
        int32_t at = b->touched_at[cell];
        int32_t last = b->touched[--b->touched_count];
        b->touched[at] = last;
        b->touched_at[last] = at;
        b->touched_at[cell] = -1;
    }
}

/* Adds a window's change to one of its cells' sums. */
static void add_sums(sboard *b, int32_t cell, const struct cell_sums *change)
{
    struct cell_sums *sums = &b->sums[cell];
    sums->live += change->live;
    for (int p = 0; p < 2; p++) {
        sums->weight[p] += change->weight[p];
        sums->building[p] += change->building[p];
    }
    if (change->touched != 0)
        touched_change(b, cell, change->touched);
}

/*
 * Adds (add +1) or removes (add -1) a mark of player p at offset `offset`
 * of window w, which starts at cell start in direction d, and updates every
 * sum the window feeds: only the parts that one mark can change, as this
 * runs for every window through every cell placed or lifted in a search.
 * With change NULL it adds to the window's cells itself; otherwise it
 * leaves them and adds what each of them gains to *change (touch_windows
 * spreads it over long windows). Light (for ttt__sboard_place_light, a
 * search that reads no cell sums below a node) stops at the board-wide
 * fields and skips K - 1 of every K writes a mark costs; callers pass it
 * as a constant, so each path compiles on its own.
 */
static inline void window_change(sboard *b, int32_t w, int32_t start, int d, int p,
                                 int32_t offset, int add, struct cell_sums *change,
                                 int light)
{
    int16_t *marks = b->window_marks + 2 * (size_t)w;
    int o = 1 - p, k = b->k;
    int mine = marks[p], other = marks[o], now = mine + add;
    int32_t offsets_before = b->window_offsets[w];
    int32_t offsets_after = offsets_before + add * offset;
    marks[p] = (int16_t)now;
    b->window_offsets[w] = offsets_after;
    int32_t step = b->cell_step[d];
    int32_t full = b->offsets_full;

    if (other > 0) {
        /* Dead before and after unless p's first mark comes or goes: then
         * the other's one-sided window dies or comes back. */
        if (mine > 0 && now > 0)
            return;
        int sign = add > 0 ? -1 : +1;
        b->live += sign;
        b->open_windows[o][other] += sign;
        if (other == k)
            b->completed += sign;
        /* The offsets then are the other's alone: before p's mark came,
         * or after it left. */
        int32_t offsets_other = add > 0 ? offsets_before : offsets_after;
        if (other == k - 1)
            threat_change(b, o, start + (full - offsets_other) * step, sign);
        b->eval += (o == 0 ? sign : -sign) * b->eval_weight[other];
        if (light)
            return;
        int64_t weight = sign * b->weight[other];
        int32_t building = other == k - 2 ? sign : 0;
        if (change) {
            change->live += sign;
            change->weight[o] += weight;
            change->building[o] += building;
            return;
        }
        int32_t cell = start;
        for (int i = 0; i < k; i++, cell += step) {
            b->sums[cell].live += sign;
            b->sums[cell].weight[o] += weight;
            b->sums[cell].building[o] += building;
        }
        return;
    }

    /* One-sided for p (or empty) before and after: still live. */
    b->open_windows[p][mine]--;
    b->open_windows[p][now]++;
    if (mine == k)
        b->completed--;
    if (now == k)
        b->completed++;
    if (mine == k - 1)
        threat_change(b, p, start + (full - offsets_before) * step, -1);
    if (now == k - 1)
        threat_change(b, p, start + (full - offsets_after) * step, +1);
    int64_t eval_change = b->eval_weight[now] - b->eval_weight[mine];
    b->eval += p == 0 ? eval_change : -eval_change;
    /* An empty window also counts as open for the other player. */
    int32_t other_open = (now == 0) - (mine == 0);
    b->open_windows[o][0] += other_open;
    if (light)
        return;
    int64_t weight_mine = b->weight[now] - b->weight[mine];
    int64_t weight_other = other_open * b->weight[0];
    int32_t building = (now == k - 2) - (mine == k - 2);
    if (change) {
        change->touched -= other_open;
        change->weight[p] += weight_mine;
        change->weight[o] += weight_other;
        change->building[p] += building;
        return;
    }
    int32_t cell = start;
    for (int i = 0; i < k; i++, cell += step) {
        if (other_open != 0)
            touched_change(b, cell, -other_open);
        b->sums[cell].weight[p] += weight_mine;
        b->sums[cell].weight[o] += weight_other;
        b->sums[cell].building[p] += building;
    }
}

/* The index of the window starting at (row, col) in direction d. Rows of
 * windows: along a row, height rows of row_span; along a column,
 * column_span rows of width; along each diagonal, column_span rows of
 * row_span (anti-diagonals start K - 1 columns in). */
static int32_t window_index(const sboard *b, int d, int32_t row, int32_t col)
{
    switch (d) {
    case 0: return b->window_base[0] + row * b->row_span + col;
    case 1: return b->window_base[1] + row * b->width + col;
    case 2: return b->window_base[2] + row * b->row_span + col;
    default: return b->window_base[3] + row * b->row_span + (col - (b->k - 1));
    }
}

/* Steps from (row, col) in direction d, forward (sign +1) or back (-1),
 * that stay on the board, capped at limit: ttt__room for a board width
 * columns wide and height rows high. */
static int32_t room(const sboard *b, int32_t row, int32_t col, int d, int sign,
                    int32_t limit)
{
    int32_t up = row, down = b->height - 1 - row, left = col, right = b->width - 1 - col;
    int32_t to_edge;
    switch (d) {
    case 0: to_edge = sign > 0 ? right : left; break;
    case 1: to_edge = sign > 0 ? down : up; break;
    case 2: to_edge = sign > 0 ? min32(down, right) : min32(up, left); break;
    default: to_edge = sign > 0 ? min32(down, left) : min32(up, right); break;
    }
    return min32(to_edge, limit);
}

static window_run compute_windows_through(const sboard *b, int32_t cell, int d)
{
    int32_t width = b->width, k = b->k;
    int32_t row = cell / width, col = cell % width;
    int32_t back = room(b, row, col, d, -1, k - 1);
    int32_t ahead = room(b, row, col, d, +1, k - 1);
    /* The cell sits at offset j of the window starting j steps back, for
     * k - 1 - ahead <= j <= back. */
    window_run run;
    run.offset = back;
    run.count = back - (k - 1 - ahead) + 1;
    run.start = cell - back * b->cell_step[d];
    run.w = run.count > 0 ? window_index(b, d, row - back * ttt__dir_row[d],
                                         col - back * ttt__dir_col[d])
                          : 0;
    return run;
}

static window_run windows_through(const sboard *b, int32_t cell, int d)
{
    return b->runs ? b->runs[4 * (size_t)cell + (size_t)d]
                   : compute_windows_through(b, cell, d);
}

/* Applies a mark of p at cell to (add +1) or takes it from (add -1) every
 * window through the cell: at most K per direction. */
static void touch_windows(sboard *b, int32_t cell, int p, int add)
{
    int32_t k = b->k;
    struct cell_sums *diff = b->diff;
    for (int d = 0; d < 4; d++) {
        window_run run = windows_through(b, cell, d);
        if (run.count <= 0)
            continue;
        int32_t step = b->cell_step[d], first = run.start;
        /* Few and short windows: each window adds to its cells. Up to K
         * windows of K cells: window i covers the line segment's cells
         * i .. i + K - 1, so with diff[i] += change, diff[i + K] -= change
         * one sweep over those 2K - 1 cells adds every change in O(K)
         * steps instead of K * K. */
        int direct = run.count * k <= DIRECT_CHANGE_CELLS;
        for (int32_t i = 0; i < run.count; i++) {
            if (direct) {
                window_change(b, run.w, run.start, d, p, run.offset, add, NULL, 0);
            } else {
                struct cell_sums *into = &diff[i], *out = &diff[i + k];
                struct cell_sums change;
                memset(&change, 0, sizeof change);
                window_change(b, run.w, run.start, d, p, run.offset, add, &change, 0);
                into->live += change.live;
                into->touched += change.touched;
                out->live -= change.live;
                out->touched -= change.touched;
                for (int q = 0; q < 2; q++) {
                    into->weight[q] += change.weight[q];
                    into->building[q] += change.building[q];
                    out->weight[q] -= change.weight[q];
                    out->building[q] -= change.building[q];
                }
            }
            run.w += b->window_step[d];
            run.start += step;
            run.offset--;
        }
        if (direct)
            continue;
        struct cell_sums sum;
        memset(&sum, 0, sizeof sum);
        int32_t length = run.count + k - 1, at = first;
        for (int32_t j = 0; j < length; j++, at += step) {
            sum.live += diff[j].live;
            sum.touched += diff[j].touched;
            for (int q = 0; q < 2; q++) {
                sum.weight[q] += diff[j].weight[q];
                sum.building[q] += diff[j].building[q];
            }
            add_sums(b, at, &sum);
        }
        /* Leave the scratch zeroed for the next direction. */
        memset(diff, 0, ((size_t)length + 1) * sizeof *diff);
    }
}

/* Windows along a line of this many cells: length - k + 1, or none. */
static int32_t windows_along(int32_t length, int32_t k)
{
    return length >= k ? length - k + 1 : 0;
}

void ttt__sboard_size(carver *parts, sboard *b, const snapshot *snap,
                        int use_keys)
{
    int32_t k = snap->k;
    size_t width = (size_t)snap->width, height = (size_t)snap->height;
    size_t nn = ttt__size_mul(width, height);
    size_t row_span = (size_t)windows_along(snap->width, k);
    size_t column_span = (size_t)windows_along(snap->height, k);
    size_t windows = ttt__size_add(
        ttt__size_add(ttt__size_mul(height, row_span), ttt__size_mul(column_span, width)),
        ttt__size_mul(2, ttt__size_mul(column_span, row_span)));
    int ids[8];
    size_t sym_count = (size_t)board_symmetries(snap->width, snap->height, snap->gravity, ids);
    b->cells = carve(parts, nn, sizeof(int8_t));
    b->column_fill = carve(parts, width, sizeof(int32_t));
    b->window_marks = carve(parts, ttt__size_mul(windows, 2), sizeof(int16_t));
    b->window_offsets = carve(parts, windows, sizeof(int32_t));
    b->window_start = carve(parts, windows, sizeof(int32_t));
    b->sums = carve(parts, nn, sizeof(struct cell_sums));
    b->diff = carve(parts, 2 * (size_t)k + 1, sizeof(struct cell_sums));
    b->touched = carve(parts, nn, sizeof(int32_t));
    b->touched_at = carve(parts, nn, sizeof(int32_t));
    for (int p = 0; p < 2; p++) {
        b->threat_hits[p] = carve(parts, nn, sizeof(int32_t));
        b->open_windows[p] = carve(parts, (size_t)k + 1, sizeof(int32_t));
    }
    b->weight = carve(parts, (size_t)k + 1, sizeof(int64_t));
    b->eval_weight = carve(parts, (size_t)k + 1, sizeof(int64_t));
    b->runs = nn <= RUNS_MAX_CELLS ? carve(parts, ttt__size_mul(4, nn), sizeof(window_run)) : NULL;
    if (use_keys) {
        b->key_term[0] = carve(parts, nn, sizeof(uint64_t));
        b->key_term[1] = carve(parts, nn, sizeof(uint64_t));
        b->sym = carve(parts, ttt__size_mul(sym_count, nn), sizeof(int32_t));
    }
}

void ttt__sboard_init(sboard *b, const snapshot *snap, int use_keys)
{
    int32_t width = snap->width, height = snap->height, k = snap->k;
    int32_t nn = width * height;
    int32_t row_span = windows_along(width, k), column_span = windows_along(height, k);
    b->width = width;
    b->height = height;
    b->k = k;
    b->nn = nn;
    b->row_span = row_span;
    b->column_span = column_span;
    b->gravity = snap->gravity;
    b->misere = snap->misere;
    b->early_draw = snap->early_draw;
    b->limit_empty = snap->limit_empty;
    b->window_base[0] = 0;
    b->window_base[1] = height * row_span;
    b->window_base[2] = b->window_base[1] + column_span * width;
    b->window_base[3] = b->window_base[2] + column_span * row_span;
    b->window_count = b->window_base[3] + column_span * row_span;
    b->window_step[0] = 1;
    b->window_step[1] = width;
    b->window_step[2] = row_span + 1;
    b->window_step[3] = row_span - 1;
    for (int d = 0; d < 4; d++)
        b->cell_step[d] = ttt__dir_row[d] * width + ttt__dir_col[d];
    b->empty = nn;
    b->live = 0;
    b->completed = 0;
    b->eval = 0;
    b->use_keys = use_keys;
    for (int p = 0; p < 2; p++) {
        b->threat_cells[p] = 0;
        b->threat_sum[p] = 0;
        memset(b->threat_hits[p], 0, (size_t)nn * sizeof(int32_t));
        memset(b->open_windows[p], 0, ((size_t)k + 1) * sizeof(int32_t));
    }
    /* Each extra mark makes a window eight times as interesting. */
    for (int32_t m = 0; m <= k; m++)
        b->weight[m] = (int64_t)1 << min32(3 * m, WEIGHT_SHIFT_CAP);
    for (int32_t m = 0; m <= k; m++)
        b->eval_weight[m] = m > 0 ? b->weight[m] : 0;
    b->offsets_full = k * (k - 1) / 2;
    memset(b->cells, TTT_EMPTY, (size_t)nn);
    memset(b->column_fill, 0, (size_t)width * sizeof(int32_t));
    memset(b->window_marks, 0, (size_t)b->window_count * 2 * sizeof(int16_t));
    memset(b->window_offsets, 0, (size_t)b->window_count * sizeof(int32_t));
    memset(b->sums, 0, (size_t)nn * sizeof(struct cell_sums));
    memset(b->diff, 0, (2 * (size_t)k + 1) * sizeof(struct cell_sums));
    memset(b->touched_at, 0xff, (size_t)nn * sizeof(int32_t)); /* all -1 */
    b->touched_count = 0;

    /* Every window starts empty and live. */
    window_share share = empty_window_share(b);
    for (int d = 0; d < 4; d++) {
        int32_t rows = d == 0 ? height : column_span;
        int32_t col_lo = d == 3 ? k - 1 : 0;
        int32_t col_hi = d == 1 || d == 3 ? width : row_span;
        for (int32_t row = 0; row < rows; row++) {
            for (int32_t col = col_lo; col < col_hi; col++) {
                int32_t start = row * width + col;
                b->window_start[window_index(b, d, row, col)] = start;
            }
        }
    }
    /* An empty window is live and open for both players, and adds nothing
     * else to the board-wide sums (K >= 3). */
    b->live = b->window_count;
    b->open_windows[0][0] = b->window_count;
    b->open_windows[1][0] = b->window_count;
    /* Each cell's sums are its share of every window through it, all alike
     * while the board is empty: one pass over the cells, not K per window
     * (which on 1024 x 1024 with K = 512 is close to 10^9 steps). */
    for (int32_t cell = 0; cell < nn; cell++) {
        int32_t through = 0;
        for (int d = 0; d < 4; d++) {
            int32_t count = compute_windows_through(b, cell, d).count;
            through += count > 0 ? count : 0; /* none on short diagonals */
        }
        b->sums[cell].live = through * share.live;
        for (int p = 0; p < 2; p++) {
            b->sums[cell].weight[p] = through * share.weight[p];
            b->sums[cell].building[p] = through * share.building[p];
        }
    }

    if (use_keys) {
        int ids[8];
        b->sym_count = board_symmetries(width, height, b->gravity, ids);
        for (int s = 0; s < b->sym_count; s++) {
            /* The inverse of each symmetry the board keeps is kept too. */
            b->sym_inverse[s] = s;
            for (int t = 0; t < b->sym_count; t++) {
                if (ids[t] == inverse_symmetry[ids[s]])
                    b->sym_inverse[s] = t;
            }
        }
        uint64_t seed = UINT64_C(0x7474742d736f6c76); /* fixed: keys are reproducible */
        uint64_t power = 1;
        for (int32_t cell = 0; cell < nn; cell++) {
            if (nn <= 40) {
                /* 3^40 < 2^64: base-3 digits make the key the position. */
                b->key_term[0][cell] = power;
                b->key_term[1][cell] = 2 * power;
                power *= 3;
            } else {
                b->key_term[0][cell] = ttt__next_random(&seed);
                b->key_term[1][cell] = ttt__next_random(&seed);
            }
            for (int s = 0; s < b->sym_count; s++)
                b->sym[(size_t)s * (size_t)nn + (size_t)cell] =
                    symmetric_cell_wh(width, height, ids[s], cell / width, cell % width);
        }
        for (int s = 0; s < 8; s++)
            b->key[s] = 0;
    }
    if (b->runs) {
        for (int32_t cell = 0; cell < nn; cell++) {
            for (int d = 0; d < 4; d++)
                b->runs[4 * (size_t)cell + (size_t)d] = compute_windows_through(b, cell, d);
        }
    }
    for (int32_t cell = 0; cell < nn; cell++) {
        if (snap->cells[cell] != TTT_EMPTY)
            ttt__sboard_place(b, cell, ttt__player_of(snap->cells[cell]));
    }
}

/* Applies a mark of p at cell to (add +1) or takes it from (add -1) every
 * window through the cell, leaving the cells' sums alone. */
static void touch_windows_light(sboard *b, int32_t cell, int p, int add)
{
    for (int d = 0; d < 4; d++) {
        window_run run = windows_through(b, cell, d);
        int32_t step = b->cell_step[d];
        for (int32_t i = 0; i < run.count; i++) {
            window_change(b, run.w, run.start, d, p, run.offset, add, NULL, 1);
            run.w += b->window_step[d];
            run.start += step;
            run.offset--;
        }
    }
}

/* Puts p's mark on the empty cell (add +1) or takes it off (add -1): the
 * cell, the counts, the windows (with the cells' sums unless light) and
 * the symmetric keys. Called with constant add and light, so each public
 * entry below compiles to its own straight path. */
static inline void change_mark(sboard *b, int32_t cell, int p, int add, int light)
{
    if (add > 0)
        b->cells[cell] = (int8_t)ttt__mark_of(p);
    else
        b->cells[cell] = TTT_EMPTY;
    b->empty -= add;
    if (b->gravity)
        b->column_fill[cell % b->width] += add;
    if (light)
        touch_windows_light(b, cell, p, add);
    else
        touch_windows(b, cell, p, add);
    if (b->use_keys) {
        for (int s = 0; s < b->sym_count; s++) {
            uint64_t term = b->key_term[p][b->sym[(size_t)s * (size_t)b->nn + (size_t)cell]];
            b->key[s] = add > 0 ? b->key[s] + term : b->key[s] - term;
        }
    }
}

void ttt__sboard_place(sboard *b, int32_t cell, int p)
{
    TTT_ASSERT(b->cells[cell] == TTT_EMPTY);
    change_mark(b, cell, p, +1, 0);
}

void ttt__sboard_remove(sboard *b, int32_t cell)
{
    TTT_ASSERT(b->cells[cell] != TTT_EMPTY);
    change_mark(b, cell, ttt__player_of(b->cells[cell]), -1, 0);
}

void ttt__sboard_place_light(sboard *b, int32_t cell, int p)
{
    TTT_ASSERT(b->cells[cell] == TTT_EMPTY);
    change_mark(b, cell, p, +1, 1);
}

void ttt__sboard_remove_light(sboard *b, int32_t cell)
{
    TTT_ASSERT(b->cells[cell] != TTT_EMPTY);
    change_mark(b, cell, ttt__player_of(b->cells[cell]), -1, 1);
}

int ttt__sboard_quiet_eval(const sboard *b, int32_t cell, int p, int64_t *eval_after,
                           int32_t *other_building_after, int32_t *live_after)
{
    int o = 1 - p, k = b->k;
    int64_t eval = b->eval, sign = p == 0 ? 1 : -1;
    int32_t building = b->open_windows[o][k - 2], live = b->live;
    for (int d = 0; d < 4; d++) {
        window_run run = windows_through(b, cell, d);
        for (int32_t i = 0; i < run.count; i++, run.w += b->window_step[d]) {
            const int16_t *marks = b->window_marks + 2 * (size_t)run.w;
            int mine = marks[p], other = marks[o];
            if (other > 0) {
                if (mine > 0)
                    continue; /* dead already */
                if (other >= k - 1)
                    return 0; /* a completion cell of the other's */
                /* The other's window dies. */
                eval += sign * b->eval_weight[other];
                building -= other == k - 2;
                live--;
            } else {
                if (mine >= k - 2)
                    return 0; /* a four or five of p's */
                eval += sign * (b->eval_weight[mine + 1] - b->eval_weight[mine]);
            }
        }
    }
    *eval_after = eval;
    *other_building_after = building;
    *live_after = live;
    return 1;
}

int32_t ttt__future_threats(const sboard *b, int p, int32_t cell,
                              int32_t *out)
{
    int32_t k = b->k, found = 0;
    int32_t full_sum = k * (k - 1) / 2;
    for (int d = 0; d < 4; d++) {
        window_run run = windows_through(b, cell, d);
        for (int32_t i = 0; i < run.count; i++) {
            const int16_t *marks = b->window_marks + 2 * (size_t)run.w;
            if (marks[p] == k - 2 && marks[1 - p] == 0) {
                /* Offsets of the two empty cells add up to what is missing. */
                int32_t other = full_sum - b->window_offsets[run.w] - run.offset;
                int32_t target = run.start + other * b->cell_step[d];
                int32_t j = 0;
                while (j < found && out[j] != target)
                    j++;
                if (j == found)
                    out[found++] = target;
            }
            run.w += b->window_step[d];
            run.start += b->cell_step[d];
            run.offset--;
        }
    }
    return found;
}

int ttt__can_double(const sboard *b, int p)
{
    int32_t left = (plies_left(b) + (p == sboard_mover(b))) / 2;
    int32_t k = b->k;
    if (left >= k + 2)
        return can_complete(b, p);
    /* Weights grow with the marks, so a cell with two fillable windows
     * weighs at least twice the lightest fillable one. */
    int64_t least = 2 * b->weight[k > left ? k - left : 0];
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY || b->sums[cell].weight[p] < least)
            continue;
        int32_t fewest[4]; /* fewest empty cells of a fillable window, per line */
        for (int d = 0; d < 4; d++) {
            window_run run = windows_through(b, cell, d);
            int fillable = 0;
            fewest[d] = INT32_MAX / 4;
            for (int32_t i = 0; i < run.count; i++, run.w += b->window_step[d]) {
                const int16_t *marks = b->window_marks + 2 * (size_t)run.w;
                int32_t empty = k - marks[p];
                if (marks[1 - p] == 0 && empty <= left) {
                    fillable++;
                    if (empty < fewest[d])
                        fewest[d] = empty;
                }
            }
            if (fillable >= 2)
                return 1;
        }
        for (int d1 = 0; d1 < 4; d1++) {
            for (int d2 = d1 + 1; d2 < 4; d2++) {
                if (fewest[d1] + fewest[d2] - 2 <= left)
                    return 1;
            }
        }
    }
    return 0;
}

int32_t ttt__some_threat_cell(const sboard *b, int p)
{
    TTT_ASSERT(b->threat_cells[p] > 0);
    if (b->threat_cells[p] == 1)
        return (int32_t)b->threat_sum[p];
    /* A completion cell shares a window with marks: on large boards look
     * only at the touched cells. */
    if (b->nn > SOLVER_SCAN_CELLS) {
        for (int32_t i = 0; i < b->touched_count; i++) {
            if (b->threat_hits[p][b->touched[i]] > 0)
                return b->touched[i];
        }
        return -1;
    }
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->threat_hits[p][cell] > 0)
            return cell;
    }
    return -1;
}
