/* test_threat.c - the VCF search checked against the exact solver, and the strong bot playing and stopping VCFs on 15x15. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "quick.h"
#include "random.h"
#include "sboard.h"
#include "threat.h"
#include "ttt.h"

#define MAXCELLS 225

static ttt_game *new_game(int n, int k)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new(n, k, &g), TTT_OK);
    return g;
}

static void read_board(const ttt_game *g, int8_t *cells)
{
    size_t len = 0;
    assert_int_equal(ttt_board(g, cells, MAXCELLS, &len), TTT_OK);
}

static int solved_value(const ttt_game *g)
{
    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    assert_int_equal(ttt_solve(g, 0, 0, TTT_SOLVE_VALUE_ONLY, &s, NULL, 0, NULL), TTT_OK);
    return s.value;
}

/* Plays random moves until `empty` cells are left; 0 if the game ended. */
static int random_position(ttt_game *g, uint64_t *seed, int empty)
{
    int n = ttt_size(g);
    while (ttt_state(g) == TTT_IN_PROGRESS && n * n - ttt_ply(g) > empty) {
        int row, col;
        assert_int_equal(ttt_random_move(g, seed, &row, &col), TTT_OK);
        assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
    }
    return ttt_state(g) == TTT_IN_PROGRESS;
}

/* Every VCF found on 7x7 K=5 is a win by the exact solver, and its first
 * move wins; so is every VCT found where there is no VCF. Quick mode
 * (quick.h; the valgrind and qemu CI stages, where the exact solver runs
 * 20 to 50 times slower) checks the first quarter of the random positions;
 * every other run checks them all. */
static void test_vcf_agrees_with_solver(void **state)
{
    (void)state;
    uint64_t seed = 5;
    int found = 0, missed = 0, vct_found = 0;
    int trials = quick_mode() ? 75 : 300;
    for (int trial = 0; trial < trials; trial++) {
        ttt_game *g = new_game(7, 5);
        if (!random_position(g, &seed, 14 + trial % 8)) {
            ttt_game_free(g);
            continue;
        }
        int8_t cells[MAXCELLS];
        read_board(g, cells);
        int32_t move = -1;
        uint64_t nodes = 0;
        int mover = ttt_to_move(g);
        int vcf = ttt__threat_vcf(g, 7, 7, 5, cells, mover, 100000, &move, &nodes);
        assert_true(vcf == 0 || vcf == 1);
        assert_true(nodes <= 100000);
        int value = solved_value(g);
        if (!vcf) {
            missed += value == TTT_VALUE_WIN;
            /* A VCT found where there is no VCF is a win too. */
            if (ttt__threat_vct(g, 7, 7, 5, cells, mover, 100000, &move, &nodes) == 1) {
                vct_found++;
                assert_int_equal(value, TTT_VALUE_WIN);
            }
            ttt_game_free(g);
            continue;
        }
        found++;
        assert_int_equal(value, TTT_VALUE_WIN);
        int st;
        assert_int_equal(ttt_play(g, mover, move / 7, move % 7, &st), TTT_OK);
        if (st == TTT_IN_PROGRESS)
            assert_int_equal(solved_value(g), TTT_VALUE_LOSS);
        else
            assert_int_equal(st, mover == TTT_X ? TTT_X_WON : TTT_O_WON);
        ttt_game_free(g);
    }
    print_message("# %d VCFs and %d further VCTs checked against the solver\n", found, vct_found);
    assert_true(found >= trials * 40 / 300);
    /* Wins by slower threats exist, so the VCF does not find them all; the
     * VCT finds some of them. */
    assert_true(missed >= vct_found);
    assert_true(vct_found >= 1);
}

/* A budget of nodes bounds the search. */
static void test_vcf_budget(void **state)
{
    (void)state;
    uint64_t seed = 9;
    for (int trial = 0; trial < 40; trial++) {
        ttt_game *g = new_game(15, 5);
        if (random_position(g, &seed, 225 - 60)) {
            int8_t cells[MAXCELLS];
            read_board(g, cells);
            int32_t move;
            uint64_t nodes = 0;
            int vcf = ttt__threat_vcf(g, 15, 15, 5, cells, ttt_to_move(g), 7, &move, &nodes);
            assert_true(vcf == 0 || vcf == 1);
            assert_true(nodes <= 7);
        }
        ttt_game_free(g);
    }
}

/* Whether mark on the empty cell of cells (15 x 15) makes five. */
static int makes_five(const int8_t *cells, int cell, int mark)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    int row = cell / 15, col = cell % 15;
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int sign = -1; sign <= 1; sign += 2) {
            int r = row + sign * dr[d], c = col + sign * dc[d];
            while (r >= 0 && r < 15 && c >= 0 && c < 15 && cells[r * 15 + c] == mark) {
                run++;
                r += sign * dr[d];
                c += sign * dc[d];
            }
        }
        if (run >= 5)
            return 1;
    }
    return 0;
}

/* The cells where mark completes five: their number, the first in *cell. */
static int completion_cells(const ttt_game *g, int mark, int *cell)
{
    int8_t cells[MAXCELLS];
    read_board(g, cells);
    int count = 0;
    for (int c = 0; c < 225; c++) {
        if (cells[c] == TTT_EMPTY && makes_five(cells, c, mark)) {
            if (count++ == 0)
                *cell = c;
        }
    }
    return count;
}

/* A 15x15 position of random play where neither side has a completion
 * cell and the side to move has a VCF, one not found within min_nodes
 * nodes (a long one). */
static ttt_game *vcf_position(uint64_t *seed, uint64_t min_nodes)
{
    for (;;) {
        ttt_game *g = new_game(15, 5);
        if (random_position(g, seed, 225 - 90)) {
            int cell, mover = ttt_to_move(g);
            int8_t cells[MAXCELLS];
            read_board(g, cells);
            int32_t move;
            uint64_t nodes;
            if (completion_cells(g, TTT_X, &cell) == 0 && completion_cells(g, TTT_O, &cell) == 0 &&
                ttt__threat_vcf(g, 15, 15, 5, cells, mover, 5000, &move, &nodes) == 1 &&
                ttt__threat_vcf(g, 15, 15, 5, cells, mover, min_nodes, &move, &nodes) == 0)
                return g;
        }
        ttt_game_free(g);
    }
}

/* The strong bot, on a small budget, keeps a VCF going: after its move it
 * has a completion cell and, once that is blocked, still a VCF, until it
 * wins; and it wins against the strong bot defending on a large budget. */
static void test_bot_plays_its_vcf(void **state)
{
    (void)state;
    uint64_t seed = 77;
    for (int trial = 0; trial < 12; trial++) {
        ttt_game *g = vcf_position(&seed, 12);
        int attacker = ttt_to_move(g);
        int plies = 0;
        while (ttt_state(g) == TTT_IN_PROGRESS && plies < 100) {
            int row, col, cell;
            int attacking = ttt_to_move(g) == attacker;
            uint64_t budget = attacking ? 100 : 50000;
            assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, budget, NULL, &row, &col), TTT_OK);
            assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
            plies++;
            if (attacking && ttt_state(g) == TTT_IN_PROGRESS) {
                assert_true(completion_cells(g, attacker, &cell) >= 1);
                if (completion_cells(g, attacker, &cell) == 1) {
                    /* The forced block, then the VCF goes on. */
                    ttt_game *after = NULL;
                    assert_int_equal(ttt_game_clone(g, &after), TTT_OK);
                    assert_int_equal(ttt_play(after, -attacker, cell / 15, cell % 15, NULL), TTT_OK);
                    int8_t cells[MAXCELLS];
                    read_board(after, cells);
                    int32_t move;
                    uint64_t nodes;
                    if (ttt_state(after) == TTT_IN_PROGRESS)
                        assert_int_equal(ttt__threat_vcf(after, 15, 15, 5, cells, attacker, 100000,
                                                         &move, &nodes), 1);
                    ttt_game_free(after);
                }
            }
        }
        assert_int_equal(ttt_state(g), attacker == TTT_X ? TTT_X_WON : TTT_O_WON);
        ttt_game_free(g);
    }
}

/* The root search as the bot runs it, on the position of g (the
 * snapshot's fields it reads: width, height, k, nn, ply, cells). */
static void root_search(const ttt_game *g, int8_t *cells, uint64_t budget, threat_root *root)
{
    read_board(g, cells);
    snapshot snap;
    memset(&snap, 0, sizeof snap);
    snap.n = 15;
    snap.width = 15;
    snap.height = 15;
    snap.k = 5;
    snap.nn = 225;
    snap.ply = ttt_ply(g);
    snap.cells = cells;
    assert_int_equal(ttt__threat_root_search(g, 15, 15, &snap, budget, root), TTT_OK);
}

/* O's three on row 7 (columns given), X's three stones far away, X to
 * move: O threatens an open four, a VCF of one move. The answers that stop
 * it are exactly `expect` (cells of row 7), and the bot plays one. */
static void check_three(const int *o_cols, const int *expect, int expect_count)
{
    ttt_game *g = new_game(15, 5);
    static const int x_cells[3][2] = {{2, 2}, {12, 12}, {2, 12}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ttt_play(g, TTT_X, x_cells[i][0], x_cells[i][1], NULL), TTT_OK);
        assert_int_equal(ttt_play(g, TTT_O, 7, o_cols[i], NULL), TTT_OK);
    }
    int8_t cells[MAXCELLS];
    threat_root root;
    root_search(g, cells, 100000, &root);
    assert_int_equal(root.kind, THREAT_DEFEND);
    int safe_count = 0;
    for (int c = 0; c < 225; c++)
        safe_count += root.safe[c];
    assert_int_equal(safe_count, expect_count);
    for (int i = 0; i < expect_count; i++)
        assert_int_equal(root.safe[7 * 15 + expect[i]], 1);
    for (uint64_t budget = 500; budget <= 50000; budget *= 10) {
        int row, col;
        assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, budget, NULL, &row, &col), TTT_OK);
        assert_int_equal(root.safe[row * 15 + col], 1);
    }
    ttt__threat_release(g, &root);
    assert_null(root.safe);
    ttt_game_free(g);
}

static void test_bot_stops_an_open_three(void **state)
{
    (void)state;
    /* A solid three: only its two ends stop it (one step further out, the
     * four it makes is still open at the other end). */
    check_three((const int[]){5, 6, 7}, (const int[]){4, 8}, 2);
    /* A broken three: its gap and both ends. */
    check_three((const int[]){5, 6, 8}, (const int[]){4, 7, 9}, 3);
}

/* Random 15x15 positions where neither side has a completion cell, the
 * side to move has no VCF and the opponent a long one. */
static ttt_game *defence_position(uint64_t *seed)
{
    for (;;) {
        ttt_game *g = new_game(15, 5);
        if (random_position(g, seed, 225 - 40)) {
            int cell, mover = ttt_to_move(g);
            int8_t cells[MAXCELLS];
            read_board(g, cells);
            int32_t move;
            uint64_t nodes;
            if (completion_cells(g, TTT_X, &cell) == 0 && completion_cells(g, TTT_O, &cell) == 0 &&
                ttt__threat_vcf(g, 15, 15, 5, cells, mover, 5000, &move, &nodes) == 0 &&
                ttt__threat_vcf(g, 15, 15, 5, cells, -mover, 5000, &move, &nodes) == 1 &&
                ttt__threat_vcf(g, 15, 15, 5, cells, -mover, 12, &move, &nodes) == 0)
                return g;
        }
        ttt_game_free(g);
    }
}

/* Against the opponent's VCF the strong bot plays an answer that stops it,
 * wherever its root search (a quarter of its budget, as the bot runs it) finds
 * one; its alpha-beta alone, which sees the opponent's fours only a few
 * plies deep, misses some of them. */
static void test_bot_stops_the_opponents_vcf(void **state)
{
    (void)state;
    uint64_t seed = 1, budget = 200000;
    int defended = 0;
    for (int trial = 0; trial < 12; trial++) {
        ttt_game *g = defence_position(&seed);
        int8_t cells[MAXCELLS];
        threat_root root;
        root_search(g, cells, budget / 4, &root);
        if (root.kind == THREAT_DEFEND) {
            int row, col;
            assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, budget, NULL, &row, &col), TTT_OK);
            assert_int_equal(root.safe[row * 15 + col], 1);
            defended++;
        }
        ttt__threat_release(g, &root);
        ttt_game_free(g);
    }
    assert_true(defended >= 6);
}

/* X's double-three fork: a broken two on row 7 and a two on column 8 that
 * (7,8) joins into two threes at once, a VCT but no VCF. O's stones sit in
 * the corners; with o_stones 4 X moves, with 3 O does. */
static ttt_game *fork_position(int o_stones)
{
    ttt_game *g = new_game(15, 5);
    static const int x_cells[4][2] = {{7, 5}, {7, 6}, {5, 8}, {6, 8}};
    static const int o_cells[4][2] = {{0, 0}, {0, 14}, {14, 0}, {14, 14}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(ttt_play(g, TTT_X, x_cells[i][0], x_cells[i][1], NULL), TTT_OK);
        if (i < o_stones)
            assert_int_equal(ttt_play(g, TTT_O, o_cells[i][0], o_cells[i][1], NULL), TTT_OK);
    }
    return g;
}

/* With 50000 threat nodes or more the root also searches VCTs: the fork is
 * found for X to move, and for O to move it is answered, the fork's cell
 * among the answers kept, and the bot (four times the root's budget) plays
 * one of them. With fewer nodes neither is looked for. */
static void test_root_vcts(void **state)
{
    (void)state;
    int8_t cells[MAXCELLS];
    threat_root root;
    ttt_game *g = fork_position(4);
    int32_t move;
    uint64_t nodes;
    read_board(g, cells);
    assert_int_equal(ttt__threat_vcf(g, 15, 15, 5, cells, TTT_X, 100000, &move, &nodes), 0);
    root_search(g, cells, 50000, &root);
    assert_int_equal(root.kind, THREAT_WIN);
    assert_null(root.safe);
    root_search(g, cells, 49999, &root);
    assert_int_equal(root.kind, THREAT_NONE);
    ttt_game_free(g);

    g = fork_position(3);
    root_search(g, cells, 50000, &root);
    assert_int_equal(root.kind, THREAT_DEFEND);
    assert_int_equal(root.safe[7 * 15 + 8], 1);
    int row, col;
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 200000, NULL, &row, &col), TTT_OK);
    assert_int_equal(root.safe[row * 15 + col], 1);
    ttt__threat_release(g, &root);
    ttt_game_free(g);
}

/* Black's VCT in a game the bot lost as white to Rapfi (x,y moves from
 * the opening's two stones): trying the moves that make the most threes
 * first, the VCT finds it in 156 nodes; in the order the threats are
 * listed (fours first) it took 133,352. */
static void test_vct_tries_the_most_threes_first(void **state)
{
    (void)state;
    static const char moves[] = "8,7 6,9 8,5 5,8 6,5 4,7 7,10 9,8 7,6 8,8 7,4 7,8 "
                                "6,8 3,6 2,5 11,8 10,8 7,2";
    ttt_game *g = new_game(15, 5);
    const char *p = moves;
    int x, y, used;
    while (sscanf(p, "%d,%d%n", &x, &y, &used) == 2) {
        assert_int_equal(ttt_play_next(g, y, x, NULL), TTT_OK);
        p += used;
    }
    int8_t cells[MAXCELLS];
    read_board(g, cells);
    int32_t move = -1;
    uint64_t nodes = 0;
    assert_int_equal(ttt__threat_vct(g, 15, 15, 5, cells, TTT_X, 1000, &move, &nodes), 1);
    assert_true(nodes <= 1000);
    assert_int_equal(cells[move], TTT_EMPTY);
    ttt_game_free(g);
}

/* The strong bot's transposition table: within the same
 * node budget its iterative deepening completes deeper iterations, over
 * positions of seeded self-play on 15x15 (a few may come out shallower:
 * the order of the moves changes which ones the beam cuts). */
static void test_bot_table_reaches_deeper(void **state)
{
    (void)state;
    long depth_sum[2] = {0, 0};
    int deeper = 0, shallower = 0, positions = 0;
    for (uint64_t game_seed = 1; game_seed <= 4; game_seed++) {
        ttt_game *g = new_game(15, 5);
        uint64_t seed = game_seed;
        assert_int_equal(ttt_play_next(g, 7, 7, NULL), TTT_OK);
        for (int ply = 1; ply < 18 && ttt_state(g) == TTT_IN_PROGRESS; ply++) {
            int row, col;
            assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 2000, &seed, &row, &col), TTT_OK);
            assert_int_equal(ttt_play_next(g, row, col, NULL), TTT_OK);
            if (ttt_state(g) != TTT_IN_PROGRESS)
                break;
            int depth[2];
            for (int use_table = 0; use_table < 2; use_table++) {
                int32_t cell = -1;
                assert_int_equal(ttt__strong_search(g, 10000, use_table, &cell, &depth[use_table]),
                                 TTT_OK);
                int mark = TTT_X;
                assert_int_equal(ttt_cell(g, cell / 15, cell % 15, &mark), TTT_OK);
                assert_int_equal(mark, TTT_EMPTY);
                depth_sum[use_table] += depth[use_table];
            }
            deeper += depth[1] > depth[0];
            shallower += depth[1] < depth[0];
            positions++;
        }
        ttt_game_free(g);
    }
    print_message("# %d positions: depth sum %ld without the table, %ld with it; "
                  "deeper %d, shallower %d\n",
                  positions, depth_sum[0], depth_sum[1], deeper, shallower);
    assert_true(positions >= 40);
    assert_true(depth_sum[1] > depth_sum[0]);
    assert_true(deeper > shallower);
}

/* A search board for g's position, in memory of its own (free the block). */
static void *board_of(const ttt_game *g, sboard *b)
{
    snapshot snap;
    solve_result r;
    void *solve_block = ttt__start_solve(g, &snap, &r);
    assert_non_null(solve_block);
    carver sizes = {NULL, 0, 0};
    ttt__sboard_size(&sizes, b, &snap, 0);
    assert_false(sizes.overflow);
    void *block = calloc(1, sizes.used);
    assert_non_null(block);
    carver parts = {block, 0, 0};
    ttt__sboard_size(&parts, b, &snap, 0);
    ttt__sboard_init(b, &snap, 0);
    engine_free(g, solve_block);
    return block;
}

/* The fields a light place keeps, equal on both boards. */
static void assert_same_board_fields(const sboard *a, const sboard *b)
{
    assert_int_equal(a->empty, b->empty);
    assert_int_equal(a->live, b->live);
    assert_int_equal(a->completed, b->completed);
    assert_true(a->eval == b->eval);
    assert_memory_equal(a->cells, b->cells, (size_t)a->nn);
    assert_memory_equal(a->window_marks, b->window_marks,
                        (size_t)a->window_count * 2 * sizeof(int16_t));
    for (int p = 0; p < 2; p++) {
        assert_int_equal(a->threat_cells[p], b->threat_cells[p]);
        assert_true(a->threat_sum[p] == b->threat_sum[p]);
        assert_memory_equal(a->threat_hits[p], b->threat_hits[p], (size_t)a->nn * sizeof(int32_t));
        assert_memory_equal(a->open_windows[p], b->open_windows[p],
                            ((size_t)a->k + 1) * sizeof(int32_t));
    }
}

/* The evaluation by its definition, from the windows alone: each window
 * holding marks of one side only adds that side's eval_weight for its
 * count (X's plus, O's minus); the board keeps it by increments. */
static int64_t eval_from_windows(const sboard *b)
{
    int64_t eval = 0;
    for (int32_t w = 0; w < b->window_count; w++) {
        int x = b->window_marks[2 * (size_t)w], o = b->window_marks[2 * (size_t)w + 1];
        if (o == 0)
            eval += b->eval_weight[x];
        else if (x == 0)
            eval -= b->eval_weight[o];
    }
    return eval;
}

/* The bot's leaves go on light (ttt__sboard_place_light): every field but
 * the cells' sums follows the marks as a full place does (the evaluation
 * stays the one its definition gives), and light marks
 * with full ones placed and lifted above them (LIFO) leave the sums as they
 * were. Seeded random play on 15x15 K=5 from positions of up to 40 marks. */
static void test_light_place_keeps_the_board(void **state)
{
    (void)state;
    uint64_t seed = 77;
    for (int round = 0; round < 12; round++) {
        ttt_game *g = new_game(15, 5);
        (void)random_position(g, &seed, 225 - 4 * round - 2);
        sboard full, light;
        void *full_block = board_of(g, &full);
        void *light_block = board_of(g, &light);
        size_t sums_bytes = (size_t)full.nn * sizeof *full.sums;
        struct cell_sums *before = malloc(sums_bytes);
        assert_non_null(before);
        memcpy(before, full.sums, sums_bytes);
        int32_t touched_before = full.touched_count;
        /* Four marks in turn: two light under two full ones on one board,
         * all four full on the other. */
        int32_t placed[4];
        int count = 0;
        while (count < 4) {
            int32_t cell = (int32_t)ttt__random_below(&seed, 225);
            if (full.cells[cell] != TTT_EMPTY)
                continue;
            int p = (225 - full.empty) & 1;
            ttt__sboard_place(&full, cell, p);
            if (count < 2)
                ttt__sboard_place_light(&light, cell, p);
            else
                ttt__sboard_place(&light, cell, p);
            assert_same_board_fields(&full, &light);
            assert_true(full.eval == eval_from_windows(&full));
            placed[count++] = cell;
        }
        while (count > 0) {
            int32_t cell = placed[--count];
            ttt__sboard_remove(&full, cell);
            if (count < 2)
                ttt__sboard_remove_light(&light, cell);
            else
                ttt__sboard_remove(&light, cell);
            assert_same_board_fields(&full, &light);
            assert_true(full.eval == eval_from_windows(&full));
        }
        assert_memory_equal(light.sums, before, sums_bytes);
        assert_memory_equal(full.sums, before, sums_bytes);
        assert_int_equal(light.touched_count, touched_before);
        free(before);
        free(full_block);
        free(light_block);
        ttt_game_free(g);
    }
}

/* The evaluation uses eval_weight alone (not the ordering's weight) as
 * windows grow, die and come back, full or light, and so does
 * ttt__sboard_quiet_eval: with eval weights unlike the ordering's (six
 * times per mark, not eight), every place and remove leaves the eval its
 * definition gives. Seeded random play on 15x15 K=5. */
static void test_eval_follows_its_weights(void **state)
{
    (void)state;
    uint64_t seed = 123;
    for (int round = 0; round < 6; round++) {
        ttt_game *g = new_game(15, 5);
        (void)random_position(g, &seed, 225 - 8 * round - 4);
        sboard b;
        void *block = board_of(g, &b);
        for (int32_t m = 1; m <= b.k; m++)
            b.eval_weight[m] = m == 1 ? 6 : b.eval_weight[m - 1] * 6;
        b.eval = eval_from_windows(&b);
        int32_t placed[8];
        int count = 0;
        while (count < 8) {
            int32_t cell = (int32_t)ttt__random_below(&seed, 225);
            if (b.cells[cell] != TTT_EMPTY)
                continue;
            int p = (225 - b.empty) & 1;
            int64_t quiet;
            int32_t building, live;
            int said = ttt__sboard_quiet_eval(&b, cell, p, &quiet, &building, &live);
            if (count % 2)
                ttt__sboard_place_light(&b, cell, p);
            else
                ttt__sboard_place(&b, cell, p);
            assert_true(b.eval == eval_from_windows(&b));
            if (said)
                assert_true(quiet == b.eval);
            placed[count++] = cell;
        }
        while (count > 0) {
            int32_t cell = placed[--count];
            if (count % 2)
                ttt__sboard_remove_light(&b, cell);
            else
                ttt__sboard_remove(&b, cell);
            assert_true(b.eval == eval_from_windows(&b));
        }
        free(block);
        ttt_game_free(g);
    }
}

/* ttt__sboard_quiet_eval, the bot's leaves scored without their mark, tells
 * what a real place leaves: eval, the other's windows of K - 2 and the live
 * windows; and it declines exactly the marks that make a four or five or
 * take one of the other's completion cells. Every empty cell of seeded
 * random 15x15 K=5 positions of 6 to 60 marks. */
static void test_quiet_eval_matches_place(void **state)
{
    (void)state;
    uint64_t seed = 91;
    int quiet = 0, declined = 0;
    for (int round = 0; round < 10; round++) {
        ttt_game *g = new_game(15, 5);
        (void)random_position(g, &seed, 225 - 6 - 6 * round);
        sboard b;
        void *block = board_of(g, &b);
        for (int32_t cell = 0; cell < 225; cell++) {
            if (b.cells[cell] != TTT_EMPTY)
                continue;
            int p = (225 - b.empty) & 1, o = 1 - p;
            int64_t eval;
            int32_t building, live;
            int other_threat = b.threat_hits[o][cell] > 0;
            int said = ttt__sboard_quiet_eval(&b, cell, p, &eval, &building, &live);
            int completed = b.completed;
            long hits = 0;
            for (int32_t c = 0; c < 225; c++)
                hits -= b.threat_hits[p][c];
            ttt__sboard_place(&b, cell, p);
            for (int32_t c = 0; c < 225; c++)
                hits += b.threat_hits[p][c];
            /* hits > 0: the mark made a window of K - 1 marks of p's. */
            int loud = hits > 0 || b.completed > completed || other_threat;
            assert_int_equal(said, !loud);
            if (said) {
                quiet++;
                assert_true(eval == b.eval);
                assert_int_equal(building, b.open_windows[o][b.k - 2]);
                assert_int_equal(live, b.live);
            } else {
                declined++;
            }
            ttt__sboard_remove(&b, cell);
        }
        free(block);
        ttt_game_free(g);
    }
    print_message("# %d cells scored quiet, %d declined\n", quiet, declined);
    assert_true(quiet > 0 && declined > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vcf_agrees_with_solver),
        cmocka_unit_test(test_vcf_budget),
        cmocka_unit_test(test_bot_plays_its_vcf),
        cmocka_unit_test(test_bot_stops_an_open_three),
        cmocka_unit_test(test_bot_stops_the_opponents_vcf),
        cmocka_unit_test(test_root_vcts),
        cmocka_unit_test(test_vct_tries_the_most_threes_first),
        cmocka_unit_test(test_bot_table_reaches_deeper),
        cmocka_unit_test(test_light_place_keeps_the_board),
        cmocka_unit_test(test_eval_follows_its_weights),
        cmocka_unit_test(test_quiet_eval_matches_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
