/* test_match.c - player names, resignation, agreed draws, the ply limit, ttt_ending and their records. */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ttt.h"

/* ------------------------------------------------------------------------ */
/* Utilities                                                                 */
/* ------------------------------------------------------------------------ */

static ttt_game *new_game(int size, int k)
{
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new(size, k, &game), TTT_OK);
    return game;
}

/* Plays "row,col" pairs for the side to move. */
static void play_cells(ttt_game *game, const int *cells, size_t count)
{
    for (size_t i = 0; i + 1 < count; i += 2)
        assert_int_equal(ttt_play_next(game, cells[i], cells[i + 1], NULL),
                         TTT_OK);
}

static void assert_name(const ttt_game *game, int mark, const char *expected)
{
    char buf[TTT_NAME_MAX + 1];
    size_t len = 12345;
    assert_int_equal(ttt_game_get_name(game, mark, buf, sizeof buf, &len),
                     TTT_OK);
    assert_int_equal(len, strlen(expected));
    assert_string_equal(buf, expected);
}

static void set_name(ttt_game *game, int mark, const char *name)
{
    assert_int_equal(ttt_game_set_name(game, mark, name, strlen(name)),
                     TTT_OK);
}

/* The game's record as a heap string. */
static char *save(const ttt_game *game)
{
    size_t len = 0;
    assert_int_equal(ttt_game_save(game, NULL, 0, &len), TTT_E_BUFFER);
    char *text = malloc(len + 1);
    assert_non_null(text);
    assert_int_equal(ttt_game_save(game, text, len + 1, &len), TTT_OK);
    assert_int_equal(strlen(text), len);
    return text;
}

/* Loads exactly len bytes from a heap copy without a terminator, so
 * AddressSanitizer catches a read past len. */
static int load_bytes(const char *text, size_t len, ttt_game **out,
                      size_t *offset)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    int status = ttt_game_load(copy, len, NULL, out, offset);
    free(copy);
    return status;
}

/* Loads text, checks it saves back byte for byte, returns the game. */
static ttt_game *load_round_trip(const char *text)
{
    ttt_game *game = NULL;
    size_t offset = 0;
    int status = load_bytes(text, strlen(text), &game, &offset);
    if (status != TTT_OK)
        print_error("%s: status %d at %zu\n", text, status, offset);
    assert_int_equal(status, TTT_OK);
    char *again = save(game);
    assert_string_equal(again, text);
    free(again);
    return game;
}

/* An allocator that counts live blocks and can be told to fail. */
typedef struct counting {
    int live;
    int calls;
    int fail_from; /* calls from this one on fail; -1 never */
} counting;

static void *counting_alloc(void *user, size_t size)
{
    counting *c = user;
    if (c->fail_from >= 0 && c->calls >= c->fail_from) {
        c->calls++;
        return NULL;
    }
    c->calls++;
    void *mem = malloc(size);
    if (mem)
        c->live++;
    return mem;
}

static void counting_free(void *user, void *ptr)
{
    counting *c = user;
    if (ptr)
        c->live--;
    free(ptr);
}

/* ------------------------------------------------------------------------ */
/* Names                                                                     */
/* ------------------------------------------------------------------------ */

static void test_names_set_and_get(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    assert_name(game, TTT_X, "");
    assert_name(game, TTT_O, "");

    set_name(game, TTT_X, "Ana");
    set_name(game, TTT_O, "Bob");
    assert_name(game, TTT_X, "Ana");
    assert_name(game, TTT_O, "Bob");

    /* The game keeps its own copy. */
    char scratch[8] = "Carla";
    assert_int_equal(ttt_game_set_name(game, TTT_X, scratch, 5), TTT_OK);
    memset(scratch, 'z', sizeof scratch);
    assert_name(game, TTT_X, "Carla");

    /* len counts the bytes: no terminator needed, none taken. */
    assert_int_equal(ttt_game_set_name(game, TTT_O, "Bobby", 3), TTT_OK);
    assert_name(game, TTT_O, "Bob");

    /* Buffer too small: the needed length, nothing written. */
    char small[4] = "xyz";
    size_t len = 0;
    assert_int_equal(ttt_game_get_name(game, TTT_X, small, 5, &len),
                     TTT_E_BUFFER);
    assert_int_equal(len, 5);
    assert_memory_equal(small, "xyz", 4);
    assert_int_equal(ttt_game_get_name(game, TTT_X, NULL, 0, &len),
                     TTT_E_BUFFER);
    assert_int_equal(len, 5);
    char exact[6];
    assert_int_equal(ttt_game_get_name(game, TTT_X, exact, 6, &len), TTT_OK);
    assert_string_equal(exact, "Carla");

    /* Removing: len 0, with or without a pointer. */
    assert_int_equal(ttt_game_set_name(game, TTT_X, NULL, 0), TTT_OK);
    assert_name(game, TTT_X, "");
    assert_int_equal(ttt_game_set_name(game, TTT_O, "ignored", 0), TTT_OK);
    assert_name(game, TTT_O, "");
    ttt_game_free(game);
}

static void test_names_invalid_arguments(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    set_name(game, TTT_X, "Ana");
    char buf[8];
    size_t len = 77;
    assert_int_equal(ttt_game_set_name(NULL, TTT_X, "a", 1), TTT_E_INVALID);
    assert_int_equal(ttt_game_set_name(game, TTT_X, NULL, 1), TTT_E_INVALID);
    assert_int_equal(ttt_game_set_name(game, TTT_EMPTY, "a", 1), TTT_E_MARK);
    assert_int_equal(ttt_game_set_name(game, 2, "a", 1), TTT_E_MARK);
    assert_int_equal(ttt_game_get_name(NULL, TTT_X, buf, sizeof buf, &len),
                     TTT_E_INVALID);
    assert_int_equal(ttt_game_get_name(game, TTT_X, buf, sizeof buf, NULL),
                     TTT_E_INVALID);
    assert_int_equal(ttt_game_get_name(game, TTT_X, NULL, 4, &len),
                     TTT_E_INVALID);
    assert_int_equal(ttt_game_get_name(game, 0, buf, sizeof buf, &len),
                     TTT_E_MARK);
    assert_int_equal(len, 77);
    assert_name(game, TTT_X, "Ana");
    assert_string_equal(ttt_strerror(TTT_E_NAME),
                        "invalid player name (too long, not UTF-8, or control characters)");
    ttt_game_free(game);
}

static void test_names_length_limit(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    char name[TTT_NAME_MAX + 8];
    memset(name, 'a', sizeof name);

    assert_int_equal(ttt_game_set_name(game, TTT_X, name, TTT_NAME_MAX),
                     TTT_OK);
    char buf[TTT_NAME_MAX + 1];
    size_t len = 0;
    assert_int_equal(ttt_game_get_name(game, TTT_X, buf, sizeof buf, &len),
                     TTT_OK);
    assert_int_equal(len, TTT_NAME_MAX);

    set_name(game, TTT_O, "Bob");
    assert_int_equal(ttt_game_set_name(game, TTT_O, name, TTT_NAME_MAX + 1),
                     TTT_E_NAME);
    assert_name(game, TTT_O, "Bob");

    /* A two-byte character ending at byte 64 fits; at byte 65 it does not. */
    memcpy(name + TTT_NAME_MAX - 2, "\xc3\xa9", 2);
    assert_int_equal(ttt_game_set_name(game, TTT_O, name, TTT_NAME_MAX),
                     TTT_OK);
    memset(name, 'a', sizeof name);
    memcpy(name + TTT_NAME_MAX - 1, "\xc3\xa9", 2);
    assert_int_equal(ttt_game_set_name(game, TTT_O, name, TTT_NAME_MAX + 1),
                     TTT_E_NAME);
    ttt_game_free(game);
}

static void test_names_bad_bytes(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t len;
    } bad[] = {
        {"a\0b", 3},              /* NUL */
        {"a\tb", 3},              /* C0 control */
        {"\n", 1},
        {"a\x1f", 2},
        {"\x7f", 1},              /* DEL */
        {"\xc2\x80", 2},          /* U+0080, a C1 control */
        {"\xc2\x9f", 2},          /* U+009F */
        {"\x80", 1},              /* continuation byte alone */
        {"a\xbf", 2},
        {"\xc0\xaf", 2},          /* overlong '/' */
        {"\xc1\xbf", 2},
        {"\xe0\x80\xaf", 3},      /* overlong, three bytes */
        {"\xf0\x80\x80\xaf", 4},  /* overlong, four bytes */
        {"\xed\xa0\x80", 3},      /* surrogate U+D800 */
        {"\xed\xbf\xbf", 3},      /* surrogate U+DFFF */
        {"\xf4\x90\x80\x80", 4},  /* U+110000 */
        {"\xf5\x80\x80\x80", 4},
        {"\xff", 1},
        {"\xc3", 1},              /* cut short */
        {"\xe2\x82", 2},
        {"\xf0\x9f\x98", 3},
        {"\xc3\x28", 2},          /* not a continuation */
    };
    ttt_game *game = new_game(3, 0);
    set_name(game, TTT_X, "Ana");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (ttt_game_set_name(game, TTT_X, bad[i].bytes, bad[i].len) !=
            TTT_E_NAME)
            fail_msg("bad name %zu accepted", i);
        assert_name(game, TTT_X, "Ana");
    }
    static const char *const good[] = {
        "\xc2\xa0",             /* U+00A0, just past the C1 controls */
        "Jos\xc3\xa9",          /* é */
        "\xe6\x97\xa5\xe6\x9c\xac", /* 日本 */
        "\xef\xbf\xbd",         /* U+FFFD */
        "\xf0\x9f\x98\x80",     /* U+1F600 */
        "\xf4\x8f\xbf\xbf",     /* U+10FFFF */
        "\xee\x80\x80",         /* U+E000, just past the surrogates */
        " \"quoted\" \\ back ", /* printable ASCII, quotes and backslashes */
        "~",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        set_name(game, TTT_O, good[i]);
        assert_name(game, TTT_O, good[i]);
    }
    ttt_game_free(game);
}

static void test_names_clone_and_reset(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    ttt_game *plain = NULL;
    assert_int_equal(ttt_game_clone(game, &plain), TTT_OK);
    assert_name(plain, TTT_X, "");

    set_name(game, TTT_X, "Ana");
    set_name(game, TTT_O, "Bob");
    int cells[] = {1, 1, 0, 0};
    play_cells(game, cells, 4);

    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(game, &copy), TTT_OK);
    assert_name(copy, TTT_X, "Ana");
    assert_name(copy, TTT_O, "Bob");
    /* Independent copies. */
    set_name(copy, TTT_X, "Zoe");
    assert_name(game, TTT_X, "Ana");
    set_name(game, TTT_O, "Bea");
    assert_name(copy, TTT_O, "Bob");

    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_ply(game), 0);
    assert_name(game, TTT_X, "Ana");
    assert_name(game, TTT_O, "Bea");

    ttt_game_free(plain);
    ttt_game_free(copy);
    ttt_game_free(game);
}

static void test_names_memory(void **state)
{
    (void)state;
    counting c = {0, 0, -1};
    ttt_allocator alloc = {counting_alloc, counting_free, &c};
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new_with(3, 0, &alloc, &game), TTT_OK);
    assert_int_equal(c.live, 1);

    /* Removing a name that was never set allocates nothing. */
    assert_int_equal(ttt_game_set_name(game, TTT_X, NULL, 0), TTT_OK);
    assert_int_equal(c.live, 1);

    /* The first name fails cleanly when the allocator does. */
    c.fail_from = c.calls;
    assert_int_equal(ttt_game_set_name(game, TTT_X, "Ana", 3), TTT_E_NOMEM);
    assert_name(game, TTT_X, "");
    assert_int_equal(c.live, 1);
    c.fail_from = -1;

    /* One block for both names, made once. */
    set_name(game, TTT_X, "Ana");
    assert_int_equal(c.live, 2);
    set_name(game, TTT_O, "Bob");
    set_name(game, TTT_X, "Anabel");
    assert_int_equal(c.live, 2);

    /* Moves never allocate. */
    int calls = c.calls;
    int cells[] = {1, 1, 0, 0, 2, 2};
    play_cells(game, cells, 6);
    assert_int_equal(c.calls, calls);

    /* A clone is one block more, or none if its names fail to allocate. */
    ttt_game *copy = NULL;
    c.fail_from = c.calls + 1;
    assert_int_equal(ttt_game_clone(game, &copy), TTT_E_NOMEM);
    assert_null(copy);
    assert_int_equal(c.live, 2);
    c.fail_from = -1;
    assert_int_equal(ttt_game_clone(game, &copy), TTT_OK);
    assert_int_equal(c.live, 4);
    ttt_game_free(copy);
    assert_int_equal(c.live, 2);
    ttt_game_free(game);
    assert_int_equal(c.live, 0);
}

static void test_names_caller_memory(void **state)
{
    (void)state;
    size_t bytes = ttt_game_footprint(3, 0);
    void *mem = malloc(bytes);
    assert_non_null(mem);
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_init(mem, bytes, 3, 0, &game), TTT_OK);
    set_name(game, TTT_O, "Bob");
    assert_name(game, TTT_O, "Bob");
    /* ttt_game_free releases the name block (a leak would fail the
     * sanitizer and valgrind runs), not the caller's memory. */
    ttt_game_free(game);
    free(mem);
}

/* docs/performance.md promises a 3x3 game in at most 256 bytes; an unnamed game
 * must keep that promise. */
static void test_footprint_promise(void **state)
{
    (void)state;
    assert_true(ttt_game_footprint(3, 3) <= 256);
}

/* ------------------------------------------------------------------------ */
/* Resignation and agreed draws                                              */
/* ------------------------------------------------------------------------ */

static void assert_over(ttt_game *game)
{
    int row = -1, col = -1, st = -1;
    size_t len = 99;
    int32_t moves[9];
    uint64_t seed = 1;
    assert_int_equal(ttt_to_move(game), TTT_EMPTY);
    assert_int_equal(ttt_play(game, TTT_X, 2, 2, &st), TTT_E_GAME_OVER);
    assert_int_equal(ttt_play(game, TTT_O, 2, 2, &st), TTT_E_GAME_OVER);
    assert_int_equal(ttt_play_next(game, 2, 2, &st), TTT_E_GAME_OVER);
    assert_int_equal(ttt_play_at(game, ttt_ply(game), TTT_X, 2, 2, &st),
                     TTT_E_GAME_OVER);
    assert_int_equal(ttt_play_at(game, ttt_ply(game), TTT_O, 2, 2, &st),
                     TTT_E_GAME_OVER);
    assert_int_equal(st, -1);
    assert_int_equal(ttt_legal_moves(game, moves, 9, &len), TTT_OK);
    assert_int_equal(len, 0);
    assert_int_equal(ttt_random_move(game, &seed, &row, &col),
                     TTT_E_GAME_OVER);
    assert_int_equal(ttt_random_playout(game, &seed, &st), TTT_E_GAME_OVER);
    uint64_t results[4];
    assert_int_equal(ttt_random_playouts(game, &seed, 10, results),
                     TTT_E_GAME_OVER);
    for (int level = TTT_BOT_RANDOM; level <= TTT_BOT_PERFECT; level++)
        assert_int_equal(ttt_best_move(game, level, 0, &seed, &row, &col),
                         TTT_E_GAME_OVER);
    assert_int_equal(seed, 1);
    /* The solver treats it as finished: nothing to search, no move. */
    ttt_solution solution;
    memset(&solution, 0, sizeof solution);
    solution.size = sizeof solution;
    int32_t best[9];
    len = 99;
    assert_int_equal(ttt_solve(game, 0, 0, 0, &solution, best, 9, &len),
                     TTT_OK);
    assert_int_equal(len, 0);
    assert_int_equal(solution.plies, 0);
    assert_int_equal(solution.nodes, 0);
    assert_int_equal(ttt_winning_line(game, NULL, NULL, NULL, NULL),
                     TTT_E_NO_LINE);
}

static void test_resign(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    int cells[] = {1, 1, 0, 0};
    play_cells(game, cells, 4);

    int st = -1;
    /* Either side may resign, whoever is to move (X is). */
    assert_int_equal(ttt_resign(game, TTT_O, &st), TTT_OK);
    assert_int_equal(st, TTT_X_WON);
    assert_int_equal(ttt_state(game), TTT_X_WON);
    assert_int_equal(ttt_ending(game), TTT_END_RESIGN);
    assert_int_equal(ttt_ply(game), 2);
    assert_over(game);
    /* A second ending is refused, whatever the mark. */
    assert_int_equal(ttt_resign(game, TTT_X, NULL), TTT_E_GAME_OVER);
    assert_int_equal(ttt_resign(game, 5, NULL), TTT_E_GAME_OVER);
    assert_int_equal(ttt_agree_draw(game, NULL), TTT_E_GAME_OVER);
    assert_int_equal(ttt_state(game), TTT_X_WON);
    ttt_game_free(game);

    /* The side to move resigns, and state may be NULL. */
    game = new_game(3, 0);
    play_cells(game, cells, 2);
    assert_int_equal(ttt_resign(game, TTT_O, NULL), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_X_WON);
    ttt_game_free(game);

    /* Before the first move: the ply-0 game has no last move to look at. */
    game = new_game(3, 0);
    assert_int_equal(ttt_resign(game, TTT_X, &st), TTT_OK);
    assert_int_equal(st, TTT_O_WON);
    assert_int_equal(ttt_ending(game), TTT_END_RESIGN);
    assert_over(game);
    /* Rules stay as they were for a game that ended. */
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1),
                     TTT_E_RULES_LOCKED);
    ttt_game_free(game);

    /* Errors change nothing. */
    game = new_game(3, 0);
    st = -1;
    assert_int_equal(ttt_resign(NULL, TTT_X, &st), TTT_E_INVALID);
    assert_int_equal(ttt_resign(game, TTT_EMPTY, &st), TTT_E_MARK);
    assert_int_equal(ttt_resign(game, 2, &st), TTT_E_MARK);
    assert_int_equal(ttt_agree_draw(NULL, &st), TTT_E_INVALID);
    assert_int_equal(st, -1);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_ending(game), TTT_END_NONE);
    assert_int_equal(ttt_ending(NULL), TTT_E_INVALID);
    ttt_game_free(game);
}

static void test_agree_draw(void **state)
{
    (void)state;
    ttt_game *game = new_game(4, 0);
    int cells[] = {1, 1, 0, 0, 2, 3};
    play_cells(game, cells, 6);
    int st = -1;
    assert_int_equal(ttt_agree_draw(game, &st), TTT_OK);
    assert_int_equal(st, TTT_DRAW);
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_AGREED);
    assert_int_equal(ttt_ply(game), 3);
    assert_int_equal(ttt_to_move(game), TTT_EMPTY);
    assert_int_equal(ttt_play_next(game, 3, 3, NULL), TTT_E_GAME_OVER);
    assert_int_equal(ttt_resign(game, TTT_O, NULL), TTT_E_GAME_OVER);
    ttt_game_free(game);
}

/* Undo takes back the ending alone and reopens the game exactly where it
 * was; redo re-applies it once the moves before it are back. */
static void test_undo_redo_endings(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        ttt_game *game = new_game(3, 0);
        int cells[] = {1, 1, 0, 0, 2, 2};
        play_cells(game, cells, 6);
        int8_t before[9], after[9];
        size_t len;
        assert_int_equal(ttt_board(game, before, 9, &len), TTT_OK);
        int expected = kind == 0 ? TTT_O_WON : kind == 1 ? TTT_X_WON : TTT_DRAW;
        int status = kind == 2 ? ttt_agree_draw(game, NULL)
                               : ttt_resign(game, kind == 0 ? TTT_X : TTT_O,
                                            NULL);
        assert_int_equal(status, TTT_OK);
        assert_int_equal(ttt_state(game), expected);
        int ending = kind == 2 ? TTT_END_AGREED : TTT_END_RESIGN;

        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
        assert_int_equal(ttt_ending(game), TTT_END_NONE);
        assert_int_equal(ttt_ply(game), 3);
        assert_int_equal(ttt_to_move(game), TTT_O);
        assert_int_equal(ttt_redo_count(game), 1);
        assert_int_equal(ttt_board(game, after, 9, &len), TTT_OK);
        assert_memory_equal(before, after, 9);

        /* A second undo takes back the last move; redo replays the move,
         * then the ending. */
        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_ply(game), 2);
        assert_int_equal(ttt_redo_count(game), 2);
        assert_int_equal(ttt_redo(game), TTT_OK);
        assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
        assert_int_equal(ttt_redo_count(game), 1);
        assert_int_equal(ttt_redo(game), TTT_OK);
        assert_int_equal(ttt_state(game), expected);
        assert_int_equal(ttt_ending(game), ending);
        assert_int_equal(ttt_ply(game), 3);
        assert_int_equal(ttt_redo_count(game), 0);
        assert_int_equal(ttt_redo(game), TTT_E_NO_REDO);

        /* A move after the undo drops the ending from the redo stack. */
        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_play_next(game, 0, 2, NULL), TTT_OK);
        assert_int_equal(ttt_redo_count(game), 0);
        assert_int_equal(ttt_redo(game), TTT_E_NO_REDO);
        assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);

        /* An ending empties the redo stack, like a move. */
        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_redo_count(game), 2);
        assert_int_equal(ttt_agree_draw(game, NULL), TTT_OK);
        assert_int_equal(ttt_redo_count(game), 0);
        assert_int_equal(ttt_undo(game), TTT_OK);
        assert_int_equal(ttt_redo_count(game), 1);

        /* Reset drops an undone ending too. */
        assert_int_equal(ttt_game_reset(game), TTT_OK);
        assert_int_equal(ttt_redo_count(game), 0);
        assert_int_equal(ttt_redo(game), TTT_E_NO_REDO);
        ttt_game_free(game);
    }

    /* Undo after a resignation at ply 0 reopens the empty game; the rules
     * are locked while the ending waits on the redo stack. */
    ttt_game *game = new_game(3, 0);
    assert_int_equal(ttt_resign(game, TTT_X, NULL), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_E_NO_UNDO);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1),
                     TTT_E_RULES_LOCKED);
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_O_WON);
    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_ending(game), TTT_END_NONE);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1), TTT_OK);
    ttt_game_free(game);
}

/* The random player cannot leave an undone ending behind its moves. */
static void test_playout_drops_undone_ending(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_OK);
    assert_int_equal(ttt_resign(game, TTT_O, NULL), TTT_OK);
    assert_int_equal(ttt_undo(game), TTT_OK);
    uint64_t seed = 7;
    int st;
    assert_int_equal(ttt_random_playout(game, &seed, &st), TTT_OK);
    assert_int_not_equal(st, TTT_IN_PROGRESS);
    assert_int_equal(ttt_redo_count(game), 0);
    assert_int_equal(ttt_redo(game), TTT_E_NO_REDO);
    assert_int_not_equal(ttt_ending(game), TTT_END_RESIGN);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Ply limit and ttt_ending on the board                                     */
/* ------------------------------------------------------------------------ */

static void test_ply_limit_rule(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    int value = -1;
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &value),
                     TTT_OK);
    assert_int_equal(value, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, -1),
                     TTT_E_RULE);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 10),
                     TTT_E_RULE);
    /* The full board's ply count is no limit at all. */
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 9), TTT_OK);
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &value),
                     TTT_OK);
    assert_int_equal(value, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 4), TTT_OK);
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &value),
                     TTT_OK);
    assert_int_equal(value, 4);
    /* Misère and early draw still take only 0 and 1. */
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 2), TTT_E_RULE);

    int cells[] = {1, 1, 0, 0, 2, 2};
    play_cells(game, cells, 6);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 0),
                     TTT_E_RULES_LOCKED);
    int st = -1;
    assert_int_equal(ttt_play_next(game, 0, 2, &st), TTT_OK);
    assert_int_equal(st, TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_PLY_LIMIT);
    assert_int_equal(ttt_ply(game), 4);
    assert_int_equal(ttt_play_next(game, 2, 0, NULL), TTT_E_GAME_OVER);

    /* Undo reopens, redo draws again; reset keeps the rule. */
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_PLY_LIMIT);
    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &value),
                     TTT_OK);
    assert_int_equal(value, 4);
    ttt_game *copy = NULL;
    assert_int_equal(ttt_game_clone(game, &copy), TTT_OK);
    assert_int_equal(ttt_game_get_rule(copy, TTT_RULE_PLY_LIMIT, &value),
                     TTT_OK);
    assert_int_equal(value, 4);
    ttt_game_free(copy);

    /* Back to no limit. */
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 0), TTT_OK);
    play_cells(game, cells, 6);
    assert_int_equal(ttt_play_next(game, 0, 2, &st), TTT_OK);
    assert_int_equal(st, TTT_IN_PROGRESS);
    ttt_game_free(game);
}

/* A line on the move that reaches the limit wins; a full board at the
 * limit is a full board. */
static void test_ply_limit_precedence(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 5), TTT_OK);
    int win[] = {0, 0, 1, 0, 0, 1, 1, 1, 0, 2};
    play_cells(game, win, 10);
    assert_int_equal(ttt_state(game), TTT_X_WON);
    assert_int_equal(ttt_ending(game), TTT_END_LINE);
    ttt_game_free(game);

    game = new_game(3, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 9), TTT_OK);
    /* x o x / x o o / o x x: full, no line. */
    int full[] = {0, 0, 0, 1, 0, 2, 1, 1, 1, 0, 2, 0, 2, 1, 1, 2, 2, 2};
    play_cells(game, full, 18);
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_FULL_BOARD);
    ttt_game_free(game);
}

/* On a big board the limit ends a game long before the board fills. */
static void test_ply_limit_big_boards(void **state)
{
    (void)state;
    static const int sizes[][3] = {{15, 5, 30}, {19, 5, 101}, {61, 6, 200}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i][0], limit = sizes[i][2];
        ttt_game *game = new_game(n, sizes[i][1]);
        assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, limit),
                         TTT_OK);
        /* Moves three columns apart along the rows: never k in a row. */
        int st = TTT_IN_PROGRESS;
        int played = 0;
        for (int row = 0; row < n && st == TTT_IN_PROGRESS; row++)
            for (int col = 0; col < n && st == TTT_IN_PROGRESS; col += 3) {
                assert_int_equal(ttt_play_next(game, row, col, &st), TTT_OK);
                played++;
            }
        assert_int_equal(played, limit);
        assert_int_equal(st, TTT_DRAW);
        assert_int_equal(ttt_ending(game), TTT_END_PLY_LIMIT);
        char *record = save(game);
        ttt_game *loaded = load_round_trip(record);
        assert_int_equal(ttt_ending(loaded), TTT_END_PLY_LIMIT);
        assert_int_equal(ttt_ply(loaded), limit);
        ttt_game_free(loaded);
        free(record);
        ttt_game_free(game);
    }

    /* The largest board takes any limit up to its cell count. */
    ttt_game *game = new_game(TTT_MAX_SIZE, 5);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT,
                                       TTT_MAX_SIZE * TTT_MAX_SIZE),
                     TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT,
                                       TTT_MAX_SIZE * TTT_MAX_SIZE + 1),
                     TTT_E_RULE);
    ttt_game_free(game);
}

static void test_ending_on_the_board(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    assert_int_equal(ttt_ending(game), TTT_END_NONE);
    int win[] = {0, 0, 1, 0, 0, 1, 1, 1, 0, 2};
    play_cells(game, win, 10);
    assert_int_equal(ttt_ending(game), TTT_END_LINE);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_ending(game), TTT_END_NONE);
    ttt_game_free(game);

    /* Misère: the line loses, and is still a line. */
    game = new_game(3, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, 1), TTT_OK);
    play_cells(game, win, 10);
    assert_int_equal(ttt_state(game), TTT_O_WON);
    assert_int_equal(ttt_ending(game), TTT_END_LINE);
    ttt_game_free(game);

    /* Early draw: no line left before the board is full. */
    game = new_game(3, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    /* x o x / x o o / o x . : every line holds both marks after 8 moves
     * at the latest; stop as soon as the rule calls it. */
    int cells[] = {0, 0, 0, 1, 0, 2, 1, 1, 1, 0, 2, 0, 2, 1, 1, 2};
    int st = TTT_IN_PROGRESS;
    for (size_t i = 0; i < 16 && st == TTT_IN_PROGRESS; i += 2)
        assert_int_equal(ttt_play_next(game, cells[i], cells[i + 1], &st),
                         TTT_OK);
    assert_int_equal(st, TTT_DRAW);
    assert_true(ttt_ply(game) < 9);
    assert_int_equal(ttt_ending(game), TTT_END_NO_LINE);
    ttt_game_free(game);

    /* Early draw and the limit on the same move: the early draw. */
    game = new_game(3, 0);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, 1), TTT_OK);
    ttt_game *probe = NULL;
    assert_int_equal(ttt_game_clone(game, &probe), TTT_OK);
    st = TTT_IN_PROGRESS;
    for (size_t i = 0; i < 16 && st == TTT_IN_PROGRESS; i += 2)
        assert_int_equal(ttt_play_next(probe, cells[i], cells[i + 1], &st),
                         TTT_OK);
    int early_ply = ttt_ply(probe);
    ttt_game_free(probe);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, early_ply),
                     TTT_OK);
    play_cells(game, cells, (size_t)early_ply * 2);
    assert_int_equal(ttt_state(game), TTT_DRAW);
    assert_int_equal(ttt_ending(game), TTT_END_NO_LINE);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Events                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct recorder {
    int count;
    ttt_event events[16];
} recorder;

static void record_event(void *user, const ttt_event *event)
{
    recorder *r = user;
    if (r->count < 16)
        r->events[r->count] = *event;
    r->count++;
}

static void assert_event(const ttt_event *e, int kind, int mark, int ply,
                         int st)
{
    assert_int_equal(e->kind, kind);
    assert_int_equal(e->mark, mark);
    assert_int_equal(e->row, -1);
    assert_int_equal(e->col, -1);
    assert_int_equal(e->ply, ply);
    assert_int_equal(e->state, st);
}

static void test_events(void **state)
{
    (void)state;
    recorder r;
    memset(&r, 0, sizeof r);
    ttt_game *game = new_game(3, 0);
    assert_int_equal(ttt_set_listener(game, record_event, &r), TTT_OK);
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_OK);
    assert_int_equal(r.count, 1);

    assert_int_equal(ttt_resign(game, TTT_O, NULL), TTT_OK);
    assert_int_equal(r.count, 2);
    assert_event(&r.events[1], TTT_EVENT_RESIGN, TTT_O, 1, TTT_X_WON);

    /* Refused calls send nothing. */
    assert_int_equal(ttt_resign(game, TTT_X, NULL), TTT_E_GAME_OVER);
    assert_int_equal(ttt_agree_draw(game, NULL), TTT_E_GAME_OVER);
    assert_int_equal(r.count, 2);

    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_event(&r.events[2], TTT_EVENT_UNDO_ENDING, TTT_O, 1,
                 TTT_IN_PROGRESS);
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_event(&r.events[3], TTT_EVENT_REDO_ENDING, TTT_O, 1, TTT_X_WON);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_int_equal(ttt_resign(game, TTT_EMPTY, NULL), TTT_E_MARK);
    assert_int_equal(r.count, 5);

    assert_int_equal(ttt_agree_draw(game, NULL), TTT_OK);
    assert_event(&r.events[5], TTT_EVENT_DRAW_AGREED, TTT_EMPTY, 1, TTT_DRAW);
    assert_int_equal(ttt_undo(game), TTT_OK);
    assert_event(&r.events[6], TTT_EVENT_UNDO_ENDING, TTT_EMPTY, 1,
                 TTT_IN_PROGRESS);
    assert_int_equal(ttt_redo(game), TTT_OK);
    assert_event(&r.events[7], TTT_EVENT_REDO_ENDING, TTT_EMPTY, 1, TTT_DRAW);
    assert_int_equal(r.count, 8);

    /* Names send no event. */
    set_name(game, TTT_X, "Ana");
    assert_int_equal(r.count, 8);

    /* The ply limit's draw is the move's own event. */
    assert_int_equal(ttt_game_reset(game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, 1), TTT_OK);
    assert_int_equal(ttt_play_next(game, 0, 0, NULL), TTT_OK);
    assert_int_equal(r.count, 10);
    assert_int_equal(r.events[9].kind, TTT_EVENT_PLAY);
    assert_int_equal(r.events[9].state, TTT_DRAW);
    ttt_game_free(game);
}

/* A listener that tries the 1.2 changes on its own game. */
typedef struct meddler {
    ttt_game *game;
    int calls;
    int resign, agree, name;
} meddler;

static void meddle(void *user, const ttt_event *event)
{
    (void)event;
    meddler *m = user;
    int st = 77;
    m->calls++;
    m->resign = ttt_resign(m->game, TTT_X, &st);
    m->agree = ttt_agree_draw(m->game, &st);
    m->name = ttt_game_set_name(m->game, TTT_X, "Zed", 3);
    if (st != 77)
        m->resign = 12345;
}

/* Inside its game's listener these change nothing, like a move. */
static void test_listener_cannot_end_or_rename(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    set_name(game, TTT_X, "Ana");
    meddler m = {game, 0, 0, 0, 0};
    assert_int_equal(ttt_set_listener(game, meddle, &m), TTT_OK);
    assert_int_equal(ttt_play_next(game, 1, 1, NULL), TTT_OK);
    assert_int_equal(m.calls, 1);
    assert_int_equal(m.resign, TTT_E_IN_LISTENER);
    assert_int_equal(m.agree, TTT_E_IN_LISTENER);
    assert_int_equal(m.name, TTT_E_IN_LISTENER);
    assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
    assert_name(game, TTT_X, "Ana");
    /* A resignation's own event is a listener call like any other. */
    assert_int_equal(ttt_resign(game, TTT_O, NULL), TTT_OK);
    assert_int_equal(m.calls, 2);
    assert_int_equal(m.resign, TTT_E_IN_LISTENER);
    assert_int_equal(ttt_state(game), TTT_X_WON);
    ttt_game_free(game);
}

/* ------------------------------------------------------------------------ */
/* Records                                                                   */
/* ------------------------------------------------------------------------ */

static void test_record_names_and_endings(void **state)
{
    (void)state;
    ttt_game *game = new_game(3, 0);
    set_name(game, TTT_X, "Ana");
    set_name(game, TTT_O, "Bob");
    int cells[] = {1, 1, 0, 0};
    play_cells(game, cells, 4);
    assert_int_equal(ttt_resign(game, TTT_X, NULL), TTT_OK);
    char *text = save(game);
    assert_string_equal(text, "ttt/1 n=3 k=3 rules=classic moves=b2,a1 "
                              "x=\"Ana\" o=\"Bob\" end=resign-x\n");

    /* Saved and loaded: the same ending and names. */
    ttt_game *loaded = load_round_trip(text);
    assert_int_equal(ttt_state(loaded), TTT_O_WON);
    assert_int_equal(ttt_ending(loaded), TTT_END_RESIGN);
    assert_name(loaded, TTT_X, "Ana");
    assert_name(loaded, TTT_O, "Bob");
    assert_int_equal(ttt_ply(loaded), 2);
    /* And it reopens like the original. */
    assert_int_equal(ttt_undo(loaded), TTT_OK);
    assert_int_equal(ttt_state(loaded), TTT_IN_PROGRESS);
    assert_int_equal(ttt_ply(loaded), 2);
    ttt_game_free(loaded);
    free(text);

    /* An undone ending is not saved, as undone moves are not. */
    assert_int_equal(ttt_undo(game), TTT_OK);
    text = save(game);
    assert_string_equal(text, "ttt/1 n=3 k=3 rules=classic moves=b2,a1 "
                              "x=\"Ana\" o=\"Bob\"\n");
    free(text);
    ttt_game_free(game);

    static const char *const records[] = {
        "ttt/1 n=3 k=3 rules=classic moves=- end=resign-o\n",
        "ttt/1 n=3 k=3 rules=classic moves=- end=draw-agreed\n",
        "ttt/1 n=3 k=3 rules=classic moves=b2 x=\"A\" end=draw-agreed\n",
        "ttt/1 n=3 k=3 rules=classic moves=b2 o=\"Only O\"\n",
        "ttt/1 n=4 k=3 rules=misere+early-draw limit=7 moves=a1,b2 x=\"x\" "
        "o=\"o\" end=resign-x\n",
        "ttt/1 n=3 k=3 rules=classic limit=2 moves=b2,a1\n",
        "ttt/1 n=3 k=3 rules=classic limit=8 moves=-\n",
        "ttt/1 n=3 k=3 rules=classic moves=- x=\"say \\\"hi\\\" \\\\o/\"\n",
        "ttt/1 n=3 k=3 rules=classic moves=- x=\"Jos\xc3\xa9\" "
        "o=\"\xe6\x97\xa5\xf0\x9f\x98\x80\"\n",
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++)
        ttt_game_free(load_round_trip(records[i]));
}

/* Any allowed name survives save and load, whatever it holds. */
static void test_record_name_round_trip(void **state)
{
    (void)state;
    /* Every printable ASCII byte, in 64-byte slices, then the longest name
     * made of the two escaped bytes (saved as 128 bytes). */
    char ascii[95];
    for (int i = 0; i < 95; i++)
        ascii[i] = (char)(0x20 + i);
    char escapes[TTT_NAME_MAX];
    for (int i = 0; i < TTT_NAME_MAX; i++)
        escapes[i] = i % 2 ? '"' : '\\';
    const struct {
        const char *bytes;
        size_t len;
    } names[] = {
        {ascii, TTT_NAME_MAX},
        {ascii + 95 - TTT_NAME_MAX, TTT_NAME_MAX},
        {escapes, TTT_NAME_MAX},
        {"\\", 1},
        {"\"", 1},
        {" ", 1},
        {"end=resign-x", 12},
        {"\" o=\"", 5},
        {"\xc2\xa0\xf4\x8f\xbf\xbf", 6},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ttt_game *game = new_game(3, 0);
        assert_int_equal(
            ttt_game_set_name(game, TTT_X, names[i].bytes, names[i].len),
            TTT_OK);
        assert_int_equal(
            ttt_game_set_name(game, TTT_O, names[i].bytes, names[i].len),
            TTT_OK);
        char *text = save(game);
        ttt_game *loaded = load_round_trip(text);
        for (int side = 0; side < 2; side++) {
            char buf[TTT_NAME_MAX + 1];
            size_t len = 0;
            assert_int_equal(ttt_game_get_name(loaded, side ? TTT_O : TTT_X,
                                               buf, sizeof buf, &len),
                             TTT_OK);
            assert_int_equal(len, names[i].len);
            assert_memory_equal(buf, names[i].bytes, len);
        }
        ttt_game_free(loaded);
        free(text);
        ttt_game_free(game);
    }
}

/* Records of 1.0 and 1.1 load and save back byte for byte, with no names,
 * no limit and only board endings. */
static void test_record_old_records_unchanged(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int ending;
    } records[] = {
        {"ttt/1 n=3 k=3 rules=classic moves=-\n", TTT_END_NONE},
        {"ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3\n", TTT_END_NONE},
        {"ttt/1 n=3 k=3 rules=classic moves=a1,a2,b1,b2,c1\n", TTT_END_LINE},
        {"ttt/1 n=3 k=3 rules=misere moves=a1,a2,b1,b2,c1\n", TTT_END_LINE},
        {"ttt/1 n=3 k=3 rules=classic moves=a1,b1,c1,b2,a2,a3,c2,c3,b3\n",
         TTT_END_FULL_BOARD},
        {"ttt/1 n=4 k=3 rules=early-draw moves=a1\n", TTT_END_NONE},
        {"ttt/1 n=5 k=4 rules=misere+early-draw moves=c3,b2\n", TTT_END_NONE},
        {"ttt/1 n=30 k=5 rules=classic moves=ad30,a1\n", TTT_END_NONE},
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        ttt_game *game = load_round_trip(records[i].text);
        assert_int_equal(ttt_ending(game), records[i].ending);
        assert_name(game, TTT_X, "");
        assert_name(game, TTT_O, "");
        int value = -1;
        assert_int_equal(ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &value),
                         TTT_OK);
        assert_int_equal(value, 0);
        ttt_game_free(game);
    }
}

static void test_record_malformed(void **state)
{
    (void)state;
    /* The prefix every case below shares, 34 bytes. */
#define HEAD "ttt/1 n=3 k=3 rules=classic moves="
    static const struct {
        const char *text;
        size_t len; /* 0: strlen */
        int status;
        size_t offset;
    } cases[] = {
        /* Unterminated quote: at the LF that ends the line, or the end. */
        {HEAD "- x=\"Ana\n", 0, TTT_E_PARSE, 42},
        {HEAD "- x=\"Ana", 0, TTT_E_PARSE, 42},
        {HEAD "- x=\"", 0, TTT_E_PARSE, 39},
        {HEAD "- x=Ana\n", 0, TTT_E_PARSE, 38},
        /* Bad escapes: at the byte after the backslash. */
        {HEAD "- x=\"A\\na\"\n", 0, TTT_E_PARSE, 41},
        {HEAD "- x=\"A\\'\"\n", 0, TTT_E_PARSE, 41},
        {HEAD "- x=\"A\\", 0, TTT_E_PARSE, 41},
        /* An empty name is written as no field. */
        {HEAD "- x=\"\"\n", 0, TTT_E_PARSE, 39},
        /* Names that are not names: at the bad byte. */
        {HEAD "- x=\"A\tB\"\n", 0, TTT_E_NAME, 40},
        {HEAD "- x=\"A\x7f\"\n", 0, TTT_E_NAME, 40},
        {HEAD "- x=\"\xc2\x80\"\n", 0, TTT_E_NAME, 39},
        {HEAD "- x=\"\xc3\"\n", 0, TTT_E_NAME, 40},
        {HEAD "- x=\"\xed\xa0\x80\"\n", 0, TTT_E_NAME, 40},
        {HEAD "- x=\"\xff\"\n", 0, TTT_E_NAME, 39},
        {HEAD "- x=\"a\0b\"\n", 44, TTT_E_NAME, 40},
        /* 65 bytes: at the 65th. */
        {HEAD "- x=\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\n",
         0, TTT_E_NAME, 103},
        /* ... unless a byte before it was already bad. */
        {HEAD "- x=\"a\x01" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\n",
         0, TTT_E_NAME, 40},
        /* Fields out of order, repeated or unknown: at the first bad byte. */
        {HEAD "- o=\"B\" x=\"A\"\n", 0, TTT_E_PARSE, 42},
        {HEAD "- x=\"A\" x=\"A\"\n", 0, TTT_E_PARSE, 42},
        {HEAD "- end=resign-x x=\"A\"\n", 0, TTT_E_PARSE, 48},
        {HEAD "- y=\"A\"\n", 0, TTT_E_PARSE, 36},
        {HEAD "- X=\"A\"\n", 0, TTT_E_PARSE, 36},
        {HEAD "-  x=\"A\"\n", 0, TTT_E_PARSE, 36},
        /* Since 1.5 the line may end without LF or with CR LF, and blank
         * lines may follow (test_notation.c): a lone CR, or a second line
         * that is not blank, still fails. */
        {HEAD "- x=\"A\"\r", 0, TTT_E_PARSE, 41},
        {HEAD "- x=\"A\"\n\nx", 0, TTT_E_PARSE, 43},
        /* Unknown endings: where the text leaves every spelling. */
        {HEAD "- end=resign-z\n", 0, TTT_E_PARSE, 47},
        {HEAD "- end=resign\n", 0, TTT_E_PARSE, 46},
        {HEAD "- end=draw\n", 0, TTT_E_PARSE, 44},
        {HEAD "- end=win-x\n", 0, TTT_E_PARSE, 40},
        {HEAD "- end=line\n", 0, TTT_E_PARSE, 40},
        {HEAD "- end=resign-xx\n", 0, TTT_E_PARSE, 48},
        {HEAD "- end=resign-x\r", 0, TTT_E_PARSE, 48},
        {HEAD "- end=\n", 0, TTT_E_PARSE, 40},
        /* Endings the moves contradict: at the ending. */
        {HEAD "a1,a2,b1,b2,c1 end=resign-o\n", 0, TTT_E_GAME_OVER, 53},
        {HEAD "a1,b1,c1,b2,a2,a3,c2,c3,b3 end=draw-agreed\n", 0,
         TTT_E_GAME_OVER, 65},
        {"ttt/1 n=3 k=3 rules=classic limit=1 moves=b2 end=resign-x\n", 0,
         TTT_E_GAME_OVER, 49},
        /* The limit: in range, canonical, in its place. */
        {"ttt/1 n=3 k=3 rules=classic limit=0 moves=-\n", 0, TTT_E_RULE, 34},
        {"ttt/1 n=3 k=3 rules=classic limit=10 moves=-\n", 0, TTT_E_RULE, 34},
        {"ttt/1 n=3 k=3 rules=classic limit=9 moves=-\n", 0, TTT_E_RULE, 34},
        {"ttt/1 n=3 k=3 rules=classic limit=99999999999 moves=-\n", 0,
         TTT_E_RULE, 34},
        {"ttt/1 n=3 k=3 rules=classic limit=05 moves=-\n", 0, TTT_E_PARSE, 35},
        {"ttt/1 n=3 k=3 rules=classic limit= moves=-\n", 0, TTT_E_PARSE, 34},
        {"ttt/1 n=3 k=3 rules=classic limits=5 moves=-\n", 0, TTT_E_PARSE, 33},
        {"ttt/1 n=3 k=3 rules=classic limit=5  moves=-\n", 0, TTT_E_PARSE, 36},
        {"ttt/1 n=3 k=3 rules=classic moves=- limit=5\n", 0, TTT_E_PARSE, 36},
        {"ttt/1 n=3 k=3 rules=classic limit=2 moves=a1,b1,c1\n", 0,
         TTT_E_GAME_OVER, 48},
    };
#undef HEAD
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
        ttt_game *game = (ttt_game *)&cases; /* must stay untouched */
        size_t offset = 9999;
        int status = load_bytes(cases[i].text, len, &game, &offset);
        if (status != cases[i].status || offset != cases[i].offset)
            fail_msg("case %zu: status %d at %zu, expected %d at %zu", i,
                     status, offset, cases[i].status, cases[i].offset);
        assert_ptr_equal(game, (ttt_game *)&cases);
    }
}

/* Every proper prefix of a record with the new fields is refused, at an
 * offset inside it or at its end, unless it ends right after a field (or
 * is the line without its LF): then it is a record itself, and saves back
 * as that prefix and an LF. */
static void test_record_prefixes(void **state)
{
    (void)state;
    static const char *const records[] = {
        "ttt/1 n=4 k=3 rules=misere+early-draw limit=12 moves=a1,b2 "
        "x=\"A\\\\n\\\"\" o=\"\xc3\xa9\" end=resign-x\n",
        "ttt/1 n=3 k=3 rules=classic moves=- end=draw-agreed\n",
    };
    for (size_t r = 0; r < sizeof records / sizeof records[0]; r++) {
        size_t full = strlen(records[r]);
        ttt_game_free(load_round_trip(records[r]));
        for (size_t len = 0; len < full; len++) {
            ttt_game *game = NULL;
            size_t offset = 9999;
            int status = load_bytes(records[r], len, &game, &offset);
            if (status == TTT_OK) {
                char saved[256];
                size_t saved_len = 0;
                assert_int_equal(ttt_game_save(game, saved, sizeof saved,
                                               &saved_len),
                                 TTT_OK);
                assert_int_equal(saved_len, len + 1);
                assert_memory_equal(saved, records[r], len);
                assert_int_equal(saved[len], '\n');
                ttt_game_free(game);
                continue;
            }
            assert_null(game);
            assert_true(offset <= len);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The engine under a ply limit                                              */
/* ------------------------------------------------------------------------ */

static ttt_game *limited_game(int size, int k, int limit, int early_draw)
{
    ttt_game *game = new_game(size, k);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, limit), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, early_draw),
                     TTT_OK);
    return game;
}

/* A random playout stops at the limit and plays exactly the moves of
 * ttt_random_move then ttt_play with the same seed; ttt_random_playouts
 * counts what as many playouts on copies would give. */
static void test_ply_limit_playouts(void **state)
{
    (void)state;
    static const int shapes[][3] = {{3, 3, 0}, {4, 4, 0}, {4, 3, 0},
                                    {5, 4, 1}, {7, 5, 0}, {9, 9, 0}};
    for (size_t shape = 0; shape < sizeof shapes / sizeof shapes[0]; shape++) {
        int n = shapes[shape][0], k = shapes[shape][1];
        for (int limit = 1; limit < n * n; limit += (n * n) / 7 + 1) {
            int by_playout[4] = {0, 0, 0, 0};
            uint64_t chained = 77;
            for (uint64_t trial = 0; trial < 40; trial++) {
                ttt_game *fast = limited_game(n, k, limit, shapes[shape][2]);
                ttt_game *slow = limited_game(n, k, limit, shapes[shape][2]);
                uint64_t fast_seed = trial * 7919 + 1, slow_seed = fast_seed;
                int fast_state = -1, slow_state = TTT_IN_PROGRESS, row, col;
                assert_int_equal(ttt_random_playout(fast, &fast_seed, &fast_state),
                                 TTT_OK);
                while (slow_state == TTT_IN_PROGRESS) {
                    assert_int_equal(ttt_random_move(slow, &slow_seed, &row, &col),
                                     TTT_OK);
                    assert_int_equal(ttt_play_next(slow, row, col, &slow_state),
                                     TTT_OK);
                }
                assert_true(ttt_ply(fast) <= limit);
                assert_int_equal(fast_state, slow_state);
                assert_int_equal(ttt_ply(fast), ttt_ply(slow));
                assert_int_equal(ttt_ending(fast), ttt_ending(slow));
                assert_true(fast_seed == slow_seed);
                for (int ply = 0; ply < ttt_ply(fast); ply++) {
                    int m1, r1, c1, m2, r2, c2;
                    assert_int_equal(ttt_move_at(fast, ply, &m1, &r1, &c1), TTT_OK);
                    assert_int_equal(ttt_move_at(slow, ply, &m2, &r2, &c2), TTT_OK);
                    assert_int_equal(r1 * n + c1, r2 * n + c2);
                }
                ttt_game_free(fast);
                ttt_game_free(slow);
                /* The same games with the seed carried from one to the next,
                 * as ttt_random_playouts plays them. */
                ttt_game *one = limited_game(n, k, limit, shapes[shape][2]);
                int one_state;
                assert_int_equal(ttt_random_playout(one, &chained, &one_state),
                                 TTT_OK);
                assert_true(ttt_ply(one) <= limit);
                by_playout[one_state]++;
                ttt_game_free(one);
            }
            ttt_game *start = limited_game(n, k, limit, shapes[shape][2]);
            uint64_t seed = 77, results[4];
            assert_int_equal(ttt_random_playouts(start, &seed, 40, results), TTT_OK);
            assert_true(seed == chained);
            for (int st = 0; st < 4; st++)
                assert_true(results[st] == (uint64_t)by_playout[st]);
            assert_true(results[TTT_IN_PROGRESS] == 0);
            ttt_game_free(start);
        }
    }
}

/* Every game from the position to depth plies by ttt_play and ttt_undo,
 * counted by the state it stops in: the plain walk perft must equal. */
static void plain_walk(ttt_game *game, int depth, uint64_t counts[4])
{
    int st = ttt_state(game);
    if (st != TTT_IN_PROGRESS || depth == 0) {
        counts[st]++;
        return;
    }
    int n = ttt_size(game);
    for (int cell = 0; cell < n * n; cell++) {
        int mark;
        assert_int_equal(ttt_cell(game, cell / n, cell % n, &mark), TTT_OK);
        if (mark != TTT_EMPTY)
            continue;
        assert_int_equal(ttt_play_next(game, cell / n, cell % n, NULL), TTT_OK);
        plain_walk(game, depth - 1, counts);
        assert_int_equal(ttt_undo(game), TTT_OK);
    }
}

/* The distinct positions of a 3x3 game (base-3 codes) reached within depth
 * plies, by state. */
static void plain_positions(ttt_game *game, int depth, int code,
                            unsigned char *seen, uint64_t counts[4])
{
    if (seen[code])
        return;
    seen[code] = 1;
    int st = ttt_state(game);
    counts[st]++;
    if (st != TTT_IN_PROGRESS || depth == 0)
        return;
    int weight = 1;
    for (int cell = 0; cell < 9; cell++, weight *= 3) {
        int mark;
        assert_int_equal(ttt_cell(game, cell / 3, cell % 3, &mark), TTT_OK);
        if (mark != TTT_EMPTY)
            continue;
        int digit = ttt_to_move(game) == TTT_X ? 1 : 2;
        assert_int_equal(ttt_play_next(game, cell / 3, cell % 3, NULL), TTT_OK);
        plain_positions(game, depth - 1, code + digit * weight, seen, counts);
        assert_int_equal(ttt_undo(game), TTT_OK);
    }
}

static void test_ply_limit_perft(void **state)
{
    (void)state;
    static const int shapes[][3] = {{3, 3, 0}, {3, 3, 1}, {4, 3, 0}};
    for (size_t shape = 0; shape < sizeof shapes / sizeof shapes[0]; shape++) {
        int n = shapes[shape][0], k = shapes[shape][1];
        int top = n == 3 ? 9 : 7;
        for (int limit = n == 3 ? 1 : 3; limit < top; limit++) {
            ttt_game *game = limited_game(n, k, limit, shapes[shape][2]);
            if (n == 4) /* a few moves in, so the walk stays small */
                play_cells(game, (const int[]){0, 0, 1, 1}, 4);
            if (ttt_state(game) != TTT_IN_PROGRESS) {
                ttt_game_free(game);
                continue;
            }
            uint64_t expected[4] = {0, 0, 0, 0}, counts[4];
            plain_walk(game, 99, expected);
            assert_true(expected[TTT_IN_PROGRESS] == 0);
            assert_int_equal(ttt_perft(game, 99, 0, counts, NULL, 0, NULL), TTT_OK);
            for (int st = 0; st < 4; st++)
                assert_true(counts[st] == expected[st]);
            if (n == 3) {
                static unsigned char seen[19683];
                memset(seen, 0, sizeof seen);
                uint64_t positions[4] = {0, 0, 0, 0};
                plain_positions(game, 99, 0, seen, positions);
                assert_int_equal(ttt_count_positions(game, 99, 0, counts), TTT_OK);
                for (int st = 0; st < 4; st++)
                    assert_true(counts[st] == positions[st]);
            }
            ttt_game_free(game);
        }
    }
}

/* Plain minimax by ttt_play and ttt_undo: the value for the side to move
 * and the plies to the end as ttt_solve defines them (fastest win, slowest
 * loss, a draw's own length: without early draw every drawn line lasts
 * the same). */
typedef struct minimax_result {
    int value;
    int plies;
} minimax_result;

static minimax_result plain_minimax(ttt_game *game)
{
    minimax_result best = {-2, 0};
    int n = ttt_size(game);
    for (int cell = 0; cell < n * n; cell++) {
        int mark, st;
        assert_int_equal(ttt_cell(game, cell / n, cell % n, &mark), TTT_OK);
        if (mark != TTT_EMPTY)
            continue;
        int mover = ttt_to_move(game);
        assert_int_equal(ttt_play_next(game, cell / n, cell % n, &st), TTT_OK);
        minimax_result child;
        if (st == TTT_DRAW) {
            child.value = 0;
            child.plies = 1;
        } else if (st != TTT_IN_PROGRESS) {
            child.value = (st == TTT_X_WON) == (mover == TTT_X) ? 1 : -1;
            child.plies = 1;
        } else {
            minimax_result after = plain_minimax(game);
            child.value = -after.value;
            child.plies = after.plies + 1;
        }
        assert_int_equal(ttt_undo(game), TTT_OK);
        if (child.value > best.value ||
            (child.value == best.value &&
             ((child.value > 0 && child.plies < best.plies) ||
              (child.value < 0 && child.plies > best.plies))))
            best = child;
    }
    return best;
}

static void test_ply_limit_solve(void **state)
{
    (void)state;
    /* Openings of 3x3 and of 4x4 with K = 3 (a few moves in), solved
     * under every limit and without one. */
    static const struct {
        int n;
        size_t len;
        int cells[12];
    } openings[] = {
        {3, 0, {0}},
        {3, 4, {2, 1, 1, 0}},
        {3, 6, {0, 0, 2, 2, 0, 2}},
        {4, 12, {1, 1, 2, 2, 0, 0, 3, 3, 1, 2, 2, 1}},
    };
    int changed = 0;
    for (size_t o = 0; o < sizeof openings / sizeof openings[0]; o++) {
        int n = openings[o].n;
        const int *cells = openings[o].cells;
        int played = (int)openings[o].len / 2;
        int unlimited_value = 2;
        for (int limit = n * n; limit > played; limit--) {
            ttt_game *game = limited_game(n, 3, limit == n * n ? 0 : limit, 0);
            play_cells(game, cells, openings[o].len);
            if (ttt_state(game) != TTT_IN_PROGRESS) {
                ttt_game_free(game);
                continue;
            }
            minimax_result expected = plain_minimax(game);
            if (limit == n * n)
                unlimited_value = expected.value;
            else if (expected.value != unlimited_value)
                changed++;
            ttt_solution solution;
            memset(&solution, 0, sizeof solution);
            solution.size = sizeof solution;
            int32_t best[16];
            size_t len = 0;
            assert_int_equal(ttt_solve(game, 0, 0, 0, &solution, best, 16, &len),
                             TTT_OK);
            assert_int_equal(solution.value, expected.value);
            assert_int_equal(solution.plies, expected.plies);
            assert_true(len > 0);
            /* Each optimal move keeps the value and the plies. */
            for (size_t i = 0; i < len; i++) {
                int st;
                int mover = ttt_to_move(game);
                assert_int_equal(ttt_play_next(game, best[i] / n, best[i] % n, &st),
                                 TTT_OK);
                minimax_result child = {0, 1};
                if (st == TTT_IN_PROGRESS) {
                    minimax_result after = plain_minimax(game);
                    child.value = -after.value;
                    child.plies = after.plies + 1;
                } else if (st != TTT_DRAW) {
                    child.value = (st == TTT_X_WON) == (mover == TTT_X) ? 1 : -1;
                }
                assert_int_equal(child.value, expected.value);
                assert_int_equal(child.plies, expected.plies);
                assert_int_equal(ttt_undo(game), TTT_OK);
            }
            /* The perfect bot plays one of them; the strong bot keeps the
             * value too (it solves positions this small). */
            for (int level = TTT_BOT_STRONG; level <= TTT_BOT_PERFECT; level++) {
                uint64_t seed = 5;
                int row, col, st;
                assert_int_equal(ttt_best_move(game, level, 0, &seed, &row, &col),
                                 TTT_OK);
                int mover = ttt_to_move(game);
                assert_int_equal(ttt_play_next(game, row, col, &st), TTT_OK);
                int value = 0;
                if (st == TTT_IN_PROGRESS)
                    value = -plain_minimax(game).value;
                else if (st != TTT_DRAW)
                    value = (st == TTT_X_WON) == (mover == TTT_X) ? 1 : -1;
                assert_int_equal(value, expected.value);
                assert_int_equal(ttt_undo(game), TTT_OK);
            }
            ttt_game_free(game);
        }
    }
    /* The limit turned some won or lost position into a draw. */
    assert_true(changed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_set_and_get),
        cmocka_unit_test(test_names_invalid_arguments),
        cmocka_unit_test(test_names_length_limit),
        cmocka_unit_test(test_names_bad_bytes),
        cmocka_unit_test(test_names_clone_and_reset),
        cmocka_unit_test(test_names_memory),
        cmocka_unit_test(test_names_caller_memory),
        cmocka_unit_test(test_footprint_promise),
        cmocka_unit_test(test_resign),
        cmocka_unit_test(test_agree_draw),
        cmocka_unit_test(test_undo_redo_endings),
        cmocka_unit_test(test_playout_drops_undone_ending),
        cmocka_unit_test(test_ply_limit_rule),
        cmocka_unit_test(test_ply_limit_precedence),
        cmocka_unit_test(test_ply_limit_big_boards),
        cmocka_unit_test(test_ending_on_the_board),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_listener_cannot_end_or_rename),
        cmocka_unit_test(test_record_names_and_endings),
        cmocka_unit_test(test_record_name_round_trip),
        cmocka_unit_test(test_record_old_records_unchanged),
        cmocka_unit_test(test_record_malformed),
        cmocka_unit_test(test_record_prefixes),
        cmocka_unit_test(test_ply_limit_playouts),
        cmocka_unit_test(test_ply_limit_perft),
        cmocka_unit_test(test_ply_limit_solve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
