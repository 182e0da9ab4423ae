/* playout.c - the random player. */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "playout.h"

/* ------------------------------------------------------------------------ */
/* Random numbers: splitmix64 and exactly uniform bounded draws (random.h),
 * shared with the board, so the random player plays the same moves one call
 * at a time or a whole game at once. */

/* The random player's move on a game in progress: a random empty cell, or
 * under gravity a random open column's landing cell. */
static inline int32_t random_move_cell(const ttt__board *board, uint64_t *seed)
{
    if (TTT__RARE(board->gravity))
        return ttt__board_random_drop(board, seed);
    return ttt__board_random_cell(board, seed);
}

int ttt_random_move(const ttt_game *game, uint64_t *seed, int *row, int *col)
{
    if (!game || !seed || !row || !col)
        return TTT_E_INVALID;
    uint64_t rng = *seed;
    ttt__lock(game);
    if (game->state != TTT_IN_PROGRESS) {
        ttt__unlock(game);
        return TTT_E_GAME_OVER;
    }
    int32_t packed = random_move_cell(&game->board, &rng);
    ttt__unlock(game);
    *seed = rng;
    *row = TTT__ROW(packed);
    *col = TTT__COL(packed);
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Whole random games                                                        */

/* Plays random moves on a game in progress, which the caller holds, until
 * it ends, telling no listener: the moves of ttt_random_move then ttt_play. */
static void play_out_quietly(ttt_game *game, uint64_t *rng)
{
    game->redo_count = 0;
    if (game->early_draw || game->limit_empty || game->board.gravity) {
        /* The board sees neither an early draw nor the ply limit, and
         * fills any empty cell: a move at a time. */
        do {
            int32_t packed = random_move_cell(&game->board, rng);
            apply_move(game, ttt__mover_at(ply_of(game)), TTT__ROW(packed),
                       TTT__COL(packed));
        } while (game->state == TTT_IN_PROGRESS);
        return;
    }
    /* The board runs to a line or a full board by itself. */
    int completed =
        ttt__board_random_fill(&game->board, rng, ttt__mover_at(ply_of(game)));
    game->state = completed ? state_won_by(game, completed) : TTT_DRAW;
}

int ttt_random_playout(ttt_game *game, uint64_t *seed, int *state)
{
    if (!game || !seed)
        return TTT_E_INVALID;
    uint64_t rng = *seed;
    pending_event pending;
    int status = lock_for_change(game);
    if (status != TTT_OK)
        return status;
    if (game->state != TTT_IN_PROGRESS) {
        ttt__unlock(game);
        return TTT_E_GAME_OVER;
    }
    if (!game->listener) {
        play_out_quietly(game, &rng);
    } else {
        /* The lock is let go only while the listener runs, and other
         * changes wait for it to return, so the game is still this
         * playout's afterwards. Once the listener is removed, the rest is
         * played without events (and without letting go of the lock). */
        game->redo_count = 0;
        do {
            int32_t packed = random_move_cell(&game->board, &rng);
            int mark = ttt__mover_at(ply_of(game));
            apply_move(game, mark, TTT__ROW(packed), TTT__COL(packed));
            capture(game, &pending, TTT_EVENT_PLAY, mark, TTT__ROW(packed),
                    TTT__COL(packed));
            if (pending.listener) {
                ttt__unlock(game);
                deliver_and_lock(game, &pending);
            }
        } while (game->state == TTT_IN_PROGRESS);
    }
    int final_state = game->state;
    ttt__unlock(game);
    *seed = rng;
    if (state)
        *state = final_state;
    return TTT_OK;
}

int ttt_random_playouts(const ttt_game *game, uint64_t *seed, uint64_t games,
                        uint64_t results[4])
{
    if (!game || !seed || !results)
        return TTT_E_INVALID;
    uint64_t rng = *seed;
    uint64_t counts[4] = {0, 0, 0, 0};
    ttt__small_board small;
    ttt__gravity_board gravity;
    ttt__lock(game);
    if (game->state != TTT_IN_PROGRESS) {
        ttt__unlock(game);
        return TTT_E_GAME_OVER;
    }
    int mover = ttt__mover_at(ply_of(game));
    if (!game->limit_empty && ttt__small_load(&game->board, mover, &small)) {
        /* Up to 4x4 with K = N and no ply limit: every game in registers,
         * no copy at all. */
        int won_by_mover = state_won_by(game, mover);
        int won_by_other = state_won_by(game, -mover);
        ttt__unlock(game);
        uint64_t by_result[3];
        ttt__small_random_games(&small, &rng, games, by_result);
        counts[won_by_mover] += by_result[2];
        counts[won_by_other] += by_result[0];
        counts[TTT_DRAW] += by_result[1];
    } else if (!game->limit_empty && !game->early_draw &&
               ttt__gravity_load(&game->board, mover, &gravity)) {
        /* Gravity on a board that fits a word: every game on a bitboard,
         * no copy at all. */
        int won_by_mover = state_won_by(game, mover);
        int won_by_other = state_won_by(game, -mover);
        ttt__unlock(game);
        uint64_t by_result[3];
        ttt__gravity_random_games(&gravity, &rng, games, by_result);
        counts[won_by_mover] += by_result[2];
        counts[won_by_other] += by_result[0];
        counts[TTT_DRAW] += by_result[1];
    } else {
        /* A copy of the position and a copy to play on, so that the game
         * is locked only while it is copied. The allocator runs without
         * the lock, so the game may have ended meanwhile: look again. */
        ttt__unlock(game);
        size_t align = _Alignof(max_align_t);
        /* The second copy's start: a game's bytes fit (it exists), and
         * so does twice that rounded, or the allocation fails. */
        size_t bytes = ttt__size_round(ttt__game_bytes(game), align);
        char *mem = ttt__size_ok(ttt__size_mul(2, bytes))
                        ? game->alloc.alloc(game->alloc.user, 2 * bytes)
                        : NULL;
        if (!mem)
            return TTT_E_NOMEM;
        ttt__lock(game);
        if (game->state != TTT_IN_PROGRESS) {
            ttt__unlock(game);
            game->alloc.dealloc(game->alloc.user, mem);
            return TTT_E_GAME_OVER;
        }
        const ttt_game *start = ttt__game_copy(mem, game);
        ttt__unlock(game);
        for (uint64_t i = 0; i < games; i++) {
            ttt_game *work = ttt__game_copy(mem + bytes, start);
            play_out_quietly(work, &rng);
            counts[work->state]++;
        }
        game->alloc.dealloc(game->alloc.user, mem);
    }
    memcpy(results, counts, sizeof counts);
    *seed = rng;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Games in registers: 3x3 and 4x4 with K = N                                */

/*
 * Boards of 3x3 and 4x4 with K = N play random games in registers
 * (ttt__small_board). Each side's line counts are 6-bit lanes of one
 * uint64_t, in the order of lines[]: rows, columns, diagonal, anti-diagonal.
 * A mark adds its cell's lanes; a lane reaching n completes a line, which
 * adding 32 - n to every lane turns into that lane's bit 5.
 */
#define LANE(i) (UINT64_C(1) << (6 * (i)))
#define ALL_LANES UINT64_C(0x041041041041041) /* lanes 0 .. 9 */
/* The lanes of the cell at entry rc = row * 4 + col of an n x n board. */
#define CELL_LANES(n, rc)                                                   \
    (LANE((rc) >> 2) | LANE((n) + ((rc) & 3)) |                              \
     (((rc) >> 2) == ((rc) & 3) ? LANE(2 * (n)) : 0) |                       \
     (((rc) >> 2) + ((rc) & 3) == (n) - 1 ? LANE(2 * (n) + 1) : 0))
#define CELL_LANES_OF(n)                                                     \
    {CELL_LANES(n, 0),  CELL_LANES(n, 1),  CELL_LANES(n, 2),                 \
     CELL_LANES(n, 3),  CELL_LANES(n, 4),  CELL_LANES(n, 5),                 \
     CELL_LANES(n, 6),  CELL_LANES(n, 7),  CELL_LANES(n, 8),                 \
     CELL_LANES(n, 9),  CELL_LANES(n, 10), CELL_LANES(n, 11),                \
     CELL_LANES(n, 12), CELL_LANES(n, 13), CELL_LANES(n, 14),                \
     CELL_LANES(n, 15)}

static const uint64_t lanes_3x3[16] = CELL_LANES_OF(3);
static const uint64_t lanes_4x4[16] = CELL_LANES_OF(4);

static unsigned packed_entry(int32_t packed)
{
    return (unsigned)(TTT__ROW(packed) << 2 | TTT__COL(packed));
}

int ttt__small_load(const ttt__board *board, int mark, ttt__small_board *small)
{
    int n = board->n;
    if (n > TTT__SMALL_MAX || board->slow_moves)
        return 0;
    const uint64_t *lanes = n == 3 ? lanes_3x3 : lanes_4x4;
    int32_t empty = board->empty_count;
    uint64_t empty_cells = 0, lanes_of[2] = {0, 0};
    /* Upside down: order[empty - 1] ends in the lowest 4 bits. */
    for (int32_t i = 0; i < empty; i++)
        empty_cells = empty_cells << 4 | packed_entry(board->order[i]);
    for (int32_t i = empty; i < board->nn; i++) {
        int32_t packed = board->order[i];
        int placed = ttt__board_mark(board, TTT__ROW(packed) * n + TTT__COL(packed));
        lanes_of[placed != mark] += lanes[packed_entry(packed)];
    }
    small->empty_cells = empty_cells;
    small->placed = 0;
    small->to_move = lanes_of[0];
    small->other = lanes_of[1];
    small->empty_count = empty;
    small->n = n;
    return 1;
}

/* One ply on a packed board, as ttt__board_take does it on order[]: draw an
 * index, give it the top empty entry (the lowest 4 bits) and drop the top.
 * Then the mover's lanes; returns nonzero if that completed a line. */
static inline int small_ply(ttt__small_board *small, uint64_t *mover,
                            uint64_t *rng, const uint64_t *lanes, int n)
{
    uint32_t empty = (uint32_t)small->empty_count;
    uint32_t pick = ttt__random_below(rng, empty);
    uint32_t shift = 4 * (empty - 1 - pick);
    uint64_t cells = small->empty_cells;
    unsigned cell = (unsigned)(cells >> shift) & 15;
    uint64_t diff = (cell ^ cells) & 15; /* the drawn entry ^ the top one */
    small->empty_cells = (cells ^ diff << shift) >> 4;
    small->placed = small->placed << 4 | cell;
    small->empty_count = (int32_t)empty - 1;
    *mover += lanes[cell];
    return ((*mover + ALL_LANES * (uint64_t)(32 - n)) & ALL_LANES * 32) != 0;
}

/* ttt__board_random_fill on a packed board of side n (a constant where it
 * is inlined); returns 1 if the side to move at the start completed a line,
 * -1 if the other side did, 0 if the board filled. Two plies a turn of the
 * loop, so that each side's counts stay in their own register. */
static inline int small_random_fill(ttt__small_board *small, uint64_t *seed,
                                    int n)
{
    const uint64_t *lanes = n == 3 ? lanes_3x3 : lanes_4x4;
    ttt__small_board work = *small; /* in registers, whatever small is */
    uint64_t first = work.to_move, second = work.other;
    uint64_t rng = *seed;
    int completed = 0;
    while (work.empty_count > 0) {
        if (small_ply(&work, &first, &rng, lanes, n)) {
            completed = 1;
            break;
        }
        if (work.empty_count == 0)
            break;
        if (small_ply(&work, &second, &rng, lanes, n)) {
            completed = -1;
            break;
        }
    }
    *seed = rng;
    /* The side to move next is the first mover after an even number of
     * plies. */
    int first_next = (small->empty_count - work.empty_count) % 2 == 0;
    work.to_move = first_next ? first : second;
    work.other = first_next ? second : first;
    *small = work;
    return completed;
}

/* Many games from one position, with n a constant. */
static inline void small_random_games(const ttt__small_board *small,
                                      uint64_t *seed, uint64_t games,
                                      uint64_t by_result[3], int n)
{
    uint64_t rng = *seed;
    for (uint64_t game = 0; game < games; game++) {
        ttt__small_board work = *small;
        by_result[small_random_fill(&work, &rng, n) + 1]++;
    }
    *seed = rng;
}

void ttt__small_random_games(const ttt__small_board *small, uint64_t *seed,
                             uint64_t games, uint64_t by_result[3])
{
    by_result[0] = by_result[1] = by_result[2] = 0;
    if (small->n == 3)
        small_random_games(small, seed, games, by_result, 3);
    else
        small_random_games(small, seed, games, by_result, 4);
}

/* Puts the cell of entry rc at index i of order[], with cells[] entry
 * cell_entry. */
static void put_entry(ttt__board *board, int32_t i, unsigned rc,
                      int32_t cell_entry)
{
    int row = (int)(rc >> 2), col = (int)(rc & 3);
    board->order[i] = TTT__PACK(row, col);
    board->cells[row * board->n + col] = cell_entry;
}

/* Writes small, loaded from board with mark to move and then played on,
 * back into board. */
static void small_store(const ttt__small_board *small, ttt__board *board,
                        int mark)
{
    int32_t start = board->empty_count, empty = small->empty_count;
    /* The mark of the last ply: mark's after an odd number of plies. */
    int last = (start - empty) % 2 ? mark : -mark;
    uint64_t entries = small->empty_cells;
    for (int32_t i = empty - 1; i >= 0; i--, entries >>= 4)
        put_entry(board, i, (unsigned)entries & 15, TTT__BARE_ENTRY(i));
    /* The placed cells, the latest lowest, go to order[empty ..] most
     * recent first. The first of them, ply start - empty, was mark's if
     * that count is odd; the marks alternate back from there. */
    entries = small->placed;
    int placed_mark = last;
    for (int32_t i = empty; i < start; i++, entries >>= 4) {
        put_entry(board, i, (unsigned)entries & 15, TTT__ENTRY(i, placed_mark));
        placed_mark = -placed_mark;
    }
    /* The last mover's lanes are other. */
    uint64_t x = last == TTT_X ? small->other : small->to_move;
    uint64_t o = last == TTT_X ? small->to_move : small->other;
    for (int line = 0; line < 2 * board->n + 2; line++, x >>= 6, o >>= 6)
        board->lines[line].sum = (int16_t)((int)(x & 63) - (int)(o & 63));
    board->empty_count = empty;
}

int ttt__board_random_fill(ttt__board *board, uint64_t *seed, int mark)
{
    ttt__small_board small;
    if (ttt__small_load(board, mark, &small)) {
        int completed = small.n == 3 ? small_random_fill(&small, seed, 3)
                                     : small_random_fill(&small, seed, 4);
        small_store(&small, board, mark);
        return completed * mark;
    }
    if (board->slow_moves) {
        while (board->empty_count > 0) {
            int32_t packed = ttt__board_random_cell(board, seed);
            if (ttt__board_place(board, TTT__ROW(packed), TTT__COL(packed), mark))
                return mark;
            mark = -mark;
        }
        return 0;
    }
    /* ttt__board_place for K = N, with the arrays and the empty count in
     * locals: the stores below cannot then force them to be reloaded, which
     * calling it would do once a move. */
    int n = board->n;
    int32_t *order = board->order, *cells = board->cells;
    ttt__line *lines = board->lines;
    int32_t empty = board->empty_count;
    int winner = 0;
    while (empty > 0) {
        int32_t pick = (int32_t)ttt__random_below(seed, (uint32_t)empty);
        int32_t packed = order[pick];
        int row = TTT__ROW(packed), col = TTT__COL(packed);
        /* The drawn cell sits at index pick: swap it to the top. */
        int32_t top = --empty;
        int32_t moved = order[top];
        order[pick] = moved;
        cells[TTT__ROW(moved) * n + TTT__COL(moved)] = TTT__BARE_ENTRY(pick);
        order[top] = packed;
        cells[row * n + col] = TTT__ENTRY(top, mark);
        if (ttt__lines_add(lines, n, row, col, mark)) {
            winner = mark;
            break;
        }
        mark = -mark;
    }
    board->empty_count = empty;
    return winner;
}

/* ------------------------------------------------------------------------ */
/* Gravity games on a bitboard                                               */

int ttt__gravity_load(const ttt__board *board, int mark, ttt__gravity_board *gb)
{
    int32_t width = board->width, height = board->height, k = board->k;
    int32_t stride = height + 1;
    if (!board->gravity || (int64_t)width * stride > 64 ||
        width > TTT__GRAVITY_COLUMNS)
        return 0;
    ttt__gravity_board loaded;
    memset(&loaded, 0, sizeof loaded);
    loaded.k = k;
    /* A direction counts only if a line fits along it, which also keeps
     * every shift of the line check, (k - 1) * stride, below 64. */
    if (height >= k)
        loaded.strides[loaded.directions++] = 1;
    if (width >= k)
        loaded.strides[loaded.directions++] = stride;
    if (width >= k && height >= k) {
        loaded.strides[loaded.directions++] = height;
        loaded.strides[loaded.directions++] = height + 2;
    }
    for (int32_t col = 0; col < width; col++) {
        uint64_t bit = UINT64_C(1) << (col * stride);
        loaded.top |= bit << (height - 1);
        int32_t fill = 0;
        for (int32_t up = 0; up < height; up++) {
            int placed = ttt__board_mark(board, (height - 1 - up) * width + col);
            if (placed == mark)
                loaded.to_move |= bit << up;
            else if (placed != TTT_EMPTY)
                loaded.other |= bit << up;
            fill += placed != TTT_EMPTY;
        }
        if (fill < height) {
            loaded.landing[col] = bit << fill;
            loaded.columns |= (uint64_t)col << (4 * loaded.open);
            loaded.open++;
        }
    }
    *gb = loaded;
    return 1;
}

/* Whether stones hold k in a row along one of gb's directions. Where this
 * is inlined with k 4 and stride a constant (stride > 0: all four
 * directions fit, the vertical one being 1, then stride - 1, stride and
 * stride + 1), every shift is an immediate and the check is twelve
 * instructions; stride 0 reads the directions from gb. */
static inline int gravity_line(const ttt__gravity_board *gb, uint64_t stones,
                               int k, int32_t stride)
{
    if (k == 4 && stride > 0) {
        uint64_t v = stones & (stones >> 1);
        uint64_t h = stones & (stones >> stride);
        uint64_t d = stones & (stones >> (stride - 1));
        uint64_t a = stones & (stones >> (stride + 1));
        return ((v & (v >> 2)) | (h & (h >> (2 * stride))) |
                (d & (d >> (2 * (stride - 1)))) | (a & (a >> (2 * (stride + 1))))) != 0;
    }
    uint64_t found = 0;
    for (int32_t d = 0; d < gb->directions; d++) {
        int32_t s = gb->strides[d];
        uint64_t run = stones;
        for (int m = 1; m < k; m++)
            run &= stones >> (m * s);
        found |= run;
    }
    return found != 0;
}

/* One game from gb: 1 if the side to move at the start completed a line,
 * -1 if the other side did, 0 for a full board. */
static inline int gravity_random_game(const ttt__gravity_board *gb,
                                      uint64_t *seed, int k, int32_t stride)
{
    uint64_t landing[TTT__GRAVITY_COLUMNS];
    memcpy(landing, gb->landing, sizeof landing);
    uint64_t mover = gb->to_move, waiting = gb->other;
    uint64_t columns = gb->columns, top = gb->top;
    uint64_t rng = *seed;
    uint32_t open = (uint32_t)gb->open;
    int result = 0, side = 1;
    while (open > 0) {
        unsigned shift = 4 * ttt__random_below(&rng, open);
        unsigned col = (unsigned)(columns >> shift) & 15;
        uint64_t move = landing[col];
        landing[col] = move << 1;
        mover |= move;
        if (TTT__RARE(move & top)) {
            /* The column is full: take it out of the list. */
            uint64_t below = (UINT64_C(1) << shift) - 1;
            columns = (columns & below) | ((columns >> 4) & ~below);
            open--;
        }
        if (TTT__RARE(gravity_line(gb, mover, k, stride))) {
            result = side;
            break;
        }
        uint64_t swap = mover;
        mover = waiting;
        waiting = swap;
        side = -side;
    }
    *seed = rng;
    return result;
}

static inline void gravity_games(const ttt__gravity_board *gb, uint64_t *seed,
                                 uint64_t games, uint64_t by_result[3], int k,
                                 int32_t stride)
{
    uint64_t rng = *seed;
    for (uint64_t game = 0; game < games; game++)
        by_result[gravity_random_game(gb, &rng, k, stride) + 1]++;
    *seed = rng;
}

void ttt__gravity_random_games(const ttt__gravity_board *gb, uint64_t *seed,
                               uint64_t games, uint64_t by_result[3])
{
    by_result[0] = by_result[1] = by_result[2] = 0;
    if (gb->k == 4 && gb->directions == 4 && gb->strides[1] == 7)
        gravity_games(gb, seed, games, by_result, 4, 7); /* Connect Four: 6 rows */
    else if (gb->k == 4 && gb->directions == 4)
        gravity_games(gb, seed, games, by_result, 4, gb->strides[1]);
    else
        gravity_games(gb, seed, games, by_result, gb->k, 0);
}
