/* header_check.c - ttt.h compiles alone (built as C99 and as C11) and matches the linked library. */
#include "ttt.h"

/* Every public type and constant is usable with nothing else included. */
static void on_event(void *user, const ttt_event *event)
{
    (void)user;
    (void)event;
}

int main(void)
{
    ttt_allocator alloc = {0, 0, 0};
    ttt_listener listener = on_event;
    ttt_game *game = 0;
    int8_t cells[TTT_MIN_SIZE * TTT_MIN_SIZE];
    size_t len = 0;
    int failures = 0;

    (void)listener;
    if (ttt_version() != TTT_VERSION_NUMBER) {
        failures++;
    }
    /* A zeroed allocator is not used: NULL means malloc. */
    if (ttt_game_new_with(TTT_MIN_SIZE, 0, alloc.alloc ? &alloc : 0, &game) != TTT_OK) {
        return 1;
    }
    if (ttt_play(game, TTT_X, 1, 1, 0) != TTT_OK ||
        ttt_board(game, cells, sizeof cells, &len) != TTT_OK || len != 9 ||
        cells[4] != TTT_X || ttt_to_move(game) != TTT_O) {
        failures++;
    }
    ttt_game_free(game);
    return failures == 0 ? 0 : 1;
}
