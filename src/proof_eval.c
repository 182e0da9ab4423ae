/* proof_eval.c - the proof search's position evaluation: settled positions, the defender's pairings (private and shared) with their zones, and the cuts of the mover's moves. */
#include "prover.h"

/* The empty cell of window w other than skip (-1: any). */
static int32_t window_empty(const prover *pv, int32_t w, int32_t skip)
{
    const int32_t *cells = pv->window_cells + (size_t)w * (size_t)pv->k;
    for (int32_t i = 0; i < pv->k; i++) {
        if (pv->cells[cells[i]] == TTT_EMPTY && cells[i] != skip)
            return cells[i];
    }
    return -1;
}

/* Tries a node spends on a shared pairing before giving up: a pairing
 * found is a proof, a pairing missed only costs a deeper search. */
#define SHARED_PAIRING_STEPS 32

/* Whether window w holds cell. */
static int window_holds(const prover *pv, int32_t w, int32_t cell)
{
    return (int)(pv->window_mask[2 * w + (cell >> 6)] >> (cell & 63) & 1);
}

/* Takes (by = +1) or frees (-1) the pair a, b: the open windows through
 * either cell lose (or regain) a free cell, those through both gain (or
 * lose) a pair. */
static void mark_pair(prover *pv, int32_t a, int32_t b, int by)
{
    const int defender = 1 - pv->attacker;
    pv->paired[a] = pv->paired[b] = (uint8_t)(by > 0);
    for (int32_t i = pv->cell_first[a]; i < pv->cell_first[a + 1]; i++) {
        int32_t w = pv->cell_windows[i];
        if (pv->marks[2 * w + defender] != 0)
            continue;
        pv->free_cells[w] = (int8_t)(pv->free_cells[w] - by);
        if (window_holds(pv, w, b))
            pv->covered[w] = (uint8_t)(pv->covered[w] + by);
    }
    for (int32_t i = pv->cell_first[b]; i < pv->cell_first[b + 1]; i++) {
        int32_t w = pv->cell_windows[i];
        if (pv->marks[2 * w + defender] == 0)
            pv->free_cells[w] = (int8_t)(pv->free_cells[w] - by);
    }
}

/* How much the pair a, b is worth: 16 for every uncovered open window
 * (no defender mark) it covers, less for every one it leaves with few free
 * cells; PAIR_DEAD if it leaves one with fewer than two (which then can
 * never be covered). */
#define PAIR_DEAD INT32_MIN
static int32_t pair_gain(const prover *pv, int32_t a, int32_t b)
{
    const int defender = 1 - pv->attacker;
    int32_t gain = 0;
    for (int side = 0; side < 2; side++) {
        int32_t cell = side ? b : a, other = side ? a : b;
        for (int32_t i = pv->cell_first[cell]; i < pv->cell_first[cell + 1]; i++) {
            int32_t w = pv->cell_windows[i];
            if (pv->marks[2 * w + defender] != 0 || pv->covered[w] != 0)
                continue;
            if (window_holds(pv, w, other)) {
                gain += side ? 0 : 16;
            } else {
                if (pv->free_cells[w] <= 2)
                    return PAIR_DEAD;
                gain -= 4 / pv->free_cells[w];
            }
        }
    }
    return gain;
}

/*
 * A shared pairing (Hales and Jewett): disjoint pairs of empty cells such
 * that every window the attacker could still complete holds both cells of
 * some pair. The defender answers a move on a paired cell with its partner,
 * so every such window keeps a defender mark. Unlike the private matching,
 * one pair serves every window through both its cells, which is what the
 * larger boards need. A depth-first search over pv->open_windows (count of
 * them): the uncovered window with the fewest free cells first, its pairs
 * by the windows they cover; at most SHARED_PAIRING_STEPS tries.
 */
static int cover_windows(prover *pv, int32_t count)
{
    const int32_t k = pv->k;
    int32_t target = -1, fewest = k + 1, uncovered = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t w = pv->open_windows[i];
        if (pv->covered[w] != 0)
            continue;
        uncovered++;
        if (pv->free_cells[w] < fewest) {
            fewest = pv->free_cells[w];
            target = w;
        }
    }
    if (uncovered < pv->shortfall)
        pv->shortfall = uncovered;
    if (target < 0) {
        /* Attacker marks off the pairs' cells change none of this. */
        pv->leaf_zone = no_cell;
        for (int32_t cell = 0; cell < pv->nn; cell++) {
            if (pv->paired[cell])
                set_add(&pv->leaf_zone, cell);
        }
        return 1;
    }
    if (fewest < 2)
        return 0;
    /* The window's pairs, most windows covered first. */
    int32_t free_cells[PROOF_MAX_K], n_free = 0;
    const int32_t *cells = pv->window_cells + (size_t)target * (size_t)k;
    for (int32_t i = 0; i < k; i++) {
        if (pv->cells[cells[i]] == TTT_EMPTY && !pv->paired[cells[i]])
            free_cells[n_free++] = cells[i];
    }
    int32_t pair_a[PROOF_MAX_K * PROOF_MAX_K], pair_b[PROOF_MAX_K * PROOF_MAX_K];
    int32_t gain[PROOF_MAX_K * PROOF_MAX_K], pairs = 0;
    for (int32_t i = 0; i < n_free; i++) {
        for (int32_t j = i + 1; j < n_free; j++) {
            int32_t g = pair_gain(pv, free_cells[i], free_cells[j]);
            if (g == PAIR_DEAD)
                continue;
            int32_t at = pairs++;
            while (at > 0 && gain[at - 1] < g) {
                pair_a[at] = pair_a[at - 1];
                pair_b[at] = pair_b[at - 1];
                gain[at] = gain[at - 1];
                at--;
            }
            pair_a[at] = free_cells[i];
            pair_b[at] = free_cells[j];
            gain[at] = g;
        }
    }
    for (int32_t p = 0; p < pairs; p++) {
        if (pv->pair_steps++ >= SHARED_PAIRING_STEPS)
            return 0;
        mark_pair(pv, pair_a[p], pair_b[p], 1);
        int found = cover_windows(pv, count);
        mark_pair(pv, pair_a[p], pair_b[p], -1);
        if (found)
            return 1;
    }
    return 0;
}

/* Lists the attacker's open windows and their free cells, then looks for a
 * shared pairing against them. */
static int shared_pairing(prover *pv)
{
    const int attacker = pv->attacker, defender = 1 - attacker;
    int32_t count = 0;
    for (int32_t w = 0; w < pv->windows; w++) {
        if (pv->marks[2 * w + defender] != 0)
            continue;
        pv->free_cells[w] = (int8_t)(pv->k - pv->marks[2 * w + attacker]);
        pv->open_windows[count++] = w;
    }
    /* In the measured searches no pairing was found with as many open
     * windows as empty cells: the search is skipped there. */
    pv->shortfall = count;
    if (count >= pv->empty)
        return 0;
    pv->pair_steps = 0;
    return cover_windows(pv, count);
}

/* Whether the defender has a pairing against every window the attacker
 * could still complete: then the attacker never wins. The private matching
 * first (exact and quick), then a shared pairing. */
static int defender_pairs(prover *pv)
{
    pairing_board board = {pv->n, pv->n, pv->k, pv->cells};
    int mark = mark_of_player(pv->attacker);
    int32_t open = ttt__pairing_open(&board, mark);
    int32_t pairs = open >= 0 ? ttt__pairing_find(&board, mark, open, pv->pair_scratch, pv->pairs)
                              : -1;
    if (pairs >= 0) {
        pv->leaf_zone = no_cell;
        for (int32_t i = 0; i < pairs; i++) {
            set_add(&pv->leaf_zone, pv->pairs[i].cells[0]);
            set_add(&pv->leaf_zone, pv->pairs[i].cells[1]);
        }
        return 1;
    }
    return shared_pairing(pv);
}

/* Notes a completion cell `cell` for a move at `from`: keeps the first two
 * distinct ones and their number (capped at 3). */
static void note_completion(prover *pv, int32_t from, int32_t cell)
{
    if (pv->completions[from] == 0) {
        pv->first_completion[from] = cell;
        pv->completions[from] = 1;
    } else if (pv->completions[from] == 1) {
        if (pv->first_completion[from] != cell) {
            pv->second_completion[from] = cell;
            pv->completions[from] = 2;
        }
    } else if (pv->completions[from] == 2) {
        if (pv->first_completion[from] != cell && pv->second_completion[from] != cell)
            pv->completions[from] = 3;
    }
}

int ttt__proof_evaluate(prover *pv, int32_t *moves, int32_t *count)
{
    pv->nodes++;
    *count = 0;
    pv->leaf_zone = every_cell;
    pv->rule_cut = 0;
    pv->dead_cells = no_cell;
    const int mover = player_at(pv->ply), other = 1 - mover;
    const int attacker = pv->attacker, defender = 1 - attacker;
    const int32_t k = pv->k;
    int32_t threat[2] = {-1, -1};
    int threats[2] = {0, 0};
    int32_t need = k + 1; /* fewest marks the attacker lacks in an open window */
    for (int32_t w = 0; w < pv->windows; w++) {
        const uint8_t *m = pv->marks + 2 * w;
        for (int p = 0; p < 2; p++) {
            if (m[1 - p] != 0 || m[p] != k - 1 || threats[p] >= 2)
                continue;
            int32_t cell = window_empty(pv, w, -1);
            if (threats[p] == 0) {
                threat[p] = cell;
                threats[p] = 1;
            } else if (cell != threat[p]) {
                threats[p] = 2;
            }
        }
        if (m[defender] == 0 && k - m[attacker] < need)
            need = k - m[attacker];
    }
    if (threats[mover] > 0)
        return mover == attacker ? NODE_PROVEN : NODE_DISPROVEN;
    if (threats[other] >= 2)
        return other == attacker ? NODE_PROVEN : NODE_DISPROVEN;
    if (pv->empty == 0) {
        pv->leaf_zone = no_cell; /* no empty cell for extra marks */
        return NODE_DISPROVEN;
    }
    int32_t attacker_moves = mover == attacker ? (pv->empty + 1) / 2 : pv->empty / 2;
    if (need > attacker_moves)
        return NODE_DISPROVEN;
    if (defender_pairs(pv))
        return NODE_DISPROVEN;
    if (threats[other] == 1) {
        moves[0] = threat[other];
        *count = 1;
        pv->rule_cut = 1;
        return NODE_OPEN;
    }

    /* The other side's double-threat moves and the mover's threat moves. */
    const int32_t nn = pv->nn;
    for (int32_t cell = 0; cell < nn; cell++) {
        pv->completions[cell] = 0;
        pv->stops[cell] = 0;
        pv->own_threat[cell] = 0;
        pv->scores[cell] = 0;
    }
    static const int32_t weight[8] = {1, 4, 16, 64, 256, 1024, 4096, 16384};
    pv->potential[0] = pv->potential[1] = 0;
    for (int32_t w = 0; w < pv->windows; w++) {
        const uint8_t *m = pv->marks + 2 * w;
        for (int p = 0; p < 2; p++) {
            if (m[1 - p] == 0)
                pv->potential[p] += weight[m[p] < 8 ? m[p] : 7];
        }
        if (m[mover] == 0 || m[other] == 0) {
            const int32_t *cells = pv->window_cells + (size_t)w * (size_t)k;
            int32_t score = m[mover] == 0 ? weight[m[other] < 8 ? m[other] : 7]
                                          : weight[m[mover] < 8 ? m[mover] : 7];
            for (int32_t i = 0; i < k; i++)
                pv->scores[cells[i]] += score;
        }
        if (k < 3 || m[mover] + m[other] != k - 2)
            continue;
        if (m[mover] == 0) {
            int32_t a = window_empty(pv, w, -1);
            int32_t b = window_empty(pv, w, a);
            note_completion(pv, a, b);
            note_completion(pv, b, a);
        } else if (m[other] == 0) {
            int32_t a = window_empty(pv, w, -1);
            int32_t b = window_empty(pv, w, a);
            pv->own_threat[a] = 1;
            pv->own_threat[b] = 1;
        }
    }
    int32_t doubles = 0;
    for (int32_t cell = 0; cell < nn; cell++) {
        if (pv->completions[cell] < 2 || pv->cells[cell] != TTT_EMPTY)
            continue;
        /* Stopped by taking the cell, or, with exactly two completion
         * cells, by taking either of them. */
        doubles++;
        pv->stops[cell]++;
        if (pv->completions[cell] == 2) {
            pv->stops[pv->first_completion[cell]]++;
            pv->stops[pv->second_completion[cell]]++;
        }
    }

    int32_t n_moves = 0;
    int dead_taken = 0;
    pv->rule_cut = doubles > 0;
    for (int32_t cell = 0; cell < nn; cell++) {
        if (pv->cells[cell] != TTT_EMPTY)
            continue;
        if (doubles > 0 && pv->stops[cell] < doubles && !pv->own_threat[cell])
            continue;
        if (pv->scores[cell] == 0) {
            /* In no open window: every such cell is the same move. */
            set_add(&pv->dead_cells, cell);
            if (dead_taken)
                continue;
            dead_taken = 1;
        }
        /* Insertion by score, best first; ties keep cell order. */
        int32_t at = n_moves++;
        while (at > 0 && pv->scores[moves[at - 1]] < pv->scores[cell]) {
            moves[at] = moves[at - 1];
            at--;
        }
        moves[at] = cell;
    }
    if (n_moves == 0)
        return other == attacker ? NODE_PROVEN : NODE_DISPROVEN;
    /* The first pass's defender tries only its best moves (see prove). */
    if (mover == defender && !pv->rule_cut && pv->defender_limit > 0 &&
        n_moves > pv->defender_limit)
        n_moves = pv->defender_limit;
    *count = n_moves;
    return NODE_OPEN;
}
