/* fuzz_load.c - libFuzzer target: ttt_game_load on arbitrary bytes never misbehaves, and what it accepts saves back as its own line. */

/* The loaded game is then rebuilt through the public calls alone (its
 * width and height, rules with gravity since 1.3, the ply limit, the moves,
 * the names and a resignation or agreed draw) and must equal it in state,
 * ending, board and record. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes, so AddressSanitizer catches any read
     * past the length the parser was given (no NUL to lean on). */
    char *text = malloc(size == 0 ? 1 : size);
    if (text == NULL)
        return 0;
    if (size > 0)
        memcpy(text, data, size);

    ttt_game *game = NULL;
    size_t offset = (size_t)-1;
    int status = ttt_game_load(text, size, NULL, &game, &offset);
    if (status != TTT_OK) {
        /* A refusal names a real status, leaves *out alone and points at a
         * byte inside the text (or just past it, for a cut-off record). */
        if (game != NULL || status >= 0 || offset > size ||
            strcmp(ttt_strerror(status), "unknown error") == 0)
            __builtin_trap();
        /* and says what it wanted there (NOMEM cannot happen here). */
        if (ttt_game_load_expected(text, size)[0] == '\0')
            __builtin_trap();
        free(text);
        return 0;
    }

    /* The record is canonical: saving gives back the very same line, and
     * what followed it in the text was only line ends (LF or CR LF): the
     * one after the record, if any, and blank lines. */
    size_t len = 0;
    if (ttt_game_save(game, NULL, 0, &len) != TTT_E_BUFFER || len == 0 ||
        len - 1 > size)
        __builtin_trap();
    char *again = malloc(len + 1);
    if (again == NULL)
        __builtin_trap();
    if (ttt_game_save(game, again, len + 1, &len) != TTT_OK ||
        memcmp(again, text, len - 1) != 0 || again[len - 1] != '\n' ||
        again[len] != '\0')
        __builtin_trap();
    for (size_t i = len - 1; i < size; i++)
        if (text[i] != '\n' &&
            !(text[i] == '\r' && i + 1 < size && text[i + 1] == '\n'))
            __builtin_trap();
    /* The expected-text call agrees: nothing was wanted. */
    if (ttt_game_load_expected(text, size)[0] != '\0')
        __builtin_trap();

    /* The loaded game is a consistent one: its history replays into a fresh
     * game (with the same rules) to the same state and board. */
    int width = ttt_width(game), height = ttt_height(game);
    int k = ttt_win_length(game), misere = 0, early = 0, gravity = 0;
    int limit = 0;
    ttt_game *replay = NULL;
    /* ttt_size agrees with the shape: a square's side, or a rectangle's
     * documented refusal. */
    if (ttt_size(game) != (width == height ? width : TTT_E_SIZE))
        __builtin_trap();
    if (ttt_game_get_rule(game, TTT_RULE_MISERE, &misere) != TTT_OK ||
        ttt_game_get_rule(game, TTT_RULE_EARLY_DRAW, &early) != TTT_OK ||
        ttt_game_get_rule(game, TTT_RULE_GRAVITY, &gravity) != TTT_OK ||
        ttt_game_get_rule(game, TTT_RULE_PLY_LIMIT, &limit) != TTT_OK ||
        ttt_game_new_rect(width, height, k, &replay) != TTT_OK ||
        ttt_game_set_rule(replay, TTT_RULE_MISERE, misere) != TTT_OK ||
        ttt_game_set_rule(replay, TTT_RULE_EARLY_DRAW, early) != TTT_OK ||
        ttt_game_set_rule(replay, TTT_RULE_GRAVITY, gravity) != TTT_OK ||
        ttt_game_set_rule(replay, TTT_RULE_PLY_LIMIT, limit) != TTT_OK)
        __builtin_trap();
    for (int ply = 0; ply < ttt_ply(game); ply++) {
        int mark, row, col;
        if (ttt_move_at(game, ply, &mark, &row, &col) != TTT_OK ||
            ttt_play(replay, mark, row, col, NULL) != TTT_OK)
            __builtin_trap();
    }
    /* Names: valid (they took them once) and copied over. */
    for (int mark = TTT_O; mark <= TTT_X; mark += 2) {
        char name[TTT_NAME_MAX + 1];
        size_t name_len = 0;
        if (ttt_game_get_name(game, mark, name, sizeof name, &name_len) !=
                TTT_OK ||
            strlen(name) != name_len ||
            ttt_game_set_name(replay, mark, name, name_len) != TTT_OK)
            __builtin_trap();
    }
    /* An ending off the board: the loser of a resigned game resigns. */
    int ending = ttt_ending(game);
    if (ending == TTT_END_RESIGN &&
        ttt_resign(replay, ttt_state(game) == TTT_X_WON ? TTT_O : TTT_X,
                   NULL) != TTT_OK)
        __builtin_trap();
    if (ending == TTT_END_AGREED && ttt_agree_draw(replay, NULL) != TTT_OK)
        __builtin_trap();
    if (ttt_state(replay) != ttt_state(game) || ttt_redo_count(game) != 0 ||
        ttt_ending(replay) != ending ||
        (ending == TTT_END_NONE) != (ttt_state(game) == TTT_IN_PROGRESS))
        __builtin_trap();
    size_t replay_len = 0;
    char *replayed = malloc(len + 1);
    if (replayed == NULL ||
        ttt_game_save(replay, replayed, len + 1, &replay_len) != TTT_OK ||
        replay_len != len || memcmp(replayed, again, len) != 0)
        __builtin_trap();
    free(replayed);
    size_t cells = (size_t)width * (size_t)height, got_a = 0, got_b = 0;
    int8_t *a = malloc(cells), *b = malloc(cells);
    if (a == NULL || b == NULL ||
        ttt_board(game, a, cells, &got_a) != TTT_OK ||
        ttt_board(replay, b, cells, &got_b) != TTT_OK || got_a != cells ||
        got_b != cells || memcmp(a, b, cells) != 0)
        __builtin_trap();

    free(a);
    free(b);
    free(again);
    ttt_game_free(replay);
    ttt_game_free(game);
    free(text);
    return 0;
}
