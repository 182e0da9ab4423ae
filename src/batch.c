/* batch.c - batches of games for learning: one block of B games stepped by one call; boards of up to 64 cells kept as bitboards, bigger ones as ttt_games moved by the single game's own move path. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"

#define ALIGNMENT _Alignof(max_align_t)

static size_t round_up(size_t bytes)
{
    return ttt__size_round(bytes, ALIGNMENT);
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
    /* A ply limit of 1 where the opponent may open would end the game
     * with the opponent's first move, before the agent ever acts. */
    if (config->ply_limit == 1 && config->opponent != TTT_BATCH_SELF_PLAY &&
        config->agent != TTT_X)
        return TTT_E_RULE;
    return TTT_OK;
}

/* Whether a batch of this config takes the bit path: a board whose rows,
 * each with a spare bit, fit in 64 bits, and an opponent that needs no
 * search. */
static int uses_bits(const ttt_batch_config *config)
{
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
    size_t cells = ttt__size_mul((size_t)config->width, (size_t)config->height);
    return ttt__size_round(ttt__size_add(offsetof(bit_game, moves) + 7,
                                         ttt__size_mul(3, cells)),
                           8);
}

/* The slot size and the whole block's size, or 0 on overflow. */
static size_t block_bytes(const ttt_batch_config *config, size_t count,
                          size_t *stride)
{
    *stride = round_up(ttt_game_footprint_rect(config->width, config->height,
                                               config->win_length));
    size_t per_game = ttt__size_add(sizeof(uint64_t) + sizeof(int8_t),
                                    bit_stride(config));
    /* The header, count + 1 slots, then the seeds and agent marks, which
     * end where the bit games must be aligned again. */
    size_t bytes = ttt__size_add(
        ttt__size_add(round_up(sizeof(struct ttt_batch)),
                      ttt__size_mul(ttt__size_add(count, 1), *stride)),
        ttt__size_add(ALIGNMENT, ttt__size_mul(count, per_game)));
    if (count == 0 || !ttt__size_ok(bytes))
        return 0;
    return bytes;
}

size_t ttt_batch_footprint(const ttt_batch_config *config, size_t count)
{
    ttt_batch_config copy;
    if (!read_config(config, &copy) || check_config(&copy) != TTT_OK)
        return 0;
    size_t stride;
    return block_bytes(&copy, count, &stride);
}

/* The opponent's move in game index, whose turn it is: the bot's, or a
 * random one if the bot's search fails (out of budget or memory). */
static void opponent_move(ttt_batch *batch, size_t index)
{
    ttt_game *game = ttt__batch_game_at(batch, index);
    uint64_t *seed = &batch->seeds[index];
    int row, col;
    if (ttt_best_move(game, batch->opponent, batch->opponent_budget, seed,
                      &row, &col) != TTT_OK &&
        ttt_random_move(game, seed, &row, &col) != TTT_OK)
        return;
    (void)ttt_play_next(game, row, col, NULL);
}

/* batch.h: the agent's side for a new game. */
int ttt__batch_take_agent_side(ttt_batch *batch, size_t index, int first)
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
    (void)ttt_game_reset(ttt__batch_game_at(batch, index));
    if (batch->opponent == TTT_BATCH_SELF_PLAY)
        return;
    if (ttt__batch_take_agent_side(batch, index, first) == TTT_O)
        opponent_move(batch, index);
}

/* ------------------------------------------------------------------------ */

/* Starts game index anew on the batch's path. */
static void begin_game(ttt_batch *batch, size_t index, int first)
{
    if (batch->bit_games)
        ttt__batch_bits_start(batch, index, first);
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
        ttt__batch_bits_setup(batch, config);
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
        int status = ttt_game_init_rect(ttt__batch_game_at(batch, i), stride,
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
        ttt_game_free(ttt__batch_game_at(batch, i));
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
    ttt_game *scratch = ttt__batch_game_at(batch, batch->count);
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
        ttt__batch_bits_set_moves(batch, index, &scratch->board, (int32_t)len);
    } else {
        ttt__game_copy(ttt__batch_game_at(batch, index), scratch);
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


/* The planes' size, or 0 if it would not fit in size_t. */
static size_t plane_values(const ttt_batch *batch)
{
    size_t values = ttt__size_mul(
        batch->count, ttt__size_mul(2 * (size_t)batch->width, (size_t)batch->height));
    return ttt__size_ok(values) ? values : 0;
}

/* The side (0 X, 1 O) whose marks go first in game index's final planes:
 * the agent's with an opponent, else the side that did not move last. */
static int final_side(const ttt_batch *batch, size_t index, int plies)
{
    if (batch->opponent != TTT_BATCH_SELF_PLAY)
        return batch->agent[index] == TTT_X ? 0 : 1;
    return plies & 1;
}

/* Game index's last position as planes into final (see
 * ttt_batch_step_final), before it resets; the general path (the bit
 * path's is ttt__batch_bits_final). */
static void write_final(const ttt_batch *batch, size_t index, uint8_t *final)
{
    size_t cells = (size_t)batch->width * (size_t)batch->height;
    uint8_t *dst = final + index * 2 * cells;
    const ttt__board *board = &ttt__batch_game_at(batch, index)->board;
    int first = final_side(batch, index, board->nn - board->empty_count)
                    ? TTT_O
                    : TTT_X;
    for (size_t cell = 0; cell < cells; cell++) {
        int mark = ttt__board_mark(board, (int32_t)cell);
        dst[cell] = (uint8_t)(mark == first);
        dst[cells + cell] = (uint8_t)(mark == -first);
    }
}

/* ttt_batch_step and ttt_batch_step_final: skip and final as the latter
 * takes them, or NULL. */
static void step(ttt_batch *batch, const int32_t *actions,
                 const uint8_t *skip, const ttt_batch_outputs *outputs,
                 uint8_t *final)
{
    ttt_batch_outputs out = read_outputs(outputs);
    if (batch->bit_games) {
        ttt__batch_bits_step(batch, actions, skip, &out, final);
        return;
    }
    for (size_t i = 0; i < batch->count; i++) {
        ttt_game *game = ttt__batch_game_at(batch, i);
        if (game->state != TTT_IN_PROGRESS) /* never left so; be safe */
            start_game(batch, i, 0);
        int mark = ttt__mover_at(ply_of(game));
        int skipped = skip && skip[i];
        int status = skipped ? TTT_OK : play_action(batch, game, actions[i]);
        if (out.status)
            out.status[i] = status;
        if (skipped ||
            (status != TTT_OK && batch->illegal == TTT_BATCH_ILLEGAL_REJECT)) {
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
        if (state != TTT_IN_PROGRESS) {
            if (final)
                write_final(batch, i, final);
            start_game(batch, i, 0);
        }
    }
}

int ttt_batch_step(ttt_batch *batch, const int32_t *actions,
                   const ttt_batch_outputs *outputs)
{
    if (!batch || !actions ||
        (outputs && outputs->size < sizeof(ttt_batch_outputs)))
        return TTT_E_INVALID;
    step(batch, actions, NULL, outputs, NULL);
    return TTT_OK;
}

int ttt_batch_step_final(ttt_batch *batch, const int32_t *actions,
                         const uint8_t *skip, const ttt_batch_outputs *outputs,
                         uint8_t *final, size_t capacity)
{
    if (!batch || !actions ||
        (outputs && outputs->size < sizeof(ttt_batch_outputs)))
        return TTT_E_INVALID;
    if (final) {
        size_t needed = plane_values(batch);
        if (needed == 0 || capacity < needed)
            return TTT_E_BUFFER;
    }
    step(batch, actions, skip, outputs, final);
    return TTT_OK;
}


/* Writes the planes as values of one type: both planes cleared, then
 * each placed cell (order[] from empty_count on holds them) set in the
 * mover's plane or the other's, so a sparse big board costs little more
 * than the clearing. */
#define WRITE_PLANES(batch, planes, ZERO, ONE)                               \
    do {                                                                     \
        size_t cells_ = (size_t)(batch)->width * (size_t)(batch)->height;    \
        for (size_t g_ = 0; g_ < (batch)->count; g_++) {                     \
            const ttt__board *board_ = &ttt__batch_game_at((batch), g_)->board;         \
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


int ttt_batch_observe_u8(const ttt_batch *batch, uint8_t *planes,
                         size_t capacity)
{
    if (!batch || !planes)
        return TTT_E_INVALID;
    size_t needed = plane_values(batch);
    if (needed == 0 || capacity < needed)
        return TTT_E_BUFFER;
    if (batch->bit_games)
        ttt__batch_bits_planes_u8(batch, planes);
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
        ttt__batch_bits_planes_f32(batch, planes);
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
    size_t needed = ttt__size_mul(batch->count, actions);
    if (!ttt__size_ok(needed) || capacity < needed)
        return TTT_E_BUFFER;
    if (batch->bit_games) {
        ttt__batch_bits_legal_mask(batch, mask);
        return TTT_OK;
    }
    for (size_t g = 0; g < batch->count; g++) {
        const ttt_game *game = ttt__batch_game_at(batch, g);
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
        ttt__batch_bits_sync(batch, index);
    *out = ttt__batch_game_at(batch, index);
    return TTT_OK;
}
