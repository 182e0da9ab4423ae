/* threat.h - threat-space search: victory by continuous fours (VCF) for the strong bot, on a board of its own. */
#ifndef TTT_THREAT_H
#define TTT_THREAT_H

#include <stdint.h>

#include "solver.h"

/*
 * A four is a window holding K - 1 marks of one side and none of the
 * other: its empty cell completes it. A VCF (Allis) is a win made of fours
 * alone: the attacker makes a four, the defender must take its completion
 * cell (anything else loses at once), and so on until the attacker makes
 * two completion cells at once (a double four) or completes a window. Each
 * defender reply is forced, so a found VCF is a proof: the search wins
 * against any defence. If a reply makes a four of the defender's, the
 * attacker's next move must take its cell (and still make a four), else
 * the line is dropped.
 *
 * The search works on a board of its own: width x height marks, the
 * counts of each window, and the cells each side has played (so the fours
 * are found near those marks, whatever the board's size). Its memory is
 * taken once per call from the game's allocator. Every position it visits
 * counts as a node against the caller's budget (one, plus one for every 16
 * marks on the board, as its scans pass over the marks); a table of positions
 * already refuted (keys of their own) keeps transpositions from being
 * searched twice. Normal rules only: the bot calls it for K >= 5 and not
 * in misère.
 */

/* What the strong bot learns at its root. */
enum {
    THREAT_NONE = 0,   /* no VCF either way (within the budget) */
    THREAT_WIN = 1,    /* the side to move has a VCF: move starts it */
    THREAT_DEFEND = 2  /* the opponent has one: safe[] marks the answers */
};

typedef struct threat_root {
    int kind;           /* THREAT_* */
    int32_t move;       /* THREAT_WIN: the first move of the VCF */
    uint64_t nodes;     /* positions searched, within the budget */
    uint8_t *safe;      /* THREAT_DEFEND: per cell, 1 where a move of the
                         * side to move was not shown to lose to the
                         * opponent's threats; NULL otherwise */
} threat_root;

/*
 * Looks, within budget nodes, in the snapshot's position (width x height
 * cells), in order: for a VCF of the side to move (THREAT_WIN); for one of
 * the opponent's (as if we passed), and then for the moves that stop it
 * (THREAT_DEFEND); then, with a budget of 50000 nodes or more, for a VCT
 * of the side to move (THREAT_WIN) and for one of the opponent's and the
 * moves that stop it. The answers tried are the
 * empty cells within K - 1 of the opponent's line (its VCF, or its VCT's
 * first move) along the four directions and the side to move's own fours,
 * each kept unless the opponent then has such a win within the budget (a
 * four of the side to move is answered by its block first). Fills out; returns TTT_OK, or
 * TTT_E_NOMEM (out->kind THREAT_NONE). Release with ttt__threat_release.
 */
int ttt__threat_root_search(const ttt_game *game, int32_t width,
                            int32_t height, const snapshot *snap,
                            uint64_t budget, threat_root *out);

void ttt__threat_release(const ttt_game *game, threat_root *out);

/*
 * For tests: whether attacker (TTT_X or TTT_O, to move) has a VCF in the
 * position cells (width x height, win length k), within budget nodes; the
 * first move into *move. 1 found, 0 not found, TTT_E_NOMEM. *nodes gets
 * the positions searched.
 */
int ttt__threat_vcf(const ttt_game *game, int32_t width, int32_t height,
                    int32_t k, const int8_t *cells, int attacker,
                    uint64_t budget, int32_t *move, uint64_t *nodes);

/* The same for a VCT (fours and threes, see vct in threat.c): a guide for
 * the bot, not a proof (the VCFs inside it have small budgets). */
int ttt__threat_vct(const ttt_game *game, int32_t width, int32_t height,
                    int32_t k, const int8_t *cells, int attacker,
                    uint64_t budget, int32_t *move, uint64_t *nodes);

/*
 * ttt_solve's shortcut: with TTT_SOLVE_VALUE_ONLY (all_moves 0), normal
 * rules, no ply limit (a VCF may outlast it) and no gravity, a VCF of the
 * side to move proves a win with no search: fills r and the solution's
 * value fields (best: the VCF's first move; method TTT_METHOD_THREATS)
 * and returns 1. The VCF gets a quarter of *budget (0: no cap, then 65536
 * nodes); if it finds nothing, its nodes come off *budget and go into
 * found->nodes, and it returns 0. TTT_E_NOMEM if its memory runs out.
 */
int ttt__threat_answer(const ttt_game *game, int32_t width, int32_t height,
                       const snapshot *snap, int all_moves, uint64_t *budget,
                       solve_result *r, ttt_solution *found);

/*
 * For tests: the strong bot's alpha-beta (after its immediate checks and
 * threat search) on game's position within budget nodes, with its
 * transposition table or without; *cell gets its move, *depth the deepest
 * iteration it completed (0: none, or decided before the search).
 */
int ttt__strong_search(const ttt_game *game, uint64_t budget, int use_table,
                       int32_t *cell, int *depth);

#endif /* TTT_THREAT_H */
