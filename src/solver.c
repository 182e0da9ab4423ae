/* solver.c - the exact solver's search: negamax with alpha-beta, threat and double-threat pruning over the search board. */
#include <string.h>

#include "solver.h"

/*
 * The distance scale. A node's score counts plies from that node, and no
 * proven result is longer than the search may go: MAX_SEARCH_DEPTH plies
 * from the root, plus the loss in 4 a node may claim without searching. So
 * base = min(nn, that) + 2 keeps every win and loss positive and apart
 * from the draw on any board, and every score far inside SCORE_INF and the
 * table's 16-bit fields (nn + 2 alone passes them from 181 x 182 cells).
 */
#define DISTANCE_MAX_PLIES (MAX_SEARCH_DEPTH + 4)

static int32_t win_in(const solver *s, int32_t plies)
{
    return s->dtm ? s->base - plies : 1;
}

/* The parent's score for a child's score: negated, and in distance mode one
 * ply further from the end. */
static int32_t back_up(const solver *s, int32_t child)
{
    int32_t v = -child;
    if (s->dtm)
        v -= (v > 0) - (v < 0);
    return v;
}

/* The child score whose back_up is bound, for passing windows down. */
static int32_t to_child(const solver *s, int32_t bound)
{
    if (!s->dtm || bound == 0)
        return -bound;
    if (bound >= SCORE_INF)
        return -SCORE_INF;
    if (bound <= -SCORE_INF)
        return SCORE_INF;
    return bound > 0 ? -(bound + 1) : -(bound - 1);
}

static void solver_stop(solver *s, int status)
{
    s->stopped = 1;
    if (s->status == TTT_OK)
        s->status = status;
}

/* The canonical key of the position and the symmetry that gives it. */
static uint64_t canonical_key(const sboard *b, int *symmetry)
{
    uint64_t best = b->key[0];
    int which = 0;
    for (int s = 1; s < b->sym_count; s++) {
        if (b->key[s] < best) {
            best = b->key[s];
            which = s;
        }
    }
    *symmetry = which;
    return best;
}

/* The canonical key the position would have after p plays cell. */
static uint64_t child_key(const sboard *b, int32_t cell, int p)
{
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < b->sym_count; s++) {
        uint64_t key = b->key[s] + b->key_term[p][b->sym[(size_t)s * (size_t)b->nn + (size_t)cell]];
        if (key < best)
            best = key;
    }
    return best;
}

/* The score of the move just made, if it ended the game. */
static int terminal_score(const solver *s, int *ended)
{
    const sboard *b = &s->b;
    *ended = 1;
    if (b->completed > 0)
        return b->misere ? -win_in(s, 1) : win_in(s, 1);
    if (ttt__drawn(b->early_draw, b->empty, b->limit_empty, &b->live))
        return 0;
    *ended = 0;
    return 0;
}

/*
 * Beyond SOLVER_SCAN_CELLS cells a node does not list every empty cell:
 * it sorts the touched ones (those sharing a window with a mark, where
 * every threat, block, dead cell and dummy lies) and then tries the
 * untouched ones in board order, one at a time, only while no cut-off came.
 * So a node costs the cells near the marks plus the children it searches,
 * not a pass over the board. Smaller boards order every cell
 * (SOLVER_SCAN_CELLS is with the search board).
 */
/* The next empty untouched cell from *cursor on (not skip), advancing the
 * cursor past it; -1 when none is left. */
static int32_t untouched_after(const sboard *b, int32_t *cursor, int32_t skip)
{
    for (int32_t cell = *cursor; cell < b->nn; cell++) {
        if (b->cells[cell] == TTT_EMPTY && b->sums[cell].touched == 0 && cell != skip) {
            *cursor = cell + 1;
            return cell;
        }
    }
    *cursor = b->nn;
    return -1;
}

/* Pushes the node's candidate moves; returns how many, or ttt__push_move's
 * failure (TTT_E_BUDGET at the lists' cap, TTT_E_NOMEM).
 * With doubles > 0, only the cells that stop all of the opponent's double
 * threats (relevance == doubles) or make a threat of mine. */
static int32_t generate_moves(solver *s, int me, int32_t forced,
                              int32_t tt_cell, int32_t doubles, int attacking,
                              int maker)
{
    sboard *b = &s->b;
    int opp = 1 - me;
    if (forced >= 0) {
        int status = ttt__push_move(&s->moves, forced, 0);
        return status == TTT_OK ? 1 : status;
    }
    int32_t count = 0, dead_seen = 0;
    /* Large boards list the touched cells only; ttt__solve_node tries the
     * untouched ones after them (see untouched_after). Under gravity the
     * moves are the landing cells, one per column that is not full. */
    int listed_only = !b->gravity && b->nn > SOLVER_SCAN_CELLS;
    int32_t listed = b->gravity ? b->width : listed_only ? b->touched_count : b->nn;
    if (listed_only && doubles == 0 && tt_cell >= 0 && b->cells[tt_cell] == TTT_EMPTY &&
        b->sums[tt_cell].touched == 0) {
        int status = ttt__push_move(&s->moves, tt_cell, SCORE_CAP);
        if (status != TTT_OK)
            return status;
        count++;
    }
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = b->gravity ? landing_cell(b, i) : listed_only ? b->touched[i] : i;
        if (cell < 0 || b->cells[cell] != TTT_EMPTY)
            continue;
        /* Only the maker's open windows matter: other cells are dummies. */
        if (maker >= 0 && b->sums[cell].weight[maker] == 0) {
            if (dead_seen)
                continue;
            dead_seen = 1;
        }
        if (doubles > 0 && s->relevance[cell] != doubles &&
            b->sums[cell].building[me] == 0)
            continue;
        int64_t score;
        if (b->sums[cell].live == 0) {
            /* Dead cells are interchangeable: one is tried. Not under
             * gravity, where each opens a different cell above it. */
            if (dead_seen && !b->gravity)
                continue;
            dead_seen = 1;
            score = 0; /* a pass: last */
        } else if (b->misere && b->threat_hits[me][cell] > 0) {
            score = 0; /* completes a window of mine: a loss in misère */
        } else {
            /* The side that needs a win builds; the side that only needs
             * to stop one blocks first. */
            int64_t own = b->sums[cell].weight[me], other = b->sums[cell].weight[opp];
            score = 2 + (attacking ? 2 * own + other : own + 2 * other) +
                    s->history[cell];
        }
        if (cell == tt_cell)
            score = SCORE_CAP;
        int status = ttt__push_move(&s->moves, cell, score);
        if (status != TTT_OK)
            return status;
        count++;
    }
    return count;
}


static int one_cell_stops_pairs(solver *s, int p, int32_t forced)
{
    sboard *b = &s->b;
    int32_t left = (plies_left(b) + (p == sboard_mover(b))) / 2;
    int32_t k = b->k, count = 0;
    for (int32_t w = 0; w < b->window_count; w++) {
        const int16_t *marks = b->window_marks + 2 * (size_t)w;
        if (marks[1 - p] == 0 && k - marks[p] <= left) {
            if (count == PAIR_WINDOWS_MAX)
                return 0;
            s->fillable[count++] = w;
        }
    }
    int32_t pairs = 0, best_hits = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t w1 = s->fillable[i];
        int32_t step1 = b->cell_step[window_direction(b, w1)];
        for (int32_t j = i + 1; j < count; j++) {
            int32_t w2 = s->fillable[j];
            int32_t step2 = b->cell_step[window_direction(b, w2)];
            if (++s->stamp_now == 0) {
                memset(s->stamp, 0, (size_t)b->nn * sizeof(uint32_t));
                s->stamp_now = 1;
            }
            int32_t empties = 0, shared = 0;
            int32_t cell = b->window_start[w1];
            for (int32_t t = 0; t < k; t++, cell += step1) {
                if (b->cells[cell] == TTT_EMPTY) {
                    s->stamp[cell] = s->stamp_now;
                    empties++;
                }
            }
            cell = b->window_start[w2];
            for (int32_t t = 0; t < k; t++, cell += step2) {
                if (b->cells[cell] == TTT_EMPTY) {
                    if (s->stamp[cell] == s->stamp_now)
                        shared = 1;
                    else
                        empties++;
                }
            }
            if (!shared || empties - 1 > left)
                continue;
            /* A fillable pair: each of its empty cells would stop it. */
            pairs++;
            cell = b->window_start[w1];
            for (int32_t t = 0; t < k; t++, cell += step1) {
                if (b->cells[cell] == TTT_EMPTY)
                    s->pair_hits[cell]++;
            }
            cell = b->window_start[w2];
            for (int32_t t = 0; t < k; t++, cell += step2) {
                if (b->cells[cell] == TTT_EMPTY && s->stamp[cell] != s->stamp_now)
                    s->pair_hits[cell]++;
            }
        }
    }
    /* Read and clear the counts over the same cells. */
    for (int32_t i = 0; i < count; i++) {
        int32_t w = s->fillable[i];
        int32_t step = b->cell_step[window_direction(b, w)];
        int32_t cell = b->window_start[w];
        for (int32_t t = 0; t < k; t++, cell += step) {
            if (forced < 0 || cell == forced) {
                if (s->pair_hits[cell] > best_hits)
                    best_hits = s->pair_hits[cell];
            }
        }
    }
    for (int32_t i = 0; i < count; i++) {
        int32_t w = s->fillable[i];
        int32_t step = b->cell_step[window_direction(b, w)];
        int32_t cell = b->window_start[w];
        for (int32_t t = 0; t < k; t++, cell += step)
            s->pair_hits[cell] = 0;
    }
    return best_hits == pairs;
}

/* Undoes find_double_threats' relevance counts. */
static void clear_relevance(solver *s, int opp, int32_t doubles)
{
    for (int32_t i = 0; i < doubles; i++) {
        int32_t cell = s->doubles[i];
        int32_t targets = ttt__future_threats(&s->b, opp, cell, s->future);
        s->relevance[cell] = 0;
        for (int32_t j = 0; j < targets; j++)
            s->relevance[s->future[j]] = 0;
    }
}

#define DOUBLE_WIN (-1)  /* I have a double threat: a win in 3 */
#define DOUBLE_LOSS (-2) /* no move stops the opponent's: a loss in 4 */

/* With no completion cell on either side: looks for my double threats and
 * the opponent's. Returns DOUBLE_WIN (setting *best_move if asked), or the
 * number of opponent double-threat moves, listed in s->doubles, with
 * s->relevance[c] counting those that c stops; DOUBLE_LOSS when no cell
 * stops them all and none makes a threat of mine. */
static int32_t find_double_threats(solver *s, int me, int32_t *best_move)
{
    sboard *b = &s->b;
    int opp = 1 - me;
    int32_t doubles = 0;
    /* Building cells share a window with marks: on large boards the touched
     * list holds them all. */
    int listed_only = b->nn > SOLVER_SCAN_CELLS;
    int32_t listed = listed_only ? b->touched_count : b->nn;
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = listed_only ? b->touched[i] : i;
        if (b->cells[cell] != TTT_EMPTY)
            continue;
        if (b->sums[cell].building[me] >= 2 &&
            ttt__future_threats(b, me, cell, s->future) >= 2) {
            if (best_move)
                *best_move = cell;
            return DOUBLE_WIN;
        }
        if (b->sums[cell].building[opp] >= 2 &&
            ttt__future_threats(b, opp, cell, s->future) >= 2)
            s->doubles[doubles++] = cell;
    }
    if (doubles == 0)
        return 0;
    for (int32_t i = 0; i < doubles; i++) {
        int32_t cell = s->doubles[i];
        int32_t targets = ttt__future_threats(b, opp, cell, s->future);
        s->relevance[cell]++;
        for (int32_t j = 0; j < targets; j++)
            s->relevance[s->future[j]]++;
    }
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = listed_only ? b->touched[i] : i;
        if (b->cells[cell] == TTT_EMPTY &&
            (s->relevance[cell] == doubles || b->sums[cell].building[me] > 0))
            return doubles;
    }
    clear_relevance(s, opp, doubles);
    if (best_move)
        *best_move = s->doubles[0];
    return DOUBLE_LOSS;
}

int32_t ttt__distance_base(int32_t nn)
{
    return (nn < DISTANCE_MAX_PLIES ? nn : DISTANCE_MAX_PLIES) + 2;
}

int32_t ttt__solve_node(solver *s, int32_t alpha, int32_t beta, int depth,
                          int32_t *best_move)
{
    sboard *b = &s->b;
    if (s->stopped)
        return 0;
    if (s->nodes >= s->budget) {
        solver_stop(s, TTT_E_BUDGET);
        return 0;
    }
    if (depth >= MAX_SEARCH_DEPTH) {
        solver_stop(s, TTT_E_BUDGET);
        return 0;
    }
    s->nodes++;
    int me = sboard_mover(b), opp = 1 - me;

    /* Completion cells each side could play now: every one of them
     * without gravity, only landing cells under gravity. */
    int32_t my_wins = 0, opp_wins = 0, my_cell = -1, opp_cell = -1;
    if (!b->misere) {
        if (b->gravity) {
            my_wins = sboard_playable_threats(b, me, &my_cell);
            opp_wins = sboard_playable_threats(b, opp, &opp_cell);
        } else {
            my_wins = b->threat_cells[me];
            opp_wins = b->threat_cells[opp];
            if (opp_wins == 1)
                opp_cell = (int32_t)b->threat_sum[opp];
        }
        if (my_wins > 0) {
            if (best_move)
                *best_move = my_cell >= 0 ? my_cell : ttt__some_threat_cell(b, me);
            return win_in(s, 1);
        }
        /* Two threats win for the opponent only if the game lasts to its
         * move: under a ply limit the last ply may be this one. */
        if (opp_wins >= 2 && plies_left(b) >= 2) {
            if (best_move)
                *best_move = opp_cell >= 0 ? opp_cell : ttt__some_threat_cell(b, opp);
            return -win_in(s, 2);
        }
    }

    /* Who can still complete a window bounds the score; in normal play,
     * who can still make a double threat. In misère the one who completes
     * loses, so the roles swap. */
    int me_complete = can_complete(b, me), opp_complete = can_complete(b, opp);
    int me_can = me_complete, opp_can = opp_complete;
    int32_t upper, lower;
    if (!b->misere) {
        /* Under gravity one threat can win (the opponent may be made to
         * play the cell below it), so the double-threat conditions do not
         * hold there: only "can complete" bounds the score. */
        if (!b->gravity) {
            me_can = me_complete && ttt__can_double(b, me);
            opp_can = opp_complete && ttt__can_double(b, opp);
        }
        /* With at most one opponent completion cell (more lost above), if
         * one mark of mine stops all of the opponent's future double
         * threats, the opponent cannot win. */
        if (!b->gravity && opp_can && b->threat_cells[opp] <= 1) {
            int32_t must = b->threat_cells[opp] == 1 ? (int32_t)b->threat_sum[opp] : -1;
            opp_can = !one_cell_stops_pairs(s, opp, must);
        }
        upper = me_can ? win_in(s, 1) : 0;
        lower = opp_can ? -win_in(s, 2) : 0;
    } else {
        upper = opp_can ? win_in(s, 2) : 0;
        lower = me_can ? -win_in(s, 1) : 0;
    }
    if (upper <= alpha || lower >= beta || upper == lower) {
        if (best_move) {
            /* Any move keeps these bounds; report a live one if any. */
            *best_move = -1;
            for (int32_t cell = 0; cell < b->nn; cell++) {
                if (b->cells[cell] == TTT_EMPTY && sboard_playable(b, cell) &&
                    (*best_move < 0 || b->sums[cell].live > 0)) {
                    *best_move = cell;
                    if (b->sums[cell].live > 0)
                        break;
                }
            }
        }
        return upper <= alpha ? upper : lower >= beta ? lower : upper;
    }

    int32_t forced = -1;
    if (!b->misere && opp_wins == 1)
        forced = opp_cell;

    int symmetry = 0;
    uint64_t key = 0;
    int32_t tt_cell = -1;
    if (s->use_tt) {
        key = canonical_key(b, &symmetry);
        const tt_entry *entry = tt_probe(&s->tt, key);
        if (entry) {
            int32_t stored_lower = tt_lower(entry->data);
            int32_t stored_upper = tt_upper(entry->data);
            int32_t stored_move = tt_move(entry->data);
            if (stored_move >= 0)
                tt_cell = b->sym[(size_t)b->sym_inverse[symmetry] * (size_t)b->nn +
                                 (size_t)stored_move];
            /* The root always searches, so it can name its move. */
            if (!best_move) {
                if (stored_lower >= beta)
                    return stored_lower;
                if (stored_upper <= alpha)
                    return stored_upper;
                if (stored_lower == stored_upper)
                    return stored_lower;
            }
        }
    }

    /* After the table probe: relevance counts must not outlive this node,
     * and every return between counting and clearing would leak them. */
    int32_t doubles = 0;
    /* A double threat takes up to four plies to win: not under a ply
     * limit that comes sooner. Under gravity a completion cell may not be
     * playable yet, so two of them are no double threat there. */
    if (!b->misere && !b->gravity && forced < 0 && plies_left(b) >= 4 &&
        (b->open_windows[me][b->k - 2] > 1 || b->open_windows[opp][b->k - 2] > 1)) {
        doubles = find_double_threats(s, me, best_move);
        if (doubles < 0)
            return doubles == DOUBLE_WIN ? win_in(s, 3) : -win_in(s, 4);
    }

    size_t base = s->moves.top;
    /* Once only one side can still complete a window, the game is a
     * maker-breaker game on the maker's open windows: a cell outside them
     * is a dummy, and claiming one is a pass, which never beats a real
     * move. Value mode only (a pass may change a distance), and not under
     * early draw (killing windows can end the game there), nor under
     * gravity (a dummy mark opens the cell above it: no pass). */
    int maker = -1;
    if (!s->dtm && !b->misere && !b->early_draw && !b->gravity &&
        me_complete != opp_complete)
        maker = me_complete ? me : opp;
    int32_t count = generate_moves(s, me, forced, tt_cell, doubles, beta > 0, maker);
    if (doubles > 0)
        clear_relevance(s, opp, doubles);
    if (count < 0) {
        s->moves.top = base;
        solver_stop(s, count);
        return 0;
    }
    ttt__sort_moves(s->moves.keys, base, base + (size_t)count);
    if (s->use_tt && count > 1) {
        for (int32_t i = 0; i < count; i++)
            tt_prefetch(&s->tt, child_key(b, move_cell(s->moves.keys[base + (size_t)i]), me));
    }

    int32_t alpha0 = alpha;
    int32_t best = -SCORE_INF, best_cell = -1;
    uint64_t nodes_before = s->nodes;
    /* The listed moves, then on large boards the untouched cells (none
     * can help against a forced block or a double threat). */
    int untouched = !b->gravity && b->nn > SOLVER_SCAN_CELLS && forced < 0 && doubles == 0;
    int32_t cursor = 0;
    for (int32_t i = 0;; i++) {
        int32_t cell;
        if (i < count)
            cell = move_cell(s->moves.keys[base + (size_t)i]);
        else if (!untouched || (cell = untouched_after(b, &cursor, tt_cell)) < 0)
            break;
        ttt__sboard_place(b, cell, me);
        int ended;
        int32_t v = terminal_score(s, &ended);
        if (!ended)
            v = back_up(s, ttt__solve_node(s, to_child(s, beta), to_child(s, alpha),
                                      depth + 1, NULL));
        ttt__sboard_remove(b, cell);
        if (s->stopped)
            break;
        if (v > best) {
            best = v;
            best_cell = cell;
            if (v > alpha)
                alpha = v;
            if (v >= beta) {
                s->history[cell] += (int64_t)b->empty * b->empty;
                break;
            }
        }
    }
    s->moves.top = base;
    if (s->stopped)
        return 0;

    if (s->use_tt) {
        int32_t new_lower = best >= beta ? best : -SCORE_INF;
        int32_t new_upper = best <= alpha0 ? best : SCORE_INF;
        if (best > alpha0 && best < beta)
            new_lower = new_upper = best;
        int32_t canonical_move =
            best_cell >= 0 ? b->sym[(size_t)symmetry * (size_t)b->nn + (size_t)best_cell] : -1;
        if (ttt__tt_store(&s->tt, key, new_lower, new_upper, canonical_move,
                     s->nodes - nodes_before) != TTT_OK) {
            solver_stop(s, TTT_E_NOMEM);
            return 0;
        }
    }
    if (best_move)
        *best_move = best_cell;
    return best;
}

int ttt__move_reaches(solver *s, int32_t cell, int32_t target)
{
    sboard *b = &s->b;
    int me = sboard_mover(b);
    ttt__sboard_place(b, cell, me);
    int ended;
    int32_t v = terminal_score(s, &ended);
    if (!ended) {
        /* A null window on the child decides "back_up(child) >= target". */
        int32_t bound = to_child(s, target);
        v = back_up(s, ttt__solve_node(s, bound, bound + 1, 1, NULL));
    }
    ttt__sboard_remove(b, cell);
    if (s->stopped)
        return -1;
    return v >= target;
}

int ttt__draw_within(solver *s, int32_t plies)
{
    sboard *b = &s->b;
    if (plies <= 0)
        return 0;
    int me = sboard_mover(b);
    int dead_seen = 0;
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY || !sboard_playable(b, cell))
            continue;
        /* Dead cells are interchangeable, but under gravity. */
        if (b->sums[cell].live == 0 && !b->gravity) {
            if (dead_seen)
                continue;
            dead_seen = 1;
        }
        int keeps = ttt__move_reaches(s, cell, 0);
        if (keeps < 0)
            return -1;
        if (!keeps)
            continue;
        ttt__sboard_place(b, cell, me);
        int ended, found;
        terminal_score(s, &ended);
        found = ended ? 1 : ttt__draw_within(s, plies - 1);
        ttt__sboard_remove(b, cell);
        if (found != 0)
            return found;
    }
    return 0;
}
