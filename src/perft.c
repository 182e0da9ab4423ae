/* perft.c - ttt_perft and ttt_count_positions: counting games and positions through transpositions. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* ------------------------------------------------------------------------ */
/* Perft: counting games through transpositions                              */

/*
 * A game is a sequence of moves, but where it can go next depends only on
 * the board: the rules make the state a function of the marks. So the count
 * runs forward one ply at a time over a map from each distinct board of the
 * current ply to the number of move orders that reach it. Expanding a board
 * adds its multiplicity to each child; a child that ends the game adds it to
 * the outcome and length counts instead.
 *
 * Boards that are rotations or reflections of each other have the same
 * futures, so the map is keyed by the canonical board (the smallest key of
 * its images) and their multiplicities are added together. The symmetries
 * used are those that fix the starting position (all eight for an empty
 * board): then every image of a reachable board is reachable too, and when
 * counting positions instead of games an entry stands for its whole orbit,
 * group size / (the symmetries that fix it) distinct boards. The whole 4x4
 * game, some 10^13 move sequences, is about 1.2 million canonical boards.
 *
 * A board is a key of key_words 64-bit words: bit c is an X on cell c, bit
 * nn + c an O. Boards are expanded on the core board (board.c), so perft
 * applies exactly the rules the game does.
 */

#define PERFT_DEFAULT_BYTES ((size_t)1 << 30)

typedef struct position_map {
    uint64_t *slots;  /* capacity slots of key_words words, then the value */
    size_t capacity;  /* a power of two, or 0 */
    size_t used;
    size_t expected;  /* entries the first allocation should hold */
} position_map;

/* The map starts no bigger than its layer can fill and at most
 * MAP_START_SLOTS: a slot holds a whole board (two bits a cell), so on a
 * huge board even a few spare slots would pass a small table cap. */
#define MAP_START_SLOTS 1024

typedef struct perft_run {
    const ttt_game *game;
    snapshot snap;
    size_t key_words;
    size_t bytes_in_use;
    size_t byte_limit;
    int keep_terminal; /* count positions: store finished boards too */
    ttt__board board;
    int32_t *sym;      /* 8 * nn: the image of each cell */
    int group[8];      /* the symmetries that fix the starting position */
    int group_size;
    uint64_t *images;  /* 8 * key_words: the expanded board's images */
    uint64_t *child;   /* key_words: the canonical child */
    uint64_t *scratch; /* key_words */
} perft_run;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 32;
    x *= UINT64_C(0xd6e8feb86659fd93);
    x ^= x >> 32;
    x *= UINT64_C(0xd6e8feb86659fd93);
    x ^= x >> 32;
    return x;
}

static size_t key_hash(const uint64_t *key, size_t words)
{
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15);
    for (size_t i = 0; i < words; i++)
        h = mix64(h ^ key[i]);
    return (size_t)h;
}

static void map_release(perft_run *run, position_map *map)
{
    if (map->slots) {
        engine_free(run->game, map->slots);
        run->bytes_in_use -= map->capacity * (run->key_words + 1) *
                             sizeof(uint64_t);
    }
    map->slots = NULL;
    map->capacity = 0;
    map->used = 0;
}

/* The slot holding key, or the free slot where it belongs. */
static uint64_t *map_find(const perft_run *run, const position_map *map,
                          const uint64_t *key)
{
    size_t words = run->key_words, stride = words + 1;
    size_t mask = map->capacity - 1;
    size_t index = key_hash(key, words) & mask;
    for (;;) {
        uint64_t *slot = map->slots + index * stride;
        if (slot[words] == 0)
            return slot;
        size_t i = 0;
        while (i < words && slot[i] == key[i])
            i++;
        if (i == words)
            return slot;
        index = (index + 1) & mask;
    }
}

/* Doubles the map (or creates it), keeping under the byte limit. */
static int map_grow(perft_run *run, position_map *map)
{
    size_t stride = run->key_words + 1;
    size_t capacity = map->capacity * 2;
    if (capacity == 0) {
        /* Room for the expected entries under the 3/4 load. */
        capacity = 2;
        while (capacity < MAP_START_SLOTS && capacity * 3 < map->expected * 4)
            capacity *= 2;
    }
    size_t bytes = ttt__size_mul(capacity, ttt__size_mul(stride, sizeof(uint64_t)));
    if (capacity < map->capacity || !ttt__size_ok(bytes) ||
        bytes > run->byte_limit || run->bytes_in_use > run->byte_limit - bytes)
        return TTT_E_NOMEM;
    uint64_t *slots = engine_alloc(run->game, bytes);
    if (!slots)
        return TTT_E_NOMEM;
    memset(slots, 0, bytes);
    run->bytes_in_use += bytes;
    position_map bigger = {slots, capacity, 0, 0};
    for (size_t i = 0; i < map->capacity; i++) {
        const uint64_t *old = map->slots + i * stride;
        if (old[run->key_words] != 0) {
            memcpy(map_find(run, &bigger, old), old, stride * sizeof(uint64_t));
            bigger.used++;
        }
    }
    map_release(run, map);
    *map = bigger;
    return TTT_OK;
}

/* Adds value to key's entry (sum != 0), or sets it if key is new (sum == 0:
 * the value describes the position and any copy is as good). */
static int map_add(perft_run *run, position_map *map, const uint64_t *key,
                   uint64_t value, int sum)
{
    /* Keep the load under 3/4 so probes stay short. */
    if ((map->used + 1) * 4 > map->capacity * 3) {
        int status = map_grow(run, map);
        if (status != TTT_OK)
            return status;
    }
    uint64_t *slot = map_find(run, map, key);
    uint64_t *stored = slot + run->key_words;
    if (*stored == 0) {
        memcpy(slot, key, run->key_words * sizeof(uint64_t));
        *stored = value;
        map->used++;
    } else if (sum) {
        if (*stored > UINT64_MAX - value)
            return TTT_E_OVERFLOW;
        *stored += value;
    }
    return TTT_OK;
}

static int add_count(uint64_t *counter, uint64_t value)
{
    if (*counter > UINT64_MAX - value)
        return TTT_E_OVERFLOW;
    *counter += value;
    return TTT_OK;
}

/* Puts the board of key on run->board and its eight images in
 * run->images. */
static void decode_board(perft_run *run, const uint64_t *key)
{
    int32_t n = run->snap.n, nn = run->snap.nn;
    size_t words = run->key_words;
    ttt__board_clear(&run->board);
    memset(run->images, 0, 8 * words * sizeof(uint64_t));
    for (int32_t bit = 0; bit < 2 * nn; bit++) {
        if (!(key[bit >> 6] >> (bit & 63) & 1))
            continue;
        int32_t cell = bit < nn ? bit : bit - nn;
        int32_t side = bit < nn ? 0 : nn;
        ttt__board_place(&run->board, cell / n, cell % n,
                         ttt__mark_of(bit >= nn));
        for (int s = 0; s < 8; s++) {
            int32_t image = side + run->sym[s * nn + cell];
            run->images[(size_t)s * words + (size_t)(image >> 6)] |=
                UINT64_C(1) << (image & 63);
        }
    }
}

/* key < other, comparing the high words first. */
static int key_less(const uint64_t *key, const uint64_t *other, size_t words)
{
    for (size_t i = words; i-- > 0;) {
        if (key[i] != other[i])
            return key[i] < other[i];
    }
    return 0;
}

/* Puts the canonical key of the decoded board plus a mark on cell (side 0
 * for X, nn for O) in run->child; returns how many of the group's images
 * equal it (the symmetries that fix the child). */
static int canonical_child(perft_run *run, int32_t side, int32_t cell)
{
    size_t words = run->key_words;
    int32_t nn = run->snap.nn;
    uint64_t *candidate = run->scratch;
    int fixed = 0;
    for (int i = 0; i < run->group_size; i++) {
        int s = run->group[i];
        int32_t bit = side + run->sym[s * nn + cell];
        memcpy(candidate, run->images + (size_t)s * words, words * sizeof(uint64_t));
        candidate[bit >> 6] |= UINT64_C(1) << (bit & 63);
        if (i == 0 || key_less(candidate, run->child, words)) {
            memcpy(run->child, candidate, words * sizeof(uint64_t));
            fixed = 1;
        } else if (memcmp(candidate, run->child, words * sizeof(uint64_t)) == 0) {
            fixed++;
        }
    }
    return fixed;
}

/* Whether a mark may go on cell of the decoded board: an empty cell, and
 * under gravity the lowest empty one of its column. */
static int is_move(const perft_run *run, int32_t cell)
{
    int32_t width = run->snap.width, row = cell / width, col = cell % width;
    if (run->snap.gravity)
        return row == ttt__board_landing_row(&run->board, col);
    return ttt__board_is_empty(&run->board, row, col);
}

/* The state after mark was placed on the board, as the game judges it. */
static int state_after(const perft_run *run, int completed, int mark)
{
    return ttt__state_after(completed, mark, run->snap.misere,
                            run->snap.early_draw, run->board.empty_count,
                            run->snap.limit_empty, &run->board.live);
}

/* Position mode packs a state and an orbit size into a nonzero value. */
#define POSITION_VALUE(state, orbit) ((uint64_t)(state) + 1 + ((uint64_t)(orbit) << 8))
#define POSITION_STATE(value) ((int)((value) & 0xff) - 1)
#define POSITION_ORBIT(value) ((value) >> 8)

/*
 * Runs the layers. In game mode (keep_terminal 0), values are
 * multiplicities and finished children go straight into counts and
 * by_length. In position mode, values are POSITION_VALUEs and finished
 * children are stored (and counted once) in the next layer.
 */
static int perft_layers(perft_run *run, int depth, uint64_t counts[4],
                        uint64_t *by_length)
{
    size_t words = run->key_words;
    size_t stride = words + 1;
    int32_t n = run->snap.n, nn = run->snap.nn;
    /* The start is one board; each layer is expected to be no smaller than
     * the one before (the maps double from there as they fill). */
    position_map current = {NULL, 0, 0, 1}, next = {NULL, 0, 0, 0};

    memset(run->child, 0, words * sizeof(uint64_t));
    for (int32_t cell = 0; cell < nn; cell++) {
        int mark = run->snap.cells[cell];
        if (mark != TTT_EMPTY) {
            int32_t bit = ttt__player_of(mark) * nn + cell;
            run->child[bit >> 6] |= UINT64_C(1) << (bit & 63);
        }
    }
    int status = map_add(run, &current, run->child,
                         run->keep_terminal ? POSITION_VALUE(run->snap.state, 1) : 1,
                         1);

    for (int ply = 0; status == TTT_OK && ply <= depth; ply++) {
        int mark = ttt__mover_at(run->snap.ply + ply);
        int32_t side = ttt__player_of(mark) * nn;
        next.expected = current.used;
        for (size_t i = 0; status == TTT_OK && i < current.capacity; i++) {
            const uint64_t *key = current.slots + i * stride;
            uint64_t value = key[words];
            if (value == 0)
                continue;
            if (run->keep_terminal) {
                int state = POSITION_STATE(value);
                status = add_count(&counts[state], POSITION_ORBIT(value));
                if (status != TTT_OK || state != TTT_IN_PROGRESS || ply == depth)
                    continue;
            } else if (ply == depth) {
                status = add_count(&counts[TTT_IN_PROGRESS], value);
                if (status == TTT_OK)
                    status = add_count(&by_length[ply], value);
                continue;
            }
            decode_board(run, key);
            for (int32_t cell = 0; status == TTT_OK && cell < nn; cell++) {
                if (!is_move(run, cell))
                    continue;
                int completed = ttt__board_place(&run->board, cell / n,
                                                 cell % n, mark);
                int child_state = state_after(run, completed, mark);
                ttt__board_lift(&run->board, mark);
                if (!run->keep_terminal && child_state != TTT_IN_PROGRESS) {
                    status = add_count(&counts[child_state], value);
                    if (status == TTT_OK)
                        status = add_count(&by_length[ply + 1], value);
                    continue;
                }
                int fixed = canonical_child(run, side, cell);
                if (run->keep_terminal)
                    status = map_add(run, &next, run->child,
                                     POSITION_VALUE(child_state,
                                                    run->group_size / fixed), 0);
                else
                    status = map_add(run, &next, run->child, value, 1);
            }
        }
        map_release(run, &current);
        current = next;
        next.slots = NULL;
        next.capacity = 0;
        next.used = 0;
    }
    map_release(run, &current);
    map_release(run, &next);
    return status;
}

/* The image of (row, col) under symmetry s (numbered as symmetric_cell
 * numbers them) of a width x height board; on a rectangle only 0 (identity),
 * 2 (half turn), 4 (left-right) and 5 (top-bottom) are symmetries. */
static int32_t image_cell(int32_t width, int32_t height, int s, int32_t row,
                          int32_t col)
{
    if (width == height)
        return symmetric_cell(width, s, row, col);
    switch (s) {
    case 2: return (height - 1 - row) * width + (width - 1 - col);
    case 4: return row * width + (width - 1 - col);
    case 5: return (height - 1 - row) * width + col;
    default: return row * width + col;
    }
}

/* Whether symmetry s maps the game to itself: every symmetry of a square,
 * four of a rectangle, and under gravity (which keeps the bottom at the
 * bottom) only the identity and the left-right mirror. */
static int board_symmetry(int32_t width, int32_t height, int gravity, int s)
{
    if (gravity)
        return s == 0 || s == 4;
    return width == height || s == 0 || s == 2 || s == 4 || s == 5;
}

/* Shared set-up of ttt_perft and ttt_count_positions. */
static int perft_run_start(const ttt_game *game, size_t table_bytes,
                           perft_run *run, void **block)
{
    int32_t k = game->board.k, nn = game->board.nn;
    int32_t width = game->board.width, height = game->board.height;
    memset(run, 0, sizeof *run);
    run->game = game;
    run->key_words = ((size_t)nn * 2 + 63) / 64;
    run->byte_limit = table_bytes ? table_bytes : PERFT_DEFAULT_BYTES;
    carver sizes = {NULL, 0, 0};
    carve(&sizes, (size_t)nn, 1);
    carve(&sizes, ttt__size_mul(8, (size_t)nn), sizeof(int32_t));
    carve(&sizes, ttt__size_mul(8, run->key_words), sizeof(uint64_t));
    carve(&sizes, ttt__size_mul(2, run->key_words), sizeof(uint64_t));
    carve(&sizes, ttt__board_bytes_rect(width, height, k), 1);
    if (sizes.overflow)
        return TTT_E_NOMEM;
    *block = engine_alloc(game, sizes.used);
    if (!*block)
        return TTT_E_NOMEM;
    carver parts = {*block, 0, 0};
    run->snap.cells = carve(&parts, (size_t)nn, 1);
    run->sym = carve(&parts, ttt__size_mul(8, (size_t)nn), sizeof(int32_t));
    run->images = carve(&parts, ttt__size_mul(8, run->key_words), sizeof(uint64_t));
    run->child = carve(&parts, run->key_words, sizeof(uint64_t));
    run->scratch = carve(&parts, run->key_words, sizeof(uint64_t));
    void *board_mem = carve(&parts, ttt__board_bytes_rect(width, height, k), 1);
    take_snapshot(game, &run->snap);
    for (int s = 0; s < 8; s++) {
        int fixes_start = board_symmetry(width, height, run->snap.gravity, s);
        for (int32_t cell = 0; cell < nn; cell++) {
            int32_t image = image_cell(width, height, s, cell / width, cell % width);
            run->sym[s * nn + cell] = image;
            fixes_start &= run->snap.cells[image] == run->snap.cells[cell];
        }
        if (fixes_start)
            run->group[run->group_size++] = s;
    }
    ttt__board_bind_rect(&run->board, width, height, k, board_mem);
    ttt__board_track_live(&run->board, run->snap.early_draw);
    ttt__board_set_gravity(&run->board, run->snap.gravity);
    ttt__board_clear(&run->board);
    return TTT_OK;
}

int ttt_perft(const ttt_game *game, int depth, size_t table_bytes,
              uint64_t counts[4], uint64_t *by_length,
              size_t by_length_capacity, size_t *by_length_len)
{
    if (!game || !counts || depth < 0 ||
        (!by_length && by_length_capacity > 0) ||
        (by_length && !by_length_len))
        return TTT_E_INVALID;
    perft_run run;
    void *block = NULL;
    int status = perft_run_start(game, table_bytes, &run, &block);
    if (status != TTT_OK)
        return status;

    /* Games cannot outlast the empty cells; a finished game has length 0. */
    int32_t empty = run.snap.nn - run.snap.ply;
    if (run.snap.state != TTT_IN_PROGRESS)
        empty = 0;
    if (depth > empty)
        depth = empty;
    size_t needed = (size_t)depth + 1;
    if (by_length_len && by_length_capacity < needed) {
        *by_length_len = needed;
        engine_free(game, block);
        return TTT_E_BUFFER;
    }

    uint64_t found[4] = {0, 0, 0, 0};
    uint64_t *lengths = NULL;
    if (run.snap.state != TTT_IN_PROGRESS) {
        found[run.snap.state] = 1;
    } else {
        /* Length counts live in the caller's buffer only on success. */
        size_t bytes = ttt__size_mul(needed, sizeof(uint64_t));
        lengths = engine_alloc(game, bytes);
        if (!lengths) {
            engine_free(game, block);
            return TTT_E_NOMEM;
        }
        memset(lengths, 0, bytes);
        status = perft_layers(&run, depth, found, lengths);
    }
    if (status == TTT_OK) {
        memcpy(counts, found, sizeof found);
        if (by_length_len)
            *by_length_len = needed;
        if (by_length) {
            memset(by_length, 0, needed * sizeof(uint64_t));
            if (lengths)
                memcpy(by_length, lengths, needed * sizeof(uint64_t));
            else
                by_length[0] = 1;
        }
    }
    engine_free(game, lengths);
    engine_free(game, block);
    return status;
}

int ttt_count_positions(const ttt_game *game, int depth, size_t table_bytes,
                        uint64_t counts[4])
{
    if (!game || !counts || depth < 0)
        return TTT_E_INVALID;
    perft_run run;
    void *block = NULL;
    int status = perft_run_start(game, table_bytes, &run, &block);
    if (status != TTT_OK)
        return status;
    int32_t empty = run.snap.nn - run.snap.ply;
    if (depth > empty)
        depth = empty;
    uint64_t found[4] = {0, 0, 0, 0};
    run.keep_terminal = 1;
    status = perft_layers(&run, depth, found, NULL);
    if (status == TTT_OK)
        memcpy(counts, found, sizeof found);
    engine_free(game, block);
    return status;
}
