/* batch.c - batches of games for learning: one block of B games stepped by one call; boards of up to 64 cells kept as bitboards, bigger ones as ttt_games moved by the single game's own move path. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The block: this header, then count + 1 game slots of `stride` bytes each
 * (the last is scratch for ttt_batch_set_moves, so that a rejected move
 * list leaves its game as it was), then count seeds, then count agent
 * marks, then (on the bit path) count bit games of bit_stride bytes.
 *
 * Two ways to keep the games, with the same results:
 *
 * The general path: every slot is an ordinary game made by
 * ttt_game_init_rect and moved through the game's own move path
 * (apply_move), so the rules live in game.c alone.
 *
 * The bit path, for boards with height * (width + 1) <= 64 cells (3x3,
 * 4x4, Connect Four's 7x6, up to 7x8) and self-play or the random
 * opponent: each game is a bit_game, one 64-bit word per side with cell
 * (row, col) at bit row * pitch + col, pitch = width + 1 so that a spare
 * column of zeros ends every row. A line of K is then K shifted copies of a
 * side's word ANDed together, in each of the four directions (shifts 1,
 * pitch, pitch + 1, pitch - 1), with no call per step into the game.
 * A bit game also keeps its moves, and with the random opponent off
 * gravity the board's order[] permutation (see board.h) with the same
 * swaps, because the random player draws its cell from it. The slots
 * then serve only
 * ttt_batch_game, which replays a bit game's moves into its slot, and
 * ttt_batch_set_moves, which checks a move list on the scratch slot.
 * tests/test_batch.c plays both paths against single games.
 */

/* A game on the bit path. */
typedef struct bit_game {
    uint64_t marks[2]; /* X's cells, O's cells: bit row * pitch + col */
    uint8_t ply;       /* marks placed */
    /* nn bytes: the moves, row-major cells in the order played; then, if
     * the batch tracks order, nn bytes of order[] (the empty cells first,
     * then the placed ones most recent first, as ttt__board's) and nn
     * bytes of each cell's index in order[]. */
    uint8_t moves[];
} bit_game;

#define BIT_CELLS 64

struct ttt_batch {
    size_t count;
    size_t stride;
    char *slots;
    uint64_t *seeds;
    int8_t *agent;       /* with an opponent: the agent's mark per game */
    int32_t width;
    int32_t height;
    int32_t actions;
    int32_t gravity;
    int32_t ply_limit;
    int32_t opponent;
    int32_t agent_rule;  /* ttt_batch_config.agent */
    int32_t illegal;
    uint64_t opponent_budget;
    int32_t owns_memory;
    ttt_allocator alloc;
    /* The bit path (bit_games NULL: the general path). */
    char *bit_games;
    size_t bit_stride;
    int32_t nn;          /* width * height */
    int32_t pitch;       /* width + 1: bits from one row to the next */
    int32_t k;
    int32_t draw_ply;    /* the ply the game is drawn at: the limit, or nn */
    int32_t misere;
    int32_t early_draw;
    int32_t track_order; /* keep order[]: the random opponent off gravity */
    int32_t line_shift[4]; /* the bit steps of the four directions */
    uint64_t line_any;   /* 0 if no line of K fits on the board */
    uint64_t cells_mask; /* every cell of the board */
    uint64_t row_mask;   /* row 0's cells; row r's shifted by r * pitch */
    uint64_t column_mask; /* column 0's cells; column c's shifted by c */
    uint8_t cell_bit[BIT_CELLS]; /* row-major cell -> bit */
    uint8_t bit_cell[BIT_CELLS]; /* bit -> row-major cell */
    uint8_t fresh[2 * BIT_CELLS]; /* an empty board's order[] and slots */
};

#define ALIGNMENT _Alignof(max_align_t)

static size_t round_up(size_t bytes)
{
    return (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
}

/* The config as the caller's size allows, with later fields zero; 0 if the
 * pointer or its size is unusable. */
static int read_config(const ttt_batch_config *config, ttt_batch_config *copy)
{
    if (!config || config->size < sizeof(ttt_batch_config))
        return 0;
    memcpy(copy, config, sizeof *copy);
    return 1;
}

static int valid_flag(int32_t value)
{
    return value == 0 || value == 1;
}

/* TTT_OK if a batch can be built from config, else the status
 * ttt_batch_new documents. */
static int check_config(const ttt_batch_config *config)
{
    if (config->agent != 0 && config->agent != TTT_X &&
        config->agent != TTT_O)
        return TTT_E_INVALID;
    if (config->opponent != TTT_BATCH_SELF_PLAY &&
        config->opponent != TTT_BOT_RANDOM &&
        config->opponent != TTT_BOT_STRONG &&
        config->opponent != TTT_BOT_PERFECT)
        return TTT_E_INVALID;
    if (config->illegal != TTT_BATCH_ILLEGAL_REJECT &&
        config->illegal != TTT_BATCH_ILLEGAL_LOSE)
        return TTT_E_INVALID;
    if (ttt_game_footprint_rect(config->width, config->height,
                                config->win_length) == 0)
        return TTT_E_SIZE;
    if (!valid_flag(config->misere) || !valid_flag(config->early_draw) ||
        !valid_flag(config->gravity) || config->ply_limit < 0 ||
        config->ply_limit > config->width * config->height)
        return TTT_E_RULE;
    return TTT_OK;
}

/* Whether a batch of this config takes the bit path: a board whose rows,
 * each with a spare bit, fit in 64 bits, and an opponent that needs no
 * search. A ply limit of 1 with an opponent stays on the general path: its
 * opening move there ends a game before the agent moves, which the bit
 * path does not model. */
static int uses_bits(const ttt_batch_config *config)
{
    if (config->opponent != TTT_BATCH_SELF_PLAY && config->ply_limit == 1)
        return 0;
    return (size_t)config->height * ((size_t)config->width + 1) <= BIT_CELLS &&
           (config->opponent == TTT_BATCH_SELF_PLAY ||
            config->opponent == TTT_BOT_RANDOM);
}

/* A bit game's size with its moves, order[] and slots, and room for
 * bit_clear's whole-word copies to run up to 7 bytes past the slots, or 0
 * off the bit path. Counted from where moves[] starts, not from
 * sizeof(bit_game): where uint64_t aligns to 4 bytes (i386) the struct's
 * tail padding is 3 bytes, not 7. */
static size_t bit_stride(const ttt_batch_config *config)
{
    if (!uses_bits(config))
        return 0;
    size_t cells = (size_t)config->width * (size_t)config->height;
    return (offsetof(bit_game, moves) + 3 * cells + 7 + 7) / 8 * 8;
}

/* The slot size and the whole block's size, or 0 on overflow. */
static size_t block_bytes(const ttt_batch_config *config, size_t count,
                          size_t *stride)
{
    *stride = round_up(ttt_game_footprint_rect(config->width, config->height,
                                               config->win_length));
    size_t slots = count + 1;
    size_t per_game = sizeof(uint64_t) + sizeof(int8_t) + bit_stride(config);
    if (count == 0 || slots == 0 || *stride > SIZE_MAX / slots)
        return 0;
    /* The agent marks end where the bit games must be aligned again. */
    size_t bytes = round_up(sizeof(struct ttt_batch)) + slots * *stride +
                   ALIGNMENT;
    if (count > (SIZE_MAX - bytes) / per_game)
        return 0;
    return bytes + count * per_game;
}

size_t ttt_batch_footprint(const ttt_batch_config *config, size_t count)
{
    ttt_batch_config copy;
    if (!read_config(config, &copy) || check_config(&copy) != TTT_OK)
        return 0;
    size_t stride;
    return block_bytes(&copy, count, &stride);
}

static ttt_game *game_at(const ttt_batch *batch, size_t index)
{
    return (ttt_game *)(void *)(batch->slots + index * batch->stride);
}

/* The opponent's move in game index, whose turn it is: the bot's, or a
 * random one if the bot's search fails (out of budget or memory). */
static void opponent_move(ttt_batch *batch, size_t index)
{
    ttt_game *game = game_at(batch, index);
    uint64_t *seed = &batch->seeds[index];
    int row, col;
    if (ttt_best_move(game, batch->opponent, batch->opponent_budget, seed,
                      &row, &col) != TTT_OK &&
        ttt_random_move(game, seed, &row, &col) != TTT_OK)
        return;
    (void)ttt_play_next(game, row, col, NULL);
}

/* With an opponent: the agent's side in game index's new game, recorded
 * (the first side on a first game, else per the agent rule). */
static int take_agent_side(ttt_batch *batch, size_t index, int first)
{
    int side = batch->agent_rule;
    if (side == 0)
        side = first ? TTT_X : -batch->agent[index];
    batch->agent[index] = side == TTT_X ? (int8_t)TTT_X : (int8_t)TTT_O;
    return side;
}

/* Empties game index for a new game; the agent takes its side for it and
 * the opponent opens when the agent is O. */
static void start_game(ttt_batch *batch, size_t index, int first)
{
    (void)ttt_game_reset(game_at(batch, index));
    if (batch->opponent == TTT_BATCH_SELF_PLAY)
        return;
    if (take_agent_side(batch, index, first) == TTT_O)
        opponent_move(batch, index);
}

/* ------------------------------------------------------------------------ */
/* The bit path                                                              */

static bit_game *bit_game_at(const ttt_batch *batch, size_t index)
{
    return (bit_game *)(void *)(batch->bit_games + index * batch->bit_stride);
}

static int highest_bit(uint64_t bits)
{
#if defined(__GNUC__)
    return 63 - __builtin_clzll(bits);
#else
    int bit = 0;
    while (bits >>= 1)
        bit++;
    return bit;
#endif
}

static int lowest_bit(uint64_t bits)
{
#if defined(__GNUC__)
    return __builtin_ctzll(bits);
#else
    int bit = 0;
    while (!(bits & 1)) {
        bits >>= 1;
        bit++;
    }
    return bit;
#endif
}

static uint32_t bit_count(uint64_t bits)
{
#if defined(__GNUC__)
    return (uint32_t)__builtin_popcountll(bits);
#else
    uint32_t count = 0;
    for (; bits; bits &= bits - 1)
        count++;
    return count;
#endif
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
        *bit = highest_bit(open); /* the lowest empty row */
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
        uint32_t pick = ttt__random_below(seed, bit_count(open));
        for (; pick > 0; pick--)
            open &= open - 1;
        int col = lowest_bit(open);
        bit = highest_bit(empty & (batch->column_mask << col));
    } else {
        uint32_t slot = ttt__random_below(seed, (uint32_t)(batch->nn - game->ply));
        bit = batch->cell_bit[game->moves[(uint32_t)batch->nn + slot]];
    }
    return bit_place(batch, game, game->ply & 1, bit, k, pitch);
}

/* start_game on the bit path. */
static void bit_start(ttt_batch *batch, size_t index, int first)
{
    bit_game *game = bit_game_at(batch, index);
    bit_clear(batch, game);
    if (batch->opponent == TTT_BATCH_SELF_PLAY)
        return;
    if (take_agent_side(batch, index, first) == TTT_O)
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
static void bit_setup(ttt_batch *batch, const ttt_batch_config *config)
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
}

/* Game index's slot made the game its bit game is: reset, then its moves
 * replayed through the move path, as the general path would have played
 * them. The slot is not const: the batch lives in writable memory. */
static void bit_sync(const ttt_batch *batch, size_t index)
{
    ttt_game *game = game_at(batch, index);
    const bit_game *bits = bit_game_at(batch, index);
    (void)ttt_game_reset(game);
    for (int ply = 0; ply < bits->ply; ply++) {
        int cell = bits->moves[ply];
        apply_move(game, ttt__mover_at(ply), cell / batch->width,
                   cell % batch->width);
    }
}

/* ------------------------------------------------------------------------ */

/* Starts game index anew on the batch's path. */
static void begin_game(ttt_batch *batch, size_t index, int first)
{
    if (batch->bit_games)
        bit_start(batch, index, first);
    else
        start_game(batch, index, first);
}

static int build(void *mem, const ttt_batch_config *config, size_t count,
                 size_t stride, ttt_batch **out)
{
    ttt_batch *batch = (ttt_batch *)mem;
    memset(batch, 0, sizeof *batch);
    batch->count = count;
    batch->stride = stride;
    batch->slots = (char *)mem + round_up(sizeof *batch);
    batch->seeds = (uint64_t *)(void *)(batch->slots + (count + 1) * stride);
    batch->agent = (int8_t *)(batch->seeds + count);
    batch->bit_stride = bit_stride(config);
    if (batch->bit_stride) {
        batch->bit_games = (char *)mem + round_up((size_t)(
                               (char *)(batch->agent + count) - (char *)mem));
        bit_setup(batch, config);
    }
    batch->width = config->width;
    batch->height = config->height;
    batch->gravity = config->gravity;
    batch->actions =
        config->gravity ? config->width : config->width * config->height;
    batch->ply_limit = config->ply_limit;
    batch->opponent = config->opponent;
    batch->agent_rule = config->agent;
    batch->illegal = config->illegal;
    batch->opponent_budget = config->opponent_budget;
    const int rules[4] = {TTT_RULE_MISERE, TTT_RULE_EARLY_DRAW,
                          TTT_RULE_GRAVITY, TTT_RULE_PLY_LIMIT};
    const int values[4] = {config->misere, config->early_draw,
                           config->gravity, config->ply_limit};
    for (size_t i = 0; i <= count; i++) {
        ttt_game *game;
        int status = ttt_game_init_rect(game_at(batch, i), stride,
                                        config->width, config->height,
                                        config->win_length, &game);
        for (int r = 0; r < 4 && status == TTT_OK; r++)
            status = ttt_game_set_rule(game, rules[r], values[r]);
        if (status != TTT_OK)
            return status; /* check_config ruled this out */
        if (i < count) {
            batch->seeds[i] = 0;
            batch->agent[i] = 0;
        }
    }
    for (size_t i = 0; i < count; i++)
        begin_game(batch, i, 1);
    *out = batch;
    return TTT_OK;
}

int ttt_batch_init(void *mem, size_t mem_size, const ttt_batch_config *config,
                   size_t count, ttt_batch **out)
{
    ttt_batch_config copy;
    if (!mem || !out || (uintptr_t)mem % ALIGNMENT != 0 ||
        !read_config(config, &copy) || count == 0)
        return TTT_E_INVALID;
    int status = check_config(&copy);
    if (status != TTT_OK)
        return status;
    size_t stride;
    size_t bytes = block_bytes(&copy, count, &stride);
    if (bytes == 0)
        return TTT_E_NOMEM;
    if (mem_size < bytes)
        return TTT_E_BUFFER;
    return build(mem, &copy, count, stride, out);
}

static void *malloc_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void malloc_dealloc(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

int ttt_batch_new(const ttt_batch_config *config, size_t count,
                  const ttt_allocator *alloc, ttt_batch **out)
{
    static const ttt_allocator malloc_allocator = {malloc_alloc,
                                                   malloc_dealloc, NULL};
    ttt_batch_config copy;
    if (!out || !read_config(config, &copy) || count == 0)
        return TTT_E_INVALID;
    if (alloc && (!alloc->alloc || !alloc->dealloc))
        return TTT_E_INVALID;
    int status = check_config(&copy);
    if (status != TTT_OK)
        return status;
    if (!alloc)
        alloc = &malloc_allocator;
    size_t stride;
    size_t bytes = block_bytes(&copy, count, &stride);
    void *mem = bytes ? alloc->alloc(alloc->user, bytes) : NULL;
    if (!mem)
        return TTT_E_NOMEM;
    ttt_batch *batch;
    status = build(mem, &copy, count, stride, &batch);
    if (status != TTT_OK) {
        alloc->dealloc(alloc->user, mem);
        return status;
    }
    batch->alloc = *alloc;
    batch->owns_memory = 1;
    *out = batch;
    return TTT_OK;
}

void ttt_batch_free(ttt_batch *batch)
{
    if (!batch)
        return;
    /* The games own no memory (they were built in their slots and never
     * named); freeing them keeps that true should they ever hold some. */
    for (size_t i = 0; i <= batch->count; i++)
        ttt_game_free(game_at(batch, i));
    if (batch->owns_memory)
        batch->alloc.dealloc(batch->alloc.user, batch);
}

size_t ttt_batch_count(const ttt_batch *batch)
{
    return batch ? batch->count : 0;
}

int ttt_batch_action_count(const ttt_batch *batch)
{
    return batch ? batch->actions : 0;
}

int ttt_batch_seed(ttt_batch *batch, uint64_t seed)
{
    if (!batch)
        return TTT_E_INVALID;
    for (size_t i = 0; i < batch->count; i++)
        batch->seeds[i] = seed + (uint64_t)i * 0x9E3779B97F4A7C15u;
    return TTT_OK;
}

int ttt_batch_reset(ttt_batch *batch)
{
    if (!batch)
        return TTT_E_INVALID;
    for (size_t i = 0; i < batch->count; i++)
        begin_game(batch, i, 1);
    return TTT_OK;
}

/* Plays action for the side to move, a column under gravity, else a cell,
 * and returns the status ttt_drop or ttt_play_next would: the same checks
 * and the same move path (apply_move, the rules every move of every game
 * takes) without the game's lock and events, which a batch's games never
 * need: no other thread holds them, and they have no listener. The game is
 * in progress (a batch resets games as they end). */
static int play_action(const ttt_batch *batch, ttt_game *game, int32_t action)
{
    ttt__board *board = &game->board;
    int row, col;
    if (batch->gravity) {
        if (action < 0 || action >= batch->width)
            return TTT_E_OFF_BOARD;
        col = action;
        row = ttt__board_landing_row(board, col);
        if (row < 0)
            return TTT_E_COLUMN_FULL;
    } else {
        if (action < 0 || action >= batch->actions)
            return TTT_E_OFF_BOARD;
        row = action / batch->width;
        col = action % batch->width;
        if (!ttt__board_is_empty(board, row, col))
            return TTT_E_OCCUPIED;
    }
    game->redo_count = 0;
    apply_move(game, ttt__mover_at(ply_of(game)), row, col);
    return TTT_OK;
}

int ttt_batch_set_moves(ttt_batch *batch, size_t index, const int32_t *moves,
                        size_t len)
{
    if (!batch || (!moves && len > 0))
        return TTT_E_INVALID;
    if (index >= batch->count)
        return TTT_E_RANGE;
    ttt_game *scratch = game_at(batch, batch->count);
    (void)ttt_game_reset(scratch);
    for (size_t m = 0; m < len; m++) {
        if (scratch->state != TTT_IN_PROGRESS)
            return TTT_E_GAME_OVER;
        int status = play_action(batch, scratch, moves[m]);
        if (status != TTT_OK)
            return status;
    }
    if (ttt_state(scratch) != TTT_IN_PROGRESS)
        return TTT_E_GAME_OVER;
    if (batch->bit_games) {
        bit_game *game = bit_game_at(batch, index);
        bit_clear(batch, game);
        for (int32_t ply = 0; ply < (int32_t)len; ply++) {
            int32_t packed = ttt__board_move_at(&scratch->board, ply);
            int cell = TTT__ROW(packed) * batch->width + TTT__COL(packed);
            bit_put(batch, game, ply & 1, batch->cell_bit[cell]);
        }
    } else {
        ttt__game_copy(game_at(batch, index), scratch);
    }
    if (batch->opponent != TTT_BATCH_SELF_PLAY)
        batch->agent[index] = (int8_t)ttt_to_move(scratch);
    return TTT_OK;
}

/* Whether a drawn game was drawn by the ply limit alone: at the limit,
 * with the board not full and, under early draw, a line still live (a
 * full board or an early draw on the limit's move takes precedence). */
static int drawn_by_limit(const ttt_batch *batch, const ttt_game *game)
{
    const ttt__board *board = &game->board;
    int32_t ply = board->nn - board->empty_count;
    if (batch->ply_limit == 0 || ply != batch->ply_limit || ply == board->nn)
        return 0;
    return !(game->early_draw && board->live == 0);
}

static float reward_for(int state, int mark)
{
    if (state == TTT_X_WON)
        return mark == TTT_X ? 1.0f : -1.0f;
    if (state == TTT_O_WON)
        return mark == TTT_O ? 1.0f : -1.0f;
    return 0.0f;
}

/* The caller's outputs, or all NULL for none. */
static ttt_batch_outputs read_outputs(const ttt_batch_outputs *outputs)
{
    ttt_batch_outputs copy;
    memset(&copy, 0, sizeof copy);
    if (outputs)
        memcpy(&copy, outputs, sizeof copy);
    return copy;
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
                                          const ttt_batch_outputs *out,
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
        int status = bit_of_action(rules, game, actions[i], gravity, &bit);
        int state;
        if (statuses)
            statuses[i] = status;
        if (TTT__RARE(status != TTT_OK)) {
            if (reject) {
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
        if (state != TTT_IN_PROGRESS)
            bit_start(batch, i, 0);
    }
}

/* bit_step_k with constants for tic-tac-toe and Connect Four, for other
 * boards with K = 3 without gravity, K = 4 with or without, and K = 5
 * without, and with none for the rest. */
static void bit_step(ttt_batch *batch, const int32_t *actions,
                     const ttt_batch_outputs *out)
{
    ttt_batch rules = *batch;
    int k = batch->k, gravity = batch->gravity;
    int width = batch->width, height = batch->height;
    if (width == 3 && height == 3 && k == 3 && !gravity)
        bit_step_k(batch, &rules, actions, out, 3, 0, 4);
    else if (width == 7 && height == 6 && k == 4 && gravity)
        bit_step_k(batch, &rules, actions, out, 4, 1, 8);
    else if (k == 3 && !gravity)
        bit_step_k(batch, &rules, actions, out, 3, 0, 0);
    else if (k == 4 && gravity)
        bit_step_k(batch, &rules, actions, out, 4, 1, 0);
    else if (k == 4 && !gravity)
        bit_step_k(batch, &rules, actions, out, 4, 0, 0);
    else if (k == 5 && !gravity)
        bit_step_k(batch, &rules, actions, out, 5, 0, 0);
    else
        bit_step_k(batch, &rules, actions, out, k, gravity, 0);
}

int ttt_batch_step(ttt_batch *batch, const int32_t *actions,
                   const ttt_batch_outputs *outputs)
{
    if (!batch || !actions ||
        (outputs && outputs->size < sizeof(ttt_batch_outputs)))
        return TTT_E_INVALID;
    ttt_batch_outputs out = read_outputs(outputs);
    if (batch->bit_games) {
        bit_step(batch, actions, &out);
        return TTT_OK;
    }
    for (size_t i = 0; i < batch->count; i++) {
        ttt_game *game = game_at(batch, i);
        if (game->state != TTT_IN_PROGRESS) /* never left so; be safe */
            start_game(batch, i, 0);
        int mark = ttt__mover_at(ply_of(game));
        int status = play_action(batch, game, actions[i]);
        if (out.status)
            out.status[i] = status;
        if (status != TTT_OK && batch->illegal == TTT_BATCH_ILLEGAL_REJECT) {
            if (out.rewards)
                out.rewards[i] = 0.0f;
            if (out.terminated)
                out.terminated[i] = 0;
            if (out.truncated)
                out.truncated[i] = 0;
            if (out.outcome)
                out.outcome[i] = TTT_IN_PROGRESS;
            continue;
        }
        if (status != TTT_OK)
            (void)ttt_resign(game, mark, NULL);
        else if (batch->opponent != TTT_BATCH_SELF_PLAY &&
                 game->state == TTT_IN_PROGRESS)
            opponent_move(batch, i);
        int state = game->state;
        int truncated = state == TTT_DRAW && drawn_by_limit(batch, game);
        if (out.rewards)
            out.rewards[i] = reward_for(state, mark);
        if (out.terminated)
            out.terminated[i] =
                (uint8_t)(state != TTT_IN_PROGRESS && !truncated);
        if (out.truncated)
            out.truncated[i] = (uint8_t)truncated;
        if (out.outcome)
            out.outcome[i] = state;
        if (state != TTT_IN_PROGRESS)
            start_game(batch, i, 0);
    }
    return TTT_OK;
}

/* The planes' size, or 0 if it would not fit in size_t. */
static size_t plane_values(const ttt_batch *batch)
{
    size_t per_game = 2 * (size_t)batch->width * (size_t)batch->height;
    if (batch->count > SIZE_MAX / per_game)
        return 0;
    return batch->count * per_game;
}

/* Writes the planes as values of one type: both planes cleared, then
 * each placed cell (order[] from empty_count on holds them) set in the
 * mover's plane or the other's, so a sparse big board costs little more
 * than the clearing. */
#define WRITE_PLANES(batch, planes, ZERO, ONE)                               \
    do {                                                                     \
        size_t cells_ = (size_t)(batch)->width * (size_t)(batch)->height;    \
        for (size_t g_ = 0; g_ < (batch)->count; g_++) {                     \
            const ttt__board *board_ = &game_at((batch), g_)->board;         \
            int mover_ = ttt__mover_at(board_->nn - board_->empty_count);    \
            size_t base_ = g_ * 2 * cells_;                                  \
            for (size_t c_ = 0; c_ < 2 * cells_; c_++)                       \
                (planes)[base_ + c_] = (ZERO);                               \
            for (int32_t s_ = board_->empty_count; s_ < board_->nn; s_++) {  \
                int32_t packed_ = board_->order[s_];                         \
                size_t cell_ = (size_t)TTT__ROW(packed_) *                   \
                                   (size_t)board_->n +                       \
                               (size_t)TTT__COL(packed_);                    \
                int mark_ = ttt__board_mark(board_, (int32_t)cell_);         \
                (planes)[base_ + (mark_ == mover_ ? 0 : cells_) + cell_] =   \
                    (ONE);                                                   \
            }                                                                \
        }                                                                    \
    } while (0)

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
    static void name(const ttt_batch *batch, type *planes)                  \
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
DEFINE_BIT_PLANES(bit_planes_u8, uint8_t, expand_u8)
DEFINE_BIT_PLANES(bit_planes_f32, float, expand_f32)

/* The legal masks on the bit path: the empty cells row by row, or under
 * gravity the columns whose top cell is empty. */
static void bit_legal_mask(const ttt_batch *batch, uint8_t *mask)
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

int ttt_batch_observe_u8(const ttt_batch *batch, uint8_t *planes,
                         size_t capacity)
{
    if (!batch || !planes)
        return TTT_E_INVALID;
    size_t needed = plane_values(batch);
    if (needed == 0 || capacity < needed)
        return TTT_E_BUFFER;
    if (batch->bit_games)
        bit_planes_u8(batch, planes);
    else
        WRITE_PLANES(batch, planes, (uint8_t)0, (uint8_t)1);
    return TTT_OK;
}

int ttt_batch_observe_f32(const ttt_batch *batch, float *planes,
                          size_t capacity)
{
    if (!batch || !planes)
        return TTT_E_INVALID;
    size_t needed = plane_values(batch);
    if (needed == 0 || capacity < needed)
        return TTT_E_BUFFER;
    if (batch->bit_games)
        bit_planes_f32(batch, planes);
    else
        WRITE_PLANES(batch, planes, 0.0f, 1.0f);
    return TTT_OK;
}

int ttt_batch_legal_mask(const ttt_batch *batch, uint8_t *mask,
                         size_t capacity)
{
    if (!batch || !mask)
        return TTT_E_INVALID;
    size_t actions = (size_t)batch->actions;
    if (batch->count > SIZE_MAX / actions ||
        capacity < batch->count * actions)
        return TTT_E_BUFFER;
    if (batch->bit_games) {
        bit_legal_mask(batch, mask);
        return TTT_OK;
    }
    for (size_t g = 0; g < batch->count; g++) {
        const ttt_game *game = game_at(batch, g);
        const ttt__board *board = &game->board;
        uint8_t *row = mask + g * actions;
        int open = game->state == TTT_IN_PROGRESS;
        if (batch->gravity) {
            const int16_t *fills = ttt__board_fills(board);
            for (size_t col = 0; col < actions; col++)
                row[col] = (uint8_t)(open && fills[col] < board->height);
        } else {
            /* Every cell open, then the placed ones (order[] from
             * empty_count on) closed: a sparse board costs little. */
            memset(row, open, actions);
            for (int32_t slot = board->empty_count; slot < board->nn; slot++) {
                int32_t packed = board->order[slot];
                row[TTT__ROW(packed) * board->n + TTT__COL(packed)] = 0;
            }
        }
    }
    return TTT_OK;
}

int ttt_batch_game(const ttt_batch *batch, size_t index,
                   const ttt_game **out)
{
    if (!batch || !out)
        return TTT_E_INVALID;
    if (index >= batch->count)
        return TTT_E_RANGE;
    if (batch->bit_games)
        bit_sync(batch, index);
    *out = game_at(batch, index);
    return TTT_OK;
}
