/* test_notation.c - cell names, saving and strict loading of game records. */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttt.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* A heap copy of exactly len bytes with no terminator, so AddressSanitizer
 * catches any read at or past len. */
static char *exact_copy(const char *text, size_t len)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    return copy;
}

static int load_bytes(const char *text, size_t len, ttt_game **out,
                      size_t *error_offset)
{
    char *copy = exact_copy(text, len);
    int status = ttt_game_load(copy, len, NULL, out, error_offset);
    free(copy);
    return status;
}

static int load_text(const char *text, ttt_game **out, size_t *error_offset)
{
    return load_bytes(text, strlen(text), out, error_offset);
}

static void assert_load_fails(const char *text, size_t len, int code,
                              size_t offset)
{
    ttt_game *sentinel = (ttt_game *)&sentinel;
    ttt_game *game = sentinel;
    size_t at = 9999;

    int status = load_bytes(text, len, &game, &at);
    if (status != code || at != offset)
        print_error("record \"%.*s\": got %d at %zu, want %d at %zu\n",
                    (int)len, text, status, at, code, offset);
    assert_int_equal(status, code);
    assert_int_equal(at, offset);
    assert_ptr_equal(game, sentinel);
}

/* Plays cell names in turn, asserting each move is accepted. */
static void play_names(ttt_game *game, const char *names)
{
    size_t len = strlen(names), pos = 0;
    while (pos < len) {
        int row, col;
        size_t used;
        assert_int_equal(ttt_parse_cell(names + pos, len - pos, &row, &col,
                                        &used),
                         TTT_OK);
        assert_int_equal(ttt_play(game, ttt_to_move(game), row, col, NULL),
                         TTT_OK);
        pos += used;
        if (pos < len) {
            assert_int_equal(names[pos], ',');
            pos++;
        }
    }
}

static ttt_game *new_game(int size, int k, int misere, int early_draw,
                          const char *names)
{
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(size, k, &game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, early_draw),
                     TTT_OK);
    play_names(game, names);
    return game;
}

/* Saves into a fresh heap buffer; the caller frees it. */
static char *save(const ttt_game *game, size_t *len)
{
    size_t needed = 0;
    assert_int_equal(ttt_game_save(game, NULL, 0, &needed), TTT_E_BUFFER);
    char *buf = malloc(needed + 1);
    assert_non_null(buf);
    assert_int_equal(ttt_game_save(game, buf, needed + 1, len), TTT_OK);
    assert_int_equal(*len, needed);
    assert_int_equal(strlen(buf), needed);
    return buf;
}

static void assert_saves_as(const ttt_game *game, const char *expected)
{
    size_t len;
    char *record = save(game, &len);
    assert_string_equal(record, expected);
    free(record);
}

static void assert_same_game(const ttt_game *a, const ttt_game *b)
{
    int n = ttt_size(a);
    assert_int_equal(ttt_size(b), n);
    assert_int_equal(ttt_win_length(b), ttt_win_length(a));
    assert_int_equal(ttt_state(b), ttt_state(a));
    assert_int_equal(ttt_ply(b), ttt_ply(a));
    assert_int_equal(ttt_to_move(b), ttt_to_move(a));
    for (int rule = TTT_RULE_MISERE; rule <= TTT_RULE_EARLY_DRAW; rule++) {
        int va, vb;
        assert_int_equal(ttt_game_get_rule(a, rule, &va), TTT_OK);
        assert_int_equal(ttt_game_get_rule(b, rule, &vb), TTT_OK);
        assert_int_equal(va, vb);
    }
    for (int ply = 0; ply < ttt_ply(a); ply++) {
        int ma, ra, ca, mb, rb, cb;
        assert_int_equal(ttt_move_at(a, ply, &ma, &ra, &ca), TTT_OK);
        assert_int_equal(ttt_move_at(b, ply, &mb, &rb, &cb), TTT_OK);
        assert_int_equal(ma, mb);
        assert_int_equal(ra, rb);
        assert_int_equal(ca, cb);
    }
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            int ma, mb;
            assert_int_equal(ttt_cell(a, row, col, &ma), TTT_OK);
            assert_int_equal(ttt_cell(b, row, col, &mb), TTT_OK);
            assert_int_equal(ma, mb);
        }
}

/* save -> load -> save gives the same bytes and the same game. */
static void assert_round_trip(const ttt_game *game)
{
    size_t len, len2;
    ttt_game *loaded = NULL;
    char *record = save(game, &len);

    assert_int_equal(load_bytes(record, len, &loaded, NULL), TTT_OK);
    assert_non_null(loaded);
    assert_same_game(game, loaded);
    assert_int_equal(ttt_redo_count(loaded), 0);
    char *again = save(loaded, &len2);
    assert_int_equal(len2, len);
    assert_memory_equal(again, record, len);
    free(again);
    free(record);
    ttt_game_free(loaded);
}

/* ------------------------------------------------------------------------ */
/* Cell names                                                                */
/* ------------------------------------------------------------------------ */

static void assert_name(int row, int col, const char *expected)
{
    char buf[16];
    size_t len = 0;
    assert_int_equal(ttt_cell_name(row, col, buf, sizeof buf, &len), TTT_OK);
    assert_string_equal(buf, expected);
    assert_int_equal(len, strlen(expected));
}

static void test_cell_name_examples(void **state)
{
    (void)state;
    assert_name(0, 0, "a1");
    assert_name(2, 1, "b3");
    assert_name(0, 25, "z1");
    assert_name(0, 26, "aa1");
    assert_name(0, 27, "ab1");
    assert_name(0, 51, "az1");
    assert_name(0, 52, "ba1");
    assert_name(0, 701, "zz1");
    assert_name(0, 702, "aaa1");
    assert_name(9, 9, "j10");
    assert_name(1023, 0, "a1024");
    assert_name(0, 1023, "amj1");
    assert_name(1023, 1023, "amj1024");
}

static void test_cell_name_round_trip(void **state)
{
    (void)state;
    static const int rows[] = {0, 1, 8, 9, 10, 98, 99, 100, 998, 999, 1022,
                               1023};
    for (int col = 0; col < TTT_MAX_SIZE; col++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            char buf[16];
            size_t len = 0, used = 0;
            int row = -1, back = -1;
            assert_int_equal(ttt_cell_name(rows[i], col, buf, sizeof buf, &len),
                             TTT_OK);
            assert_int_equal(ttt_parse_cell(buf, len, &row, &back, &used),
                             TTT_OK);
            assert_int_equal(row, rows[i]);
            assert_int_equal(back, col);
            assert_int_equal(used, len);
            for (size_t j = 0; j < len; j++) /* lower case out */
                assert_false(buf[j] >= 'A' && buf[j] <= 'Z');
        }
}

static void test_cell_name_errors(void **state)
{
    (void)state;
    char buf[16];
    size_t len = 42;

    assert_int_equal(ttt_cell_name(-1, 0, buf, sizeof buf, &len),
                     TTT_E_OFF_BOARD);
    assert_int_equal(ttt_cell_name(0, -1, buf, sizeof buf, &len),
                     TTT_E_OFF_BOARD);
    assert_int_equal(ttt_cell_name(TTT_MAX_SIZE, 0, buf, sizeof buf, &len),
                     TTT_E_OFF_BOARD);
    assert_int_equal(ttt_cell_name(0, TTT_MAX_SIZE, buf, sizeof buf, &len),
                     TTT_E_OFF_BOARD);
    assert_int_equal(len, 42);
    assert_int_equal(ttt_cell_name(0, 0, buf, sizeof buf, NULL),
                     TTT_E_INVALID);
    assert_int_equal(ttt_cell_name(0, 0, NULL, 4, &len), TTT_E_INVALID);
}

static void test_cell_name_buffer(void **state)
{
    (void)state;
    char buf[8];
    size_t len = 0;

    /* "aa10" needs 4 bytes plus the NUL. */
    assert_int_equal(ttt_cell_name(9, 26, NULL, 0, &len), TTT_E_BUFFER);
    assert_int_equal(len, 4);
    memset(buf, '#', sizeof buf);
    len = 0;
    assert_int_equal(ttt_cell_name(9, 26, buf, 4, &len), TTT_E_BUFFER);
    assert_int_equal(len, 4);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], '#');
    assert_int_equal(ttt_cell_name(9, 26, buf, 5, &len), TTT_OK);
    assert_string_equal(buf, "aa10");
    assert_int_equal(buf[5], '#');
}

static void test_parse_cell_accepts(void **state)
{
    (void)state;
    int row = -1, col = -1;
    size_t used = 0;

    assert_int_equal(ttt_parse_cell("B3", 2, &row, &col, &used), TTT_OK);
    assert_int_equal(row, 2);
    assert_int_equal(col, 1);
    assert_int_equal(ttt_parse_cell("aB12", 4, &row, &col, &used), TTT_OK);
    assert_int_equal(row, 11);
    assert_int_equal(col, 27);
    assert_int_equal(used, 4);
    /* The name may be followed by anything; used says where it ended. */
    assert_int_equal(ttt_parse_cell("c3,d4", 5, &row, &col, &used), TTT_OK);
    assert_int_equal(used, 2);
    assert_int_equal(ttt_parse_cell("z26x", 4, &row, &col, &used), TTT_OK);
    assert_int_equal(row, 25);
    assert_int_equal(col, 25);
    assert_int_equal(used, 3);
    assert_int_equal(ttt_parse_cell("AMJ1024", 7, &row, &col, NULL), TTT_OK);
    assert_int_equal(row, 1023);
    assert_int_equal(col, 1023);
}

static void test_parse_cell_stops_at_len(void **state)
{
    (void)state;
    int row = -1, col = -1;
    size_t used = 0;
    /* The byte after len is a digit: reading it would give row 11. */
    char *text = exact_copy("a12", 3);

    assert_int_equal(ttt_parse_cell(text, 2, &row, &col, &used), TTT_OK);
    assert_int_equal(row, 0);
    assert_int_equal(col, 0);
    assert_int_equal(used, 2);
    /* Cut inside the letters or before any digit: no name. */
    assert_int_equal(ttt_parse_cell(text, 1, &row, &col, &used), TTT_E_PARSE);
    assert_int_equal(ttt_parse_cell(text, 0, &row, &col, &used), TTT_E_PARSE);
    free(text);

    /* Exactly len bytes on the heap, so any over-read is caught. */
    text = exact_copy("ab7", 3);
    assert_int_equal(ttt_parse_cell(text, 3, &row, &col, &used), TTT_OK);
    assert_int_equal(row, 6);
    assert_int_equal(col, 27);
    assert_int_equal(used, 3);
    assert_int_equal(ttt_parse_cell(text, 2, &row, &col, &used), TTT_E_PARSE);
    free(text);
}

static void test_parse_cell_rejects(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",       "1",      "12",      "a",       "ab",    "a0",
        "a01",    "a00",    "-a1",     " a1",     "1a",    "a-1",
        "a 1",    "a1025",  "a2000",   "amk1",    "zzz1",  "aaaa1",
        "a99999", "@1",     "[1",      "`1",      "{1",
        "a1234567890123456789012345678901234567890",
        "abcdefghijklmnopqrstuvwxyzabcdefghijklmn1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int row = -7, col = -7;
        size_t used = 77;
        size_t len = strlen(bad[i]);
        char *text = exact_copy(bad[i], len);
        int status = ttt_parse_cell(text, len, &row, &col, &used);
        free(text);
        if (status != TTT_E_PARSE)
            print_error("accepted \"%s\"\n", bad[i]);
        assert_int_equal(status, TTT_E_PARSE);
        assert_int_equal(row, -7);
        assert_int_equal(col, -7);
        assert_int_equal(used, 77);
    }
}

static void test_parse_cell_invalid(void **state)
{
    (void)state;
    int row, col;
    assert_int_equal(ttt_parse_cell(NULL, 2, &row, &col, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_parse_cell("a1", 2, NULL, &col, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_parse_cell("a1", 2, &row, NULL, NULL), TTT_E_INVALID);
    assert_int_equal(ttt_parse_cell(NULL, 0, &row, &col, NULL), TTT_E_PARSE);
    assert_int_equal(ttt_parse_cell("\0a1", 3, &row, &col, NULL), TTT_E_PARSE);
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                    */
/* ------------------------------------------------------------------------ */

static void test_save_exact(void **state)
{
    (void)state;
    ttt_game *game;

    game = new_game(3, 3, 0, 0, "");
    assert_saves_as(game, "ttt/1 n=3 k=3 rules=classic moves=-\n");
    ttt_game_free(game);

    game = new_game(3, 0, 0, 0, ""); /* k = 0 is saved as the real k */
    assert_saves_as(game, "ttt/1 n=3 k=3 rules=classic moves=-\n");
    ttt_game_free(game);

    game = new_game(3, 3, 0, 0, "b2,a1,c3");
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_saves_as(game, "ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n");
    ttt_game_free(game);

    game = new_game(3, 3, 0, 0, "a1,b1,a2,b2,a3");
    assert_int_equal(ttt_state(game), TTT_X_WON);
    assert_saves_as(game,
                    "ttt/1 n=3 k=3 rules=classic moves=a1,b1,a2,b2,a3\n");
    ttt_game_free(game);

    game = new_game(3, 3, 0, 0, "a1,b1,c1,b2,a2,c2,b3,a3,c3");
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_saves_as(
        game, "ttt/1 n=3 k=3 rules=classic moves=a1,b1,c1,b2,a2,c2,b3,a3,c3\n");
    ttt_game_free(game);

    game = new_game(3, 3, 1, 0, "a1,b1,a2,b2,a3");
    assert_int_equal(ttt_state(game), TTT_O_WON);
    assert_saves_as(game, "ttt/1 n=3 k=3 rules=misere moves=a1,b1,a2,b2,a3\n");
    ttt_game_free(game);

    game = new_game(3, 3, 0, 1, "a1,b1,c1,b2,a2,c2,b3,a3");
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_saves_as(
        game, "ttt/1 n=3 k=3 rules=early-draw moves=a1,b1,c1,b2,a2,c2,b3,a3\n");
    ttt_game_free(game);

    game = new_game(4, 3, 1, 1, "d4");
    assert_saves_as(game, "ttt/1 n=4 k=3 rules=misere+early-draw moves=d4\n");
    ttt_game_free(game);

    game = new_game(1024, 5, 0, 0, "amj1024,a1,z26,aa27");
    assert_saves_as(
        game, "ttt/1 n=1024 k=5 rules=classic moves=amj1024,a1,z26,aa27\n");
    ttt_game_free(game);
}

static void test_save_skips_undone_moves(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 3, 0, 0, "b2,a1,c3");
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_redo_count(game), 2);
    assert_saves_as(game, "ttt/1 n=3 k=3 rules=classic moves=b2\n");
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_saves_as(game, "ttt/1 n=3 k=3 rules=classic moves=-\n");
    ttt_game_free(game);
}

static void test_save_buffer(void **state)
{
    (void)state;
    static const char expected[] = "ttt/1 n=3 k=3 rules=classic moves=b2,a1\n";
    size_t need = sizeof expected - 1;
    ttt_game *game = new_game(3, 3, 0, 0, "b2,a1");
    char buf[64];
    size_t len = 0;

    assert_int_equal(ttt_game_save(game, NULL, 0, &len), TTT_E_BUFFER);
    assert_int_equal(len, need);

    /* Too small by one byte (no room for the NUL): nothing written. */
    memset(buf, '#', sizeof buf);
    len = 0;
    assert_int_equal(ttt_game_save(game, buf, need, &len), TTT_E_BUFFER);
    assert_int_equal(len, need);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], '#');

    len = 0;
    assert_int_equal(ttt_game_save(game, buf, need + 1, &len), TTT_OK);
    assert_int_equal(len, need);
    assert_string_equal(buf, expected);
    assert_int_equal(buf[need + 1], '#');

    assert_int_equal(ttt_game_save(NULL, buf, sizeof buf, &len),
                     TTT_E_INVALID);
    assert_int_equal(ttt_game_save(game, buf, sizeof buf, NULL),
                     TTT_E_INVALID);
    assert_int_equal(ttt_game_save(game, NULL, 8, &len), TTT_E_INVALID);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

static void test_load_exact(void **state)
{
    (void)state;
    ttt_game *game = NULL;
    size_t at = 777;
    int mark = 0, row = -1, col = -1;

    assert_int_equal(load_text("ttt/1 n=3 k=3 rules=misere moves=b2,a1,c3\n",
                               &game, &at),
                     TTT_OK);
    assert_int_equal(at, 777); /* untouched on success */
    assert_int_equal(ttt_size(game), 3);
    assert_int_equal(ttt_win_length(game), 3);
    assert_int_equal(ttt_ply(game), 3);
    assert_int_equal(ttt_to_move(game), TTT_O);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_move_at(game, 1, &mark, &row, &col), TTT_OK);
    assert_int_equal(mark, TTT_O);
    assert_int_equal(row, 0);
    assert_int_equal(col, 0);
    assert_int_equal(ttt_cell(game, 2, 2, &mark), TTT_OK);
    assert_int_equal(mark, TTT_X);
    int value = -1;
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_MISERE, &value), TTT_OK);
    assert_int_equal(value, 1);
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_EARLY_DRAW, &value),
                     TTT_OK);
    assert_int_equal(value, 0);
    ttt_game_free(game);

    /* error_offset may be NULL. */
    game = NULL;
    assert_int_equal(load_text("ttt/1 n=5 k=4 rules=early-draw moves=-\n",
                               &game, NULL),
                     TTT_OK);
    assert_int_equal(ttt_win_length(game), 4);
    assert_int_equal(ttt_ply(game), 0);
    ttt_game_free(game);
}

static void test_load_round_trip(void **state)
{
    (void)state;
    static const struct {
        int size, k, misere, early_draw;
        const char *names;
    } games[] = {
        {3, 3, 0, 0, ""},
        {3, 3, 0, 0, "b2,a1,c3"},
        {3, 3, 0, 0, "a1,b1,a2,b2,a3"},
        {3, 3, 0, 0, "a1,b1,c1,b2,a2,c2,b3,a3,c3"},
        {3, 3, 1, 0, "a1,b1,a2,b2,a3"},
        {3, 3, 0, 1, "a1,b1,c1,b2,a2,c2,b3,a3"},
        {3, 3, 1, 1, "b2"},
        {7, 4, 0, 0, "d4,a1,e5,g7,f6,b1,c3"},
        {30, 5, 1, 0, "ad30,z26,aa27,a1,b2"},
        {1024, 1024, 0, 1, "amj1024,a1,a1024,amj1"},
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        ttt_game *game = new_game(games[i].size, games[i].k, games[i].misere,
                                  games[i].early_draw, games[i].names);
        assert_round_trip(game);
        ttt_game_free(game);
    }
}

/* Canonical records load and save back byte for byte: those 1.2 wrote
 * (n=N, its rules words) and, since 1.3, rectangles (w=W h=H) and every
 * rules combination with gravity. Each is checked against what it must
 * mean, so a loader that read w and h the wrong way round would fail. */
static void test_load_save_exact_1_3(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int width, height, k, misere, early_draw, gravity, ply, state;
    } records[] = {
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n", 3, 3, 3, 0, 0, 0, 3,
         TTT_IN_PROGRESS},
        {"ttt/1 n=4 k=3 rules=misere+early-draw limit=9 moves=a1 x=\"A\"\n", 4,
         4, 3, 1, 1, 0, 1, TTT_IN_PROGRESS},
        {"ttt/1 w=7 h=6 k=4 rules=gravity moves=d6,d5,e6,e5,f6,f5,g6\n", 7, 6,
         4, 0, 0, 1, 7, TTT_X_WON},
        {"ttt/1 w=5 h=3 k=3 rules=classic moves=a1,e3\n", 5, 3, 3, 0, 0, 0, 2,
         TTT_IN_PROGRESS},
        {"ttt/1 w=3 h=5 k=5 rules=misere moves=-\n", 3, 5, 5, 1, 0, 0, 0,
         TTT_IN_PROGRESS},
        {"ttt/1 n=4 k=4 rules=gravity moves=a4,b4,a3 end=resign-o\n", 4, 4, 4, 0,
         0, 1, 3, TTT_X_WON},
        {"ttt/1 w=4 h=3 k=3 rules=misere+gravity moves=a3\n", 4, 3, 3, 1, 0, 1,
         1, TTT_IN_PROGRESS},
        {"ttt/1 w=4 h=3 k=3 rules=early-draw+gravity limit=5 moves=a3\n", 4, 3,
         3, 0, 1, 1, 1, TTT_IN_PROGRESS},
        {"ttt/1 w=1024 h=3 k=3 rules=misere+early-draw+gravity moves=amj3\n",
         1024, 3, 3, 1, 1, 1, 1, TTT_IN_PROGRESS},
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        ttt_game *game = NULL;
        assert_int_equal(load_text(records[i].text, &game, NULL), TTT_OK);
        int value = -1;
        assert_int_equal(ttt_width(game), records[i].width);
        assert_int_equal(ttt_height(game), records[i].height);
        assert_int_equal(ttt_size(game), records[i].width == records[i].height
                                             ? records[i].width
                                             : TTT_E_SIZE);
        assert_int_equal(ttt_win_length(game), records[i].k);
        assert_int_equal(ttt_game_get_rule(game, TTT_RULE_MISERE, &value), TTT_OK);
        assert_int_equal(value, records[i].misere);
        assert_int_equal(ttt_game_get_rule(game, TTT_RULE_EARLY_DRAW, &value), TTT_OK);
        assert_int_equal(value, records[i].early_draw);
        assert_int_equal(ttt_game_get_rule(game, TTT_RULE_GRAVITY, &value), TTT_OK);
        assert_int_equal(value, records[i].gravity);
        assert_int_equal(ttt_ply(game), records[i].ply);
        assert_int_equal(ttt_state(game), records[i].state);
        char saved[256];
        size_t len = 0;
        assert_int_equal(ttt_game_save(game, saved, sizeof saved, &len), TTT_OK);
        assert_int_equal(len, strlen(records[i].text));
        assert_string_equal(saved, records[i].text);
        ttt_game_free(game);
    }
}

static void test_load_drops_redo_stack(void **state)
{
    (void)state;
    ttt_game *game = new_game(4, 3, 0, 0, "a1,b2,c3,d4,a2");
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_redo_count(game), 2);
    assert_round_trip(game); /* checks ttt_redo_count(loaded) == 0 */
    ttt_game_free(game);
}

/* A record far larger than any buffer a caller would guess: 1023 full rows of
 * a 1024 board (no complete line, so the game is still on). */
static void test_load_huge_record(void **state)
{
    (void)state;
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(1024, 0, &game), TTT_OK);
    for (int row = 0; row < 1023; row++)
        for (int col = 0; col < 1024; col++)
            assert_int_equal(ttt_play(game, ttt_to_move(game), row, col, NULL),
                             TTT_OK);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    size_t len;
    char *record = save(game, &len);
    assert_true(len > 5000000);
    free(record);
    assert_round_trip(game);
    ttt_game_free(game);
}

static void test_load_rejects_malformed(void **state)
{
    (void)state;
    /* Offsets: "ttt/1 n=" is 8 bytes, so n starts at 8, k at 12, the rules
     * value at 20, and the moves value at 34 when the rules are classic. */
    static const struct {
        const char *text;
        int code;
        size_t offset;
    } cases[] = {
        /* magic and version */
        {"", TTT_E_PARSE, 0},
        {"\n", TTT_E_PARSE, 0},
        {"xyz", TTT_E_PARSE, 0},
        {"TTT/1 n=3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 0},
        {"ttt/2 n=3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 4},
        {"ttt/10 n=3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 5},
        {"ttt/ n=3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 4},
        /* spaces */
        {" ttt/1 n=3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 0},
        {"ttt/1  n=3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 6},
        {"ttt/1 n= 3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 8},
        {"ttt/1 n=3  k=3 rules=classic moves=-\n", TTT_E_PARSE, 10},
        {"ttt/1 n=3 k=3 rules=classic  moves=-\n", TTT_E_PARSE, 28},
        {"ttt/1 n=3 k=3 rules=classic moves= -\n", TTT_E_PARSE, 34},
        /* Since 1.2 a space after the moves may start a name or ending
         * field, so the LF is the first bad byte. */
        {"ttt/1 n=3 k=3 rules=classic moves=- \n", TTT_E_PARSE, 36},
        {"ttt/1 n=3 k=3 rules=classic moves=b2, a1\n", TTT_E_PARSE, 37},
        {"ttt/1 n=3\tk=3 rules=classic moves=-\n", TTT_E_PARSE, 9},
        /* missing or reordered fields */
        {"ttt/1 n=3 rules=classic moves=-\n", TTT_E_PARSE, 10},
        {"ttt/1 k=3 n=3 rules=classic moves=-\n", TTT_E_PARSE, 6},
        {"ttt/1 n=3 k=3 moves=-\n", TTT_E_PARSE, 14},
        {"ttt/1 n=3 k=3 rules=classic\n", TTT_E_PARSE, 27},
        {"ttt/1 n=3 k=3 rules=classic moves=\n", TTT_E_PARSE, 34},
        {"ttt/1 n=3 k=3 moves=- rules=classic\n", TTT_E_PARSE, 14},
        {"ttt/1 n=3 k=3 rules=classic moves=-\n", TTT_OK, 0},
        /* numbers */
        {"ttt/1 n=03 k=3 rules=classic moves=-\n", TTT_E_PARSE, 9},
        {"ttt/1 n=003 k=3 rules=classic moves=-\n", TTT_E_PARSE, 9},
        {"ttt/1 n=3 k=03 rules=classic moves=-\n", TTT_E_PARSE, 13},
        {"ttt/1 n=+3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 8},
        {"ttt/1 n=-3 k=3 rules=classic moves=-\n", TTT_E_PARSE, 8},
        {"ttt/1 n=x k=3 rules=classic moves=-\n", TTT_E_PARSE, 8},
        {"ttt/1 n=3x k=3 rules=classic moves=-\n", TTT_E_PARSE, 9},
        {"ttt/1 n=0 k=3 rules=classic moves=-\n", TTT_E_SIZE, 8},
        {"ttt/1 n=2 k=2 rules=classic moves=-\n", TTT_E_SIZE, 8},
        {"ttt/1 n=1025 k=3 rules=classic moves=-\n", TTT_E_SIZE, 8},
        {"ttt/1 n=4294967299 k=3 rules=classic moves=-\n", TTT_E_SIZE, 8},
        {"ttt/1 n=9999999999999999999999999999999999999999 k=3 "
         "rules=classic moves=-\n",
         TTT_E_SIZE, 8},
        {"ttt/1 n=3 k=4 rules=classic moves=-\n", TTT_E_SIZE, 12},
        {"ttt/1 n=3 k=2 rules=classic moves=-\n", TTT_E_SIZE, 12},
        {"ttt/1 n=3 k=0 rules=classic moves=-\n", TTT_E_SIZE, 12},
        {"ttt/1 n=3 k=1234567890123456789012345678901234567890 "
         "rules=classic moves=-\n",
         TTT_E_SIZE, 12},
        /* rules */
        {"ttt/1 n=3 k=3 rules= moves=-\n", TTT_E_PARSE, 20},
        {"ttt/1 n=3 k=3 rules=Classic moves=-\n", TTT_E_PARSE, 20},
        {"ttt/1 n=3 k=3 rules=classical moves=-\n", TTT_E_PARSE, 27},
        {"ttt/1 n=3 k=3 rules=mis\xc3\xa8" "re moves=-\n", TTT_E_PARSE, 23},
        {"ttt/1 n=3 k=3 rules=classic+misere moves=-\n", TTT_E_PARSE, 27},
        {"ttt/1 n=3 k=3 rules=misere+misere moves=-\n", TTT_E_PARSE, 27},
        /* Since 1.3 "early-draw+" and "misere+early-draw+" can go on
         * (to "+gravity"): the first bad byte is the 'm' after the '+'. */
        {"ttt/1 n=3 k=3 rules=early-draw+misere moves=-\n", TTT_E_PARSE, 31},
        {"ttt/1 n=3 k=3 rules=misere+early-draw+misere moves=-\n",
         TTT_E_PARSE, 38},
        {"ttt/1 n=3 k=3 rules=gravity+misere moves=-\n", TTT_E_PARSE, 27},
        {"ttt/1 n=3 k=3 rules=gravity+early-draw moves=-\n", TTT_E_PARSE, 27},
        {"ttt/1 n=3 k=3 rules=early-draw+gravit moves=-\n", TTT_E_PARSE, 37},
        {"ttt/1 n=3 k=3 rules=misere+gravity+early-draw moves=-\n",
         TTT_E_PARSE, 34},
        /* rectangles (since 1.3): w=W h=H in place of n=N */
        {"ttt/1 w=7 k=4 rules=gravity moves=-\n", TTT_E_PARSE, 10},
        {"ttt/1 w=7 h=7 k=4 rules=classic moves=-\n", TTT_E_PARSE, 12},
        {"ttt/1 w=7 h=2 k=4 rules=classic moves=-\n", TTT_E_SIZE, 12},
        {"ttt/1 w=1025 h=6 k=4 rules=classic moves=-\n", TTT_E_SIZE, 8},
        {"ttt/1 w=7 h=1025 k=4 rules=classic moves=-\n", TTT_E_SIZE, 12},
        {"ttt/1 w=7 h=6 k=8 rules=classic moves=-\n", TTT_E_SIZE, 16},
        {"ttt/1 w=7 h=6 k=0 rules=classic moves=-\n", TTT_E_SIZE, 16},
        {"ttt/1 w=07 h=6 k=4 rules=classic moves=-\n", TTT_E_PARSE, 9},
        {"ttt/1 h=6 w=7 k=4 rules=classic moves=-\n", TTT_E_PARSE, 6},
        {"ttt/1 n=7 h=6 k=4 rules=classic moves=-\n", TTT_E_PARSE, 10},
        {"ttt/1 w=7 h=6 k=4 rules=classic limit=42 moves=-\n", TTT_E_RULE, 38},
        {"ttt/1 w=7 h=6 k=4 rules=gravity moves=a1\n", TTT_E_FLOATING, 38},
        {"ttt/1 w=7 h=6 k=4 rules=gravity moves=a6,a6\n", TTT_E_OCCUPIED, 41},
        {"ttt/1 w=7 h=6 k=4 rules=gravity moves=h6\n", TTT_E_OFF_BOARD, 38},
        {"ttt/1 w=7 h=6 k=4 rules=classic moves=a7\n", TTT_E_OFF_BOARD, 38},
        {"ttt/1 w=3 h=5 k=4 rules=classic moves=d1\n", TTT_E_OFF_BOARD, 38},
        {"ttt/1 n=3 k=3 rules=misere,early-draw moves=-\n", TTT_E_PARSE, 26},
        {"ttt/1 n=3 k=3 rules=misere+ moves=-\n", TTT_E_PARSE, 27},
        /* moves */
        {"ttt/1 n=3 k=3 rules=classic moves=B2\n", TTT_E_PARSE, 34},
        {"ttt/1 n=3 k=3 rules=classic moves=b02\n", TTT_E_PARSE, 35},
        {"ttt/1 n=3 k=3 rules=classic moves=b0\n", TTT_E_PARSE, 35},
        {"ttt/1 n=3 k=3 rules=classic moves=b\n", TTT_E_PARSE, 35},
        {"ttt/1 n=3 k=3 rules=classic moves=2\n", TTT_E_PARSE, 34},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,\n", TTT_E_PARSE, 37},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,,a1\n", TTT_E_PARSE, 37},
        {"ttt/1 n=3 k=3 rules=classic moves=,b2\n", TTT_E_PARSE, 34},
        {"ttt/1 n=3 k=3 rules=classic moves=b2;a1\n", TTT_E_PARSE, 36},
        {"ttt/1 n=3 k=3 rules=classic moves=--\n", TTT_E_PARSE, 35},
        {"ttt/1 n=3 k=3 rules=classic moves=-,a1\n", TTT_E_PARSE, 35},
        {"ttt/1 n=3 k=3 rules=classic moves=a1,-\n", TTT_E_PARSE, 37},
        {"ttt/1 n=3 k=3 rules=classic moves=a1025\n", TTT_E_PARSE, 38},
        {"ttt/1 n=3 k=3 rules=classic moves=amk1\n", TTT_E_PARSE, 36},
        {"ttt/1 n=3 k=3 rules=classic moves=a99999999999999999999999\n",
         TTT_E_PARSE, 38},
        /* the end of the record: its line end (LF or CR LF, or none) and
         * blank lines may follow it, nothing else (test_load_line_ends) */
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\nx", TTT_E_PARSE, 43},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\r\nx\r\n", TTT_E_PARSE, 44},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n\n\r\nx\n\n", TTT_E_PARSE, 46},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\r", TTT_E_PARSE, 42},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\r\r\n", TTT_E_PARSE, 42},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n \n", TTT_E_PARSE, 43},
        {"ttt/1 n=3 k=3 rules=classic moves=b2 end=resign-o\nx", TTT_E_PARSE, 50},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3 \n", TTT_E_PARSE, 43}, /* see above */
        /* illegal moves: the move's own code at the start of its name */
        {"ttt/1 n=3 k=3 rules=classic moves=b2,b2\n", TTT_E_OCCUPIED, 37},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,b2\n", TTT_E_OCCUPIED, 40},
        {"ttt/1 n=3 k=3 rules=classic moves=d1\n", TTT_E_OFF_BOARD, 34},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a4\n", TTT_E_OFF_BOARD, 37},
        {"ttt/1 n=3 k=3 rules=classic moves=amj1024\n", TTT_E_OFF_BOARD, 34},
        {"ttt/1 n=3 k=3 rules=classic moves=a1,b1,a2,b2,a3,c3\n",
         TTT_E_GAME_OVER, 49},
        {"ttt/1 n=3 k=3 rules=classic moves=a1,b1,a2,b2,a3,d4\n",
         TTT_E_GAME_OVER, 49},
        {"ttt/1 n=3 k=3 rules=misere moves=a1,b1,a2,b2,a3,c3\n",
         TTT_E_GAME_OVER, 48},
        {"ttt/1 n=3 k=3 rules=early-draw moves=a1,b1,c1,b2,a2,c2,b3,a3,c3\n",
         TTT_E_GAME_OVER, 61},
        {"ttt/1 n=3 k=3 rules=classic moves=a1,b1,c1,b2,a2,c2,b3,a3,c3,c3\n",
         TTT_E_GAME_OVER, 61},
        /* the first problem wins: an illegal move before bad syntax */
        {"ttt/1 n=3 k=3 rules=classic moves=b2,b2,x\n", TTT_E_OCCUPIED, 37},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *text = cases[i].text;
        if (cases[i].code == TTT_OK) {
            ttt_game *game = NULL;
            assert_int_equal(load_text(text, &game, NULL), TTT_OK);
            ttt_game_free(game);
            continue;
        }
        assert_load_fails(text, strlen(text), cases[i].code, cases[i].offset);
        /* Every refusal says what was wanted there. */
        char *copy = exact_copy(text, strlen(text));
        const char *want = ttt_game_load_expected(copy, strlen(text));
        free(copy);
        assert_non_null(want);
        if (want[0] == '\0')
            print_error("record \"%s\": no expected text\n", text);
        assert_true(want[0] != '\0');
    }
}

/* A record as an editor or a mail leaves it loads as the record itself:
 * no final newline, CR LF line ends, blank lines after it (LF or CR LF);
 * it saves back in the canonical form. */
static void test_load_line_ends(void **state)
{
    (void)state;
    static const char *const records[] = {
        "ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3",
        "ttt/1 n=3 k=3 rules=classic moves=-",
        "ttt/1 n=10 k=10 rules=misere+early-draw moves=b1,b10,j10,a1",
        "ttt/1 w=7 h=6 k=4 rules=gravity moves=d6,d5,c6",
        /* One record, in two literals. */
        ("ttt/1 n=3 k=3 rules=classic limit=6 moves=b2,a1 x=\"Ana\" "
         "o=\"B\\\"ob\" end=resign-x"),
        "ttt/1 n=3 k=3 rules=classic moves=b2 o=\"Bob\"",
    };
    static const char *const ends[] = {
        "", "\r\n", "\n\n", "\r\n\r\n", "\n\r\n\n", "\r\n\n\n\n",
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        for (size_t j = 0; j < sizeof ends / sizeof ends[0]; j++) {
            char text[256], canonical[256];
            snprintf(text, sizeof text, "%s%s", records[i], ends[j]);
            snprintf(canonical, sizeof canonical, "%s\n", records[i]);
            ttt_game *game = NULL;
            size_t at = 9999;
            int status = load_text(text, &game, &at);
            if (status != TTT_OK)
                print_error("record \"%s\": %d at %zu\n", text, status, at);
            assert_int_equal(status, TTT_OK);
            assert_saves_as(game, canonical);
            char *copy = exact_copy(text, strlen(text));
            assert_string_equal(ttt_game_load_expected(copy, strlen(text)), "");
            free(copy);
            ttt_game_free(game);
        }
    }
}

/* ttt_game_load_expected names what the record needed at the offset. */
static void test_load_expected(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *want;
    } cases[] = {
        {"ttt/1 n=3 rules=classic moves=-\n", "\" k=\""},
        {"ttt/2 n=3 k=3 rules=classic moves=-\n",
         "\"ttt/1 n=\" or \"ttt/1 w=\""},
        {"ttt/1 n=03 k=3 rules=classic moves=-\n",
         "a decimal number without leading zeros"},
        {"ttt/1 n=2 k=3 rules=classic moves=-\n", "a side from 3 to 1024"},
        {"ttt/1 n=3 k=4 rules=classic moves=-\n", "a k from 3 to the longer side"},
        {"ttt/1 n=3 k=3 rules=gravity+misere moves=-\n",
         "the rules (classic, or misere, early-draw and gravity joined by + "
         "in that order), then a space"},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,\n",
         "a cell name: column letters a-z, then a row from 1 (b2)"},
        {"ttt/1 n=3 k=3 rules=classic moves=B2\n",
         "a cell name: column letters a-z, then a row from 1 (b2), or - for "
         "no moves"},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,b2\n",
         "a move that is legal after the moves before it"},
        {"ttt/1 n=3 k=3 rules=classic moves=b2;a1\n",
         "\",\" and a cell name, \" x=\", \" o=\", \" end=\" or the end of the "
         "line"},
        {"ttt/1 n=3 k=3 rules=classic moves=- x=\"A\" x=\"B\"\n",
         "\" o=\", \" end=\" or the end of the line"},
        {"ttt/1 n=3 k=3 rules=classic moves=- x=\"A\n",
         "a double quote closing the name"},
        {"ttt/1 n=3 k=3 rules=classic moves=- end=resign-z\n",
         "resign-x, resign-o or draw-agreed"},
        {"ttt/1 n=3 k=3 rules=classic moves=- end=resign-x x\n",
         "the end of the line"},
        {"ttt/1 n=3 k=3 rules=classic moves=-\nmore\n",
         "nothing but blank lines after the record's line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = strlen(cases[i].text);
        char *copy = exact_copy(cases[i].text, len);
        const char *want = ttt_game_load_expected(copy, len);
        free(copy);
        if (strcmp(want, cases[i].want) != 0)
            print_error("record \"%s\": expected \"%s\", want \"%s\"\n",
                        cases[i].text, want, cases[i].want);
        assert_string_equal(want, cases[i].want);
    }
    assert_string_equal(ttt_game_load_expected(NULL, 3), "");
    assert_string_equal(ttt_game_load_expected(NULL, 0),
                        "\"ttt/1 n=\" or \"ttt/1 w=\"");
}

static void test_load_rejects_embedded_nul(void **state)
{
    (void)state;
    static const char header_nul[] = "ttt/1 n=3\0k=3 rules=classic moves=-\n";
    static const char move_nul[] = "ttt/1 n=3 k=3 rules=classic moves=b2\0\n";
    static const char after_nul[] = "ttt/1 n=3 k=3 rules=classic moves=-\n\0";
    assert_load_fails(header_nul, sizeof header_nul - 1, TTT_E_PARSE, 9);
    assert_load_fails(move_nul, sizeof move_nul - 1, TTT_E_PARSE, 36);
    assert_load_fails(after_nul, sizeof after_nul - 1, TTT_E_PARSE, 36);
}

/* Every proper prefix of a valid record is either a record itself (cut
 * after a move, a name or an ending: it loads and saves back as that
 * prefix and a newline) or a truncated one: a parse error at its end, or
 * (cut inside a move name, "b1" of "b10") that move's own error at its
 * name; never a read past it. */
static void test_load_rejects_every_prefix(void **state)
{
    (void)state;
    static const char *const records[] = {
        "ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n",
        "ttt/1 n=10 k=10 rules=misere+early-draw moves=b1,b10,j10,a1\n",
        "ttt/1 n=12 k=5 rules=early-draw moves=-\n",
        "ttt/1 n=1024 k=3 rules=misere moves=aa1,amj1024,a1000\n",
        "ttt/1 w=7 h=6 k=4 rules=gravity moves=d6,d5,c6\n",
        "ttt/1 w=3 h=10 k=3 rules=misere+early-draw+gravity moves=b10,b9\n",
        "ttt/1 w=12 h=3 k=5 rules=early-draw moves=l3,a1\n",
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        size_t len = strlen(records[i]);
        ttt_game *game = NULL;
        assert_int_equal(load_text(records[i], &game, NULL), TTT_OK);
        ttt_game_free(game);
        for (size_t cut = 0; cut < len; cut++) {
            ttt_game *prefix = NULL;
            size_t at = 9999;
            int status = load_bytes(records[i], cut, &prefix, &at);
            if (status == TTT_OK) {
                char canonical[128];
                snprintf(canonical, sizeof canonical, "%.*s\n", (int)cut,
                         records[i]);
                assert_saves_as(prefix, canonical);
                ttt_game_free(prefix);
            } else if (status != TTT_E_PARSE) {
                /* A move cut short is another (here illegal) move. */
                assert_true(status == TTT_E_OCCUPIED ||
                            status == TTT_E_OFF_BOARD ||
                            status == TTT_E_FLOATING);
                assert_true(at < cut);
                assert_true(records[i][at - 1] == ',' || records[i][at - 1] == '=');
            } else {
                assert_int_equal(at, cut);
            }
        }
    }
}

static void test_load_invalid_arguments(void **state)
{
    (void)state;
    ttt_game *game = NULL;
    size_t at = 99;

    assert_int_equal(ttt_game_load(NULL, 5, NULL, &game, &at), TTT_E_INVALID);
    assert_null(game);
    assert_int_equal(ttt_game_load("ttt/1", 5, NULL, NULL, &at),
                     TTT_E_INVALID);
    /* NULL with length 0 is empty text: malformed, not a bad pointer. */
    at = 99;
    assert_int_equal(ttt_game_load(NULL, 0, NULL, &game, &at), TTT_E_PARSE);
    assert_int_equal(at, 0);
    assert_null(game);
}

/* ------------------------------------------------------------------------ */
/* Allocation                                                                */
/* ------------------------------------------------------------------------ */

typedef struct counting {
    int allocs, frees, fail;
} counting;

static void *counting_alloc(void *user, size_t size)
{
    counting *c = user;
    if (c->fail)
        return NULL;
    c->allocs++;
    return malloc(size);
}

static void counting_free(void *user, void *ptr)
{
    counting *c = user;
    if (ptr != NULL)
        c->frees++;
    free(ptr);
}

static void test_load_uses_allocator(void **state)
{
    (void)state;
    counting counts = {0, 0, 0};
    ttt_allocator alloc = {counting_alloc, counting_free, &counts};
    static const char good[] = "ttt/1 n=5 k=4 rules=classic moves=c3,a1\n";
    static const char occupied[] = "ttt/1 n=5 k=4 rules=classic moves=c3,c3\n";
    static const char garbled[] = "ttt/1 n=5 k=4 rules=classy moves=-\n";
    ttt_game *game = NULL;
    size_t at = 0;

    assert_int_equal(ttt_game_load(good, sizeof good - 1, &alloc, &game, &at),
                     TTT_OK);
    assert_int_equal(counts.allocs, 1);
    assert_int_equal(counts.frees, 0);
    assert_int_equal(ttt_ply(game), 2);
    ttt_game_free(game);
    assert_int_equal(counts.frees, 1);

    /* A failed replay frees the partial game through the same allocator. */
    game = NULL;
    assert_int_equal(
        ttt_game_load(occupied, sizeof occupied - 1, &alloc, &game, &at),
        TTT_E_OCCUPIED);
    assert_null(game);
    assert_int_equal(counts.allocs, 2);
    assert_int_equal(counts.frees, 2);

    /* Malformed headers fail before anything is allocated. */
    assert_int_equal(
        ttt_game_load(garbled, sizeof garbled - 1, &alloc, &game, &at),
        TTT_E_PARSE);
    assert_int_equal(at, 25);
    assert_int_equal(counts.allocs, 2);

    counts.fail = 1;
    at = 0;
    assert_int_equal(ttt_game_load(good, sizeof good - 1, &alloc, &game, &at),
                     TTT_E_NOMEM);
    assert_null(game);
    assert_int_equal(at, 34); /* where parsing stood: the moves */
    assert_int_equal(counts.allocs, 2);
    assert_int_equal(counts.frees, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cell_name_examples),
        cmocka_unit_test(test_cell_name_round_trip),
        cmocka_unit_test(test_cell_name_errors),
        cmocka_unit_test(test_cell_name_buffer),
        cmocka_unit_test(test_parse_cell_accepts),
        cmocka_unit_test(test_parse_cell_stops_at_len),
        cmocka_unit_test(test_parse_cell_rejects),
        cmocka_unit_test(test_parse_cell_invalid),
        cmocka_unit_test(test_save_exact),
        cmocka_unit_test(test_save_skips_undone_moves),
        cmocka_unit_test(test_save_buffer),
        cmocka_unit_test(test_load_exact),
        cmocka_unit_test(test_load_round_trip),
        cmocka_unit_test(test_load_save_exact_1_3),
        cmocka_unit_test(test_load_drops_redo_stack),
        cmocka_unit_test(test_load_huge_record),
        cmocka_unit_test(test_load_rejects_malformed),
        cmocka_unit_test(test_load_rejects_embedded_nul),
        cmocka_unit_test(test_load_rejects_every_prefix),
        cmocka_unit_test(test_load_line_ends),
        cmocka_unit_test(test_load_expected),
        cmocka_unit_test(test_load_invalid_arguments),
        cmocka_unit_test(test_load_uses_allocator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
