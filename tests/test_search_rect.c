/* test_search_rect.c - the solver and the bots on W x H boards and under gravity, checked against a plain negamax written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "quick.h"
#include "ttt.h"

#define MODEL_MAX_SIDE 8
#define MODEL_MAX_CELLS (MODEL_MAX_SIDE * MODEL_MAX_SIDE)

/* ------------------------------------------------------------------------ */
/* The model: a board of its own, rules written out plainly                 */
/* ------------------------------------------------------------------------ */

/*
 * The reference knows nothing of the library but its rules: K in a row on a
 * width x height board (row 0 on top), under gravity only the lowest empty
 * cell of a column may be taken, in misere the player who completes a line
 * loses, with a ply limit the game is drawn once that many moves are
 * played without a line, and under the early-draw rule it is drawn as soon
 * as every K-window holds both marks. Its search is a plain negamax over every legal move, with no
 * table, no pruning and no threat logic, so it shares no shortcut with the
 * solver it checks.
 */
typedef struct model {
    int width, height, k, gravity, misere, early_draw;
    int limit;                     /* the ply limit, or width * height */
    int8_t cells[MODEL_MAX_CELLS]; /* TTT_X, TTT_O or TTT_EMPTY */
    int fill[MODEL_MAX_SIDE];      /* marks in each column */
    int placed;
} model;

static int model_legal(const model *m, int cell)
{
    if (m->cells[cell] != TTT_EMPTY)
        return 0;
    if (!m->gravity)
        return 1;
    int col = cell % m->width;
    return cell / m->width == m->height - 1 - m->fill[col];
}

/* Whether the mark at cell is part of K in a row. */
static int model_line_at(const model *m, int cell)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    int row = cell / m->width, col = cell % m->width, mark = m->cells[cell];
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int sign = -1; sign <= 1; sign += 2) {
            int r = row + sign * dr[d], c = col + sign * dc[d];
            while (r >= 0 && r < m->height && c >= 0 && c < m->width &&
                   m->cells[r * m->width + c] == mark) {
                run++;
                r += sign * dr[d];
                c += sign * dc[d];
            }
        }
        if (run >= m->k)
            return 1;
    }
    return 0;
}

/* Whether some K-window along a row, column or diagonal holds no mark of
 * one of the players, so a line could still be made in it. */
static int model_any_live_window(const model *m)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    for (int d = 0; d < 4; d++) {
        for (int row = 0; row < m->height; row++) {
            for (int col = 0; col < m->width; col++) {
                int end_row = row + (m->k - 1) * dr[d], end_col = col + (m->k - 1) * dc[d];
                if (end_row >= m->height || end_col < 0 || end_col >= m->width)
                    continue;
                int seen_x = 0, seen_o = 0;
                for (int i = 0; i < m->k; i++) {
                    int mark = m->cells[(row + i * dr[d]) * m->width + col + i * dc[d]];
                    seen_x |= mark == TTT_X;
                    seen_o |= mark == TTT_O;
                }
                if (!(seen_x && seen_o))
                    return 1;
            }
        }
    }
    return 0;
}

/* Whether the game is drawn after a move at cell that made no line. */
static int model_drawn(const model *m)
{
    return m->placed == m->limit || (m->early_draw && !model_any_live_window(m));
}

static void model_place(model *m, int cell, int mark)
{
    m->cells[cell] = (int8_t)mark;
    m->fill[cell % m->width]++;
    m->placed++;
}

static void model_lift(model *m, int cell)
{
    m->cells[cell] = TTT_EMPTY;
    m->fill[cell % m->width]--;
    m->placed--;
}

static int model_mover(const model *m)
{
    return m->placed % 2 ? TTT_O : TTT_X;
}

/* Scores for the side to move: a win in p plies is SCORE_END - p, a loss in
 * p plies -(SCORE_END - p), a draw 0 (and then the game lasts to the full
 * board or the ply limit). */
#define SCORE_END 1000

/* The score, for its mover, of playing cell: the game's end or the
 * opponent's best reply backed up one ply. */
static int model_negamax(model *m);

static int model_move_score(model *m, int cell)
{
    int mark = model_mover(m);
    model_place(m, cell, mark);
    int v;
    if (model_line_at(m, cell)) {
        v = m->misere ? -(SCORE_END - 1) : SCORE_END - 1;
    } else if (model_drawn(m)) {
        v = 0;
    } else {
        v = -model_negamax(m);
        v -= (v > 0) - (v < 0); /* one ply further from the end */
    }
    model_lift(m, cell);
    return v;
}

static int model_negamax(model *m)
{
    int best = -SCORE_END * 2;
    for (int cell = 0; cell < m->width * m->height; cell++) {
        if (!model_legal(m, cell))
            continue;
        int v = model_move_score(m, cell);
        if (v > best)
            best = v;
    }
    return best;
}

/* The plies of the shortest drawn ending reached from a drawn position by
 * moves that each keep the draw, whoever plays them: how the solver counts
 * a draw's plies (without early draw every such ending is at the limit). */
static int model_draw_plies(model *m)
{
    int fewest = SCORE_END;
    for (int cell = 0; cell < m->width * m->height; cell++) {
        if (!model_legal(m, cell) || model_move_score(m, cell) != 0)
            continue;
        model_place(m, cell, model_mover(m));
        int plies = model_drawn(m) ? 1 : 1 + model_draw_plies(m);
        model_lift(m, cell);
        if (plies < fewest)
            fewest = plies;
    }
    return fewest;
}

/* The value, plies and every optimal move of the model's position, which
 * is in progress. Returns the number of optimal moves. */
static int model_solve(model *m, int *value, int *plies, int32_t *best)
{
    int scores[MODEL_MAX_CELLS], top = -SCORE_END * 2, count = 0;
    for (int cell = 0; cell < m->width * m->height; cell++) {
        if (!model_legal(m, cell))
            continue;
        scores[cell] = model_move_score(m, cell);
        if (scores[cell] > top)
            top = scores[cell];
    }
    for (int cell = 0; cell < m->width * m->height; cell++) {
        if (model_legal(m, cell) && scores[cell] == top)
            best[count++] = cell;
    }
    *value = top > 0 ? TTT_VALUE_WIN : top < 0 ? TTT_VALUE_LOSS : TTT_VALUE_DRAW;
    if (top != 0)
        *plies = SCORE_END - (top > 0 ? top : -top);
    else
        *plies = m->early_draw ? model_draw_plies(m) : m->limit - m->placed;
    return count;
}

/* A cell where the side to move (for_mover) or its opponent completes a
 * line by playing now (a legal cell), or -1. */
static int model_completion_cell(model *m, int for_mover)
{
    int mark = for_mover ? model_mover(m) : -model_mover(m);
    for (int cell = 0; cell < m->width * m->height; cell++) {
        if (!model_legal(m, cell))
            continue;
        model_place(m, cell, mark);
        int line = model_line_at(m, cell);
        model_lift(m, cell);
        if (line)
            return cell;
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Games kept in step with the model                                         */
/* ------------------------------------------------------------------------ */

static uint64_t next_random(uint64_t *state)
{
    /* splitmix64: reproducible openings on every platform. */
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static ttt_game *new_pair(model *m, int width, int height, int k, int gravity,
                          int misere, int limit, int early_draw)
{
    ttt_game *game = NULL;
    assert_true(width <= MODEL_MAX_SIDE && height <= MODEL_MAX_SIDE);
    assert_int_equal(ttt_game_new_rect(width, height, k, &game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, gravity), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, limit), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, early_draw), TTT_OK);
    memset(m, 0, sizeof *m);
    m->early_draw = early_draw;
    m->limit = limit ? limit : width * height;
    m->width = width;
    m->height = height;
    m->k = k;
    m->gravity = gravity;
    m->misere = misere;
    return game;
}

/* Plays cell in the game and the model; returns the game's state. */
static int play_both(ttt_game *game, model *m, int cell)
{
    int state = -1;
    assert_true(model_legal(m, cell));
    assert_int_equal(ttt_to_move(game), model_mover(m));
    assert_int_equal(ttt_play_next(game, cell / m->width, cell % m->width, &state),
                     TTT_OK);
    model_place(m, cell, model_mover(m));
    return state;
}

/* Plays up to `moves` random legal moves, stopping before a move that
 * would end the game; returns how many were played. */
static int random_opening(ttt_game *game, model *m, int moves, uint64_t *rng)
{
    int played = 0;
    while (played < moves) {
        int legal[MODEL_MAX_CELLS], count = 0;
        for (int cell = 0; cell < m->width * m->height; cell++) {
            if (model_legal(m, cell))
                legal[count++] = cell;
        }
        if (count == 0)
            break;
        int cell = legal[next_random(rng) % (uint64_t)count];
        model_place(m, cell, model_mover(m));
        int ends = model_line_at(m, cell) || model_drawn(m);
        model_lift(m, cell);
        if (ends)
            break;
        assert_int_equal(play_both(game, m, cell), TTT_IN_PROGRESS);
        played++;
    }
    return played;
}

/* ------------------------------------------------------------------------ */
/* The solver against the model                                              */
/* ------------------------------------------------------------------------ */

typedef struct board_case {
    int width, height, k, gravity, misere;
    int positions;     /* random positions checked */
    int fewest, most;  /* opening moves before each */
    int limit;         /* the ply limit rule, 0 for none */
    int early_draw;    /* the early-draw rule */
} board_case;

/* ttt_solve (full and value only) and the perfect bot against the model on
 * the game's position, which is in progress. */
static void check_position(const ttt_game *game, model *m, uint64_t *rng)
{
    {
        int value, plies;
        int32_t expected[MODEL_MAX_CELLS];
        int expected_count = model_solve(m, &value, &plies, expected);

        ttt_solution s;
        int32_t best[MODEL_MAX_CELLS];
        size_t len = 0;
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        assert_int_equal(ttt_solve(game, 0, 0, 0, &s, best, MODEL_MAX_CELLS, &len), TTT_OK);
        assert_int_equal(s.value, value);
        assert_int_equal(s.value_min, value);
        assert_int_equal(s.value_max, value);
        assert_int_equal(s.plies, plies);
        assert_int_equal(len, (size_t)expected_count);
        assert_memory_equal(best, expected, len * sizeof(int32_t));

        /* The value-only pass agrees and names one optimal move. */
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        assert_int_equal(ttt_solve(game, 0, 0, TTT_SOLVE_VALUE_ONLY, &s, best,
                                   MODEL_MAX_CELLS, &len),
                         TTT_OK);
        assert_int_equal(s.value, value);
        assert_int_equal(s.plies, -1);
        assert_int_equal(len, 1);
        int found = 0;
        for (int j = 0; j < expected_count; j++)
            found |= expected[j] == best[0];
        /* A value-only move keeps the value, though maybe not the plies. */
        assert_true(model_legal(m, best[0]));
        if (!found) {
            int v = model_move_score(m, best[0]);
            assert_int_equal(v > 0 ? 1 : v < 0 ? -1 : 0, value);
        }

        /* The perfect bot plays one of the optimal moves. */
        uint64_t bot_seed = next_random(rng);
        int row, col;
        assert_int_equal(ttt_best_move(game, TTT_BOT_PERFECT, 0, &bot_seed, &row, &col),
                         TTT_OK);
        found = 0;
        for (int j = 0; j < expected_count; j++)
            found |= expected[j] == row * m->width + col;
        assert_true(found);
    }
}

/* Quick mode (quick.h) checks a quarter of each case's positions. */
static void check_solver(const board_case *c, uint64_t seed)
{
    uint64_t rng = seed;
    int positions = quick_mode() ? c->positions / 4 : c->positions;
    for (int i = 0; i < positions; i++) {
        model m;
        ttt_game *game = new_pair(&m, c->width, c->height, c->k, c->gravity, c->misere,
                                  c->limit, c->early_draw);
        int span = c->most - c->fewest + 1;
        int moves = c->fewest + (int)(next_random(&rng) % (uint64_t)span);
        random_opening(game, &m, moves, &rng);
        check_position(game, &m, &rng);
        ttt_game_free(game);
    }
}

static void test_solver_on_rectangles(void **state)
{
    (void)state;
    /* Lines shorter than K on one side (K = 4 on 3 x 4), wide and tall. */
    static const board_case cases[] = {
        {3, 4, 3, 0, 0, 24, 3, 8, 0, 0},
        {4, 3, 3, 0, 0, 24, 3, 8, 0, 0},
        {4, 3, 4, 0, 0, 16, 3, 8, 0, 0},
        {3, 4, 4, 0, 0, 16, 3, 8, 0, 0},
        {5, 3, 3, 0, 0, 16, 6, 11, 0, 0},
        {3, 5, 4, 0, 0, 16, 6, 11, 0, 0},
        {5, 3, 4, 0, 1, 12, 6, 11, 0, 0},
        {4, 3, 3, 0, 1, 16, 3, 8, 0, 0},
        {4, 3, 3, 0, 0, 12, 3, 8, 10, 0},
        /* Early draw: a draw ends once no window is live. */
        {4, 3, 3, 0, 0, 12, 3, 8, 0, 1},
        {5, 3, 4, 0, 0, 12, 6, 11, 0, 1},
        {3, 5, 4, 0, 1, 12, 6, 11, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_solver(&cases[i], 0x5EED0000u + i);
}

/* Under the classic rules a dedicated solver may take gravity boards that
 * fit it; the misere, ply-limit and early-draw cases are the general
 * search's. */
static void test_solver_under_gravity(void **state)
{
    (void)state;
    static const board_case cases[] = {
        {3, 4, 3, 1, 0, 20, 0, 8, 0, 0},
        {4, 3, 3, 1, 0, 20, 0, 8, 0, 0},
        {4, 4, 3, 1, 0, 24, 3, 10, 0, 0},
        {4, 4, 4, 1, 0, 16, 4, 10, 0, 0},
        {5, 4, 4, 1, 0, 12, 7, 14, 0, 0},
        {4, 5, 4, 1, 0, 12, 7, 14, 0, 0},
        {5, 3, 4, 1, 0, 12, 3, 10, 0, 0}, /* K past the height: rows only */
        {3, 5, 4, 1, 0, 12, 3, 10, 0, 0}, /* K past the width: columns only */
        {4, 4, 3, 1, 1, 16, 4, 10, 0, 0},
        {5, 3, 3, 1, 1, 12, 4, 10, 0, 0},
        /* A ply limit: a draw may come before the board is full. */
        {4, 4, 3, 1, 0, 16, 3, 10, 13, 0},
        {4, 4, 4, 1, 0, 12, 4, 10, 14, 0},
        {5, 4, 4, 1, 0, 12, 7, 14, 17, 0},
        {3, 5, 4, 1, 0, 12, 3, 10, 12, 0},
        {4, 4, 3, 1, 0, 16, 4, 10, 0, 1},
        {4, 4, 4, 1, 0, 12, 5, 10, 0, 1},
        {5, 4, 4, 1, 0, 12, 8, 14, 0, 1},
        {5, 3, 3, 1, 1, 12, 4, 10, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_solver(&cases[i], 0x6AA70000u + i);
}

/*
 * Dead cells (no window through them can still be won) are interchangeable
 * without gravity; under gravity each opens the cell above it. In these
 * positions two landing cells are dead and yet one draws (or wins) where
 * the other loses, the opponent completing a line just above it.
 */
static void test_dead_cells_under_gravity(void **state)
{
    (void)state;
    static const struct {
        int width, height, k, early_draw;
        int cells[20];
        int count;
    } games[] = {
        /* 4 x 4, K = 4, O to move: landing cells c1 and d2 are dead; d2
         * gives X d1 and the diagonal a4-d1. */
        {4, 4, 4, 0, {12, 14, 13, 8, 9, 10, 4, 5, 15, 11, 0, 1, 6}, 13},
        {4, 4, 4, 1, {12, 14, 13, 8, 9, 10, 4, 5, 15, 11, 0, 1, 6}, 13},
        /* 4 wide, 5 high, K = 4, O to move: a2 wins, d2 only draws. */
        {4, 5, 4, 0, {18, 19, 16, 17, 13, 9, 14, 10, 15, 11, 5, 6, 2, 12, 8}, 15},
        {5, 4, 4, 1, {15, 18, 10, 17, 16, 13, 8, 19, 11, 6, 1, 3, 12, 7, 14}, 15},
    };
    uint64_t rng = 99;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        model m;
        ttt_game *game = new_pair(&m, games[i].width, games[i].height, games[i].k, 1, 0, 0,
                                  games[i].early_draw);
        for (int j = 0; j < games[i].count; j++)
            assert_int_equal(play_both(game, &m, games[i].cells[j]), TTT_IN_PROGRESS);
        check_position(game, &m, &rng);
        ttt_game_free(game);
    }
}

/* Published small gravity boards (K in a row dropped into W columns of H). */
static void test_solver_published_gravity_values(void **state)
{
    (void)state;
    static const struct {
        int width, height, k, value;
    } known[] = {
        {4, 4, 3, TTT_VALUE_WIN},  /* first player wins */
        {4, 4, 4, TTT_VALUE_DRAW}, /* drawn */
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        model m;
        ttt_game *game = new_pair(&m, known[i].width, known[i].height, known[i].k, 1, 0, 0, 0);
        ttt_solution s;
        memset(&s, 0, sizeof s);
        s.size = sizeof s;
        assert_int_equal(ttt_solve(game, 0, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, 0, NULL),
                         TTT_OK);
        assert_int_equal(s.value, known[i].value);
        ttt_game_free(game);
    }
}

/* ------------------------------------------------------------------------ */
/* Bots under gravity                                                        */
/* ------------------------------------------------------------------------ */

/*
 * Whole games of bots against each other: every move a bot names must be a
 * legal move (ttt_legal_moves lists it, ttt_play_next takes it), and the
 * strong bot, whenever the model sees a line it can complete now, takes
 * it, or else blocks the opponent's only one. Quick mode (quick.h) plays a
 * quarter of the games.
 */
static void play_bot_games(const board_case *c, int games, uint64_t seed)
{
    uint64_t rng = seed;
    if (quick_mode())
        games /= 4;
    for (int g = 0; g < games; g++) {
        model m;
        ttt_game *game = new_pair(&m, c->width, c->height, c->k, c->gravity, c->misere, c->limit, c->early_draw);
        int state = TTT_IN_PROGRESS;
        while (state == TTT_IN_PROGRESS) {
            int32_t legal[MODEL_MAX_CELLS];
            size_t count = 0;
            assert_int_equal(ttt_legal_moves(game, legal, MODEL_MAX_CELLS, &count), TTT_OK);
            int empty = c->width * c->height - m.placed;
            /* The perfect bot only where a solve is quick. */
            int level = (int)(next_random(&rng) % 3);
            int levels[3] = {TTT_BOT_RANDOM, TTT_BOT_STRONG,
                             empty <= 16 ? TTT_BOT_PERFECT : TTT_BOT_STRONG};
            level = levels[level];
            uint64_t bot_seed = next_random(&rng);
            int row = -1, col = -1;
            /* A small budget for the strong bot: wins and blocks come
             * before its search. */
            uint64_t budget = level == TTT_BOT_STRONG ? 3000 : 0;
            assert_int_equal(ttt_best_move(game, level, budget, &bot_seed, &row, &col),
                             TTT_OK);
            int cell = row * c->width + col;
            int listed = 0;
            for (size_t i = 0; i < count; i++)
                listed |= legal[i] == cell;
            assert_true(listed);
            assert_true(model_legal(&m, cell));
            if (level == TTT_BOT_STRONG && !c->misere) {
                int win = model_completion_cell(&m, 1);
                int threat = model_completion_cell(&m, 0);
                if (win >= 0) {
                    model_place(&m, cell, model_mover(&m));
                    assert_true(model_line_at(&m, cell));
                    model_lift(&m, cell);
                } else if (threat >= 0 && c->limit == 0 && !c->early_draw) {
                    /* The only block must be played, unless blocking
                     * loses at once too: several threats, or under
                     * gravity a line completed just above the block.
                     * (A game drawn at a limit may need no block.) */
                    int other_mark = -model_mover(&m), threats = 0;
                    for (int t = 0; t < c->width * c->height; t++) {
                        if (!model_legal(&m, t))
                            continue;
                        model_place(&m, t, other_mark);
                        threats += model_line_at(&m, t);
                        model_lift(&m, t);
                    }
                    model_place(&m, threat, model_mover(&m));
                    int answered = model_completion_cell(&m, 1) >= 0;
                    model_lift(&m, threat);
                    if (threats == 1 && !answered)
                        assert_int_equal(cell, threat);
                }
            }
            state = play_both(game, &m, cell);
        }
        ttt_game_free(game);
    }
}

static void test_bots_play_legal_moves_under_gravity(void **state)
{
    (void)state;
    static const board_case cases[] = {
        {7, 6, 4, 1, 0, 0, 0, 0, 0, 0}, /* Connect Four */
        {5, 4, 4, 1, 0, 0, 0, 0, 0, 0},
        {4, 4, 3, 1, 0, 0, 0, 0, 0, 0},
        {3, 6, 3, 1, 0, 0, 0, 0, 0, 0},
        {8, 3, 4, 1, 0, 0, 0, 0, 0, 0},
        {6, 5, 4, 1, 1, 0, 0, 0, 0, 0}, /* misere */
        {7, 6, 4, 1, 0, 0, 0, 0, 30, 0}, /* Connect Four drawn at ply 30 */
        {6, 4, 4, 1, 0, 0, 0, 0, 0, 1},  /* early draw */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        play_bot_games(&cases[i], 12, 0xB0770000u + i);
}

static void test_bots_on_rectangles(void **state)
{
    (void)state;
    static const board_case cases[] = {
        {7, 4, 4, 0, 0, 0, 0, 0, 0, 0},
        {3, 8, 3, 0, 0, 0, 0, 0, 0, 0},
        {8, 5, 6, 0, 0, 0, 0, 0, 0, 0}, /* K past the height */
        {6, 4, 3, 0, 1, 0, 0, 0, 0, 0}, /* misere */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        play_bot_games(&cases[i], 8, 0x4EC70000u + i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_on_rectangles),
        cmocka_unit_test(test_solver_under_gravity),
        cmocka_unit_test(test_dead_cells_under_gravity),
        cmocka_unit_test(test_solver_published_gravity_values),
        cmocka_unit_test(test_bots_play_legal_moves_under_gravity),
        cmocka_unit_test(test_bots_on_rectangles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
