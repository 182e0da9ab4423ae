/* bot.c - ttt_best_move: the strong bot (a beam search over the search board) and the perfect one (the solver). */
#include <string.h>

#include "random.h"
#include "solver.h"
#include "threat.h"

/* ------------------------------------------------------------------------ */
/* Strong bot                                                                */

/*
 * For boards too large to solve: iterative-deepening alpha-beta within the
 * node budget, scoring the leaves by the window weights (each extra mark in
 * a window that is still one-sided multiplies its weight by eight). Every
 * node first applies the solver's immediate checks: a completion cell of
 * the mover wins, two of the opponent's lose, one must be blocked (and the
 * forced reply does not use up depth). So a win in one and a block are
 * found at the root, a double threat one ply later, and an open three
 * (which becomes a double threat if left alone) two plies later. Candidate
 * cells are the live cells sharing a window with some mark; the root tries
 * its best BOT_ROOT_MAX by weight, inner nodes their best BOT_BEAM; where
 * the opponent could make two completion cells at once, only among the
 * moves that can answer it (opponent_can_double), and those answers, like
 * a forced reply, keep their depth (up to BOT_EXTENSIONS times a line).
 * Under gravity the candidates are the landing cells, only a landing cell
 * wins or must be blocked at once, and a cell just below an opponent's
 * completion cell is tried last.
 * Positions with few empty cells are handed to the exact solver first.
 * A transposition table, one per move, keeps each position's bound and
 * best move across the iterations of the deepening: that move is tried
 * first, and a deep enough bound ends the node at once. When the budget
 * cuts an iteration short, a root move that already beat the previous
 * best at the new depth is played.
 */

#define BOT_WIN (INT64_C(1) << 50)
#define BOT_INF (INT64_C(1) << 52)
/* Inner nodes' width: against a Gomocup engine at 100 ms a move, 8 scored
 * 6 of 40 where 12 scored 1 (the same openings, side by side): a deeper
 * search beats a wider one at these budgets. */
#define BOT_BEAM 8
/* Inner nodes keep to the moves that answer the opponent's open three up
 * to this K (the check's scratch holds 4K cells). */
#define BOT_DEFEND_MAX_K 16
/* Answers to an open three that keep their depth on one line (see
 * bot_node). */
#define BOT_EXTENSIONS 4
#define BOT_SOLVE_EMPTY 16      /* try the exact solver from this many empty cells */
#define BOT_DEFAULT_BUDGET 100000
/* On long windows a position costs the bot far more: a mark changes the
 * sums of some 8K cells and the candidates lie along every mark's lines,
 * about K * K steps in all, so the default budget shrinks with K to keep
 * one move near 0.1 s: 100000 positions up to K = 25. */
#define BOT_DEFAULT_WORK 64000000

static uint64_t default_bot_budget(int32_t k)
{
    uint64_t budget = BOT_DEFAULT_WORK / ((uint64_t)k * (uint64_t)k);
    return budget < BOT_DEFAULT_BUDGET ? budget : BOT_DEFAULT_BUDGET;
}
#define BOT_ROOT_MAX 64          /* root moves searched: the best by weight */
#define BOT_MOVE_LIST_BYTES ((size_t)64 << 20)
/* The strong bot's transposition table: the iterations of the deepening
 * revisit the same positions, and different move orders reach the same
 * position. One table per move, from the game's allocator: a power of two
 * of entries near the node budget, within these bounds. */
#define BOT_TABLE_MIN ((size_t)1 << 8)
#define BOT_TABLE_MAX ((size_t)1 << 16)

enum { BOUND_EXACT = 1, BOUND_LOWER = 2, BOUND_UPPER = 3 };

typedef struct bot_entry {
    uint64_t key;    /* 0: empty */
    int64_t value;   /* wins and losses counted from this position */
    int32_t move;    /* the best or cutting move, -1 if none */
    int16_t depth;
    int16_t bound;   /* BOUND_* */
} bot_entry;

typedef struct bot {
    sboard b;
    move_stack moves;
    uint64_t nodes;
    uint64_t budget;
    int stopped;
    int status;
    uint64_t key;         /* the position's hash (key_term per mark) */
    bot_entry *table;     /* table_mask + 1 entries, or NULL */
    size_t table_mask;
    uint8_t *centre;      /* per cell: centrality(), as the candidates ask it */
    int extensions_left;  /* answers to an open three that may still keep their depth */
} bot;

/* A pseudo-random hash term for a mark of p on cell (splitmix64): no
 * table of terms to fill for a huge board. */
static uint64_t key_term(int32_t cell, int p)
{
    uint64_t z = (uint64_t)cell * 2 + (uint64_t)p + UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A mark whose subtree is searched to depth 0 or less goes on light (no
 * cell sums: ttt__sboard_place_light): below such a node the search looks
 * at the forced cell, the threats and the evaluation, never at the sums
 * that order candidates, and the leaves are most of the tree. */
static void bot_place(bot *s, int32_t cell, int p, int child_depth)
{
    s->key ^= key_term(cell, p);
    if (child_depth <= 0)
        ttt__sboard_place_light(&s->b, cell, p);
    else
        ttt__sboard_place(&s->b, cell, p);
}

static void bot_remove(bot *s, int32_t cell, int p, int child_depth)
{
    s->key ^= key_term(cell, p);
    if (child_depth <= 0)
        ttt__sboard_remove_light(&s->b, cell);
    else
        ttt__sboard_remove(&s->b, cell);
}

/* Wins and losses are stored counted from the position (they are found at
 * different plies through transpositions), other scores as they are. */
#define BOT_DECIDED (BOT_WIN - 2 * MAX_SEARCH_DEPTH)

static int64_t value_to_table(int64_t v, int ply)
{
    return v >= BOT_DECIDED ? v + ply : v <= -BOT_DECIDED ? v - ply : v;
}

static int64_t value_from_table(int64_t v, int ply)
{
    return v >= BOT_DECIDED ? v - ply : v <= -BOT_DECIDED ? v + ply : v;
}

/* Moves the key of cell, if it is in keys[at, to), to position at
 * (shifting the ones between down): the table's move is tried before the
 * rest. Returns whether it was found. */
static int bring_forward(int64_t *keys, size_t at, size_t to, int32_t cell)
{
    for (size_t i = at; i < to; i++) {
        if (move_cell(keys[i]) == cell) {
            int64_t key = keys[i];
            memmove(keys + at + 1, keys + at, (i - at) * sizeof(int64_t));
            keys[at] = key;
            return 1;
        }
    }
    return 0;
}

static int64_t bot_eval(const sboard *b, int me)
{
    int64_t e = me == 0 ? b->eval : -b->eval;
    /* In misère more marks in a one-sided window is worse, not better. */
    if (b->misere)
        return -e;
    /* The side to move makes a four out of any window of K - 2 of its
     * marks before the other side can answer: on long lines (K >= 5) such
     * windows count twice for it. */
    if (b->k >= 5 && !b->gravity)
        e += (int64_t)b->open_windows[me][b->k - 2] * b->weight[b->k - 2];
    return e;
}

/* 0 .. 127, higher nearer the centre of the board. */
static int64_t centrality(const sboard *b, int32_t cell)
{
    int32_t row = cell / b->width, col = cell % b->width;
    int32_t mid_row = b->height / 2, mid_col = b->width / 2;
    int32_t dr = row > mid_row ? row - mid_row : mid_row - row;
    int32_t dc = col > mid_col ? col - mid_col : mid_col - col;
    int32_t far = dr > dc ? dr : dc;
    return far > 127 ? 0 : 127 - far;
}

/* The ordering's tie-break for the cell: centrality, looked up (every
 * node scores every touched cell, and the division costs more than the
 * rest of its score). */
static int64_t cell_centre(const bot *s, int32_t cell)
{
    return s->centre ? s->centre[cell] : centrality(&s->b, cell);
}

/* When no candidate is left (only dead or far cells remain), any cell
 * will do: pushes the first live one, else the first empty one; returns
 * how many (0 or 1) or ttt__push_move's failure. */
static int32_t bot_candidates_fallback(bot *s)
{
    const sboard *b = &s->b;
    int32_t fallback = -1;
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY || !sboard_playable(b, cell))
            continue;
        if (fallback < 0)
            fallback = cell;
        if (b->sums[cell].live > 0) {
            int status = ttt__push_move(&s->moves, cell, 1);
            return status != TTT_OK ? status : 1;
        }
    }
    if (fallback < 0)
        return 0;
    int status = ttt__push_move(&s->moves, fallback, 0);
    return status != TTT_OK ? status : 1;
}

/* Inserts key into keys[0 .. count - 1], sorted best first, as
 * keys[count] (its room). */
static void insert_sorted(int64_t *keys, int32_t count, int64_t key)
{
    int32_t at = count;
    while (at > 0 && keys[at - 1] < key) {
        keys[at] = keys[at - 1];
        at--;
    }
    keys[at] = key;
}

/* bot_candidates' score of a cell on normal rules with no gravity: its
 * windows' weights, the mover's twice, then the centrality tie-break. */
static inline int64_t beam_score(const struct cell_sums *sum, int64_t centre, int me)
{
    const int64_t cap = SCORE_CAP / 1024 - 1;
    int64_t score = 2 * sum->weight[me] + sum->weight[1 - me];
    return (score > cap ? cap : score) * 1024 + centre * 8;
}

/* Whether opp has a move that makes two completion cells at once (an open
 * four or a double four): then the mover, with no four of its own on the
 * board, must play in one of opp's windows of K - 2 marks (the move's
 * windows are among them) or make a four itself; any other move loses. */
static int opponent_can_double(const sboard *b, int opp)
{
    if (b->k < 5 || b->k > BOT_DEFEND_MAX_K || b->open_windows[opp][b->k - 2] < 2)
        return 0;
    int32_t targets[4 * BOT_DEFEND_MAX_K];
    for (int32_t i = 0; i < b->touched_count; i++) {
        int32_t cell = b->touched[i];
        if (b->cells[cell] == TTT_EMPTY && b->sums[cell].building[opp] >= 2 &&
            ttt__future_threats(b, opp, cell, targets) >= 2)
            return 1;
    }
    return 0;
}

/* Whether a touched cell is a candidate of beam_candidates: empty, in
 * some live window, and when the opponent threatens a double (defend) in
 * a window of K - 2 marks of either side. */
static inline int beam_may_enter(int8_t mark, const struct cell_sums *sum, int defend)
{
    return mark == TTT_EMPTY && sum->live != 0 &&
           (!defend || sum->building[0] + sum->building[1] != 0);
}

/*
 * bot_candidates for an inner node on normal rules with no gravity and
 * some mark (nearly every node the bot searches): the same beam, in the
 * same order, from one pass over the touched cells with nothing but the
 * score asked of each.
 */
static int32_t beam_candidates(bot *s, int me, int32_t keep, int defend)
{
    const sboard *b = &s->b;
    const int32_t *list = b->touched;
    const struct cell_sums *sums = b->sums;
    const int8_t *cells = b->cells;
    const uint8_t *centre = s->centre;
    size_t base = s->moves.top;
    int32_t count = 0, listed = b->touched_count, i = 0;
    /* Until the beam is full every cell enters it; then only a cell above
     * its last. */
    for (; i < listed && count < keep; i++) {
        int32_t cell = list[i];
        const struct cell_sums *sum = &sums[cell];
        if (!beam_may_enter(cells[cell], sum, defend))
            continue;
        int64_t score = beam_score(sum, centre[cell], me);
        int status = ttt__push_move(&s->moves, cell, score);
        if (status != TTT_OK)
            return status;
        int64_t *keys = s->moves.keys + base;
        insert_sorted(keys, count, keys[count]);
        count++;
    }
    if (count == keep) {
        int64_t *keys = s->moves.keys + base;
        for (; i < listed; i++) {
            int32_t cell = list[i];
            const struct cell_sums *sum = &sums[cell];
            if (!beam_may_enter(cells[cell], sum, defend))
                continue;
            int64_t key = (beam_score(sum, centre[cell], me) << CELL_BITS) | cell;
            if (key > keys[keep - 1])
                insert_sorted(keys, keep - 1, key);
        }
    }
    if (count > 0)
        return count;
    s->moves.top = base;
    return bot_candidates_fallback(s);
}

/* Pushes the candidate cells of the node, each scored for ordering;
 * returns how many, or ttt__push_move's failure. With keep > 0 only the
 * best keep are left, best first: an inner node searches its beam only,
 * and keeping the beam sorted as the cells come costs far less than
 * selecting it from the whole list afterwards; defend (opponent_can_double
 * of the opponent) keeps that beam to the answers. */
static int32_t bot_candidates(bot *s, int me, int32_t keep, int defend)
{
    size_t base = s->moves.top;
    sboard *b = &s->b;
    int opp = 1 - me;
    int any_mark = b->empty < b->nn;
    /* With marks on the board the candidates are touched cells, listed by
     * the board: no pass over the whole board at every node. Under gravity
     * they are the landing cells, dead ones too: each opens the cell above
     * it, so none is a mere pass. */
    int32_t listed = b->gravity ? b->width : any_mark ? b->touched_count : b->nn;
    int32_t count = 0;
    if (keep > 0 && any_mark && !b->gravity && !b->misere && s->centre)
        return beam_candidates(s, me, keep, defend);
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = b->gravity ? landing_cell(b, i) : any_mark ? b->touched[i] : i;
        if (cell < 0 || b->cells[cell] != TTT_EMPTY ||
            (b->sums[cell].live == 0 && !b->gravity))
            continue;
        int64_t score = 2 * b->sums[cell].weight[me] + b->sums[cell].weight[opp];
        /* Under gravity a mark below the opponent's completion cell hands
         * it the win: such cells go last. */
        if (b->gravity && !b->misere && cell >= b->width &&
            b->threat_hits[opp][cell - b->width] > 0)
            score = 0;
        if (b->misere)
            score = SCORE_CAP / 4096 - score -
                    (b->threat_hits[me][cell] > 0 ? SCORE_CAP / 8192 : 0);
        /* Ties go to the cell nearer the centre; the low bits are left for
         * the root's seeded jitter. (Only absurd K reach the clamp.) */
        if (score > SCORE_CAP / 1024 - 1)
            score = SCORE_CAP / 1024 - 1;
        score = score * 1024 + cell_centre(s, cell) * 8;
        if (keep > 0 && count >= keep) {
            /* The beam is full: cell enters only above its last (the key
             * as ttt__push_move makes it). */
            int64_t key = ((score < 0 ? 0 : score) << CELL_BITS) | cell;
            int64_t *keys = s->moves.keys + base;
            if (key <= keys[keep - 1])
                continue;
            int32_t at = keep - 1;
            while (at > 0 && keys[at - 1] < key) {
                keys[at] = keys[at - 1];
                at--;
            }
            keys[at] = key;
            continue;
        }
        int status = ttt__push_move(&s->moves, cell, score);
        if (status != TTT_OK)
            return status;
        count++;
        if (keep > 0) {
            /* Sorted insertion of the newest key. */
            int64_t *keys = s->moves.keys + base;
            int64_t key = keys[count - 1];
            int32_t at = count - 1;
            while (at > 0 && keys[at - 1] < key) {
                keys[at] = keys[at - 1];
                at--;
            }
            keys[at] = key;
        }
    }
    if (count == 0)
        return bot_candidates_fallback(s);
    return count;
}

/* The score for player me (0 for X, 1 for O) of a game that just ended in
 * state: 0 for a draw, win for a win, -win for a loss. */
static int64_t ended_score(int state, int me, int64_t win)
{
    if (state == TTT_DRAW)
        return 0;
    return state == ttt__won_state(0, ttt__mark_of(me)) ? win : -win;
}

/*
 * A child of an unforced node at ply, searched to depth 0 or less, scored
 * as bot_node would score it, without placing its mark: the mover has no
 * completion cell and neither has the opponent (else the node would have
 * ended or been forced), so if the mark makes no four the child is a quiet
 * leaf: no win, no forced reply, and (with 2K plies or more left and some
 * window live) not a dead draw, so bot_node would count it and return its
 * evaluation. Returns 1 with *value (the parent's view), 0 if the child
 * must be searched, -1 if the budget ran out (the search stops).
 */
static int quiet_leaf(bot *s, int32_t cell, int me, int ply, int64_t *value)
{
    const sboard *b = &s->b;
    int64_t eval;
    int32_t building, live;
    if (!ttt__sboard_quiet_eval(b, cell, me, &eval, &building, &live) || live == 0)
        return 0;
    if (s->nodes >= s->budget || ply + 1 >= MAX_SEARCH_DEPTH) {
        s->stopped = 1;
        return -1;
    }
    s->nodes++;
    /* bot_eval for the opponent, to move there. */
    int opp = 1 - me;
    int64_t e = (opp == 0 ? eval : -eval) + (int64_t)building * b->weight[b->k - 2];
    *value = -e;
    return 1;
}

static int64_t bot_node(bot *s, int depth, int64_t alpha, int64_t beta,
                        int ply)
{
    sboard *b = &s->b;
    if (s->stopped)
        return 0;
    if (s->nodes >= s->budget || ply >= MAX_SEARCH_DEPTH) {
        s->stopped = 1;
        return 0;
    }
    s->nodes++;
    int me = sboard_mover(b), opp = 1 - me;
    int32_t forced = -1;
    if (!b->misere) {
        /* Under gravity only a landing cell completes a window now. */
        int32_t my_wins = b->threat_cells[me], opp_wins = b->threat_cells[opp];
        int32_t unused, opp_cell = -1;
        if (b->gravity) {
            my_wins = sboard_playable_threats(b, me, &unused);
            opp_wins = sboard_playable_threats(b, opp, &opp_cell);
        } else if (opp_wins == 1) {
            opp_cell = (int32_t)b->threat_sum[opp];
        }
        if (my_wins > 0)
            return BOT_WIN - ply;
        if (opp_wins >= 2 && plies_left(b) >= 2)
            return -(BOT_WIN - ply - 1);
        if (opp_wins == 1)
            forced = opp_cell;
        if (!can_complete(b, me) && !can_complete(b, opp))
            return 0;
    }
    if (depth <= 0 && forced < 0)
        return bot_eval(b, me);

    /* A forced node neither asks the table (its one move needs no order,
     * and its bound is never taken: the same position is forced again)
     * nor fills it (its entry would push out one that can cut). */
    bot_entry *entry = s->table && forced < 0 ? &s->table[s->key & s->table_mask] : NULL;
    int32_t table_move = -1;
    if (entry && entry->key == s->key) {
        table_move = entry->move;
        if (entry->depth >= depth) {
            int64_t v = value_from_table(entry->value, ply);
            if (entry->bound == BOUND_EXACT ||
                (entry->bound == BOUND_LOWER && v >= beta) ||
                (entry->bound == BOUND_UPPER && v <= alpha))
                return v;
        }
    }
    int64_t alpha_in = alpha;
    /* The opponent threatens two completion cells at once (an open three):
     * only a few cells answer it, as only one answers a four, so like a
     * forced reply the answers keep their depth, up to BOT_EXTENSIONS
     * times on a line (each costs the mover nothing but spends the
     * opponent's move, and a line of threes is seen as deep as a line of
     * fours). */
    int defend = forced < 0 && !b->misere && !b->gravity && opponent_can_double(b, opp);
    int extend = defend && s->extensions_left > 0;

    size_t base = s->moves.top;
    int32_t count;
    if (forced >= 0) {
        int status = ttt__push_move(&s->moves, forced, 0);
        count = status == TTT_OK ? 1 : status;
    } else {
        count = bot_candidates(s, me, BOT_BEAM, defend);
    }
    if (count < 0) {
        /* At the lists' cap the search stops as at its node budget, with
         * the last completed iteration's move. */
        s->moves.top = base;
        s->stopped = 1;
        if (count == TTT_E_NOMEM)
            s->status = TTT_E_NOMEM;
        return 0;
    }
    if (count > BOT_BEAM)
        count = BOT_BEAM;
    /* The table's move first (it was best here before). Killer moves were
     * tried too and cost depth: the weights order the beam better than
     * the moves that cut off in a sibling's subtree. */
    if (table_move >= 0 && count > 1)
        bring_forward(s->moves.keys, base, base + (size_t)count, table_move);

    int64_t best = -BOT_INF;
    int32_t best_cell = -1;
    int child_depth = forced >= 0 || extend ? depth : depth - 1;
    s->extensions_left -= extend; /* for the children's lines only */
    /* Children that are leaves with no threat either side can be scored
     * without their mark (quiet_leaf); far from the end only, where some
     * live window means either side may still complete one. */
    int quiet_leaves = child_depth <= 0 && forced < 0 && !b->misere && !b->gravity &&
                       b->k >= 5 && plies_left(b) - 1 >= 2 * b->k;
    for (int32_t i = 0; i < count; i++) {
        int32_t cell = move_cell(s->moves.keys[base + (size_t)i]);
        int64_t v;
        int scored = quiet_leaves ? quiet_leaf(s, cell, me, ply, &v) : 0;
        if (scored < 0)
            break; /* the budget ran out, as the child's node would find */
        if (!scored) {
            bot_place(s, cell, me, child_depth);
            int state = sboard_state(b, me);
            if (state != TTT_IN_PROGRESS)
                v = ended_score(state, me, BOT_WIN - ply - 1);
            else
                v = -bot_node(s, child_depth, -beta, -alpha, ply + 1);
            bot_remove(s, cell, me, child_depth);
        }
        if (s->stopped)
            break;
        if (v > best) {
            best = v;
            best_cell = cell;
            if (v > alpha)
                alpha = v;
            if (v >= beta)
                break;
        }
    }
    s->moves.top = base;
    s->extensions_left += extend;
    if (entry && !s->stopped && best_cell >= 0) {
        /* Always replace: the newest search is the deepest so far. */
        entry->key = s->key;
        entry->value = value_to_table(best, ply);
        entry->move = best_cell;
        entry->depth = (int16_t)(depth < INT16_MAX ? depth : INT16_MAX);
        entry->bound = (int16_t)(best >= beta ? BOUND_LOWER : best <= alpha_in ? BOUND_UPPER
                                                                              : BOUND_EXACT);
    }
    return best;
}

/* Threat search at the root (src/threat.h), on normal rules with
 * K >= 5, within a quarter of the budget; its nodes come off *budget.
 * Returns the kind found (THREAT_NONE, with *status TTT_E_NOMEM, when
 * memory is short). */
static int threat_at_root(const ttt_game *game, const snapshot *snap,
                          uint64_t *budget, threat_root *threat, int *status)
{
    *status = ttt__threat_root_search(game, snap->width, snap->height, snap, *budget / 4, threat);
    if (*status != TTT_OK)
        return THREAT_NONE;
    *budget -= threat->nodes < *budget ? threat->nodes : *budget - 1;
    return threat->kind;
}

/* Keeps the root candidates not shown to lose to the opponent's threats
 * (all of them if none is left); returns how many. */
static int32_t keep_safe_moves(int64_t *keys, int32_t count, const uint8_t *safe)
{
    int32_t kept = 0;
    for (int32_t i = 0; i < count; i++) {
        if (safe[move_cell(keys[i])])
            keys[kept++] = keys[i];
    }
    return kept > 0 ? kept : count;
}

/* The strong bot's choice for a position in progress. */
static int strong_move(const ttt_game *game, const snapshot *snap,
                       uint64_t budget, uint64_t *seed, int use_table,
                       int32_t *cell_out, int *depth_out)
{
    *depth_out = 0;
    bot s;
    memset(&s, 0, sizeof s);
    carver sizes = {NULL, 0, 0};
    ttt__sboard_size(&sizes, &s.b, snap, 0);
    carve(&sizes, (size_t)snap->nn, sizeof(uint8_t));
    if (sizes.overflow)
        return TTT_E_NOMEM;
    void *block = engine_alloc(game, sizes.used);
    if (!block)
        return TTT_E_NOMEM;
    carver parts = {block, 0, 0};
    ttt__sboard_size(&parts, &s.b, snap, 0);
    s.centre = carve(&parts, (size_t)snap->nn, sizeof(uint8_t));
    ttt__sboard_init(&s.b, snap, 0);
    for (int32_t cell = 0; cell < snap->nn; cell++)
        s.centre[cell] = (uint8_t)centrality(&s.b, cell);
    s.moves.game = game;
    s.moves.limit = BOT_MOVE_LIST_BYTES / sizeof(int64_t);
    s.budget = UINT64_MAX; /* the first iteration always completes */
    s.status = TTT_OK;
    s.extensions_left = BOT_EXTENSIONS;
    for (int32_t cell = 0; cell < snap->nn; cell++) {
        if (snap->cells[cell] != TTT_EMPTY)
            s.key ^= key_term(cell, ttt__player_of(snap->cells[cell]));
    }
    /* Without the table's memory the search runs as before, only slower. */
    size_t slots = BOT_TABLE_MIN;
    while (slots < BOT_TABLE_MAX && slots < budget)
        slots *= 2;
    size_t table_bytes = ttt__size_mul(slots, sizeof(bot_entry));
    s.table = use_table ? engine_alloc(game, table_bytes) : NULL;
    s.table_mask = slots - 1;
    if (s.table)
        memset(s.table, 0, table_bytes);
    sboard *b = &s.b;
    int me = sboard_mover(b);

    /* A win at once, else a block; under gravity only of a landing cell. */
    int32_t chosen = -1;
    threat_root threat = {THREAT_NONE, -1, 0, NULL};
    if (!b->misere && b->gravity) {
        if (sboard_playable_threats(b, me, &chosen) == 0)
            sboard_playable_threats(b, 1 - me, &chosen);
    } else if (!b->misere && b->threat_cells[me] > 0) {
        chosen = ttt__some_threat_cell(b, me);
    } else if (!b->misere && b->threat_cells[1 - me] > 0) {
        chosen = ttt__some_threat_cell(b, 1 - me);
    } else if (!b->misere && snap->k >= 5 &&
               threat_at_root(game, snap, &budget, &threat, &s.status) == THREAT_WIN) {
        chosen = threat.move;
    }
    if (chosen < 0) {
        int32_t count = bot_candidates(&s, me, 0, 0);
        if (count > 0 && threat.kind == THREAT_DEFEND)
            count = keep_safe_moves(s.moves.keys, count, threat.safe);
        if (count < 0) {
            s.status = count;
        } else {
            /* Seeded tie-breaks: random low-order bits among equals. */
            if (seed) {
                for (int32_t i = 0; i < count; i++) {
                    int64_t key = s.moves.keys[i];
                    int64_t jitter = (int64_t)ttt__random_below(seed, 8);
                    s.moves.keys[i] = key + (jitter << CELL_BITS);
                }
            }
            if (count > BOT_ROOT_MAX) {
                ttt__select_top(s.moves.keys, (size_t)count, BOT_ROOT_MAX);
                count = BOT_ROOT_MAX;
            }
            ttt__sort_moves(s.moves.keys, 0, (size_t)count);
            s.moves.top = (size_t)count;
            chosen = move_cell(s.moves.keys[0]);
            for (int depth = 1; depth <= b->empty && !s.stopped; depth++) {
                int64_t alpha = -BOT_INF, best_score = -BOT_INF;
                int32_t best_index = 0;
                for (int32_t i = 0; i < count; i++) {
                    int32_t cell = move_cell(s.moves.keys[i]);
                    bot_place(&s, cell, me, depth - 1);
                    int64_t v;
                    int state = sboard_state(b, me);
                    if (state != TTT_IN_PROGRESS)
                        v = ended_score(state, me, BOT_WIN);
                    else
                        v = -bot_node(&s, depth - 1, -BOT_INF, -alpha, 1);
                    bot_remove(&s, cell, me, depth - 1);
                    if (s.stopped)
                        break;
                    if (v > best_score) {
                        best_score = v;
                        best_index = i;
                        if (v > alpha)
                            alpha = v;
                    }
                }
                if (s.stopped) {
                    /* A move that beat the previous best, both searched
                     * to this depth in full, is the better choice. */
                    if (best_index > 0)
                        chosen = move_cell(s.moves.keys[best_index]);
                    break;
                }
                /* The completed iteration's best leads the next one. */
                int64_t first = s.moves.keys[best_index];
                memmove(s.moves.keys + 1, s.moves.keys, (size_t)best_index * sizeof(int64_t));
                s.moves.keys[0] = first;
                chosen = move_cell(first);
                *depth_out = depth;
                if (best_score >= BOT_WIN - MAX_SEARCH_DEPTH ||
                    best_score <= -(BOT_WIN - MAX_SEARCH_DEPTH))
                    break; /* decided: deeper search changes nothing */
                s.budget = budget;
            }
        }
    }
    int status = s.status;
    ttt__threat_release(game, &threat);
    engine_free(game, s.moves.keys);
    engine_free(game, s.table);
    engine_free(game, block);
    if (status != TTT_OK)
        return status;
    *cell_out = chosen;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* ttt_best_move                                                             */

/* A uniformly chosen optimal move of a solve, or the only one. */
static int32_t pick_optimal(const solve_result *r, uint64_t *seed)
{
    if (r->best_count <= 1 || !seed)
        return r->best[0];
    return r->best[ttt__random_below(seed, (uint32_t)r->best_count)];
}

int ttt_best_move(const ttt_game *game, int level, uint64_t node_budget,
                  uint64_t *seed, int *row, int *col)
{
    if (!game || !row || !col ||
        (level != TTT_BOT_RANDOM && level != TTT_BOT_STRONG &&
         level != TTT_BOT_PERFECT) ||
        (level == TTT_BOT_RANDOM && !seed))
        return TTT_E_INVALID;
    if (level == TTT_BOT_RANDOM)
        return ttt_random_move(game, seed, row, col);

    snapshot snap;
    solve_result r;
    void *block = ttt__start_solve(game, &snap, &r);
    if (!block)
        return TTT_E_NOMEM;

    /* Work on a copy of the seed: a failed call leaves it as it was. */
    uint64_t seed_copy = seed ? *seed : 0;
    uint64_t *rng = seed ? &seed_copy : NULL;
    int status;
    int32_t cell = -1;
    ttt_solution found;
    memset(&found, 0, sizeof found);
    if (snap.state != TTT_IN_PROGRESS) {
        status = TTT_E_GAME_OVER;
    } else if (level == TTT_BOT_PERFECT) {
        status = ttt__run_solve(game, &snap, node_budget, 0, 1, &r, &found);
        if (status == TTT_OK)
            cell = pick_optimal(&r, rng);
    } else {
        uint64_t budget = node_budget ? node_budget : default_bot_budget(snap.k);
        status = TTT_E_BUDGET;
        if (snap.nn - snap.ply <= BOT_SOLVE_EMPTY) {
            /* Small enough to try exactly: half the budget. */
            status = ttt__run_solve(game, &snap, budget / 2 + 1, 0, 1, &r, &found);
            if (status == TTT_OK)
                cell = pick_optimal(&r, rng);
            budget -= found.nodes < budget ? found.nodes : budget - 1;
        }
        int depth;
        if (status == TTT_E_BUDGET)
            status = strong_move(game, &snap, budget, rng, 1, &cell, &depth);
    }
    engine_free(game, block);
    if (status != TTT_OK)
        return status;
    if (seed)
        *seed = seed_copy;
    *row = cell / snap.width;
    *col = cell % snap.width;
    return TTT_OK;
}

int ttt__strong_search(const ttt_game *game, uint64_t budget, int use_table,
                       int32_t *cell, int *depth)
{
    snapshot snap;
    solve_result r;
    void *block = ttt__start_solve(game, &snap, &r);
    if (!block)
        return TTT_E_NOMEM;
    int status = snap.state != TTT_IN_PROGRESS
                     ? TTT_E_GAME_OVER
                     : strong_move(game, &snap, budget, NULL, use_table, cell, depth);
    engine_free(game, block);
    return status;
}
