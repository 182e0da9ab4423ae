/* gravity.c - the bitboard solver for gravity boards whose columns fit 64 bits: null-window negamax over distance scores, an exact-keyed transposition table, threat-ordered moves. */
#include <string.h>

#include "compiler.h"
#include "gravity.h"
#include "gravity_bits.h"
#include "solver.h"

/*
 * The board and its line questions are in gravity_bits.h.
 *
 * Scores count distance, so that one search gives the value, the plies and
 * the optimal moves. With E empty cells, a win for the side to move on ply
 * d from here (d odd) scores (E - d) / 2 + 1, a loss on ply d (d even) the
 * negative of the same: the fastest win and the slowest loss score best, a
 * draw 0, and a child's score is its parent's negated (E - 1 and d - 1 give
 * the same quotient). The score depends only on E and d, so a table entry
 * holds wherever its position recurs.
 *
 * The search (after Pascal Pons' Connect Four solver and John Tromp's
 * Fhourstones, written anew):
 *   - the side to move never plays a move that lets the opponent win at
 *     once: under an opponent's winning cell, or anywhere but its only
 *     playable winning cell (two of those: lost at once). If nothing is
 *     left, the position is lost in 2;
 *   - so no node is entered with an immediate win for its mover: the
 *     scores lie between a loss on ply 4 and a win on ply 3, which with the
 *     table's bounds narrows the window before any move;
 *   - moves are tried by the number of winning cells they create for the
 *     mover (not counting one right above an opponent's), then by the
 *     number of K-windows through the cell (a static weight: the centre
 *     and the middle rows first), then centre columns first. (A history of cut-offs, as Fhourstones keeps, and a best move
 *     remembered per table bucket both made the searches larger here.)
 *   - the table keeps, for each position, a lower and an upper bound of its
 *     score and the log of the work its search took; of the two entries of
 *     a bucket the first keeps the costliest search, the second the latest;
 *   - far from the end, a node first looks up all its children: one whose
 *     entry already refutes it cuts off without a search;
 *   - with an even number of empty cells, the opponent's follow-up
 *     strategy (follow_up_bound) caps the mover's score at a draw, or a
 *     loss, where the cells it leaves the mover hold no line: on the
 *     empty 7x6 board it took the full solve from 965 to 574 million
 *     positions; where the empty cells are odd, a move that leaves the
 *     opponent so capped cuts off before any child is searched;
 *   - the root asks null-window questions: for the value "can I win?",
 *     then "can I avoid losing?"; for the exact score, after the value,
 *     questions next to the bound it gave ("a win faster than the slowest
 *     proven?"). A bisection of the score window (Pons' order) asked 8
 *     questions on the empty 7x6 board where these ask 2 (its full solve:
 *     574 million positions before, 437 million after).
 * Keys are exact (a bijective hash: the bucket index and the stored check
 * bits together give back the key), so no answer rests on a hash collision.
 */

#define DEFAULT_TABLE_BYTES ((size_t)64 << 20)
#define CHECK_BITS_MAX 44
#define SCORE_BIAS 64  /* scores are stored as score + 64 in 7 bits */
#define SCORE_NONE (-1000)
/* Nodes with at least this many empty cells look up their children's
 * entries before searching any (an enhanced transposition cut-off). Nearer
 * the end the lookups, which wait on the children's prefetches, cost more
 * than the searches they save: on 12 random 8-stone Connect Four positions
 * from 16 on saved 19% of the nodes and about 12% of the processor time,
 * from 12 on 25% of the nodes for no more time saved; at every node it
 * cost time. */
#define ETC_MIN_EMPTY 16
/* Positions with fewer stones are keyed by the smaller of the position's
 * key and its mirror image's, so the two are searched once; later, where
 * few positions have a distinct mirror twin, the saving no longer pays for
 * the mirroring. */
#define MIRROR_STONES 16

/* An entry is one word: the work (bit length of the nodes its search took,
 * 0 for an empty entry) in bits 0..5, the lower bound in 6..12, the upper
 * bound in 13..19, the check bits from 20 up. */
#define ENTRY_WORK(e) ((int32_t)((e)&63))
#define ENTRY_LO(e) ((int32_t)(((e) >> 6) & 127) - SCORE_BIAS)
#define ENTRY_HI(e) ((int32_t)(((e) >> 13) & 127) - SCORE_BIAS)
#define ENTRY_CHECK(e) ((e) >> 20)
#define ENTRY_MAKE(check, lo, hi, work)                                      \
    ((check) << 20 | (uint64_t)((hi) + SCORE_BIAS) << 13 |                   \
     (uint64_t)((lo) + SCORE_BIAS) << 6 | (uint64_t)(work))

/* ------------------------------------------------------------------------ */
/* Bitboard questions                                                        */

/* threats_k for g's k, outside the search's inner loop. */
static uint64_t threats_of(const gsearch *g, uint64_t p)
{
    return threats_k(g, p, g->k, 0);
}

static int has_line(const gsearch *g, uint64_t p)
{
    return has_line_k(g, p, g->k, 0);
}

/* The game's cell number of board bit `bit`. */
static int32_t cell_of_bit(const gsearch *g, int32_t bit)
{
    int32_t col = bit / g->stride, from_bottom = bit % g->stride;
    return (g->height - 1 - from_bottom) * g->width + col;
}

/* ------------------------------------------------------------------------ */
/* Scores                                                                    */

/* A win on ply `plies` from a position with `empty` empty cells. */
static int32_t win_score(int32_t empty, int32_t plies)
{
    return (empty - plies) / 2 + 1;
}

/* The plies to the end of a non-zero score. */
static int32_t plies_of(int32_t empty, int32_t score)
{
    int win = score > 0;
    int32_t t = empty - 2 * ((win ? score : -score) - 1);
    /* t or t - 1: the one of the winner's parity (odd plies for a win). */
    return (t % 2 == 1) == win ? t : t - 1;
}

/* ------------------------------------------------------------------------ */
/* Transposition table                                                       */

/* The key of the position with stones `current` to move, `mask` in all and
 * `stones` of them. */
static TTT__ALWAYS_INLINE uint64_t key_of(const gsearch *g, uint64_t current,
                                      uint64_t mask, int32_t stones)
{
    uint64_t key = current + mask;
    if (stones < MIRROR_STONES) {
        uint64_t field = (UINT64_C(1) << g->stride) - 1, mirror = 0;
        for (int32_t c = 0; c < g->width; c++)
            mirror |= (key >> (c * g->stride) & field)
                      << ((g->width - 1 - c) * g->stride);
        if (mirror < key)
            key = mirror;
    }
    return key;
}

/* The bucket and the check bits of key: a multiply by an odd constant is a
 * bijection of key_bits-bit words, and its high bits depend on all of the
 * key's bits, so they pick the bucket and the low ones are stored. */
static TTT__ALWAYS_INLINE uint64_t *table_bucket(const gsearch *g, uint64_t key,
                                             uint64_t *check)
{
    uint64_t h = (key * UINT64_C(0x9E3779B97F4A7C15)) & g->key_mask;
    int32_t low_bits = g->key_bits - g->bucket_bits;
    *check = low_bits ? h & ((UINT64_C(1) << low_bits) - 1) : 0;
    return g->table + 2 * (size_t)(low_bits < 64 ? h >> low_bits : 0);
}

static TTT__ALWAYS_INLINE int table_get(const gsearch *g, uint64_t key,
                                    int32_t *lo, int32_t *hi)
{
    uint64_t check;
    const uint64_t *bucket = table_bucket(g, key, &check);
    for (int i = 0; i < 2; i++) {
        uint64_t e = bucket[i];
        if (ENTRY_WORK(e) != 0 && ENTRY_CHECK(e) == check) {
            *lo = ENTRY_LO(e);
            *hi = ENTRY_HI(e);
            return 1;
        }
    }
    return 0;
}

static void table_put(gsearch *g, uint64_t key, int32_t lo, int32_t hi,
                      uint64_t nodes)
{
    int32_t work = 1;
    while (work < 63 && (nodes >> work) != 0)
        work++;
    uint64_t check;
    uint64_t *bucket = table_bucket(g, key, &check);
    for (int i = 0; i < 2; i++) {
        uint64_t e = bucket[i];
        if (ENTRY_WORK(e) != 0 && ENTRY_CHECK(e) == check) {
            /* Both bounds hold: keep the tighter of each. */
            if (ENTRY_LO(e) > lo)
                lo = ENTRY_LO(e);
            if (ENTRY_HI(e) < hi)
                hi = ENTRY_HI(e);
            if (ENTRY_WORK(e) > work)
                work = ENTRY_WORK(e);
            bucket[i] = ENTRY_MAKE(check, lo, hi, work);
            return;
        }
    }
    uint64_t entry = ENTRY_MAKE(check, lo, hi, work);
    if (work >= ENTRY_WORK(bucket[0])) {
        bucket[1] = bucket[0];
        bucket[0] = entry;
    } else {
        bucket[1] = entry;
    }
}

/* ------------------------------------------------------------------------ */
/* Search                                                                    */

static int32_t negamax_c4(gsearch *g, int32_t alpha, int32_t beta);
static int32_t negamax4(gsearch *g, int32_t alpha, int32_t beta);
static int32_t negamax_any(gsearch *g, int32_t alpha, int32_t beta);

/* Connect Four's board height: 6 rows, 7 bits a column. */
#define C4_STRIDE 7

static int32_t search(gsearch *g, int32_t alpha, int32_t beta)
{
    if (g->k == 4 && g->stride == C4_STRIDE && g->width >= 4)
        return negamax_c4(g, alpha, beta);
    return g->k == 4 ? negamax4(g, alpha, beta) : negamax_any(g, alpha, beta);
}

static TTT__ALWAYS_INLINE void play(gsearch *g, uint64_t move)
{
    g->current ^= g->mask; /* now the opponent's stones: the new side to move */
    g->mask |= move;
    g->moves++;
}

static TTT__ALWAYS_INLINE void unplay(gsearch *g, uint64_t move)
{
    g->moves--;
    g->mask ^= move;
    g->current ^= g->mask;
}

/* Puts the safe moves in the order they are tried; returns their count. */
static TTT__ALWAYS_INLINE int order_moves(const gsearch *g, uint64_t safe, int k,
                                      int32_t stride, uint64_t opponent_wins,
                                      uint64_t moves[MAX_COLUMNS],
                                      uint64_t child_keys[MAX_COLUMNS])
{
    int32_t keys[MAX_COLUMNS];
    int count = 0;
    uint64_t empty_cells = g->board & ~g->mask;
    for (int32_t i = 0; i < g->width; i++) {
        uint64_t move = safe & g->column[g->order[i]];
        if (!move)
            continue;
        /* A winning cell right above one of the opponent's never counts:
         * whoever fills the cell below hands the opponent its win. */
        uint64_t mine = threats_k(g, g->current | move, k, stride) &
                        empty_cells & ~move & ~(opponent_wins << 1);
        int32_t key = ttt__popcount64(mine) * 4096 + g->weight[ttt__lowest_index(move)];
        /* The child's table entry is needed soon: start loading it now,
         * while the other moves are scored (the table is far larger than
         * the caches, and its loads were most of a node's time). */
        uint64_t child_check;
        uint64_t child_key = key_of(g, g->current ^ g->mask, g->mask | move,
                                    g->moves + 1);
        TTT__PREFETCH(table_bucket(g, child_key, &child_check), 0);
        int at = count++;
        while (at > 0 && keys[at - 1] < key) {
            keys[at] = keys[at - 1];
            moves[at] = moves[at - 1];
            child_keys[at] = child_keys[at - 1];
            at--;
        }
        keys[at] = key;
        moves[at] = move;
        child_keys[at] = child_key;
    }
    return count;
}

/* The score of the position for the side to move, fail-soft within
 * (alpha, beta). Precondition: the side to move cannot win at once. */
static TTT__ALWAYS_INLINE int32_t negamax_body(gsearch *g, int32_t alpha,
                                           int32_t beta, int k, int32_t stride)
{
    if (TTT__RARE(++g->nodes > g->budget)) {
        g->stopped = 1;
        return 0;
    }
    int32_t empty = g->cells - g->moves;
    uint64_t opponent_wins;
    uint64_t safe = safe_moves(g, k, stride, &opponent_wins);
    if (!safe)
        return -win_score(empty, 2);
    if (empty <= 2)
        return 0; /* a safe move, then the opponent cannot win either */

    int32_t lo = empty >= 4 ? -win_score(empty, 4) : 0;
    int32_t hi = follow_up_bound(g, k, stride, empty, win_score(empty, 3));
    /* No line left among the mover's stones and the empty cells: a draw
     * at best. */
    if (hi > 0 && !has_line_k(g, g->current | (g->board & ~g->mask), k, stride))
        hi = 0;
    if (hi <= alpha)
        return hi;
    uint64_t key = key_of(g, g->current, g->mask, g->moves);
    int32_t known_lo, known_hi;
    if (table_get(g, key, &known_lo, &known_hi)) {
        if (known_lo > lo)
            lo = known_lo;
        if (known_hi < hi)
            hi = known_hi;
    }
    if (hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;
    if (alpha >= beta)
        return alpha;

    uint64_t moves[MAX_COLUMNS], child_keys[MAX_COLUMNS];
    int count = order_moves(g, safe, k, stride, opponent_wins, moves, child_keys);
    /* A child whose table entry already refutes it (its upper bound at most
     * -beta) cuts off here, before the first child is searched. */
    for (int i = 0; empty >= ETC_MIN_EMPTY && i < count; i++) {
        int32_t child_lo, child_hi;
        if (table_get(g, child_keys[i], &child_lo, &child_hi) &&
            -child_hi >= beta) {
            table_put(g, key, -child_hi, hi, 0);
            return -child_hi;
        }
    }
    /* A child that the follow-up bound already refutes cuts off before any
     * child is searched: where the empty cells are odd, a move can leave
     * the opponent to move with an even number, and the mover then the
     * one who follows up. */
    for (int i = 0; (empty & 1) && beta <= 1 && i < count; i++) {
        play(g, moves[i]);
        int32_t child_hi = follow_up_bound(g, k, stride, empty - 1, 1);
        unplay(g, moves[i]);
        if (child_hi <= 0 && -child_hi >= beta) {
            table_put(g, key, -child_hi, hi, 0);
            return -child_hi;
        }
    }
    uint64_t nodes_before = g->nodes;
    int32_t alpha_in = alpha, best = SCORE_NONE;
    for (int i = 0; i < count; i++) {
        play(g, moves[i]);
        int32_t v = -(k != 4         ? negamax_any(g, -beta, -alpha)
                      : stride > 0 ? negamax_c4(g, -beta, -alpha)
                                   : negamax4(g, -beta, -alpha));
        unplay(g, moves[i]);
        if (g->stopped)
            return 0;
        if (v > best)
            best = v;
        if (v >= beta) {
            table_put(g, key, v, hi, g->nodes - nodes_before);
            return v;
        }
        if (v > alpha)
            alpha = v;
    }
    if (best > alpha_in)
        table_put(g, key, best, best, g->nodes - nodes_before);
    else
        table_put(g, key, lo, best, g->nodes - nodes_before);
    return best;
}

static int32_t negamax_c4(gsearch *g, int32_t alpha, int32_t beta)
{
    return negamax_body(g, alpha, beta, 4, C4_STRIDE);
}

static int32_t negamax4(gsearch *g, int32_t alpha, int32_t beta)
{
    return negamax_body(g, alpha, beta, 4, 0);
}

static int32_t negamax_any(gsearch *g, int32_t alpha, int32_t beta)
{
    return negamax_body(g, alpha, beta, g->k, 0);
}

/* As negamax, without the table's shortcut at the root, and naming the
 * move of the best score found (*best_move, a bit) for the window. */
static int32_t root_search(gsearch *g, int32_t alpha, int32_t beta,
                           uint64_t *best_move)
{
    g->nodes++;
    int32_t empty = g->cells - g->moves;
    uint64_t opponent_wins;
    uint64_t safe = safe_moves(g, g->k, 0, &opponent_wins);
    if (!safe) {
        uint64_t possible = (g->mask + g->bottom) & g->board;
        uint64_t forced = possible & opponent_wins;
        *best_move = lowest_bit(forced ? forced : possible);
        return -win_score(empty, 2);
    }
    uint64_t moves[MAX_COLUMNS], child_keys[MAX_COLUMNS];
    moves[0] = lowest_bit(safe);
    int count = order_moves(g, safe, g->k, 0, opponent_wins, moves, child_keys);
    int32_t best = SCORE_NONE;
    *best_move = moves[0];
    if (empty <= 2)
        return 0;
    for (int i = 0; i < count; i++) {
        play(g, moves[i]);
        int32_t v = -search(g, -beta, -alpha);
        unplay(g, moves[i]);
        if (g->stopped)
            break;
        if (v > best) {
            best = v;
            *best_move = moves[i];
        }
        if (v >= beta)
            break;
        if (v > alpha)
            alpha = v;
    }
    return best;
}

/* The move the search would try first at the root. */
static uint64_t first_choice(const gsearch *g)
{
    uint64_t opponent_wins, moves[MAX_COLUMNS], child_keys[MAX_COLUMNS];
    uint64_t safe = safe_moves(g, g->k, 0, &opponent_wins);
    if (safe) {
        moves[0] = lowest_bit(safe);
        order_moves(g, safe, g->k, 0, opponent_wins, moves, child_keys);
        return moves[0];
    }
    uint64_t possible = (g->mask + g->bottom) & g->board;
    uint64_t forced = possible & opponent_wins;
    return lowest_bit(forced ? forced : possible);
}

/* The exact score, by null-window questions that narrow [*lo, *hi] (bounds
 * that still hold if the budget stops it): the value first ("can the mover
 * win?", then, if not, "can it avoid losing?"), then the distance by
 * questions next to the bound the value gave, each of which moves a bound
 * by one or, fail-soft, more. */
static int32_t exact_score(gsearch *g, int32_t *lo_bound, int32_t *hi_bound)
{
    int32_t lo = *lo_bound, hi = *hi_bound;
    while (lo < hi && !g->stopped) {
        int32_t mid;
        if (lo < 0 && hi > 0)
            mid = 0;
        else if (lo < -1 && hi > -1)
            mid = -1;
        else if (lo >= 0)
            mid = lo;
        else
            mid = hi - 1;
        int32_t r = search(g, mid, mid + 1);
        if (g->stopped)
            break;
        if (r <= mid)
            hi = r;
        else
            lo = r;
    }
    *lo_bound = lo;
    *hi_bound = hi;
    return lo;
}

static int32_t value_class(int32_t score)
{
    return score > 0 ? TTT_VALUE_WIN : score < 0 ? TTT_VALUE_LOSS : TTT_VALUE_DRAW;
}

/* ------------------------------------------------------------------------ */
/* Set-up and the entry point                                                */

int ttt__gravity_fits(int32_t width, int32_t height, int32_t k, int gravity,
                      int misere, int early_draw, int32_t limit_empty)
{
    int32_t longest = width > height ? width : height;
    return gravity && !misere && !early_draw && limit_empty == 0 &&
           width >= 1 && height >= 1 && width <= MAX_COLUMNS &&
           (int64_t)width * (height + 1) <= 64 && k >= 2 && k <= longest;
}

/* Lays out the board; returns 0 if the marks do not stand on each other. */
static int gravity_setup(gsearch *g, const gravity_position *pos)
{
    int32_t w = pos->width, h = pos->height, k = pos->k;
    memset(g, 0, sizeof *g);
    g->width = w;
    g->height = h;
    g->k = k;
    g->stride = h + 1;
    g->cells = w * h;
    g->key_bits = w * g->stride;
    g->key_mask = g->key_bits == 64 ? ~UINT64_C(0)
                                    : (UINT64_C(1) << g->key_bits) - 1;
    /* A direction takes part only if a line fits along it, which also
     * keeps (k - 1) * stride below 64 (width * (height + 1) <= 64). */
    g->vertical = h >= k;
    if (w >= k)
        g->dirs[g->dir_count++] = g->stride;
    if (w >= k && h >= k) {
        g->dirs[g->dir_count++] = h;
        g->dirs[g->dir_count++] = h + 2;
    }
    uint64_t column = (UINT64_C(1) << h) - 1;
    for (int32_t c = 0; c < w; c++) {
        g->column[c] = column << (c * g->stride);
        g->bottom |= UINT64_C(1) << (c * g->stride);
        g->board |= g->column[c];
        for (int32_t up = h - 1; up >= 0; up -= 2)
            g->top_rows |= UINT64_C(1) << (c * g->stride + up);
        g->order[c] = w / 2 + (1 - 2 * (c % 2)) * (c + 1) / 2;
    }
    static const int32_t step_col[4] = {0, 1, 1, 1}, step_up[4] = {1, 0, 1, -1};
    for (int32_t c = 0; c < w; c++) {
        for (int32_t up = 0; up < h; up++) {
            int32_t windows = 0;
            for (int d = 0; d < 4; d++) {
                /* Windows of k along d holding (c, up): starting 0 .. k-1
                 * steps back, each wholly on the board. */
                for (int32_t back = 0; back < k; back++) {
                    int32_t c0 = c - back * step_col[d], u0 = up - back * step_up[d];
                    int32_t c1 = c0 + (k - 1) * step_col[d], u1 = u0 + (k - 1) * step_up[d];
                    windows += c0 >= 0 && c1 < w && u0 >= 0 && u0 < h && u1 >= 0 && u1 < h;
                }
            }
            g->weight[c * g->stride + up] = windows;
        }
    }
    uint64_t mine = 0;
    for (int32_t c = 0; c < w; c++) {
        int seen_empty = 0;
        for (int32_t up = 0; up < h; up++) {
            int mark = pos->cells[(h - 1 - up) * w + c];
            if (mark == TTT_EMPTY) {
                seen_empty = 1;
                continue;
            }
            if (seen_empty)
                return 0;
            uint64_t bit = UINT64_C(1) << (c * g->stride + up);
            g->mask |= bit;
            if (mark == pos->mover)
                mine |= bit;
            g->moves++;
        }
    }
    g->current = mine;
    return 1;
}

/* The table's size as a power of two number of entries, or -1 if the cap
 * leaves too few for exact keys. A node budget (0: none) caps it too. */
static int32_t table_entry_bits(const gsearch *g, size_t table_bytes,
                                uint64_t budget)
{
    size_t bytes = table_bytes ? table_bytes : DEFAULT_TABLE_BYTES;
    /* 8-byte entries: the most that fit, 2^cap, stopping below the bit
     * that would shift out of a size_t. */
    size_t entries = bytes / 8;
    int32_t cap = 0;
    while (cap < 40 && (entries >> cap) > 1)
        cap++;
    if (entries < 2)
        return -1;
    /* No bigger than the search will fill: about 2^(E - 15) entries for E
     * empty cells (4 MiB for Connect Four after 8 stones, 64 MiB from the
     * empty board), at least 2^16. A table far bigger than the search costs
     * more than it saves: its random reads miss the TLB (on 20 random
     * 8-stone Connect Four positions, 64 MiB took 1.7 times the processor
     * time of 4 MiB, for 14% fewer nodes). */
    int32_t useful = g->cells - g->moves - 15;
    if (useful < 16)
        useful = 16;
    if (useful > g->key_bits + 1)
        useful = g->key_bits + 1;
    if (useful > 30)
        useful = 30;
    /* A search stores at most an entry a node: twice the budget's entries
     * (a power of two) is as good as any bigger table, and a move of a
     * small budget no longer clears 64 MiB (tests/bench/bench_batch.c's
     * perfect-opponent row). */
    int32_t fill = 1;
    while (budget && fill < 40 && (UINT64_C(1) << fill) < budget)
        fill++;
    if (budget && useful > fill + 1)
        useful = fill + 1;
    int32_t need = g->key_bits - CHECK_BITS_MAX + 1;
    if (useful < need)
        useful = need;
    if (useful < 2)
        useful = 2;
    if (useful > cap)
        useful = cap;
    return useful < need ? -1 : useful;
}

static int compare_cells(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void put_moves(const gsearch *g, uint64_t moves, gravity_answer *out)
{
    out->best_count = 0;
    for (uint64_t left = moves; left; left &= left - 1)
        out->best[out->best_count++] = cell_of_bit(g, ttt__lowest_index(left));
    /* Few cells: an insertion sort. */
    for (int32_t i = 1; i < out->best_count; i++) {
        int32_t cell = out->best[i], at = i;
        while (at > 0 && compare_cells(&out->best[at - 1], &cell) > 0) {
            out->best[at] = out->best[at - 1];
            at--;
        }
        out->best[at] = cell;
    }
}

/* The optimal moves for a known score: those whose child keeps it. */
static int optimal_moves(gsearch *g, int32_t score, uint64_t *found)
{
    uint64_t possible = (g->mask + g->bottom) & g->board;
    int32_t empty = g->cells - g->moves;
    *found = 0;
    for (uint64_t left = possible; left; left &= left - 1) {
        uint64_t move = lowest_bit(left);
        play(g, move);
        int32_t child;
        uint64_t reply = (g->mask + g->bottom) & g->board;
        if (g->moves == g->cells) {
            child = 0;
        } else if (threats_of(g, g->current) & reply) {
            child = win_score(empty - 1, 1);
        } else {
            /* The child scores at least -score; keeping it means no more. */
            int32_t r = search(g, -score, -score + 1);
            child = r <= -score ? -score : -score + 1;
        }
        unplay(g, move);
        if (g->stopped)
            return 0;
        if (-child == score)
            *found |= move;
    }
    return 1;
}

int ttt__gravity_solve(const ttt_allocator *alloc, const gravity_position *pos,
                       uint64_t node_budget, size_t table_bytes, int all_moves,
                       gravity_answer *out)
{
    if (!ttt__gravity_fits(pos->width, pos->height, pos->k, 1, 0, 0, 0) ||
        (pos->mover != TTT_X && pos->mover != TTT_O))
        return GRAVITY_NOT_HANDLED;
    gsearch g;
    if (!gravity_setup(&g, pos) || g.moves == g.cells ||
        has_line(&g, g.current) || has_line(&g, g.current ^ g.mask))
        return GRAVITY_NOT_HANDLED;
    int32_t entry_bits = table_entry_bits(&g, table_bytes, node_budget);
    if (entry_bits < 0)
        return GRAVITY_NOT_HANDLED;
    g.bucket_bits = entry_bits - 1;
    g.budget = node_budget ? node_budget : UINT64_MAX;

    out->value = TTT_VALUE_LOSS;
    out->value_min = TTT_VALUE_LOSS;
    out->value_max = TTT_VALUE_WIN;
    out->plies = -1;
    out->best_count = 0;
    out->nodes = 0;

    int32_t empty = g.cells - g.moves;
    uint64_t possible = (g.mask + g.bottom) & g.board;
    uint64_t wins = threats_of(&g, g.current) & possible;
    if (wins) {
        out->nodes = 1;
        out->value = out->value_min = out->value_max = TTT_VALUE_WIN;
        out->plies = all_moves ? 1 : -1;
        put_moves(&g, all_moves ? wins : lowest_bit(wins), out);
        return TTT_OK;
    }

    size_t bytes = (size_t)16 << g.bucket_bits;
    g.table = alloc->alloc(alloc->user, bytes);
    if (!g.table)
        return TTT_E_NOMEM;
    memset(g.table, 0, bytes);

    int status = TTT_OK;
    if (all_moves) {
        /* The exact score straight away: its bisection asks the value's
         * questions on the way, so a value pass first would repeat them. */
        int32_t lo = empty >= 2 ? -win_score(empty, 2) : 0;
        int32_t hi = empty >= 3 ? win_score(empty, 3) : 0;
        int32_t score = exact_score(&g, &lo, &hi);
        uint64_t optimal = 0;
        if (!g.stopped && optimal_moves(&g, score, &optimal)) {
            out->value = out->value_min = out->value_max = value_class(score);
            out->plies = score == 0 ? empty : plies_of(empty, score);
            put_moves(&g, optimal, out);
        } else {
            /* What the narrowed window proves, and the first move the
             * search would try. */
            out->value = out->value_min = value_class(lo);
            out->value_max = value_class(hi);
            put_moves(&g, first_choice(&g), out);
            status = TTT_E_BUDGET;
        }
    } else {
        /* The value: "can I win?", then "can I avoid losing?". */
        uint64_t move = 0;
        int32_t v = root_search(&g, 0, 1, &move);
        if (!g.stopped && v > 0) {
            out->value_min = TTT_VALUE_WIN;
        } else if (!g.stopped) {
            out->value_max = TTT_VALUE_DRAW;
            uint64_t draw_move = 0;
            v = root_search(&g, -1, 0, &draw_move);
            move = draw_move;
            if (!g.stopped) {
                if (v >= 0)
                    out->value_min = TTT_VALUE_DRAW;
                else
                    out->value_max = TTT_VALUE_LOSS;
            }
        }
        out->value = out->value_min;
        put_moves(&g, move, out);
        if (g.stopped)
            status = TTT_E_BUDGET;
    }
    out->nodes = g.nodes;
    alloc->dealloc(alloc->user, g.table);
    return status;
}

int ttt__gravity_run_solve(const ttt_game *game, const snapshot *snap,
                           uint64_t budget, size_t table_bytes, int all_moves,
                           solve_result *r, ttt_solution *found)
{
    if (snap->state != TTT_IN_PROGRESS ||
        !ttt__gravity_fits(snap->width, snap->height, snap->k, snap->gravity,
                           snap->misere, snap->early_draw, snap->limit_empty))
        return GRAVITY_NOT_HANDLED;
    gravity_position pos = {snap->width, snap->height, snap->k, snap->cells,
                            ttt__mover_at(snap->ply)};
    gravity_answer answer;
    answer.best = r->best;
    int status = ttt__gravity_solve(&game->alloc, &pos, budget, table_bytes,
                                    all_moves, &answer);
    if (status == GRAVITY_NOT_HANDLED)
        return status;
    r->value = answer.value;
    r->value_min = answer.value_min;
    r->value_max = answer.value_max;
    r->plies = answer.plies;
    r->best_count = answer.best_count;
    found->nodes = answer.nodes;
    found->value = answer.value;
    found->value_min = answer.value_min;
    found->value_max = answer.value_max;
    found->plies = answer.plies;
    return status;
}
