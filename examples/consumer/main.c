/* main.c - a program built against a vendored libttt: plays a game, prints the board and its record. */
#include <stdio.h>

#include "ttt.h"

static int fail(const char *what, int status)
{
    fprintf(stderr, "consumer: %s: %s\n", what, ttt_strerror(status));
    return 1;
}

int main(void)
{
    if (ttt_version() != TTT_VERSION_NUMBER) {
        fprintf(stderr, "consumer: built with ttt.h %d, linked with libttt %d\n",
                TTT_VERSION_NUMBER, ttt_version());
        return 1;
    }

    ttt_game *game;
    int status = ttt_game_new(3, 0, &game);
    if (status != TTT_OK)
        return fail("new game", status);

    /* X takes the top row while O plays the middle one. */
    static const int moves[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}};
    int state = TTT_IN_PROGRESS;
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        status = ttt_play(game, ttt_to_move(game), moves[i][0], moves[i][1], &state);
        if (status != TTT_OK) {
            ttt_game_free(game);
            return fail("play", status);
        }
    }

    int8_t cells[9];
    size_t len;
    char record[128];
    size_t record_len;
    if ((status = ttt_board(game, cells, sizeof cells, &len)) != TTT_OK ||
        (status = ttt_game_save(game, record, sizeof record, &record_len)) != TTT_OK) {
        ttt_game_free(game);
        return fail("read", status);
    }
    for (size_t i = 0; i < len; i++)
        printf("%c%s", cells[i] == TTT_X ? 'X' : cells[i] == TTT_O ? 'O' : '.',
               i % 3 == 2 ? "\n" : " ");
    printf("libttt %s, state %d, record %s", ttt_version_string(), state, record);
    ttt_game_free(game);
    return state == TTT_X_WON ? 0 : 1;
}
