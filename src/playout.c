/* playout.c - the random player. */
#include "internal.h"
#include "random.h"

/* ------------------------------------------------------------------------ */
/* Random numbers: splitmix64 and exactly uniform bounded draws (random.h),
 * shared with the board, so the random player plays the same moves one call
 * at a time or a whole game at once. */

int ttt_random_move(const ttt_game *game, uint64_t *seed, int *row, int *col)
{
    if (!game || !seed || !row || !col)
        return TTT_E_INVALID;
    uint64_t state = *seed;
    ttt__lock(game);
    if (game->state != TTT_IN_PROGRESS) {
        ttt__unlock(game);
        return TTT_E_GAME_OVER;
    }
    int32_t packed = ttt__board_random_cell(&game->board, &state);
    ttt__unlock(game);
    *seed = state;
    *row = TTT__ROW(packed);
    *col = TTT__COL(packed);
    return TTT_OK;
}
