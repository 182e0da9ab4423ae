/* proof.h - depth-first proof-number search (df-pn) with threat-based move cuts, pairing disproofs and disproof zones: ttt_solve's value on the larger boards. */
#ifndef TTT_PROOF_H
#define TTT_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "solver.h"

/*
 * A value is settled by two AND/OR proofs (Allis; df-pn after Nagai 2002):
 * "can the side to move force a win?" and, if not, "can the opponent force
 * a win?" (attacker = the opponent, the side to move defends). Each is a
 * df-pn search on a board of its own, with a transposition table keyed by
 * the least of the eight symmetric hashes of the position.
 *
 * At every node, before any move (normal rules only):
 *   - a window the mover can complete: a win for the mover;
 *   - two distinct cells completing a window for the other side: a loss;
 *   - a full board, or an attacker whose every open window needs more marks
 *     than it has moves left: not a win for the attacker;
 *   - a pairing for the defender against the attacker's open windows: the
 *     attacker can never win. First the private one (ttt__pairing_find: two
 *     cells of its own per window), then a shared one: disjoint pairs of
 *     empty cells such that every open window holds both cells of some pair
 *     (one pair then serves every window of its line through both cells).
 *     The defender answers a move on a paired cell with its partner. The
 *     shared pairing is a depth-first search with a cap of tries per node,
 *     skipped when the open windows are as many as the empty cells (none
 *     was found there in the (7,7,5) proof): a miss costs only search;
 *   - one completion cell for the other side: the only move is to block;
 *   - otherwise, if the other side has moves making two completion cells at
 *     once (double threats), the mover's moves are those that stop every one
 *     of them (the move's own cell, or a completion cell whose loss leaves at
 *     most one) plus the moves making a threat of the mover's own, which the
 *     other side must answer first; any other move loses in 3 more plies.
 *     With none left, a loss.
 * Of the dead cells (in no window still open to either side) only one is
 * tried: they are interchangeable. The cuts of these rules are sound by
 * construction: every pruned move provably loses.
 *
 * Each proof runs first with the defender trying only its best few moves
 * (by the same ordering) where no rule cut them: its disproof is one of
 * the whole game, as a defender needs a single refutation; its proofs are
 * dropped and the proof runs again over every move.
 *
 * Disproof zones (Hsu et al. 2020 use the like), on boards of up to 64
 * cells: a disproven node's zone is a set of cells such that the attacker
 * still cannot win with marks of its own added on every empty cell outside
 * it (an extra mark never hurts its owner, so fewer of them cannot help
 * either). A pairing's zone is its paired cells; a disproven defender's
 * node's, its refuting move and that child's zone; a disproven attacker's
 * node's, the union of its children's (every cell if a rule cut its moves).
 * When one attacker's move is disproven, each sibling move outside that
 * zone is disproven too, unsearched: its position holds fewer attacker
 * marks than the zone's disproof allows. That cut took (7,7,5) from about
 * 440,000 positions to 270,000 (every defender's move searched; the narrow
 * first pass then took it to 64,000).
 *
 * Nothing reads a clock: the node budget bounds the work, the table cap
 * the memory.
 */

/* Boards the proof search takes: at most this many cells (the per-depth
 * child lists are cells x cells). */
#define PROOF_MAX_CELLS 100

/* Whether ttt_solve should settle the snapshot's value with the proof
 * search rather than alpha-beta: value only, normal rules, no ply limit,
 * more than 25 cells (alpha-beta is faster below), K >= 4, at most
 * PROOF_MAX_CELLS cells. */
int ttt__proof_wanted(const snapshot *snap, int all_moves);

/*
 * The value of the snapshot's position (in progress) for the side to move,
 * and one move achieving it, into r (value, value_min, value_max, best) and
 * found (value fields, plies -1; its nodes are added to found->nodes).
 * Returns TTT_OK, TTT_E_BUDGET with
 * the bounds proven so far (the node budget, 0 for none, counts positions
 * evaluated), or TTT_E_NOMEM. table_bytes caps the table (0: 64 MiB). All
 * memory comes from the game's allocator and is released before it returns.
 */
int ttt__proof_solve(const ttt_game *game, const snapshot *snap,
                     uint64_t budget, size_t table_bytes, solve_result *r,
                     ttt_solution *found);

#endif /* TTT_PROOF_H */
