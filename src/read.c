/* read.c - reading a game: its geometry, state, cells, history, winning line, board and legal moves, each under one lock. */
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Size and win length are fixed at creation, so they need no lock. */
int ttt_size(const ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    return game->board.width == game->board.height ? game->board.n
                                                   : TTT_E_SIZE;
}

int ttt_width(const ttt_game *game)
{
    return game ? game->board.width : TTT_E_INVALID;
}

int ttt_height(const ttt_game *game)
{
    return game ? game->board.height : TTT_E_INVALID;
}

int ttt_win_length(const ttt_game *game)
{
    return game ? game->board.k : TTT_E_INVALID;
}

int ttt_state(const ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__lock(game);
    int state = game->state;
    ttt__unlock(game);
    return state;
}

int ttt_ply(const ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__lock(game);
    int ply = ply_of(game);
    ttt__unlock(game);
    return ply;
}

int ttt_redo_count(const ttt_game *game)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__lock(game);
    int count = TTT__REDO_CELLS(game->redo_count) +
                (TTT__REDO_ENDING(game->redo_count) != TTT__ENDING_NONE);
    ttt__unlock(game);
    return count;
}

int ttt_to_move(const ttt_game *game)
{
    if (!game)
        return TTT_EMPTY;
    ttt__lock(game);
    int mark = game->state == TTT_IN_PROGRESS ? ttt__mover_at(ply_of(game))
                                              : TTT_EMPTY;
    ttt__unlock(game);
    return mark;
}

int ttt_cell(const ttt_game *game, int row, int col, int *mark)
{
    if (!game || !mark)
        return TTT_E_INVALID;
    int n = game->board.n;
    if ((unsigned)row >= (unsigned)game->board.height ||
        (unsigned)col >= (unsigned)n)
        return TTT_E_OFF_BOARD;
    ttt__lock(game);
    *mark = ttt__board_mark(&game->board, row * n + col);
    ttt__unlock(game);
    return TTT_OK;
}

int ttt_move_at(const ttt_game *game, int ply, int *mark, int *row, int *col)
{
    if (!game)
        return TTT_E_INVALID;
    ttt__lock(game);
    if (ply < 0 || ply >= ply_of(game)) {
        ttt__unlock(game);
        return TTT_E_RANGE;
    }
    int32_t packed = ttt__board_move_at(&game->board, ply);
    ttt__unlock(game);
    if (mark)
        *mark = ttt__mover_at(ply);
    if (row)
        *row = TTT__ROW(packed);
    if (col)
        *col = TTT__COL(packed);
    return TTT_OK;
}

int ttt_winning_line(const ttt_game *game, int *row0, int *col0, int *row1,
                     int *col1)
{
    if (!game)
        return TTT_E_INVALID;
    int ends[4];
    int found = 0;
    ttt__lock(game);
    /* A resignation may follow any move, even none. */
    if ((game->state == TTT_X_WON || game->state == TTT_O_WON) &&
        game->ending == TTT__ENDING_NONE) {
        /* Only the last move can have completed the line. */
        int32_t packed = game->board.order[game->board.empty_count];
        found = ttt__board_line_through(&game->board, TTT__ROW(packed),
                                        TTT__COL(packed),
                                        ttt__mover_at(ply_of(game) - 1), ends);
    }
    ttt__unlock(game);
    if (!found)
        return TTT_E_NO_LINE;
    if (row0)
        *row0 = ends[0];
    if (col0)
        *col0 = ends[1];
    if (row1)
        *row1 = ends[2];
    if (col1)
        *col1 = ends[3];
    return TTT_OK;
}

int ttt_board(const ttt_game *game, int8_t *cells, size_t capacity,
              size_t *len)
{
    if (!game || !len || (!cells && capacity > 0))
        return TTT_E_INVALID;
    size_t needed = (size_t)game->board.nn;
    *len = needed;
    if (capacity < needed)
        return TTT_E_BUFFER;
    ttt__lock(game);
    for (size_t cell = 0; cell < needed; cell++)
        cells[cell] = (int8_t)ttt__board_mark(&game->board, (int32_t)cell);
    ttt__unlock(game);
    return TTT_OK;
}

/* Moves the largest of the heap below end, rooted at root, down to its
 * place. */
static void sift_down(int32_t *heap, size_t root, size_t end)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= end)
            return;
        if (child + 1 < end && heap[child + 1] > heap[child])
            child++;
        if (heap[root] >= heap[child])
            return;
        int32_t held = heap[root];
        heap[root] = heap[child];
        heap[child] = held;
        root = child;
    }
}

/* Sorts count cell numbers ascending in place: heapsort, O(count log
 * count) at worst and no memory beyond the array. */
static void sort_cells(int32_t *cells, size_t count)
{
    for (size_t root = count / 2; root-- > 0;)
        sift_down(cells, root, count);
    for (size_t end = count; end-- > 1;) {
        int32_t largest = cells[0];
        cells[0] = cells[end];
        cells[end] = largest;
        sift_down(cells, 0, end);
    }
}

int ttt_legal_moves(const ttt_game *game, int32_t *cells, size_t capacity,
                    size_t *len)
{
    if (!game || !len || (!cells && capacity > 0))
        return TTT_E_INVALID;
    const ttt__board *board = &game->board;
    int32_t nn = board->nn;
    ttt__lock(game);
    /* The count and the list come from the same locked moment: a play
     * between two calls could otherwise overrun a capacity sized by the
     * first. */
    size_t count = 0;
    if (game->state != TTT_IN_PROGRESS) {
        count = 0;
    } else if (board->gravity) {
        for (int col = 0; col < board->n; col++)
            count += ttt__board_landing_row(board, col) >= 0;
    } else {
        count = (size_t)board->empty_count;
    }
    if (capacity < count) {
        ttt__unlock(game);
        *len = count;
        return TTT_E_BUFFER;
    }
    size_t written = 0;
    if (board->gravity && count > 0) {
        /* Landing cells come column by column; the caller wants them by
         * cell number (higher rows first). Sorting them in the caller's
         * array itself needs no memory of ours. */
        for (int col = 0; col < board->n; col++) {
            int row = ttt__board_landing_row(board, col);
            if (row >= 0)
                cells[written++] = row * board->n + col;
        }
        sort_cells(cells, written);
    } else {
        for (int32_t cell = 0; written < count && cell < nn; cell++)
            if (ttt__board_mark(board, cell) == TTT_EMPTY)
                cells[written++] = cell;
    }
    ttt__unlock(game);
    *len = written;
    return TTT_OK;
}
