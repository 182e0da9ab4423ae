/* batch_bits.c - the batch's bit path: games of up to 64 cells as one 64-bit word per side, stepped, observed and masked without a call into the game. */
#include <string.h>

#include "batch.h"
#include "compiler.h"

static bit_game *bit_game_at(const ttt_batch *batch, size_t index)
{
    return (bit_game *)(void *)(batch->bit_games + index * batch->bit_stride);
}

/* The bits where a run of k set bits of cells starts, stepping by shift:
 * runs of 1 doubled to 2, 4, ... then topped up to k, so k = 4 costs two
 * shifts. Bits shifted in from above the board are zero, and the spare
 * column ends every row, so no run leaves the board. */
static inline uint64_t runs_of(uint64_t cells, int k, int shift)
{
    int len = 1;
    while (2 * len <= k) {
        cells &= cells >> (len * shift);
        len *= 2;
    }
    if (len < k)
        cells &= cells >> ((k - len) * shift);
    return cells;
}

/* Whether cells hold a line of k (the batch's K, passed so that a caller
 * with a constant gets the shifts unrolled). A direction no line fits in
 * repeats one that does, or with none, every shift is 0 and line_any 0.
 * A caller that knows lines fit in all four directions may pass the pitch
 * as a constant (else 0), making every shift an immediate. */
static inline int bit_has_line(const ttt_batch *batch, uint64_t cells, int k,
                               int pitch)
{
    if (pitch == 4 && k == 3) /* only 3x3 passes these: see bit_step */
        return (int)(batch->wins_3x3[cells >> 6 & 31] >> (cells & 63) & 1);
    if (pitch)
        return (runs_of(cells, k, 1) | runs_of(cells, k, pitch) |
                runs_of(cells, k, pitch + 1) |
                runs_of(cells, k, pitch - 1)) != 0;
    const int32_t *shift = batch->line_shift;
    uint64_t found = runs_of(cells, k, shift[0]) | runs_of(cells, k, shift[1]) |
                     runs_of(cells, k, shift[2]) | runs_of(cells, k, shift[3]);
    return (found & batch->line_any) != 0;
}

/* Whether some K-window is free of one of the marks: board.live != 0. */
static int bit_any_live(const ttt_batch *batch, const bit_game *game, int k)
{
    return bit_has_line(batch, batch->cells_mask & ~game->marks[0], k, 0) ||
           bit_has_line(batch, batch->cells_mask & ~game->marks[1], k, 0);
}

/* Empties a bit game, as ttt__board_clear does. */
static void bit_clear(const ttt_batch *batch, bit_game *game)
{
    game->marks[0] = 0;
    game->marks[1] = 0;
    game->ply = 0;
    if (!batch->track_order)
        return;
    /* Whole words, which the bit game's stride has room for: fixed-size
     * copies, no call. */
    uint8_t *order = game->moves + batch->nn;
    for (int at = 0; at < 2 * batch->nn; at += 8)
        memcpy(order + at, batch->fresh + at, 8);
}

/* Puts side's mark (0 X, 1 O) on the empty cell at bit, and if the batch
 * tracks order, moves the cell in order[] exactly as ttt__board_take
 * does. */
static inline void bit_put(const ttt_batch *batch, bit_game *game, int side,
                           int bit)
{
    int cell = batch->bit_cell[bit];
    if (batch->track_order) {
        uint8_t *order = game->moves + batch->nn, *slot = order + batch->nn;
        int top = batch->nn - 1 - game->ply;
        int from = slot[cell];
        /* Without a branch: when the cell is on top already, moved is the
         * cell and every store writes what is there. */
        int moved = order[top];
        order[from] = (uint8_t)moved;
        slot[moved] = (uint8_t)from;
        order[top] = (uint8_t)cell;
        slot[cell] = (uint8_t)top;
    }
    game->moves[game->ply] = (uint8_t)cell;
    game->marks[side] |= UINT64_C(1) << bit;
    game->ply++;
}

/* Plays side's mark at bit and returns the state after it, judged in
 * apply_move's order: a line, then the ply limit or a full board, then
 * under early draw no live window. */
static inline int bit_place(const ttt_batch *batch, bit_game *game, int side,
                            int bit, int k, int pitch)
{
    bit_put(batch, game, side, bit);
    if (bit_has_line(batch, game->marks[side], k, pitch))
        return ttt__won_state(batch->misere, side ? TTT_O : TTT_X);
    if (game->ply >= batch->draw_ply ||
        (batch->early_draw && !bit_any_live(batch, game, k)))
        return TTT_DRAW;
    return TTT_IN_PROGRESS;
}

/* The bit of action for the side to move, or the status ttt_drop or
 * ttt_play_next would give for it. */
static inline int bit_of_action(const ttt_batch *batch, const bit_game *game,
                                int32_t action, int gravity, int *bit)
{
    uint64_t empty = batch->cells_mask & ~(game->marks[0] | game->marks[1]);
    if (gravity) {
        if (action < 0 || action >= batch->width)
            return TTT_E_OFF_BOARD;
        uint64_t open = empty & (batch->column_mask << action);
        if (!open)
            return TTT_E_COLUMN_FULL;
        *bit = ttt__highest_index(open); /* the lowest empty row */
        return TTT_OK;
    }
    if (action < 0 || action >= batch->nn)
        return TTT_E_OFF_BOARD;
    *bit = batch->cell_bit[action];
    if (!(empty >> *bit & 1))
        return TTT_E_OCCUPIED;
    return TTT_OK;
}

/* The random opponent's move in game index, whose turn it is, and the
 * state after it: ttt_random_move's draw (a column among the open ones
 * counted from the left, or order[] at a random empty slot). */
static inline int bit_opponent(const ttt_batch *batch, size_t index,
                               bit_game *game, int k, int gravity, int pitch)
{
    uint64_t *seed = &batch->seeds[index];
    uint64_t empty = batch->cells_mask & ~(game->marks[0] | game->marks[1]);
    int bit;
    if (gravity) {
        uint64_t open = empty & batch->row_mask;
        uint32_t pick = ttt__random_below(seed, (uint32_t)ttt__popcount64(open));
        for (; pick > 0; pick--)
            open &= open - 1;
        int col = ttt__lowest_index(open);
        bit = ttt__highest_index(empty & (batch->column_mask << col));
    } else {
        uint32_t slot = ttt__random_below(seed, (uint32_t)(batch->nn - game->ply));
        bit = batch->cell_bit[game->moves[(uint32_t)batch->nn + slot]];
    }
    return bit_place(batch, game, game->ply & 1, bit, k, pitch);
}

/* start_game on the bit path. */
void ttt__batch_bits_start(ttt_batch *batch, size_t index, int first)
{
    bit_game *game = bit_game_at(batch, index);
    bit_clear(batch, game);
    if (batch->opponent == TTT_BATCH_SELF_PLAY)
        return;
    if (ttt__batch_take_agent_side(batch, index, first) == TTT_O)
        /* One mark ends no game here (K >= 3, ply limit not 1). */
        (void)bit_opponent(batch, index, game, batch->k, batch->gravity, 0);
}

/* Whether a drawn bit game was drawn by the ply limit alone (see
 * drawn_by_limit). */
static int bit_drawn_by_limit(const ttt_batch *batch, const bit_game *game)
{
    if (batch->ply_limit == 0 || game->ply != batch->ply_limit ||
        game->ply == batch->nn)
        return 0;
    return !(batch->early_draw && !bit_any_live(batch, game, batch->k));
}

/* The bit path's geometry and rules, from a checked config. */
void ttt__batch_bits_setup(ttt_batch *batch, const ttt_batch_config *config)
{
    int width = config->width, height = config->height;
    int k = config->win_length ? config->win_length
                               : (width < height ? width : height);
    batch->nn = width * height;
    batch->pitch = width + 1;
    batch->k = k;
    batch->draw_ply = config->ply_limit > 0 && config->ply_limit < batch->nn
                          ? config->ply_limit
                          : batch->nn;
    batch->misere = config->misere;
    batch->early_draw = config->early_draw;
    batch->track_order =
        config->opponent == TTT_BOT_RANDOM && !config->gravity;
    int fits[4] = {k <= width, k <= height, k <= width && k <= height,
                   k <= width && k <= height};
    int shifts[4] = {1, batch->pitch, batch->pitch + 1, batch->pitch - 1};
    int fitting = 0;
    for (int d = 0; d < 4; d++)
        if (fits[d])
            batch->line_shift[fitting++] = shifts[d];
    for (int d = fitting; d < 4; d++)
        batch->line_shift[d] = fitting ? batch->line_shift[0] : 0;
    batch->line_any = fitting ? ~UINT64_C(0) : 0;
    for (int row = 0; row < height; row++) {
        for (int col = 0; col < width; col++) {
            int cell = row * width + col, bit = row * batch->pitch + col;
            batch->cell_bit[cell] = (uint8_t)bit;
            batch->bit_cell[bit] = (uint8_t)cell;
            batch->fresh[cell] = (uint8_t)cell;
            batch->fresh[batch->nn + cell] = (uint8_t)cell;
            batch->cells_mask |= UINT64_C(1) << bit;
        }
        batch->column_mask |= UINT64_C(1) << (row * batch->pitch);
    }
    batch->row_mask = (UINT64_C(1) << width) - 1;
    if (width == 3 && height == 3 && k == 3)
        for (uint64_t cells = 0; cells < 32 * 64; cells++)
            if ((cells & ~batch->cells_mask) == 0 &&
                bit_has_line(batch, cells, k, 0))
                batch->wins_3x3[cells >> 6] |= UINT64_C(1) << (cells & 63);
}

/* Game index's slot made the game its bit game is: reset, then its moves
 * replayed through the move path, as the general path would have played
 * them. The slot is not const: the batch lives in writable memory. */
void ttt__batch_bits_sync(const ttt_batch *batch, size_t index)
{
    ttt_game *game = ttt__batch_game_at(batch, index);
    const bit_game *bits = bit_game_at(batch, index);
    (void)ttt_game_reset(game);
    for (int ply = 0; ply < bits->ply; ply++) {
        int cell = bits->moves[ply];
        apply_move(game, ttt__mover_at(ply), cell / batch->width,
                   cell % batch->width);
    }
}

/* Rewards by state (TTT_IN_PROGRESS .. TTT_DRAW) and acting side (0 X,
 * 1 O), as reward_for gives them: a table, as the state is hard to
 * predict. */
static const float bit_rewards[4][2] = {{0, 0}, {1, -1}, {-1, 1}, {0, 0}};

/* ttt_batch_step on the bit path: the same outputs as the general path's
 * loop below, written the same way. rules is a copy of batch's header, so
 * that the byte stores into the games and outputs do not make the
 * compiler read its fields again; k and gravity are the batch's, passed
 * as constants where they are common, and pitch too (else 0) on boards
 * where lines of K fit in every direction. */
static TTT__ALWAYS_INLINE void bit_step_k(ttt_batch *batch,
                                          const ttt_batch *rules,
                                          const int32_t *actions,
                                          const uint8_t *skip,
                                          const ttt_batch_outputs *out,
                                          uint8_t *final,
                                          const int k, const int gravity,
                                          const int pitch)
{
    float *rewards = out->rewards;
    uint8_t *terminated = out->terminated, *truncated = out->truncated;
    int32_t *statuses = out->status, *outcomes = out->outcome;
    const int self_play = rules->opponent == TTT_BATCH_SELF_PLAY;
    const int reject = rules->illegal == TTT_BATCH_ILLEGAL_REJECT;
    for (size_t i = 0; i < rules->count; i++) {
        bit_game *game = bit_game_at(rules, i);
        int side = game->ply & 1;
        int bit = 0;
        int skipped = TTT__RARE(skip != NULL) && skip[i];
        int status = skipped ? TTT_OK
                             : bit_of_action(rules, game, actions[i], gravity, &bit);
        int state;
        if (statuses)
            statuses[i] = status;
        if (TTT__RARE(status != TTT_OK || skipped)) {
            if (reject || skipped) {
                if (rewards)
                    rewards[i] = 0.0f;
                if (terminated)
                    terminated[i] = 0;
                if (truncated)
                    truncated[i] = 0;
                if (outcomes)
                    outcomes[i] = TTT_IN_PROGRESS;
                continue;
            }
            state = side ? TTT_X_WON : TTT_O_WON; /* resigned */
        } else {
            state = bit_place(rules, game, side, bit, k, pitch);
            if (!self_play && state == TTT_IN_PROGRESS)
                state = bit_opponent(rules, i, game, k, gravity, pitch);
        }
        int cut = state == TTT_DRAW && bit_drawn_by_limit(rules, game);
        if (rewards)
            rewards[i] = bit_rewards[state][side];
        if (terminated)
            terminated[i] = (uint8_t)(state != TTT_IN_PROGRESS && !cut);
        if (truncated)
            truncated[i] = (uint8_t)cut;
        if (outcomes)
            outcomes[i] = state;
        if (state != TTT_IN_PROGRESS) {
            if (TTT__RARE(final != NULL))
                ttt__batch_bits_final(
                    rules, i,
                    rules->opponent == TTT_BATCH_SELF_PLAY
                        ? game->ply & 1
                        : rules->agent[i] == TTT_X ? 0 : 1,
                    final + i * 2 * (size_t)rules->nn);
            ttt__batch_bits_start(batch, i, 0);
        }
    }
}

/* bit_step_k with constants for tic-tac-toe (whose pitch 4 with K = 3
 * makes bit_has_line read wins_3x3) and Connect Four, for other boards
 * with K = 3 without gravity, K = 4 with or without, and K = 5 without,
 * and with none for the rest. */
void ttt__batch_bits_step(ttt_batch *batch, const int32_t *actions,
                          const uint8_t *skip, const ttt_batch_outputs *out,
                          uint8_t *final)
{
    ttt_batch rules = *batch;
    int k = batch->k, gravity = batch->gravity;
    int width = batch->width, height = batch->height;
    if (width == 3 && height == 3 && k == 3 && !gravity)
        bit_step_k(batch, &rules, actions, skip, out, final, 3, 0, 4);
    else if (width == 7 && height == 6 && k == 4 && gravity)
        bit_step_k(batch, &rules, actions, skip, out, final, 4, 1, 8);
    else if (k == 3 && !gravity)
        bit_step_k(batch, &rules, actions, skip, out, final, 3, 0, 0);
    else if (k == 4 && gravity)
        bit_step_k(batch, &rules, actions, skip, out, final, 4, 1, 0);
    else if (k == 4 && !gravity)
        bit_step_k(batch, &rules, actions, skip, out, final, 4, 0, 0);
    else if (k == 5 && !gravity)
        bit_step_k(batch, &rules, actions, skip, out, final, 5, 0, 0);
    else
        bit_step_k(batch, &rules, actions, skip, out, final, k, gravity, 0);
}

/* Every byte value's eight bits as eight 0/1 values, low bit first: the
 * bit path writes a row of up to eight cells with one copy. */
#define EXPAND1(n)                                                           \
    {(n) & 1, (n) >> 1 & 1, (n) >> 2 & 1, (n) >> 3 & 1, (n) >> 4 & 1,         \
     (n) >> 5 & 1, (n) >> 6 & 1, (n) >> 7 & 1}
#define EXPAND4(n) EXPAND1(n), EXPAND1((n) + 1), EXPAND1((n) + 2), EXPAND1((n) + 3)
#define EXPAND16(n) EXPAND4(n), EXPAND4((n) + 4), EXPAND4((n) + 8), EXPAND4((n) + 12)
#define EXPAND64(n)                                                          \
    EXPAND16(n), EXPAND16((n) + 16), EXPAND16((n) + 32), EXPAND16((n) + 48)
#define EXPAND256 EXPAND64(0), EXPAND64(64), EXPAND64(128), EXPAND64(192)
static const uint8_t expand_u8[256][8] = {EXPAND256};
static const float expand_f32[256][8] = {EXPAND256};

/* Writes the low `width` bits of row to dst as width values of TABLE's
 * type, eight at a time. A copy may run past the row (writing zeros, as
 * row holds no more bits) while it stays before end: the rows are written
 * in order, so the next row overwrites them; the last row's tail is
 * copied value by value. */
#define WRITE_ROW(dst, end, row, width, TABLE)                               \
    do {                                                                     \
        for (int c_ = 0; c_ < (width); c_ += 8) {                            \
            const void *src_ = (TABLE)[(row) >> c_ & 0xff];                  \
            if ((end) - ((dst) + c_) >= 8) {                                 \
                memcpy((dst) + c_, src_, sizeof (TABLE)[0]);                 \
            } else {                                                         \
                for (int t_ = c_; t_ < (width); t_++)                        \
                    (dst)[t_] = (TABLE)[(row) >> c_ & 0xff][t_ - c_];        \
            }                                                                \
        }                                                                    \
        (dst) += (width);                                                    \
    } while (0)

/* Writes the rows of word (rows of `width` cells, `pitch` bits apart) to
 * dst, advancing it. With `wide` room after them (rows of at most eight
 * cells and eight values to spare before end), each row is one copy of
 * eight values; else WRITE_ROW's. */
#define WRITE_ROWS(dst, end, word, rows, width, pitch, row_mask, wide, TABLE) \
    do {                                                                     \
        for (int r_ = 0; r_ < (rows); r_++) {                                \
            uint64_t row_ = (word) >> (r_ * (pitch)) & (row_mask);           \
            if (wide) {                                                      \
                memcpy((dst), (TABLE)[row_], sizeof (TABLE)[0]);             \
                (dst) += (width);                                            \
            } else {                                                         \
                WRITE_ROW(dst, end, row_, width, TABLE);                     \
            }                                                                \
        }                                                                    \
    } while (0)

/* How many games, from the first, have rows of at most eight cells and
 * eight values to spare after their per_game values before the end of
 * count games' values: those WRITE_ROWS writes a copy a row. */
static size_t wide_count(int width, size_t count, size_t per_game)
{
    size_t after = (8 + per_game - 1) / per_game; /* games that must follow */
    return width <= 8 && count > after ? count - after : 0;
}

/* The planes on the bit path, in name's values of type: the mover's word,
 * then the other's, row by row. The batch's fields are read once into
 * locals: the copies may alias them. */
#define DEFINE_BIT_PLANES(name, type, TABLE)                                 \
    void name(const ttt_batch *batch, type *planes)                         \
    {                                                                        \
        const size_t count = batch->count, stride = batch->bit_stride;      \
        const size_t per_game = 2 * (size_t)batch->nn;                      \
        const int width = batch->width, height = batch->height;             \
        const int pitch = batch->pitch;                                      \
        const uint64_t row_mask = batch->row_mask;                           \
        const char *games = batch->bit_games;                                \
        type *dst = planes;                                                  \
        const type *end = planes + count * per_game;                         \
        const size_t wide_games = wide_count(width, count, per_game);        \
        for (size_t g = 0; g < count; g++) {                                 \
            const bit_game *game =                                           \
                (const bit_game *)(const void *)(games + g * stride);        \
            int side = game->ply & 1;                                        \
            uint64_t mine = game->marks[side], theirs = game->marks[side ^ 1]; \
            int wide = g < wide_games;                                       \
            WRITE_ROWS(dst, end, mine, height, width, pitch, row_mask, wide, \
                       TABLE);                                               \
            WRITE_ROWS(dst, end, theirs, height, width, pitch, row_mask,     \
                       wide, TABLE);                                         \
        }                                                                    \
    }
DEFINE_BIT_PLANES(ttt__batch_bits_planes_u8, uint8_t, expand_u8)
DEFINE_BIT_PLANES(ttt__batch_bits_planes_f32, float, expand_f32)

/* The legal masks on the bit path: the empty cells row by row, or under
 * gravity the columns whose top cell is empty. */
void ttt__batch_bits_legal_mask(const ttt_batch *batch, uint8_t *mask)
{
    const size_t count = batch->count, stride = batch->bit_stride;
    const size_t actions = (size_t)batch->actions;
    const int width = batch->width, pitch = batch->pitch;
    const int rows = batch->gravity ? 1 : batch->height;
    const uint64_t row_mask = batch->row_mask, cells_mask = batch->cells_mask;
    const char *games = batch->bit_games;
    uint8_t *dst = mask;
    const uint8_t *end = mask + count * actions;
    const size_t wide_games = wide_count(width, count, actions);
    for (size_t g = 0; g < count; g++) {
        const bit_game *game =
            (const bit_game *)(const void *)(games + g * stride);
        uint64_t empty = cells_mask & ~(game->marks[0] | game->marks[1]);
        int wide = g < wide_games;
        WRITE_ROWS(dst, end, empty, rows, width, pitch, row_mask, wide,
                   expand_u8);
    }
}

void ttt__batch_bits_final(const ttt_batch *batch, size_t index, int side,
                           uint8_t *dst)
{
    const bit_game *game = bit_game_at(batch, index);
    uint64_t mine = game->marks[side], theirs = game->marks[side ^ 1];
    const int width = batch->width, height = batch->height;
    const int pitch = batch->pitch;
    const uint64_t row_mask = batch->row_mask;
    /* A row a copy, as the observation planes are written; end stops the
     * copies at this game's own values. */
    const uint8_t *end = dst + 2 * (size_t)batch->nn;
    WRITE_ROWS(dst, end, mine, height, width, pitch, row_mask, 0, expand_u8);
    WRITE_ROWS(dst, end, theirs, height, width, pitch, row_mask, 0, expand_u8);
}

void ttt__batch_bits_set_moves(const ttt_batch *batch, size_t index,
                               const ttt__board *board, int32_t len)
{
    bit_game *game = bit_game_at(batch, index);
    bit_clear(batch, game);
    for (int32_t ply = 0; ply < len; ply++) {
        int32_t packed = ttt__board_move_at(board, ply);
        int cell = TTT__ROW(packed) * batch->width + TTT__COL(packed);
        bit_put(batch, game, ply & 1, batch->cell_bit[cell]);
    }
}
