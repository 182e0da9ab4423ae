/* test_legal_moves.c - ttt_legal_moves: the empty cells of a game in progress, none of a finished one, in one call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ttt.h"

#define SENTINEL INT32_C(-777)

static ttt_game *new_game(int size, int k)
{
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(size, k, &game), TTT_OK);
    return game;
}

/* The empty cells, ascending, read one at a time through ttt_cell. */
static size_t empty_cells(const ttt_game *game, int32_t *cells)
{
    int n = ttt_size(game);
    size_t count = 0;
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            int mark = 99;
            assert_int_equal(ttt_cell(game, row, col, &mark), TTT_OK);
            if (mark == TTT_EMPTY)
                cells[count++] = row * n + col;
        }
    return count;
}

static void assert_legal_moves_are_empty_cells(const ttt_game *game)
{
    int32_t got[64], want[64];
    size_t len = 999;
    assert_int_equal(ttt_legal_moves(game, got, 64, &len), TTT_OK);
    assert_int_equal(len, empty_cells(game, want));
    assert_memory_equal(got, want, len * sizeof got[0]);
}

static void test_empty_board_lists_every_cell(void **unused)
{
    (void)unused;
    ttt_game *game = new_game(3, 0);
    int32_t cells[9];
    size_t len = 0;
    assert_int_equal(ttt_legal_moves(game, cells, 9, &len), TTT_OK);
    assert_int_equal(len, 9);
    for (int32_t i = 0; i < 9; i++)
        assert_int_equal(cells[i], i);
    ttt_game_free(game);
}

static void test_follows_plays_undos_and_redos(void **unused)
{
    (void)unused;
    ttt_game *game = new_game(4, 3);
    static const int moves[][2] = {{1, 1}, {0, 0}, {3, 2}, {2, 3}, {0, 3}};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        assert_int_equal(ttt_play_next(game, moves[i][0], moves[i][1], NULL),
                         TTT_OK);
        assert_legal_moves_are_empty_cells(game);
    }
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_legal_moves_are_empty_cells(game); /* undone cells are legal again */
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_legal_moves_are_empty_cells(game);
    ttt_game_free(game);
}

static void test_finished_game_has_none(void **unused)
{
    (void)unused;
    ttt_game *game = new_game(3, 0);
    /* X: a1 b1 c1 wins the top row with four cells still empty. */
    static const int moves[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(ttt_play_next(game, moves[i][0], moves[i][1], NULL),
                         TTT_OK);
    assert_int_equal(ttt_state(game), TTT_X_WON);
    int32_t cells[9] = {SENTINEL};
    size_t len = 999;
    assert_int_equal(ttt_legal_moves(game, cells, 9, &len), TTT_OK);
    assert_int_equal(len, 0);
    assert_int_equal(cells[0], SENTINEL);
    /* Undoing the win reopens the game and its cells. */
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_legal_moves(game, cells, 9, &len), TTT_OK);
    int32_t want[9] = {2, 5, 6, 7, 8};
    assert_int_equal(len, 5);
    assert_memory_equal(cells, want, 5 * sizeof cells[0]);
    ttt_game_free(game);
}

static void test_small_buffer_and_bad_arguments(void **unused)
{
    (void)unused;
    ttt_game *game = new_game(3, 0);
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_OK);
    int32_t cells[9] = {SENTINEL, SENTINEL, SENTINEL};
    size_t len = 999;
    assert_int_equal(ttt_legal_moves(game, cells, 7, &len), TTT_E_BUFFER);
    assert_int_equal(len, 8);
    assert_int_equal(cells[0], SENTINEL); /* nothing written */
    assert_int_equal(ttt_legal_moves(game, NULL, 0, &len), TTT_E_BUFFER);
    assert_int_equal(len, 8);
    assert_int_equal(ttt_legal_moves(game, cells, 8, &len), TTT_OK);
    assert_int_equal(len, 8);
    assert_int_equal(cells[3], 3);
    assert_int_equal(cells[4], 5); /* b2 (4) is taken */

    len = 999;
    assert_int_equal(ttt_legal_moves(NULL, cells, 9, &len), TTT_E_INVALID);
    assert_int_equal(ttt_legal_moves(game, cells, 9, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_legal_moves(game, NULL, 9, &len), TTT_E_INVALID);
    assert_int_equal(len, 999);
    ttt_game_free(game);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_board_lists_every_cell),
        cmocka_unit_test(test_follows_plays_undos_and_redos),
        cmocka_unit_test(test_finished_game_has_none),
        cmocka_unit_test(test_small_buffer_and_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
