/* test_engine_bounds.c - the engine on big boards: right scores up to TTT_MAX_SIZE, and work and memory bounded by the caller's budgets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "quick.h"
#include "ttt.h"

/*
 * Nothing here reads a clock: work is counted through the engine's own
 * node counter and memory through a counting allocator, so every check is
 * exact and repeats on any machine.
 */

/* ------------------------------------------------------------------------ */
/* Counting allocator                                                        */

typedef struct counting {
    size_t live;
    size_t peak;     /* the most bytes held at once */
    size_t largest;  /* the largest single request */
    size_t requests;
} counting;

typedef union block_header {
    size_t size;
    max_align_t align;
} block_header;

static void *counting_alloc(void *user, size_t size)
{
    counting *count = user;
    block_header *block = malloc(sizeof *block + size);
    if (!block)
        return NULL;
    block->size = size;
    count->live += size;
    count->requests++;
    if (count->live > count->peak)
        count->peak = count->live;
    if (size > count->largest)
        count->largest = size;
    return block + 1;
}

static void counting_dealloc(void *user, void *ptr)
{
    counting *count = user;
    if (!ptr)
        return;
    block_header *block = (block_header *)ptr - 1;
    count->live -= block->size;
    free(block);
}

/* The side of "the largest board" below: TTT_MAX_SIZE, or half of it (a
 * quarter of the cells) in quick mode (quick.h), since the time of these
 * tests is the board's cells, each set up and scanned. */
static int largest_side(void)
{
    return quick_mode() ? TTT_MAX_SIZE / 2 : TTT_MAX_SIZE;
}

static ttt_game *counted_game(int n, int k, counting *count)
{
    ttt_allocator alloc = {counting_alloc, counting_dealloc, count};
    ttt_game *g = NULL;
    memset(count, 0, sizeof *count);
    assert_int_equal(ttt_game_new_with(n, k, &alloc, &g), TTT_OK);
    return g;
}

/* Starts counting an engine call: the peak from now on is the call's. */
static size_t engine_start(counting *count)
{
    count->peak = count->live;
    count->largest = 0;
    count->requests = 0;
    return count->live;
}

static void play_at(ttt_game *g, int row, int col)
{
    assert_int_equal(ttt_play(g, ttt_to_move(g), row, col, NULL), TTT_OK);
}

static ttt_solution solution_struct(void)
{
    ttt_solution s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    return s;
}

/* ------------------------------------------------------------------------ */
/* Item: solver scores on every board size                                   */

/*
 * Two positions whose answers are plain to see, with K = 3 on an n x n
 * board; cells as (row, col), "a1" being (0, 0):
 *
 * Loss in 4: X a1 b1 k11 o11, O on the last row a, e, i; O to move. X
 * threatens c1, so O must block it (anything else loses in 2); then X's
 * m11 threatens l11 and n11 at once and wins. O has no two marks within
 * reach of each other, so no counter-threat delays it: loss, plies 4, and
 * c1 is the only slowest loss.
 *
 * Win in 1: X a1 b1, O a and e on the last row; X to move. c1 completes
 * a1 b1 c1 and no other cell completes anything: win, plies 1, best c1.
 * (Both scores sit at the two ends of the distance scale: the slowest
 * loss the solver finds here and the fastest win.)
 */
/* The same two positions on a board width wide and height high (at least
 * 15 x 12): the cells are numbered row * width + col. */
static void check_big_rect_scores(int width, int height)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new_rect(width, height, 3, &g), TTT_OK);
    int last = height - 1;
    play_at(g, 0, 0);     /* X a1 */
    play_at(g, last, 0);  /* O a<n> */
    play_at(g, 0, 1);     /* X b1 */
    play_at(g, last, 4);  /* O e<n> */
    play_at(g, 10, 10);   /* X k11 */
    play_at(g, last, 8);  /* O i<n> */
    play_at(g, 10, 14);   /* X o11 */
    ttt_solution s = solution_struct();
    int32_t best[4] = {-1, -1, -1, -1};
    size_t len = 0;
    assert_int_equal(ttt_solve(g, 0, 0, 0, &s, best, 4, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_LOSS);
    assert_int_equal(s.value_min, TTT_VALUE_LOSS);
    assert_int_equal(s.value_max, TTT_VALUE_LOSS);
    assert_int_equal(s.plies, 4);
    assert_int_equal(len, 1);
    assert_int_equal(best[0], 2); /* c1 */
    ttt_game_free(g);

    assert_int_equal(ttt_game_new_rect(width, height, 3, &g), TTT_OK);
    play_at(g, 0, 0);     /* X a1 */
    play_at(g, last, 0);  /* O a<n> */
    play_at(g, 0, 1);     /* X b1 */
    play_at(g, last, 4);  /* O e<n> */
    s = solution_struct();
    assert_int_equal(ttt_solve(g, 0, 0, 0, &s, best, 4, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_WIN);
    assert_int_equal(s.plies, 1);
    assert_int_equal(len, 1);
    assert_int_equal(best[0], 2); /* c1 */
    ttt_game_free(g);
}

static void check_big_board_scores(int n)
{
    check_big_rect_scores(n, n);
}

/* 181 x 181 was the last size whose distance scores fitted the solver's
 * 16-bit scale; 182 the first that lost every loss below its start. */
static void test_scores_right_on_181(void **state)
{
    (void)state;
    check_big_board_scores(181);
}

static void test_scores_right_on_182(void **state)
{
    (void)state;
    check_big_board_scores(182);
}

static void test_scores_right_on_256(void **state)
{
    (void)state;
    check_big_board_scores(256);
}

static void test_scores_right_on_1024(void **state)
{
    (void)state;
    check_big_board_scores(largest_side());
}

/* The widest and the tallest boards, and rectangles on either side of the
 * 16-bit distance scale. */
static void test_scores_right_on_rectangles(void **state)
{
    (void)state;
    check_big_rect_scores(TTT_MAX_SIZE, 12);
    check_big_rect_scores(15, TTT_MAX_SIZE);
    check_big_rect_scores(182, 181);
    check_big_rect_scores(181, 182);
}

/* Under gravity on big boards: X has two marks side by side at the left
 * end of the bottom row and O two far off in one column; X to move
 * completes the row at the landing cell on their right, the only cell
 * that completes anything. */
static void check_gravity_win_in_1(int width, int height)
{
    ttt_game *g = NULL;
    assert_int_equal(ttt_game_new_rect(width, height, 3, &g), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_GRAVITY, 1), TTT_OK);
    int last = height - 1;
    assert_int_equal(ttt_drop(g, 0, NULL, NULL), TTT_OK);  /* X a<H> */
    assert_int_equal(ttt_drop(g, 10, NULL, NULL), TTT_OK); /* O */
    assert_int_equal(ttt_drop(g, 1, NULL, NULL), TTT_OK);  /* X b<H> */
    assert_int_equal(ttt_drop(g, 10, NULL, NULL), TTT_OK); /* O, above */
    ttt_solution s = solution_struct();
    int32_t best[4] = {-1, -1, -1, -1};
    size_t len = 0;
    assert_int_equal(ttt_solve(g, 0, 0, 0, &s, best, 4, &len), TTT_OK);
    assert_int_equal(s.value, TTT_VALUE_WIN);
    assert_int_equal(s.plies, 1);
    assert_int_equal(len, 1);
    assert_int_equal(best[0], last * width + 2);
    uint64_t seed = 5;
    int row = -1, col = -1;
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 0, &seed, &row, &col), TTT_OK);
    assert_int_equal(row * width + col, last * width + 2);
    ttt_game_free(g);
}

static void test_gravity_scores_on_big_boards(void **state)
{
    (void)state;
    check_gravity_win_in_1(TTT_MAX_SIZE, 3);
    check_gravity_win_in_1(12, TTT_MAX_SIZE);
    check_gravity_win_in_1(256, 256);
}

/* ------------------------------------------------------------------------ */
/* Item: perft's maps sized by what the depth can reach                      */

/* The bytes a perft may hold besides its maps: the snapshot, the eight
 * symmetries of each cell and a core board, all O(N*N). */
#define PERFT_BYTES_PER_CELL 64

/* Depth 0 is the position itself: one map of one board. On 1024 x 1024 a
 * board key is 256 KiB, so a map of 1024 slots (256 MiB) passed a 1 MiB
 * cap and the call failed; the map now holds what the layer can fill.
 * (On the quick run's 512 x 512, 64 MiB: past the cap too.) */
static void test_perft_depth_0_on_the_largest_board(void **state)
{
    (void)state;
    counting count;
    int side = largest_side();
    ttt_game *g = counted_game(side, 5, &count);
    play_at(g, side / 2, side / 2);
    size_t nn = (size_t)side * (size_t)side;
    size_t table = (size_t)1 << 20;
    uint64_t counts[4] = {9, 9, 9, 9}, lengths[2] = {9, 9};
    size_t len = 0;
    size_t before = engine_start(&count);
    assert_int_equal(ttt_perft(g, 0, table, counts, lengths, 2, &len), TTT_OK);
    assert_true(count.peak - before <= table + PERFT_BYTES_PER_CELL * nn);
    assert_int_equal(count.live, before);
    assert_int_equal(counts[TTT_IN_PROGRESS], 1);
    assert_int_equal(counts[TTT_X_WON] + counts[TTT_O_WON] + counts[TTT_DRAW], 0);
    assert_int_equal(len, 1);
    assert_int_equal(lengths[0], 1);

    uint64_t positions[4] = {9, 9, 9, 9};
    before = engine_start(&count);
    assert_int_equal(ttt_count_positions(g, 0, table, positions), TTT_OK);
    assert_true(count.peak - before <= table + PERFT_BYTES_PER_CELL * nn);
    assert_int_equal(positions[TTT_IN_PROGRESS], 1);

    /* One ply deeper needs a map of some 130,000 boards of 256 KiB each:
     * refused within the cap, not allocated. */
    before = engine_start(&count);
    assert_int_equal(ttt_perft(g, 1, table, counts, lengths, 2, &len), TTT_E_NOMEM);
    assert_true(count.peak - before <= table + PERFT_BYTES_PER_CELL * nn);
    assert_int_equal(count.live, before);
    ttt_game_free(g);
}

/* On a small board the maps start small and grow: the whole 3x3 game
 * still counts right, well under the table a 1024-slot start would take. */
static void test_perft_small_tables_still_count(void **state)
{
    (void)state;
    counting count;
    ttt_game *g = counted_game(3, 3, &count);
    uint64_t counts[4];
    size_t before = engine_start(&count);
    assert_int_equal(ttt_perft(g, 9, 0, counts, NULL, 0, NULL), TTT_OK);
    assert_int_equal(counts[TTT_X_WON], 131184);
    assert_int_equal(counts[TTT_O_WON], 77904);
    assert_int_equal(counts[TTT_DRAW], 46080);
    /* Depth 1 holds at most three canonical boards at a time. */
    before = engine_start(&count);
    assert_int_equal(ttt_perft(g, 1, 0, counts, NULL, 0, NULL), TTT_OK);
    assert_int_equal(counts[TTT_IN_PROGRESS], 9);
    assert_true(count.peak - before < 1024 * 2 * sizeof(uint64_t));
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Item: the move lists' cap is a budget                                     */

/* On 128 x 128 every node lists some 16,000 moves, so a 1 MiB cap (128 Ki
 * moves) fills about eight plies down, long before any node budget: the
 * search stops with TTT_E_BUDGET and what it knows, as at its budget, and
 * the memory it held stays within the cap plus the board. */
static void test_move_list_cap_is_a_budget(void **state)
{
    (void)state;
    counting count;
    ttt_game *g = counted_game(128, 5, &count);
    play_at(g, 0, 0);
    ttt_solution s = solution_struct();
    int32_t best[1] = {-1};
    size_t len = 9;
    size_t table = (size_t)1 << 20, nn = 128 * 128;
    size_t before = engine_start(&count);
    assert_int_equal(ttt_solve(g, 0, table, 0, &s, best, 1, &len), TTT_E_BUDGET);
    assert_int_equal(count.live, before);
    assert_true(count.peak - before <= 2 * table + 512 * nn);
    assert_int_equal(s.plies, -1);
    assert_true(s.value_min <= s.value_max);
    assert_true(len <= 1);
    ttt_game_free(g);
}

/* ------------------------------------------------------------------------ */
/* Item: budgets bound work and memory                                      */

/* The search board's bytes a cell (windows, per-cell sums, keys and
 * symmetries), besides the table and the move lists. */
#define SEARCH_BYTES_PER_CELL 256

/* Budget 1 on the largest board with long windows: the solve searches one
 * position and stops, the bot still answers with a legal move, and memory
 * stays within the table's cap plus the board. */
static void test_budget_1_on_the_largest_board(void **state)
{
    (void)state;
    counting count;
    int side = largest_side();
    ttt_game *g = counted_game(side, side / 2, &count);
    play_at(g, side / 2, side / 2);
    size_t nn = (size_t)side * (size_t)side;
    ttt_solution s = solution_struct();
    size_t before = engine_start(&count);
    assert_int_equal(ttt_solve(g, 1, 1, 0, &s, NULL, 0, NULL), TTT_E_BUDGET);
    assert_true(s.nodes <= 1);
    assert_int_equal(s.plies, -1);
    /* table_bytes 1 still gets the smallest table, and the lists their
     * 1 MiB floor. */
    assert_true(count.peak - before <= ((size_t)2 << 20) + SEARCH_BYTES_PER_CELL * nn);
    assert_int_equal(count.live, before);

    uint64_t seed = 3;
    int row = -1, col = -1, mark = 9;
    before = engine_start(&count);
    assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, 1, &seed, &row, &col), TTT_OK);
    assert_true(count.peak - before <= ((size_t)64 << 20) + SEARCH_BYTES_PER_CELL * nn);
    assert_int_equal(ttt_cell(g, row, col, &mark), TTT_OK);
    assert_int_equal(mark, TTT_EMPTY);
    ttt_game_free(g);
}

/* The same under gravity on the largest board: the strong bot answers
 * with the landing cell of some column, which the game takes. */
static void test_budget_1_under_gravity_on_the_largest_board(void **state)
{
    (void)state;
    counting count;
    ttt_allocator alloc = {counting_alloc, counting_dealloc, &count};
    ttt_game *g = NULL;
    memset(&count, 0, sizeof count);
    int side = largest_side();
    assert_int_equal(ttt_game_new_rect_with(side, side, 4, &alloc, &g), TTT_OK);
    assert_int_equal(ttt_game_set_rule(g, TTT_RULE_GRAVITY, 1), TTT_OK);
    assert_int_equal(ttt_drop(g, side / 2, NULL, NULL), TTT_OK);
    assert_int_equal(ttt_drop(g, side / 2, NULL, NULL), TTT_OK);
    assert_int_equal(ttt_drop(g, side / 2 + 1, NULL, NULL), TTT_OK);
    size_t nn = (size_t)side * (size_t)side;
    ttt_solution s = solution_struct();
    size_t before = engine_start(&count);
    assert_int_equal(ttt_solve(g, 1, 1, 0, &s, NULL, 0, NULL), TTT_E_BUDGET);
    assert_true(s.nodes <= 1);
    assert_true(count.peak - before <= ((size_t)2 << 20) + SEARCH_BYTES_PER_CELL * nn);
    assert_int_equal(count.live, before);

    for (uint64_t budget = 1; budget <= 1000; budget *= 10) {
        uint64_t seed = budget;
        int row = -1, col = -1;
        before = engine_start(&count);
        assert_int_equal(ttt_best_move(g, TTT_BOT_STRONG, budget, &seed, &row, &col), TTT_OK);
        assert_true(count.peak - before <= ((size_t)64 << 20) + SEARCH_BYTES_PER_CELL * nn);
        assert_int_equal(count.live, before);
        int landed = -1;
        assert_int_equal(ttt_drop(g, col, &landed, NULL), TTT_OK);
        assert_int_equal(landed, row);
    }
    ttt_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scores_right_on_181),
        cmocka_unit_test(test_scores_right_on_182),
        cmocka_unit_test(test_scores_right_on_256),
        cmocka_unit_test(test_scores_right_on_1024),
        cmocka_unit_test(test_scores_right_on_rectangles),
        cmocka_unit_test(test_gravity_scores_on_big_boards),
        cmocka_unit_test(test_perft_depth_0_on_the_largest_board),
        cmocka_unit_test(test_perft_small_tables_still_count),
        cmocka_unit_test(test_move_list_cap_is_a_budget),
        cmocka_unit_test(test_budget_1_on_the_largest_board),
        cmocka_unit_test(test_budget_1_under_gravity_on_the_largest_board),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
