/* test_coverage_extra.c - edge cases the coverage report showed no suite reaching: rule lock by a pending redo, size-only board reads, odd cell and number endings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

/* Undoing every move leaves an empty board but a redo stack; redoing would
 * replay those moves under whatever rules were set meanwhile, so the rules
 * stay locked until the redo stack is gone. */
static void test_rules_locked_by_pending_redo(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(3, 0, &game), TTT_OK);
    assert_int_equal(ttt_play(game, TTT_X, 1, 1, NULL), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_ply(game), 0);
    assert_int_equal(ttt_redo_count(game), 1);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1), TTT_E_RULES_LOCKED);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1),
                     TTT_E_RULES_LOCKED);
    /* A reset empties the redo stack and unlocks them. */
    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1), TTT_OK);
    ttt_game_free(game);
}

/* A NULL buffer with capacity 0 asks for the size only. */
static void test_board_size_query(void **unused)
{
    (void)unused;
    ttt_game *game = NULL;
    size_t len = 0;
    assert_int_equal(ttt_game_new(5, 4, &game), TTT_OK);
    assert_int_equal(ttt_board(game, NULL, 0, &len), TTT_E_BUFFER);
    assert_int_equal(len, 25);
    ttt_game_free(game);
}

/* Column letters followed by a byte above '9' are no cell name. */
static void test_cell_name_bad_row_start(void **unused)
{
    (void)unused;
    int row = -7, col = -7;
    size_t used = 99;
    assert_int_equal(ttt_parse_cell("a~", 2, &row, &col, &used), TTT_E_PARSE);
    assert_int_equal(ttt_parse_cell("b:1", 3, &row, &col, &used), TTT_E_PARSE);
    assert_int_equal(row, -7);
    assert_int_equal(col, -7);
    assert_int_equal(used, 99);
}

/* A record cut right after "n=0" is a truncated record (TTT_E_PARSE at its
 * end), as any cut inside a number is, not a bad size. */
static void test_record_cut_after_zero(void **unused)
{
    (void)unused;
    static const char text[] = "ttt/1 n=0";
    ttt_game *game = NULL;
    size_t offset = 0;
    assert_int_equal(ttt_game_load(text, sizeof text - 1, NULL, &game, &offset),
                     TTT_E_PARSE);
    assert_null(game);
    assert_int_equal(offset, sizeof text - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_locked_by_pending_redo),
        cmocka_unit_test(test_board_size_query),
        cmocka_unit_test(test_cell_name_bad_row_start),
        cmocka_unit_test(test_record_cut_after_zero),
    };
    return cmocka_run_group_tests_name("coverage_extra", tests, NULL, NULL);
}
