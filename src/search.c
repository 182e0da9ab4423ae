/* search.c - the engine: seeded random player, perft, exact solver, and the strong and perfect bots. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "random.h"

/*
 * Everything here reads a game through a snapshot taken under the game's
 * lock and then works on memory of its own, so a search never holds the lock
 * and never changes the game. Memory comes from the game's
 * allocator and is released before each call returns. Nothing reads a clock:
 * the same arguments give the same answer on every platform.
 */

/* ------------------------------------------------------------------------ */
/* Memory                                                                    */

static void *engine_alloc(const ttt_game *game, size_t bytes)
{
    /* The allocator is fixed at creation, so reading it needs no lock. */
    return game->alloc.alloc(game->alloc.user, bytes ? bytes : 1);
}

static void engine_free(const ttt_game *game, void *ptr)
{
    if (ptr)
        game->alloc.dealloc(game->alloc.user, ptr);
}

/* a * b into *out; 0 if it does not fit in a size_t. */
static int size_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > (size_t)-1 / b)
        return 0;
    *out = a * b;
    return 1;
}

/* Hands out 8-byte aligned pieces of one block, so a search makes one
 * allocation for all of its arrays. Sizing and carving share the code: with
 * base NULL it only adds up the bytes. */
typedef struct carver {
    char *base;
    size_t used;
    int overflow;
} carver;

static void *carve(carver *carver, size_t count, size_t elem)
{
    size_t bytes;
    if (!size_mul(count, elem, &bytes) || bytes > (size_t)-1 / 2 ||
        carver->used > (size_t)-1 / 2 - bytes) {
        carver->overflow = 1;
        return NULL;
    }
    bytes = (bytes + 7) & ~(size_t)7;
    void *piece = carver->base ? carver->base + carver->used : NULL;
    carver->used += bytes;
    return piece;
}

/* ------------------------------------------------------------------------ */
/* Snapshot                                                                  */

/* What the engine needs of a game, copied under its lock. */
typedef struct snapshot {
    int32_t n;
    int32_t k;
    int32_t nn;
    int32_t ply;
    int32_t state;
    int32_t misere;
    int32_t early_draw;
    int8_t *cells; /* nn marks, row-major; memory owned by the caller */
} snapshot;

/* Size and win length never change after creation, so the caller can size
 * snap->cells before taking the lock. */
static void take_snapshot(const ttt_game *game, snapshot *snap)
{
    snap->n = game->board.n;
    snap->k = game->board.k;
    snap->nn = game->board.nn;
    ttt__lock(game);
    snap->ply = game->board.nn - game->board.empty_count;
    snap->state = game->state;
    snap->misere = game->misere;
    snap->early_draw = game->early_draw;
    for (int32_t cell = 0; cell < snap->nn; cell++)
        snap->cells[cell] = (int8_t)ttt__board_mark(&game->board, cell);
    ttt__unlock(game);
}

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

/* The image of (row, col) under symmetry s of the n x n square: the four
 * rotations, then the four reflections. */
static int32_t symmetric_cell(int32_t n, int s, int32_t row, int32_t col)
{
    int32_t m = n - 1;
    switch (s) {
    case 0: return row * n + col;
    case 1: return col * n + (m - row);
    case 2: return (m - row) * n + (m - col);
    case 3: return (m - col) * n + row;
    case 4: return row * n + (m - col);
    case 5: return (m - row) * n + col;
    case 6: return col * n + row;
    default: return (m - col) * n + (m - row);
    }
}

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
    size_t bytes;
    if (capacity < map->capacity ||
        !size_mul(capacity, stride * sizeof(uint64_t), &bytes) ||
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
                         bit < nn ? TTT_X : TTT_O);
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

/* The state after mark was placed on the board, as the game judges it. */
static int state_after(const perft_run *run, int completed, int mark)
{
    if (completed) {
        int winner = run->snap.misere ? -mark : mark;
        return winner == TTT_X ? TTT_X_WON : TTT_O_WON;
    }
    if (run->board.empty_count == 0 ||
        (run->snap.early_draw && run->board.live == 0))
        return TTT_DRAW;
    return TTT_IN_PROGRESS;
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
            int32_t bit = mark == TTT_X ? cell : nn + cell;
            run->child[bit >> 6] |= UINT64_C(1) << (bit & 63);
        }
    }
    int status = map_add(run, &current, run->child,
                         run->keep_terminal ? POSITION_VALUE(run->snap.state, 1) : 1,
                         1);

    for (int ply = 0; status == TTT_OK && ply <= depth; ply++) {
        int mark = ttt__mover_at(run->snap.ply + ply);
        int32_t side = mark == TTT_X ? 0 : nn;
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
                if (!ttt__board_is_empty(&run->board, cell / n, cell % n))
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

/* Shared set-up of ttt_perft and ttt_count_positions. */
static int perft_run_start(const ttt_game *game, size_t table_bytes,
                           perft_run *run, void **block)
{
    int32_t n = game->board.n, k = game->board.k, nn = game->board.nn;
    memset(run, 0, sizeof *run);
    run->game = game;
    run->key_words = ((size_t)nn * 2 + 63) / 64;
    run->byte_limit = table_bytes ? table_bytes : PERFT_DEFAULT_BYTES;
    carver sizes = {NULL, 0, 0};
    carve(&sizes, (size_t)nn, 1);
    carve(&sizes, 8 * (size_t)nn, sizeof(int32_t));
    carve(&sizes, 8 * run->key_words, sizeof(uint64_t));
    carve(&sizes, 2 * run->key_words, sizeof(uint64_t));
    carve(&sizes, ttt__board_bytes(n, k), 1);
    if (sizes.overflow)
        return TTT_E_NOMEM;
    *block = engine_alloc(game, sizes.used);
    if (!*block)
        return TTT_E_NOMEM;
    carver parts = {*block, 0, 0};
    run->snap.cells = carve(&parts, (size_t)nn, 1);
    run->sym = carve(&parts, 8 * (size_t)nn, sizeof(int32_t));
    run->images = carve(&parts, 8 * run->key_words, sizeof(uint64_t));
    run->child = carve(&parts, run->key_words, sizeof(uint64_t));
    run->scratch = carve(&parts, run->key_words, sizeof(uint64_t));
    void *board_mem = carve(&parts, ttt__board_bytes(n, k), 1);
    take_snapshot(game, &run->snap);
    for (int s = 0; s < 8; s++) {
        int fixes_start = 1;
        for (int32_t cell = 0; cell < nn; cell++) {
            int32_t image = symmetric_cell(n, s, cell / n, cell % n);
            run->sym[s * nn + cell] = image;
            fixes_start &= run->snap.cells[image] == run->snap.cells[cell];
        }
        if (fixes_start)
            run->group[run->group_size++] = s;
    }
    ttt__board_bind(&run->board, n, k, board_mem);
    ttt__board_track_live(&run->board, run->snap.early_draw);
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
        size_t bytes = needed * sizeof(uint64_t);
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

/* ------------------------------------------------------------------------ */
/* The search board                                                          */

/*
 * The solver and the bots play on a board of their own, built for placing
 * and removing marks in any order and for the questions a search asks at
 * every node: which cells win at once, which K-windows can still be won,
 * which cells no live window passes through, how promising each cell is.
 *
 * A K-window is a run of K cells along a row, column, diagonal or
 * anti-diagonal (for K = N these are the lines). Each window keeps its count
 * of X and O marks and the sum of the offsets (0 .. K-1) of its marked
 * cells. Every other field is a sum over windows of a function of that
 * state, updated only for the windows through the changed cell:
 *   live                windows not holding both marks;
 *   completed           windows full of one mark (a finished game);
 *   sums[c].live        live windows through c; 0 means c is dead: a mark
 *                       there changes no window, so it only passes the turn;
 *   sums[c].touched     windows through c holding some mark; the cells
 *                       with a nonzero count are also listed in touched
 *                       (touched_at[c] their place, -1 if absent), so the
 *                       bot finds its candidates without a pass over the
 *                       board;
 *   sums[c].weight[p]   weight[m] summed over the windows through c holding
 *                       m marks of player p and none of the other;
 *   sums[c].building[p] windows through c holding K - 2 marks of p and none
 *                       of the other: a mark of p on c turns each into a
 *                       threat, so two or more may make a double threat;
 *   open_windows[p][m]  windows holding m marks of p and none of the other;
 *   threat_hits[p][c]   windows p completes by playing c: K - 1 marks of p,
 *                       none of the other, and c their empty cell (found
 *                       from the offset sum);
 *   threat_cells[p]     cells with threat_hits[p] > 0, and threat_sum[p]
 *                       their index sum: the cell itself when there is one;
 *   eval                the weights of X's one-sided windows minus O's.
 * Players are indexed 0 for X and 1 for O.
 *
 * For the transposition table the board also keeps, for each of the eight
 * symmetries of the square, the key of the transformed position: a sum of
 * per-cell terms, base-3 digits (exact) up to 40 cells and pseudo-random
 * 64-bit terms beyond. The smallest of the eight is the canonical key.
 */

static const int dir_row[4] = {0, 1, 1, 1};
static const int dir_col[4] = {1, 0, 1, -1};

#define WEIGHT_SHIFT_CAP 30
#define RUNS_MAX_CELLS 65536 /* precompute window runs up to 256 x 256 */
/* Beyond this many cells the engine looks for candidates, threats and
 * double threats among the touched cells (listed by the board) instead of
 * passing over the whole board at every node. */
#define SOLVER_SCAN_CELLS 1024
/* Up to this many window cells in one direction, a placed mark updates
 * them one by one; beyond, through a difference array (touch_windows). */
#define DIRECT_CHANGE_CELLS 64

/* The windows through a cell along one direction: window index w, first
 * cell start and the cell's offset in it, then each next window one step
 * along (w + window_step, start + cell_step, offset - 1), count in all. */
typedef struct window_run {
    int32_t w;
    int32_t start;
    int32_t offset;
    int32_t count;
} window_run;


/* A cell's sums over the windows through it (see above), kept together:
 * placing a mark updates all of them for the same cells, and on a large
 * board separate arrays put each in its own page. */
struct cell_sums {
    int64_t weight[2];   /* cell_weight[p] */
    int32_t live;        /* cell_live */
    int32_t touched;     /* cell_touched */
    int32_t building[2]; /* cell_building[p] */
};

typedef struct sboard {
    int32_t n, k, nn;
    int32_t span;             /* windows along one line: n - k + 1 */
    int32_t misere, early_draw;
    int32_t window_count;
    int32_t window_base[4];   /* index of each direction's first window */
    int32_t window_step[4];   /* index step between neighbouring windows */
    int32_t cell_step[4];     /* cell index step along each direction */
    int32_t empty;
    int32_t live;
    int32_t completed;
    int32_t threat_cells[2];
    int64_t threat_sum[2];
    int64_t eval;
    int8_t *cells;
    int16_t *window_marks;    /* X count, O count per window */
    int32_t *window_offsets;
    int32_t *window_start;    /* first cell of each window */
    struct cell_sums *sums;   /* per cell: the sums below, side by side */
    struct cell_sums *diff;   /* 2K + 1 zeroed: touch_windows' scratch */
    int32_t *touched;         /* the cells with cell_touched > 0, any order */
    int32_t *touched_at;      /* per cell: its index in touched, or -1 */
    int32_t touched_count;
    int32_t *threat_hits[2];
    struct window_run *runs;  /* 4 per cell, or NULL on huge boards */
    int32_t *open_windows[2]; /* k + 1 counters each */
    int64_t *weight;          /* k + 1 weights */
    int32_t use_keys;
    uint64_t key[8];
    uint64_t *key_term[2];    /* per cell */
    int32_t *sym;             /* 8 * nn: the image of each cell */
} sboard;

static void sboard_size(carver *carver, sboard *b, int32_t n, int32_t k,
                        int use_keys)
{
    size_t nn = (size_t)n * (size_t)n;
    size_t span = (size_t)(n - k + 1);
    size_t windows = 2 * (size_t)n * span + 2 * span * span;
    b->cells = carve(carver, nn, sizeof(int8_t));
    b->window_marks = carve(carver, windows * 2, sizeof(int16_t));
    b->window_offsets = carve(carver, windows, sizeof(int32_t));
    b->window_start = carve(carver, windows, sizeof(int32_t));
    b->sums = carve(carver, nn, sizeof(struct cell_sums));
    b->diff = carve(carver, 2 * (size_t)k + 1, sizeof(struct cell_sums));
    b->touched = carve(carver, nn, sizeof(int32_t));
    b->touched_at = carve(carver, nn, sizeof(int32_t));
    for (int p = 0; p < 2; p++) {
        b->threat_hits[p] = carve(carver, nn, sizeof(int32_t));
        b->open_windows[p] = carve(carver, (size_t)k + 1, sizeof(int32_t));
    }
    b->weight = carve(carver, (size_t)k + 1, sizeof(int64_t));
    b->runs = nn <= RUNS_MAX_CELLS ? carve(carver, 4 * nn, sizeof(window_run)) : NULL;
    if (use_keys) {
        b->key_term[0] = carve(carver, nn, sizeof(uint64_t));
        b->key_term[1] = carve(carver, nn, sizeof(uint64_t));
        b->sym = carve(carver, 8 * nn, sizeof(int32_t));
    }
}

/* The symmetry that undoes symmetry s. */
static const int inverse_symmetry[8] = {0, 3, 2, 1, 4, 5, 6, 7};

/* What one window adds to each of its cells' sums. */
typedef struct window_share {
    int32_t live;
    int32_t touched;
    int32_t building[2];
    int64_t weight[2];
} window_share;

static window_share share_of(const sboard *b, const int count[2])
{
    window_share share;
    share.live = count[0] == 0 || count[1] == 0;
    share.touched = count[0] + count[1] > 0;
    for (int p = 0; p < 2; p++) {
        share.weight[p] = count[1 - p] == 0 ? b->weight[count[p]] : 0;
        share.building[p] = count[1 - p] == 0 && count[p] == b->k - 2;
    }
    return share;
}

static void threat_change(sboard *b, int p, int32_t cell, int sign)
{
    int32_t hits = (b->threat_hits[p][cell] += sign);
    if (sign > 0 && hits == 1) {
        b->threat_cells[p]++;
        b->threat_sum[p] += cell;
    } else if (sign < 0 && hits == 0) {
        b->threat_cells[p]--;
        b->threat_sum[p] -= cell;
    }
}

/* Adds change to the cell's touched count, keeping the touched list. */
static void touched_change(sboard *b, int32_t cell, int32_t change)
{
    int32_t before = b->sums[cell].touched;
    int32_t now = (b->sums[cell].touched += change);
    if (before == 0 && now > 0) {
        b->touched_at[cell] = b->touched_count;
        b->touched[b->touched_count++] = cell;
    } else if (before > 0 && now == 0) {
        /* The last listed cell takes the leaver's place. */
        int32_t at = b->touched_at[cell];
        int32_t last = b->touched[--b->touched_count];
        b->touched[at] = last;
        b->touched_at[last] = at;
        b->touched_at[cell] = -1;
    }
}

/* Adds a window's change to one of its cells' sums. */
static void add_sums(sboard *b, int32_t cell, const struct cell_sums *change)
{
    struct cell_sums *sums = &b->sums[cell];
    sums->live += change->live;
    for (int p = 0; p < 2; p++) {
        sums->weight[p] += change->weight[p];
        sums->building[p] += change->building[p];
    }
    if (change->touched != 0)
        touched_change(b, cell, change->touched);
}

/*
 * Adds (add +1) or removes (add -1) a mark of player p at offset `offset`
 * of window w, which starts at cell start in direction d, and updates every
 * sum the window feeds: only the parts that one mark can change, as this
 * runs for every window through every cell placed or lifted in a search.
 * With change NULL it adds to the window's cells itself; otherwise it
 * leaves them and adds what each of them gains to *change (touch_windows
 * spreads it over long windows).
 */
static void window_change(sboard *b, int32_t w, int32_t start, int d, int p,
                          int32_t offset, int add, struct cell_sums *change)
{
    int16_t *marks = b->window_marks + 2 * (size_t)w;
    int o = 1 - p, k = b->k;
    int mine = marks[p], other = marks[o], now = mine + add;
    int32_t offsets_before = b->window_offsets[w];
    int32_t offsets_after = offsets_before + add * offset;
    marks[p] = (int16_t)now;
    b->window_offsets[w] = offsets_after;
    int32_t step = b->cell_step[d];
    int32_t full = k * (k - 1) / 2;

    if (other > 0) {
        /* Dead before and after unless p's first mark comes or goes: then
         * the other's one-sided window dies or comes back. */
        if (mine > 0 && now > 0)
            return;
        int sign = add > 0 ? -1 : +1;
        b->live += sign;
        b->open_windows[o][other] += sign;
        if (other == k)
            b->completed += sign;
        /* The offsets then are the other's alone: before p's mark came,
         * or after it left. */
        int32_t offsets_other = add > 0 ? offsets_before : offsets_after;
        if (other == k - 1)
            threat_change(b, o, start + (full - offsets_other) * step, sign);
        b->eval += (o == 0 ? sign : -sign) * b->weight[other];
        int64_t weight = sign * b->weight[other];
        int32_t building = other == k - 2 ? sign : 0;
        if (change) {
            change->live += sign;
            change->weight[o] += weight;
            change->building[o] += building;
            return;
        }
        int32_t cell = start;
        for (int i = 0; i < k; i++, cell += step) {
            b->sums[cell].live += sign;
            b->sums[cell].weight[o] += weight;
            b->sums[cell].building[o] += building;
        }
        return;
    }

    /* One-sided for p (or empty) before and after: still live. */
    b->open_windows[p][mine]--;
    b->open_windows[p][now]++;
    if (mine == k)
        b->completed--;
    if (now == k)
        b->completed++;
    if (mine == k - 1)
        threat_change(b, p, start + (full - offsets_before) * step, -1);
    if (now == k - 1)
        threat_change(b, p, start + (full - offsets_after) * step, +1);
    int64_t eval_change = (now > 0 ? b->weight[now] : 0) - (mine > 0 ? b->weight[mine] : 0);
    b->eval += p == 0 ? eval_change : -eval_change;
    /* An empty window also counts as open for the other player. */
    int32_t other_open = (now == 0) - (mine == 0);
    b->open_windows[o][0] += other_open;
    int64_t weight_mine = b->weight[now] - b->weight[mine];
    int64_t weight_other = other_open * b->weight[0];
    int32_t building = (now == k - 2) - (mine == k - 2);
    if (change) {
        change->touched -= other_open;
        change->weight[p] += weight_mine;
        change->weight[o] += weight_other;
        change->building[p] += building;
        return;
    }
    int32_t cell = start;
    for (int i = 0; i < k; i++, cell += step) {
        if (other_open != 0)
            touched_change(b, cell, -other_open);
        b->sums[cell].weight[p] += weight_mine;
        b->sums[cell].weight[o] += weight_other;
        b->sums[cell].building[p] += building;
    }
}

static int32_t window_index(const sboard *b, int d, int32_t row, int32_t col)
{
    switch (d) {
    case 0: return b->window_base[0] + row * b->span + col;
    case 1: return b->window_base[1] + row * b->n + col;
    case 2: return b->window_base[2] + row * b->span + col;
    default: return b->window_base[3] + row * b->span + (col - (b->k - 1));
    }
}

static int window_direction(const sboard *b, int32_t w)
{
    int d = 3;
    while (d > 0 && w < b->window_base[d])
        d--;
    return d;
}

static int32_t min32(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

static window_run compute_windows_through(const sboard *b, int32_t cell, int d)
{
    int32_t n = b->n, k = b->k;
    int32_t row = cell / n, col = cell % n;
    int32_t back, ahead;
    switch (d) {
    case 0: back = col; ahead = n - 1 - col; break;
    case 1: back = row; ahead = n - 1 - row; break;
    case 2: back = min32(row, col); ahead = min32(n - 1 - row, n - 1 - col); break;
    default: back = min32(row, n - 1 - col); ahead = min32(n - 1 - row, col); break;
    }
    back = min32(back, k - 1);
    ahead = min32(ahead, k - 1);
    /* The cell sits at offset j of the window starting j steps back, for
     * k - 1 - ahead <= j <= back. */
    window_run run;
    run.offset = back;
    run.count = back - (k - 1 - ahead) + 1;
    run.start = cell - back * b->cell_step[d];
    run.w = run.count > 0 ? window_index(b, d, row - back * dir_row[d],
                                         col - back * dir_col[d])
                          : 0;
    return run;
}

static window_run windows_through(const sboard *b, int32_t cell, int d)
{
    return b->runs ? b->runs[4 * (size_t)cell + (size_t)d]
                   : compute_windows_through(b, cell, d);
}

/* Applies a mark of p at cell to (add +1) or takes it from (add -1) every
 * window through the cell: at most K per direction. */
static void touch_windows(sboard *b, int32_t cell, int p, int add)
{
    int32_t k = b->k;
    struct cell_sums *diff = b->diff;
    for (int d = 0; d < 4; d++) {
        window_run run = windows_through(b, cell, d);
        if (run.count <= 0)
            continue;
        int32_t step = b->cell_step[d], first = run.start;
        /* Few and short windows: each window adds to its cells. Up to K
         * windows of K cells: window i covers the line segment's cells
         * i .. i + K - 1, so with diff[i] += change, diff[i + K] -= change
         * one sweep over those 2K - 1 cells adds every change in O(K)
         * steps instead of K * K. */
        int direct = run.count * k <= DIRECT_CHANGE_CELLS;
        for (int32_t i = 0; i < run.count; i++) {
            if (direct) {
                window_change(b, run.w, run.start, d, p, run.offset, add, NULL);
            } else {
                struct cell_sums *into = &diff[i], *out = &diff[i + k];
                struct cell_sums change;
                memset(&change, 0, sizeof change);
                window_change(b, run.w, run.start, d, p, run.offset, add, &change);
                into->live += change.live;
                into->touched += change.touched;
                out->live -= change.live;
                out->touched -= change.touched;
                for (int q = 0; q < 2; q++) {
                    into->weight[q] += change.weight[q];
                    into->building[q] += change.building[q];
                    out->weight[q] -= change.weight[q];
                    out->building[q] -= change.building[q];
                }
            }
            run.w += b->window_step[d];
            run.start += step;
            run.offset--;
        }
        if (direct)
            continue;
        struct cell_sums sum;
        memset(&sum, 0, sizeof sum);
        int32_t length = run.count + k - 1, at = first;
        for (int32_t j = 0; j < length; j++, at += step) {
            sum.live += diff[j].live;
            sum.touched += diff[j].touched;
            for (int q = 0; q < 2; q++) {
                sum.weight[q] += diff[j].weight[q];
                sum.building[q] += diff[j].building[q];
            }
            add_sums(b, at, &sum);
        }
        /* Leave the scratch zeroed for the next direction. */
        memset(diff, 0, ((size_t)length + 1) * sizeof *diff);
    }
}

/* The cells that become threats of p if p plays the empty cell: for each
 * window through it holding K - 2 marks of p and none of the other, its
 * other empty cell. Writes the distinct ones to out (room for 4 * K) and
 * returns how many. */
static int32_t future_threats(const sboard *b, int p, int32_t cell,
                              int32_t *out)
{
    int32_t k = b->k, found = 0;
    int32_t full_sum = k * (k - 1) / 2;
    for (int d = 0; d < 4; d++) {
        window_run run = windows_through(b, cell, d);
        for (int32_t i = 0; i < run.count; i++) {
            const int16_t *marks = b->window_marks + 2 * (size_t)run.w;
            if (marks[p] == k - 2 && marks[1 - p] == 0) {
                /* Offsets of the two empty cells add up to what is missing. */
                int32_t other = full_sum - b->window_offsets[run.w] - run.offset;
                int32_t target = run.start + other * b->cell_step[d];
                int32_t j = 0;
                while (j < found && out[j] != target)
                    j++;
                if (j == found)
                    out[found++] = target;
            }
            run.w += b->window_step[d];
            run.start += b->cell_step[d];
            run.offset--;
        }
    }
    return found;
}

static void sboard_place(sboard *b, int32_t cell, int p)
{
    b->cells[cell] = (int8_t)(p == 0 ? TTT_X : TTT_O);
    b->empty--;
    touch_windows(b, cell, p, +1);
    if (b->use_keys) {
        for (int s = 0; s < 8; s++)
            b->key[s] += b->key_term[p][b->sym[(size_t)s * (size_t)b->nn + (size_t)cell]];
    }
}

static void sboard_remove(sboard *b, int32_t cell)
{
    int p = b->cells[cell] == TTT_X ? 0 : 1;
    b->cells[cell] = TTT_EMPTY;
    b->empty++;
    touch_windows(b, cell, p, -1);
    if (b->use_keys) {
        for (int s = 0; s < 8; s++)
            b->key[s] -= b->key_term[p][b->sym[(size_t)s * (size_t)b->nn + (size_t)cell]];
    }
}

/* The player to move: 0 (X) on even plies. */
static int sboard_mover(const sboard *b)
{
    return (b->nn - b->empty) & 1;
}

/* Lays the board out for snap, whose arrays the caller carved, then places
 * the snapshot's marks. */
static void sboard_init(sboard *b, const snapshot *snap, int use_keys)
{
    int32_t n = snap->n, k = snap->k, nn = snap->nn, span = n - k + 1;
    b->n = n;
    b->k = k;
    b->nn = nn;
    b->span = span;
    b->misere = snap->misere;
    b->early_draw = snap->early_draw;
    b->window_base[0] = 0;
    b->window_base[1] = n * span;
    b->window_base[2] = 2 * n * span;
    b->window_base[3] = 2 * n * span + span * span;
    b->window_count = 2 * n * span + 2 * span * span;
    b->window_step[0] = 1;
    b->window_step[1] = n;
    b->window_step[2] = span + 1;
    b->window_step[3] = span - 1;
    for (int d = 0; d < 4; d++)
        b->cell_step[d] = dir_row[d] * n + dir_col[d];
    b->empty = nn;
    b->live = 0;
    b->completed = 0;
    b->eval = 0;
    b->use_keys = use_keys;
    for (int p = 0; p < 2; p++) {
        b->threat_cells[p] = 0;
        b->threat_sum[p] = 0;
        memset(b->threat_hits[p], 0, (size_t)nn * sizeof(int32_t));
        memset(b->open_windows[p], 0, ((size_t)k + 1) * sizeof(int32_t));
    }
    /* Each extra mark makes a window eight times as interesting. */
    for (int32_t m = 0; m <= k; m++)
        b->weight[m] = (int64_t)1 << min32(3 * m, WEIGHT_SHIFT_CAP);
    memset(b->cells, TTT_EMPTY, (size_t)nn);
    memset(b->window_marks, 0, (size_t)b->window_count * 2 * sizeof(int16_t));
    memset(b->window_offsets, 0, (size_t)b->window_count * sizeof(int32_t));
    memset(b->sums, 0, (size_t)nn * sizeof(struct cell_sums));
    memset(b->diff, 0, (2 * (size_t)k + 1) * sizeof(struct cell_sums));
    memset(b->touched_at, 0xff, (size_t)nn * sizeof(int32_t)); /* all -1 */
    b->touched_count = 0;

    /* Every window starts empty and live. */
    const int none[2] = {0, 0};
    window_share share = share_of(b, none);
    for (int d = 0; d < 4; d++) {
        int32_t rows = d == 0 ? n : span;
        int32_t col_lo = d == 3 ? k - 1 : 0;
        int32_t col_hi = d == 1 || d == 3 ? n : span;
        for (int32_t row = 0; row < rows; row++) {
            for (int32_t col = col_lo; col < col_hi; col++) {
                int32_t start = row * n + col;
                b->window_start[window_index(b, d, row, col)] = start;
            }
        }
    }
    /* An empty window is live and open for both players, and adds nothing
     * else to the board-wide sums (K >= 3). */
    b->live = b->window_count;
    b->open_windows[0][0] = b->window_count;
    b->open_windows[1][0] = b->window_count;
    /* Each cell's sums are its share of every window through it, all alike
     * while the board is empty: one pass over the cells, not K per window
     * (which on 1024 x 1024 with K = 512 is close to 10^9 steps). */
    for (int32_t cell = 0; cell < nn; cell++) {
        int32_t through = 0;
        for (int d = 0; d < 4; d++) {
            int32_t count = compute_windows_through(b, cell, d).count;
            through += count > 0 ? count : 0; /* none on short diagonals */
        }
        b->sums[cell].live = through * share.live;
        for (int p = 0; p < 2; p++) {
            b->sums[cell].weight[p] = through * share.weight[p];
            b->sums[cell].building[p] = through * share.building[p];
        }
    }

    if (use_keys) {
        uint64_t seed = UINT64_C(0x7474742d736f6c76); /* fixed: keys are reproducible */
        uint64_t power = 1;
        for (int32_t cell = 0; cell < nn; cell++) {
            if (nn <= 40) {
                /* 3^40 < 2^64: base-3 digits make the key the position. */
                b->key_term[0][cell] = power;
                b->key_term[1][cell] = 2 * power;
                power *= 3;
            } else {
                b->key_term[0][cell] = ttt__next_random(&seed);
                b->key_term[1][cell] = ttt__next_random(&seed);
            }
            for (int s = 0; s < 8; s++)
                b->sym[(size_t)s * (size_t)nn + (size_t)cell] =
                    symmetric_cell(n, s, cell / n, cell % n);
        }
        for (int s = 0; s < 8; s++)
            b->key[s] = 0;
    }
    if (b->runs) {
        for (int32_t cell = 0; cell < nn; cell++) {
            for (int d = 0; d < 4; d++)
                b->runs[4 * (size_t)cell + (size_t)d] = compute_windows_through(b, cell, d);
        }
    }
    for (int32_t cell = 0; cell < nn; cell++) {
        if (snap->cells[cell] != TTT_EMPTY)
            sboard_place(b, cell, snap->cells[cell] == TTT_X ? 0 : 1);
    }
}

/* Whether player p might still complete a window: one holding none of the
 * other's marks that p can fill with the moves p has left. */
static int can_complete(const sboard *b, int p)
{
    int32_t moves_left = (b->empty + (p == sboard_mover(b))) / 2;
    int32_t m = b->k - moves_left;
    for (m = m < 0 ? 0 : m; m < b->k; m++) {
        if (b->open_windows[p][m] > 0)
            return 1;
    }
    return 0;
}

/*
 * Whether p might still win against an opponent who blocks: a single
 * completion cell is always blocked, so p's win needs, some day, one move
 * that makes two completion cells at once. That move's cell lies in two of
 * p's open windows, and p must fill their union but the two last cells, then
 * complete one: |empty cells of the union| - 1 moves. Windows on different
 * lines share only that cell, so the union holds e1 + e2 - 1 empty cells
 * (e = K - marks); two on the same line are counted loosely (any two
 * fillable ones pass). Checked only near the end, where it prunes; earlier
 * it falls back to can_complete. A necessary condition, so "no" is proof.
 */
static int can_double(const sboard *b, int p)
{
    int32_t left = (b->empty + (p == sboard_mover(b))) / 2;
    int32_t k = b->k;
    if (left >= k + 2)
        return can_complete(b, p);
    /* Weights grow with the marks, so a cell with two fillable windows
     * weighs at least twice the lightest fillable one. */
    int64_t least = 2 * b->weight[k > left ? k - left : 0];
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY || b->sums[cell].weight[p] < least)
            continue;
        int32_t fewest[4]; /* fewest empty cells of a fillable window, per line */
        for (int d = 0; d < 4; d++) {
            window_run run = windows_through(b, cell, d);
            int fillable = 0;
            fewest[d] = INT32_MAX / 4;
            for (int32_t i = 0; i < run.count; i++, run.w += b->window_step[d]) {
                const int16_t *marks = b->window_marks + 2 * (size_t)run.w;
                int32_t empty = k - marks[p];
                if (marks[1 - p] == 0 && empty <= left) {
                    fillable++;
                    if (empty < fewest[d])
                        fewest[d] = empty;
                }
            }
            if (fillable >= 2)
                return 1;
        }
        for (int d1 = 0; d1 < 4; d1++) {
            for (int d2 = d1 + 1; d2 < 4; d2++) {
                if (fewest[d1] + fewest[d2] - 2 <= left)
                    return 1;
            }
        }
    }
    return 0;
}

/* Some cell where p completes a window (threat_cells[p] > 0). */
static int32_t some_threat_cell(const sboard *b, int p)
{
    if (b->threat_cells[p] == 1)
        return (int32_t)b->threat_sum[p];
    /* A completion cell shares a window with marks: on large boards look
     * only at the touched cells. */
    if (b->nn > SOLVER_SCAN_CELLS) {
        for (int32_t i = 0; i < b->touched_count; i++) {
            if (b->threat_hits[p][b->touched[i]] > 0)
                return b->touched[i];
        }
        return -1;
    }
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->threat_hits[p][cell] > 0)
            return cell;
    }
    return -1;
}

/* The state of the game after a mark of p completed windows (completed > 0),
 * filled the board or, under the early-draw rule, killed the last live
 * window; TTT_IN_PROGRESS otherwise. */
static int sboard_state(const sboard *b, int p)
{
    if (b->completed > 0) {
        int winner = b->misere ? 1 - p : p;
        return winner == 0 ? TTT_X_WON : TTT_O_WON;
    }
    if (b->empty == 0 || (b->early_draw && b->live == 0))
        return TTT_DRAW;
    return TTT_IN_PROGRESS;
}

/* ------------------------------------------------------------------------ */
/* Move lists                                                                */

/*
 * Candidate moves of every node on the current path live on one growable
 * stack of (score << CELL_BITS | cell) keys, sorted in place, so a node's
 * list costs no allocation. Cells fit in CELL_BITS (TTT_MAX_SIZE^2 = 2^20).
 */

#define CELL_BITS 21
#define CELL_MASK ((INT64_C(1) << CELL_BITS) - 1)
#define SCORE_CAP ((INT64_C(1) << 40) - 1)

typedef struct move_stack {
    const ttt_game *game; /* whose allocator grows it */
    int64_t *keys;
    size_t capacity;
    size_t top;
    size_t limit;         /* most keys it may hold: a deep search of a huge
                           * board would otherwise take gigabytes */
} move_stack;

/* TTT_E_BUDGET when the stack is at its limit: the cap bounds the work of
 * a search like its node budget does, and nothing failed to allocate. */
static int push_move(move_stack *stack, int32_t cell, int64_t score)
{
    if (stack->top == stack->capacity) {
        size_t capacity = stack->capacity ? stack->capacity * 2 : 256;
        size_t bytes;
        if (stack->top >= stack->limit)
            return TTT_E_BUDGET;
        if (capacity > stack->limit)
            capacity = stack->limit;
        if (!size_mul(capacity, sizeof(int64_t), &bytes))
            return TTT_E_NOMEM;
        int64_t *keys = engine_alloc(stack->game, bytes);
        if (!keys)
            return TTT_E_NOMEM;
        if (stack->keys)
            memcpy(keys, stack->keys, stack->top * sizeof(int64_t));
        engine_free(stack->game, stack->keys);
        stack->keys = keys;
        stack->capacity = capacity;
    }
    if (score < 0)
        score = 0;
    if (score > SCORE_CAP)
        score = SCORE_CAP;
    stack->keys[stack->top++] = score << CELL_BITS | cell;
    return TTT_OK;
}

static int compare_keys_descending(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

/* Sorts keys[from, to) by descending key: score first, then the higher
 * cell, which is deterministic. Insertion sort for the short lists of small
 * boards, qsort for the long ones of large boards. */
static void sort_moves(int64_t *keys, size_t from, size_t to)
{
    if (to - from > 32) {
        qsort(keys + from, to - from, sizeof *keys, compare_keys_descending);
        return;
    }
    for (size_t i = from + 1; i < to; i++) {
        int64_t key = keys[i];
        size_t j = i;
        while (j > from && keys[j - 1] < key) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = key;
    }
}

/* Moves the `wanted` best keys of [from, to) to its front, best first:
 * cheaper than sorting when only a few of many are searched. */
static void select_moves(int64_t *keys, size_t from, size_t to, size_t wanted)
{
    for (size_t i = from; i < to && i < from + wanted; i++) {
        size_t best = i;
        for (size_t j = i + 1; j < to; j++) {
            if (keys[j] > keys[best])
                best = j;
        }
        int64_t key = keys[i];
        keys[i] = keys[best];
        keys[best] = key;
    }
}

/* Moves the `wanted` highest keys of keys[0, count) to its front, in any
 * order: a three-way quickselect, linear on average where sorting a huge
 * board's list would not be. The keys are distinct (they hold the cell). */
static void select_top(int64_t *keys, size_t count, size_t wanted)
{
    size_t lo = 0, hi = count;
    while (hi - lo > 1 && wanted > lo && wanted < hi) {
        int64_t a = keys[lo], b = keys[lo + (hi - lo) / 2], c = keys[hi - 1];
        int64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        size_t lt = lo, i = lo, gt = hi; /* [lo,lt) > pivot, [gt,hi) < pivot */
        while (i < gt) {
            int64_t key = keys[i];
            if (key > pivot) {
                keys[i++] = keys[lt];
                keys[lt++] = key;
            } else if (key < pivot) {
                keys[i] = keys[--gt];
                keys[gt] = key;
            } else {
                i++;
            }
        }
        if (wanted <= lt)
            hi = lt;
        else if (wanted >= gt)
            lo = gt;
        else
            return;
    }
}

static int32_t move_cell(int64_t key)
{
    return (int32_t)(key & CELL_MASK);
}

/* ------------------------------------------------------------------------ */
/* Transposition table                                                       */

/*
 * Buckets of four 16-byte entries (one cache line). An entry holds the
 * canonical key and, packed in 64 bits: the lower and upper bound on the
 * position's score, the best move found (in the canonical orientation) and
 * the log2 of the nodes its search took. A new entry replaces the cheapest
 * one of its bucket, so expensive results survive.
 *
 * The table starts small (256 KiB) and grows eightfold whenever half its
 * entries are taken, up to its cap: most solves are small, and clearing a
 * table of the full size would cost them more than the search. Growing
 * early keeps the entries a small table would have to evict. The last step
 * to the cap starts empty rather than hold two tables at once.
 */

#define TT_WAYS 4
#define TT_ENTRY_BYTES 16
#define TT_USED (UINT64_C(1) << 63)
#define SCORE_INF 32767 /* beyond every score; fits the 16-bit fields */

typedef struct tt_entry {
    uint64_t key;
    uint64_t data;
} tt_entry;

#define TT_START_BUCKETS 4096

typedef struct ttable {
    tt_entry *entries;
    size_t bucket_mask;
    int bucket_shift;
    size_t used;          /* entries holding a position */
    size_t max_buckets;   /* the cap on growth */
    const ttt_game *game; /* whose allocator holds the entries */
} ttable;

static uint64_t tt_pack(int32_t lower, int32_t upper, int32_t move, int work)
{
    return TT_USED | (uint64_t)(uint16_t)(lower + 32768) |
           (uint64_t)(uint16_t)(upper + 32768) << 16 |
           (uint64_t)(uint32_t)(move + 1) << 32 | (uint64_t)work << 56;
}

static int32_t tt_lower(uint64_t data)
{
    return (int32_t)(data & 0xffff) - 32768;
}

static int32_t tt_upper(uint64_t data)
{
    return (int32_t)(data >> 16 & 0xffff) - 32768;
}

static int32_t tt_move(uint64_t data)
{
    return (int32_t)(data >> 32 & 0xffffff) - 1;
}

static int tt_work(uint64_t data)
{
    return (int)(data >> 56 & 0x7f);
}

static tt_entry *tt_bucket(const ttable *tt, uint64_t key)
{
    size_t bucket = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> tt->bucket_shift) &
                    tt->bucket_mask;
    return tt->entries + bucket * TT_WAYS;
}

/* Asks the memory system for a bucket ahead of its probe, so the misses of
 * a node's children overlap instead of queueing. A hint only. */
static void tt_prefetch(const ttable *tt, uint64_t key)
{
    TTT__PREFETCH(tt_bucket(tt, key), 0);
}

static const tt_entry *tt_probe(const ttable *tt, uint64_t key)
{
    const tt_entry *bucket = tt_bucket(tt, key);
    for (int i = 0; i < TT_WAYS; i++) {
        if ((bucket[i].data & TT_USED) && bucket[i].key == key)
            return &bucket[i];
    }
    return NULL;
}

/* Puts an entry in its bucket: over the same key (merging), in a free way,
 * or over the cheapest. Returns 1 if a free way was used. */
static int tt_put(ttable *tt, uint64_t key, uint64_t data)
{
    tt_entry *bucket = tt_bucket(tt, key);
    tt_entry *victim = &bucket[0];
    for (int i = 0; i < TT_WAYS; i++) {
        tt_entry *entry = &bucket[i];
        if (!(entry->data & TT_USED)) {
            entry->key = key;
            entry->data = data;
            return 1;
        }
        if (tt_work(entry->data) < tt_work(victim->data))
            victim = entry;
    }
    victim->key = key;
    victim->data = data;
    return 0;
}

/* Allocates a table of `buckets` empty buckets (a power of two) and moves
 * the old entries into it, if both fit under the cap together; otherwise
 * the old entries (only a cache) go first, so the table never holds more
 * than its cap. */
static int tt_resize(ttable *tt, size_t buckets)
{
    size_t bytes;
    if (!size_mul(buckets, TT_WAYS * sizeof(tt_entry), &bytes))
        return TTT_E_NOMEM;
    if (tt->entries && buckets + tt->bucket_mask + 1 > tt->max_buckets) {
        engine_free(tt->game, tt->entries);
        tt->entries = NULL;
    }
    tt_entry *entries = engine_alloc(tt->game, bytes);
    if (!entries)
        return TTT_E_NOMEM;
    memset(entries, 0, bytes);
    ttable old = *tt;
    tt->entries = entries;
    tt->bucket_mask = buckets - 1;
    int bits = 0;
    while (((size_t)1 << bits) < buckets)
        bits++;
    tt->bucket_shift = 64 - (bits ? bits : 1);
    tt->used = 0;
    if (old.entries) {
        for (size_t i = 0; i < (old.bucket_mask + 1) * TT_WAYS; i++) {
            if (old.entries[i].data & TT_USED)
                tt->used += (size_t)tt_put(tt, old.entries[i].key, old.entries[i].data);
        }
        engine_free(tt->game, old.entries);
    }
    return TTT_OK;
}

static void tt_release(ttable *tt)
{
    engine_free(tt->game, tt->entries);
    tt->entries = NULL;
}

static void tt_clear(ttable *tt)
{
    memset(tt->entries, 0, (tt->bucket_mask + 1) * TT_WAYS * sizeof(tt_entry));
    tt->used = 0;
}

/* Records bounds for key, merged with what the table knew. Returns
 * TTT_E_NOMEM if growing the table failed. */
static int tt_store(ttable *tt, uint64_t key, int32_t lower, int32_t upper,
                    int32_t move, uint64_t nodes)
{
    int work = 0; /* log2(nodes): 63 at most, the field holds 127 */
    while (work < 63 && nodes >> work > 1)
        work++;
    tt_entry *bucket = tt_bucket(tt, key);
    for (int i = 0; i < TT_WAYS; i++) {
        tt_entry *entry = &bucket[i];
        if ((entry->data & TT_USED) && entry->key == key) {
            /* Both results are true of the position: keep the tighter
             * bounds, the newer move, and the larger effort. */
            int32_t old_lower = tt_lower(entry->data);
            int32_t old_upper = tt_upper(entry->data);
            if (old_lower > lower)
                lower = old_lower;
            if (old_upper < upper)
                upper = old_upper;
            if (lower > upper)
                lower = upper;
            if (move < 0)
                move = tt_move(entry->data);
            if (tt_work(entry->data) > work)
                work = tt_work(entry->data);
            entry->data = tt_pack(lower, upper, move, work);
            return TTT_OK;
        }
    }
    tt->used += (size_t)tt_put(tt, key, tt_pack(lower, upper, move, work));
    size_t buckets = tt->bucket_mask + 1;
    if (tt->used * 2 > buckets * TT_WAYS && buckets < tt->max_buckets) {
        size_t bigger = buckets * 8 < tt->max_buckets ? buckets * 8 : tt->max_buckets;
        return tt_resize(tt, bigger);
    }
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Exact solver                                                              */

/*
 * Negamax with alpha-beta over the search board, in one of two score modes:
 *   value mode (dtm 0): +1 win, 0 draw, -1 loss for the side to move. The
 *     root asks two null-window questions ("can I win?", "can I avoid
 *     losing?"), each a cheap proof search;
 *   distance mode (dtm 1): a win in p plies scores base - p and a loss in p
 *     plies -(base - p), so the fastest win and the slowest loss score best.
 *     Used only once the value is known, for the plies and the optimal moves.
 * Scores are relative to the node (distance from it), so table entries are
 * valid wherever the position recurs.
 *
 * At every node, before any move is tried (normal rules):
 *   - a cell that completes a window for the mover: a win in 1;
 *   - two or more cells that complete a window for the opponent: a loss in
 *     2, since one mark blocks only one of them;
 *   - neither side able to complete a window with the moves it has left
 *     (counting only windows free of the other's marks): a draw; one side
 *     unable bounds the score on that side, often ending a null-window
 *     search at once. Near the end "able" means able to make a double
 *     threat some day (can_double), and the opponent is also unable if one
 *     mark of mine stops all its future double threats;
 *   - exactly one opponent completion cell: the only move worth trying is
 *     to block it (any other loses in 2, and the block loses no sooner than
 *     in 4);
 *   - with no completion cell on either side: a move of mine that makes two
 *     completion cells at once (a double threat) wins in 3. If instead the
 *     opponent has such moves, each can only be stopped by taking its cell
 *     or one of the cells it would threaten; so the only moves worth trying
 *     are those that stop every one of them, or that make a threat of mine
 *     (which must be answered first). With none of those left, a loss in 4.
 * Moves: the table's move first, then by the weight of the live windows
 * through the cell, leaning to building for the side that needs a win in
 * the current null-window question and to blocking for the side that only
 * needs to stop one, plus a history bonus for moves that caused cut-offs.
 * Of the dead cells (no live window through them) only one is tried: they
 * are interchangeable. Once only one side can still complete a window, the
 * cells outside that side's open windows are dummies in the same way. The
 * table key is canonical under the eight symmetries, so mirrored and
 * rotated positions are searched once.
 */

#define MAX_SEARCH_DEPTH 1024 /* plies; keeps the C stack small */

typedef struct solver {
    sboard b;
    ttable tt;
    int use_tt;
    move_stack moves;
    int64_t *history;   /* per cell */
    int32_t *future;    /* 4 * K + 4 cells: future_threats output */
    int32_t *relevance; /* per cell, zero between uses */
    int32_t *doubles;   /* per cell: the opponent's double-threat moves */
    int32_t *pair_hits; /* per cell, zero between uses */
    uint32_t *stamp;    /* per cell: marks of the current pair */
    uint32_t stamp_now;
    int32_t *fillable;  /* window indices, PAIR_WINDOWS_MAX */
    uint64_t nodes;
    uint64_t budget;
    int stopped;        /* budget reached, or an allocation failed */
    int status;         /* TTT_E_BUDGET or TTT_E_NOMEM once stopped */
    int dtm;
    int32_t base;       /* distance mode: a win in p plies scores base - p */
} solver;

/*
 * The distance scale. A node's score counts plies from that node, and no
 * proven result is longer than the search may go: MAX_SEARCH_DEPTH plies
 * from the root, plus the loss in 4 a node may claim without searching. So
 * base = min(nn, that) + 2 keeps every win and loss positive and apart
 * from the draw on any board, and every score far inside SCORE_INF and the
 * table's 16-bit fields (nn + 2 alone passes them from 181 x 182 cells).
 */
#define DISTANCE_MAX_PLIES (MAX_SEARCH_DEPTH + 4)

static int32_t distance_base(int32_t nn)
{
    return (nn < DISTANCE_MAX_PLIES ? nn : DISTANCE_MAX_PLIES) + 2;
}

static int32_t win_in(const solver *s, int32_t plies)
{
    return s->dtm ? s->base - plies : 1;
}

/* The parent's score for a child's score: negated, and in distance mode one
 * ply further from the end. */
static int32_t back_up(const solver *s, int32_t child)
{
    int32_t v = -child;
    if (s->dtm)
        v -= (v > 0) - (v < 0);
    return v;
}

/* The child score whose back_up is bound, for passing windows down. */
static int32_t to_child(const solver *s, int32_t bound)
{
    if (!s->dtm || bound == 0)
        return -bound;
    if (bound >= SCORE_INF)
        return -SCORE_INF;
    if (bound <= -SCORE_INF)
        return SCORE_INF;
    return bound > 0 ? -(bound + 1) : -(bound - 1);
}

static void solver_stop(solver *s, int status)
{
    s->stopped = 1;
    if (s->status == TTT_OK)
        s->status = status;
}

/* The canonical key of the position and the symmetry that gives it. */
static uint64_t canonical_key(const sboard *b, int *symmetry)
{
    uint64_t best = b->key[0];
    int which = 0;
    for (int s = 1; s < 8; s++) {
        if (b->key[s] < best) {
            best = b->key[s];
            which = s;
        }
    }
    *symmetry = which;
    return best;
}

/* The canonical key the position would have after p plays cell. */
static uint64_t child_key(const sboard *b, int32_t cell, int p)
{
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < 8; s++) {
        uint64_t key = b->key[s] + b->key_term[p][b->sym[(size_t)s * (size_t)b->nn + (size_t)cell]];
        if (key < best)
            best = key;
    }
    return best;
}

/* The score of the move just made, if it ended the game. */
static int terminal_score(const solver *s, int *ended)
{
    const sboard *b = &s->b;
    *ended = 1;
    if (b->completed > 0)
        return b->misere ? -win_in(s, 1) : win_in(s, 1);
    if (b->empty == 0 || (b->early_draw && b->live == 0))
        return 0;
    *ended = 0;
    return 0;
}

/*
 * Beyond SOLVER_SCAN_CELLS cells a node does not list every empty cell:
 * it sorts the touched ones (those sharing a window with a mark, where
 * every threat, block, dead cell and dummy lies) and then tries the
 * untouched ones in board order, one at a time, only while no cut-off came.
 * So a node costs the cells near the marks plus the children it searches,
 * not a pass over the board. Smaller boards order every cell
 * (SOLVER_SCAN_CELLS is with the search board).
 */
/* The next empty untouched cell from *cursor on (not skip), advancing the
 * cursor past it; -1 when none is left. */
static int32_t untouched_after(const sboard *b, int32_t *cursor, int32_t skip)
{
    for (int32_t cell = *cursor; cell < b->nn; cell++) {
        if (b->cells[cell] == TTT_EMPTY && b->sums[cell].touched == 0 && cell != skip) {
            *cursor = cell + 1;
            return cell;
        }
    }
    *cursor = b->nn;
    return -1;
}

/* Pushes the node's candidate moves; returns how many, or push_move's
 * failure (TTT_E_BUDGET at the lists' cap, TTT_E_NOMEM).
 * With doubles > 0, only the cells that stop all of the opponent's double
 * threats (relevance == doubles) or make a threat of mine. */
static int32_t generate_moves(solver *s, int me, int32_t forced,
                              int32_t tt_cell, int32_t doubles, int attacking,
                              int maker)
{
    sboard *b = &s->b;
    int opp = 1 - me;
    if (forced >= 0) {
        int status = push_move(&s->moves, forced, 0);
        return status == TTT_OK ? 1 : status;
    }
    int32_t count = 0, dead_seen = 0;
    /* Large boards list the touched cells only; solve_node tries the
     * untouched ones after them (see untouched_after). */
    int listed_only = b->nn > SOLVER_SCAN_CELLS;
    int32_t listed = listed_only ? b->touched_count : b->nn;
    if (listed_only && doubles == 0 && tt_cell >= 0 && b->cells[tt_cell] == TTT_EMPTY &&
        b->sums[tt_cell].touched == 0) {
        int status = push_move(&s->moves, tt_cell, SCORE_CAP);
        if (status != TTT_OK)
            return status;
        count++;
    }
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = listed_only ? b->touched[i] : i;
        if (b->cells[cell] != TTT_EMPTY)
            continue;
        /* Only the maker's open windows matter: other cells are dummies. */
        if (maker >= 0 && b->sums[cell].weight[maker] == 0) {
            if (dead_seen)
                continue;
            dead_seen = 1;
        }
        if (doubles > 0 && s->relevance[cell] != doubles &&
            b->sums[cell].building[me] == 0)
            continue;
        int64_t score;
        if (b->sums[cell].live == 0) {
            if (dead_seen)
                continue;
            dead_seen = 1;
            score = 0; /* a pass: last */
        } else if (b->misere && b->threat_hits[me][cell] > 0) {
            score = 0; /* completes a window of mine: a loss in misère */
        } else {
            /* The side that needs a win builds; the side that only needs
             * to stop one blocks first. */
            int64_t own = b->sums[cell].weight[me], other = b->sums[cell].weight[opp];
            score = 2 + (attacking ? 2 * own + other : own + 2 * other) +
                    s->history[cell];
        }
        if (cell == tt_cell)
            score = SCORE_CAP;
        int status = push_move(&s->moves, cell, score);
        if (status != TTT_OK)
            return status;
        count++;
    }
    return count;
}

/*
 * Whether one mark stops every double threat p could ever make. A double
 * threat comes from a pair of p's open windows through one empty cell whose
 * union p can fill but for two cells (see can_double); such pairs only ever
 * disappear, and a mark of the other side in either window removes one. So
 * if one cell lies in the empty cells of every fillable pair, the player to
 * move takes it (or must, if forced >= 0: then only that cell counts) and p
 * can never win. Listing pairs is quadratic in p's fillable windows, so with
 * more than PAIR_WINDOWS_MAX of them the answer is a cautious no.
 */
#define PAIR_WINDOWS_MAX 48

static int one_cell_stops_pairs(solver *s, int p, int32_t forced)
{
    sboard *b = &s->b;
    int32_t left = (b->empty + (p == sboard_mover(b))) / 2;
    int32_t k = b->k, count = 0;
    for (int32_t w = 0; w < b->window_count; w++) {
        const int16_t *marks = b->window_marks + 2 * (size_t)w;
        if (marks[1 - p] == 0 && k - marks[p] <= left) {
            if (count == PAIR_WINDOWS_MAX)
                return 0;
            s->fillable[count++] = w;
        }
    }
    int32_t pairs = 0, best_hits = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t w1 = s->fillable[i];
        int32_t step1 = b->cell_step[window_direction(b, w1)];
        for (int32_t j = i + 1; j < count; j++) {
            int32_t w2 = s->fillable[j];
            int32_t step2 = b->cell_step[window_direction(b, w2)];
            if (++s->stamp_now == 0) {
                memset(s->stamp, 0, (size_t)b->nn * sizeof(uint32_t));
                s->stamp_now = 1;
            }
            int32_t empties = 0, shared = 0;
            int32_t cell = b->window_start[w1];
            for (int32_t t = 0; t < k; t++, cell += step1) {
                if (b->cells[cell] == TTT_EMPTY) {
                    s->stamp[cell] = s->stamp_now;
                    empties++;
                }
            }
            cell = b->window_start[w2];
            for (int32_t t = 0; t < k; t++, cell += step2) {
                if (b->cells[cell] == TTT_EMPTY) {
                    if (s->stamp[cell] == s->stamp_now)
                        shared = 1;
                    else
                        empties++;
                }
            }
            if (!shared || empties - 1 > left)
                continue;
            /* A fillable pair: each of its empty cells would stop it. */
            pairs++;
            cell = b->window_start[w1];
            for (int32_t t = 0; t < k; t++, cell += step1) {
                if (b->cells[cell] == TTT_EMPTY)
                    s->pair_hits[cell]++;
            }
            cell = b->window_start[w2];
            for (int32_t t = 0; t < k; t++, cell += step2) {
                if (b->cells[cell] == TTT_EMPTY && s->stamp[cell] != s->stamp_now)
                    s->pair_hits[cell]++;
            }
        }
    }
    /* Read and clear the counts over the same cells. */
    for (int32_t i = 0; i < count; i++) {
        int32_t w = s->fillable[i];
        int32_t step = b->cell_step[window_direction(b, w)];
        int32_t cell = b->window_start[w];
        for (int32_t t = 0; t < k; t++, cell += step) {
            if (forced < 0 || cell == forced) {
                if (s->pair_hits[cell] > best_hits)
                    best_hits = s->pair_hits[cell];
            }
        }
    }
    for (int32_t i = 0; i < count; i++) {
        int32_t w = s->fillable[i];
        int32_t step = b->cell_step[window_direction(b, w)];
        int32_t cell = b->window_start[w];
        for (int32_t t = 0; t < k; t++, cell += step)
            s->pair_hits[cell] = 0;
    }
    return best_hits == pairs;
}

/* Undoes find_double_threats' relevance counts. */
static void clear_relevance(solver *s, int opp, int32_t doubles)
{
    for (int32_t i = 0; i < doubles; i++) {
        int32_t cell = s->doubles[i];
        int32_t targets = future_threats(&s->b, opp, cell, s->future);
        s->relevance[cell] = 0;
        for (int32_t j = 0; j < targets; j++)
            s->relevance[s->future[j]] = 0;
    }
}

#define DOUBLE_WIN (-1)  /* I have a double threat: a win in 3 */
#define DOUBLE_LOSS (-2) /* no move stops the opponent's: a loss in 4 */

/* With no completion cell on either side: looks for my double threats and
 * the opponent's. Returns DOUBLE_WIN (setting *best_move if asked), or the
 * number of opponent double-threat moves, listed in s->doubles, with
 * s->relevance[c] counting those that c stops; DOUBLE_LOSS when no cell
 * stops them all and none makes a threat of mine. */
static int32_t find_double_threats(solver *s, int me, int32_t *best_move)
{
    sboard *b = &s->b;
    int opp = 1 - me;
    int32_t doubles = 0;
    /* Building cells share a window with marks: on large boards the touched
     * list holds them all. */
    int listed_only = b->nn > SOLVER_SCAN_CELLS;
    int32_t listed = listed_only ? b->touched_count : b->nn;
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = listed_only ? b->touched[i] : i;
        if (b->cells[cell] != TTT_EMPTY)
            continue;
        if (b->sums[cell].building[me] >= 2 &&
            future_threats(b, me, cell, s->future) >= 2) {
            if (best_move)
                *best_move = cell;
            return DOUBLE_WIN;
        }
        if (b->sums[cell].building[opp] >= 2 &&
            future_threats(b, opp, cell, s->future) >= 2)
            s->doubles[doubles++] = cell;
    }
    if (doubles == 0)
        return 0;
    for (int32_t i = 0; i < doubles; i++) {
        int32_t cell = s->doubles[i];
        int32_t targets = future_threats(b, opp, cell, s->future);
        s->relevance[cell]++;
        for (int32_t j = 0; j < targets; j++)
            s->relevance[s->future[j]]++;
    }
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = listed_only ? b->touched[i] : i;
        if (b->cells[cell] == TTT_EMPTY &&
            (s->relevance[cell] == doubles || b->sums[cell].building[me] > 0))
            return doubles;
    }
    clear_relevance(s, opp, doubles);
    if (best_move)
        *best_move = s->doubles[0];
    return DOUBLE_LOSS;
}

static int32_t solve_node(solver *s, int32_t alpha, int32_t beta, int depth,
                          int32_t *best_move)
{
    sboard *b = &s->b;
    if (s->stopped)
        return 0;
    if (s->nodes >= s->budget) {
        solver_stop(s, TTT_E_BUDGET);
        return 0;
    }
    if (depth >= MAX_SEARCH_DEPTH) {
        solver_stop(s, TTT_E_BUDGET);
        return 0;
    }
    s->nodes++;
    int me = sboard_mover(b), opp = 1 - me;

    if (!b->misere) {
        if (b->threat_cells[me] > 0) {
            if (best_move)
                *best_move = some_threat_cell(b, me);
            return win_in(s, 1);
        }
        if (b->threat_cells[opp] >= 2) {
            if (best_move)
                *best_move = some_threat_cell(b, opp);
            return -win_in(s, 2);
        }
    }

    /* Who can still complete a window bounds the score; in normal play,
     * who can still make a double threat. In misère the one who completes
     * loses, so the roles swap. */
    int me_complete = can_complete(b, me), opp_complete = can_complete(b, opp);
    int me_can = me_complete, opp_can = opp_complete;
    int32_t upper, lower;
    if (!b->misere) {
        me_can = me_complete && can_double(b, me);
        opp_can = opp_complete && can_double(b, opp);
        /* With at most one opponent completion cell (more lost above), if
         * one mark of mine stops all of the opponent's future double
         * threats, the opponent cannot win. */
        if (opp_can && b->threat_cells[opp] <= 1) {
            int32_t must = b->threat_cells[opp] == 1 ? (int32_t)b->threat_sum[opp] : -1;
            opp_can = !one_cell_stops_pairs(s, opp, must);
        }
        upper = me_can ? win_in(s, 1) : 0;
        lower = opp_can ? -win_in(s, 2) : 0;
    } else {
        upper = opp_can ? win_in(s, 2) : 0;
        lower = me_can ? -win_in(s, 1) : 0;
    }
    if (upper <= alpha || lower >= beta || upper == lower) {
        if (best_move) {
            /* Any move keeps these bounds; report a live one if any. */
            *best_move = -1;
            for (int32_t cell = 0; cell < b->nn; cell++) {
                if (b->cells[cell] == TTT_EMPTY &&
                    (*best_move < 0 || b->sums[cell].live > 0)) {
                    *best_move = cell;
                    if (b->sums[cell].live > 0)
                        break;
                }
            }
        }
        return upper <= alpha ? upper : lower >= beta ? lower : upper;
    }

    int32_t forced = -1;
    if (!b->misere && b->threat_cells[opp] == 1)
        forced = (int32_t)b->threat_sum[opp];

    int symmetry = 0;
    uint64_t key = 0;
    int32_t tt_cell = -1;
    if (s->use_tt) {
        key = canonical_key(b, &symmetry);
        const tt_entry *entry = tt_probe(&s->tt, key);
        if (entry) {
            int32_t stored_lower = tt_lower(entry->data);
            int32_t stored_upper = tt_upper(entry->data);
            int32_t stored_move = tt_move(entry->data);
            if (stored_move >= 0)
                tt_cell = b->sym[(size_t)inverse_symmetry[symmetry] * (size_t)b->nn +
                                 (size_t)stored_move];
            /* The root always searches, so it can name its move. */
            if (!best_move) {
                if (stored_lower >= beta)
                    return stored_lower;
                if (stored_upper <= alpha)
                    return stored_upper;
                if (stored_lower == stored_upper)
                    return stored_lower;
            }
        }
    }

    /* After the table probe: relevance counts must not outlive this node,
     * and every return between counting and clearing would leak them. */
    int32_t doubles = 0;
    if (!b->misere && forced < 0 &&
        (b->open_windows[me][b->k - 2] > 1 || b->open_windows[opp][b->k - 2] > 1)) {
        doubles = find_double_threats(s, me, best_move);
        if (doubles < 0)
            return doubles == DOUBLE_WIN ? win_in(s, 3) : -win_in(s, 4);
    }

    size_t base = s->moves.top;
    /* Once only one side can still complete a window, the game is a
     * maker-breaker game on the maker's open windows: a cell outside them
     * is a dummy, and claiming one is a pass, which never beats a real
     * move. Value mode only (a pass may change a distance), and not under
     * early draw (killing windows can end the game there). */
    int maker = -1;
    if (!s->dtm && !b->misere && !b->early_draw && me_complete != opp_complete)
        maker = me_complete ? me : opp;
    int32_t count = generate_moves(s, me, forced, tt_cell, doubles, beta > 0, maker);
    if (doubles > 0)
        clear_relevance(s, opp, doubles);
    if (count < 0) {
        s->moves.top = base;
        solver_stop(s, count);
        return 0;
    }
    sort_moves(s->moves.keys, base, base + (size_t)count);
    if (s->use_tt && count > 1) {
        for (int32_t i = 0; i < count; i++)
            tt_prefetch(&s->tt, child_key(b, move_cell(s->moves.keys[base + (size_t)i]), me));
    }

    int32_t alpha0 = alpha;
    int32_t best = -SCORE_INF, best_cell = -1;
    uint64_t nodes_before = s->nodes;
    /* The listed moves, then on large boards the untouched cells (none
     * can help against a forced block or a double threat). */
    int untouched = b->nn > SOLVER_SCAN_CELLS && forced < 0 && doubles == 0;
    int32_t cursor = 0;
    for (int32_t i = 0;; i++) {
        int32_t cell;
        if (i < count)
            cell = move_cell(s->moves.keys[base + (size_t)i]);
        else if (!untouched || (cell = untouched_after(b, &cursor, tt_cell)) < 0)
            break;
        sboard_place(b, cell, me);
        int ended;
        int32_t v = terminal_score(s, &ended);
        if (!ended)
            v = back_up(s, solve_node(s, to_child(s, beta), to_child(s, alpha),
                                      depth + 1, NULL));
        sboard_remove(b, cell);
        if (s->stopped)
            break;
        if (v > best) {
            best = v;
            best_cell = cell;
            if (v > alpha)
                alpha = v;
            if (v >= beta) {
                s->history[cell] += (int64_t)b->empty * b->empty;
                break;
            }
        }
    }
    s->moves.top = base;
    if (s->stopped)
        return 0;

    if (s->use_tt) {
        int32_t new_lower = best >= beta ? best : -SCORE_INF;
        int32_t new_upper = best <= alpha0 ? best : SCORE_INF;
        if (best > alpha0 && best < beta)
            new_lower = new_upper = best;
        int32_t canonical_move =
            best_cell >= 0 ? b->sym[(size_t)symmetry * (size_t)b->nn + (size_t)best_cell] : -1;
        if (tt_store(&s->tt, key, new_lower, new_upper, canonical_move,
                     s->nodes - nodes_before) != TTT_OK) {
            solver_stop(s, TTT_E_NOMEM);
            return 0;
        }
    }
    if (best_move)
        *best_move = best_cell;
    return best;
}

/* Whether playing cell keeps at least target for the mover, with the child
 * searched in the current score mode: 1 yes, 0 no, -1 stopped. */
static int move_reaches(solver *s, int32_t cell, int32_t target)
{
    sboard *b = &s->b;
    int me = sboard_mover(b);
    sboard_place(b, cell, me);
    int ended;
    int32_t v = terminal_score(s, &ended);
    if (!ended) {
        /* A null window on the child decides "back_up(child) >= target". */
        int32_t bound = to_child(s, target);
        v = back_up(s, solve_node(s, bound, bound + 1, 1, NULL));
    }
    sboard_remove(b, cell);
    if (s->stopped)
        return -1;
    return v >= target;
}

/*
 * Under the early-draw rule a drawn game may end before the board is full;
 * its plies are those of the shortest drawn ending that both players reach
 * with value-keeping moves only. Found by iterative deepening: can the game
 * end drawn within `plies`? Each step asks the value solver whether the
 * move keeps the draw.
 */
static int draw_within(solver *s, int32_t plies)
{
    sboard *b = &s->b;
    if (plies <= 0)
        return 0;
    int me = sboard_mover(b);
    int dead_seen = 0;
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY)
            continue;
        if (b->sums[cell].live == 0) {
            if (dead_seen)
                continue;
            dead_seen = 1;
        }
        int keeps = move_reaches(s, cell, 0);
        if (keeps < 0)
            return -1;
        if (!keeps)
            continue;
        sboard_place(b, cell, me);
        int ended, found;
        terminal_score(s, &ended);
        found = ended ? 1 : draw_within(s, plies - 1);
        sboard_remove(b, cell);
        if (found != 0)
            return found;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Solver set-up                                                             */

#define DEFAULT_TABLE_BYTES ((size_t)64 << 20)
#define MOVE_LIST_MIN_BYTES ((size_t)1 << 20)

/* The table size: the caller's bytes (or the default), cut down to what a
 * position with this many empty cells or this node budget could fill, as
 * a power of two number of buckets. */
static size_t table_buckets(size_t table_bytes, int32_t empty, uint64_t budget)
{
    size_t bytes = table_bytes ? table_bytes : DEFAULT_TABLE_BYTES;
    size_t entries = bytes / TT_ENTRY_BYTES;
    size_t useful = (size_t)1 << min32(empty + 3, 30);
    if (useful < entries)
        entries = useful;
    if (budget < (uint64_t)entries / 2)
        entries = (size_t)budget * 2;
    size_t buckets = 1;
    while (buckets * 2 * TT_WAYS <= entries)
        buckets *= 2;
    return buckets;
}

typedef struct search_memory {
    const ttt_game *game;
    void *block;
} search_memory;

/* Allocates and initialises a solver for snap (whose cells are already
 * taken). */
static int solver_start(solver *s, search_memory *memory, const snapshot *snap,
                        uint64_t budget, size_t table_bytes)
{
    memset(s, 0, sizeof *s);
    int32_t empty = snap->nn - snap->ply;
    s->budget = budget ? budget : UINT64_MAX;
    size_t buckets = table_buckets(table_bytes, empty, s->budget);
    carver sizes = {NULL, 0, 0};
    sboard_size(&sizes, &s->b, snap->n, snap->k, 1);
    carve(&sizes, (size_t)snap->nn, sizeof(int64_t));
    carve(&sizes, 4 * (size_t)snap->k + 4, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(int32_t));
    carve(&sizes, (size_t)snap->nn, sizeof(uint32_t));
    carve(&sizes, PAIR_WINDOWS_MAX, sizeof(int32_t));
    if (sizes.overflow)
        return TTT_E_NOMEM;
    memory->block = engine_alloc(memory->game, sizes.used);
    if (!memory->block)
        return TTT_E_NOMEM;
    carver parts = {memory->block, 0, 0};
    sboard_size(&parts, &s->b, snap->n, snap->k, 1);
    s->history = carve(&parts, (size_t)snap->nn, sizeof(int64_t));
    s->future = carve(&parts, 4 * (size_t)snap->k + 4, sizeof(int32_t));
    s->relevance = carve(&parts, (size_t)snap->nn, sizeof(int32_t));
    s->doubles = carve(&parts, (size_t)snap->nn, sizeof(int32_t));
    s->pair_hits = carve(&parts, (size_t)snap->nn, sizeof(int32_t));
    s->stamp = carve(&parts, (size_t)snap->nn, sizeof(uint32_t));
    s->fillable = carve(&parts, PAIR_WINDOWS_MAX, sizeof(int32_t));
    memset(s->relevance, 0, (size_t)snap->nn * sizeof(int32_t));
    memset(s->pair_hits, 0, (size_t)snap->nn * sizeof(int32_t));
    memset(s->stamp, 0, (size_t)snap->nn * sizeof(uint32_t));
    memset(s->history, 0, (size_t)snap->nn * sizeof(int64_t));
    s->tt.game = memory->game;
    s->tt.max_buckets = buckets;
    if (tt_resize(&s->tt, buckets < TT_START_BUCKETS ? buckets : TT_START_BUCKETS) != TTT_OK)
        return TTT_E_NOMEM;
    s->use_tt = 1;
    s->moves.game = memory->game;
    /* Move lists share the table's byte cap (at least 1 MiB). */
    size_t list_bytes = table_bytes ? table_bytes : DEFAULT_TABLE_BYTES;
    s->moves.limit = (list_bytes < MOVE_LIST_MIN_BYTES ? MOVE_LIST_MIN_BYTES : list_bytes) /
                     sizeof(int64_t);
    s->status = TTT_OK;
    sboard_init(&s->b, snap, 1);
    return TTT_OK;
}

static void solver_finish(solver *s, search_memory *memory)
{
    tt_release(&s->tt);
    engine_free(memory->game, s->moves.keys);
    engine_free(memory->game, memory->block);
}

/* What a solve found. */
typedef struct solve_result {
    int32_t value;      /* TTT_VALUE_* */
    int32_t value_min;  /* proven bounds on the value */
    int32_t value_max;
    int32_t plies;      /* -1 unless the second pass ran */
    int32_t best_count; /* cells in best */
    int32_t *best;      /* caller's nn cells: the optimal moves, ascending */
} solve_result;

/* The value, a move that achieves it, and with all_moves the plies and
 * every optimal move. The position is in progress. */
static int solve_position(solver *s, int all_moves, solve_result *r)
{
    sboard *b = &s->b;
    int32_t move = -1;
    r->value_min = -1;
    r->value_max = 1;
    r->plies = -1;
    r->best_count = 0;

    /* Value: "can I win?", then if not "can I avoid losing?". */
    s->dtm = 0;
    int32_t v = solve_node(s, 0, 1, 0, &move);
    if (!s->stopped) {
        if (v >= 1) {
            r->value_min = 1;
        } else {
            r->value_max = 0;
            int32_t draw_move = -1;
            v = solve_node(s, -1, 0, 0, &draw_move);
            if (!s->stopped) {
                if (v >= 0)
                    r->value_min = 0;
                else
                    r->value_max = -1;
                move = draw_move;
            }
        }
    }
    r->value = r->value_min;
    if (move >= 0) {
        r->best[0] = move;
        r->best_count = 1;
    }
    if (s->stopped || !all_moves)
        return s->stopped ? s->status : TTT_OK;

    /* Plies and optimal moves. A draw keeps its score of 0 in both modes;
     * a win or loss is searched again for its distance. */
    int32_t target = 0;
    if (r->value == 0) {
        int32_t plies = b->empty;
        if (b->early_draw) {
            int found;
            plies = 1;
            while ((found = draw_within(s, plies)) == 0 && plies < b->empty)
                plies++;
            if (found < 0)
                return s->status; /* plies stays unknown (-1) */
        }
        r->plies = plies;
    } else {
        s->dtm = 1;
        s->base = distance_base(b->nn);
        tt_clear(&s->tt);
        target = r->value > 0 ? solve_node(s, 0, SCORE_INF, 0, NULL)
                              : solve_node(s, -SCORE_INF, 0, 0, NULL);
        if (s->stopped)
            return s->status;
        r->plies = s->base - (target > 0 ? target : -target);
    }

    /* Every move whose child keeps the target. Dead cells are
     * interchangeable: one answer serves them all. */
    int32_t count = 0;
    int dead_answer = -2;
    for (int32_t cell = 0; cell < b->nn; cell++) {
        if (b->cells[cell] != TTT_EMPTY)
            continue;
        int keeps;
        if (b->sums[cell].live == 0 && dead_answer != -2) {
            keeps = dead_answer;
        } else {
            keeps = move_reaches(s, cell, target);
            if (keeps < 0)
                return s->status;
            if (b->sums[cell].live == 0)
                dead_answer = keeps;
        }
        if (keeps)
            r->best[count++] = cell;
    }
    r->best_count = count;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* ttt_solve                                                                 */

#define SOLUTION_V1_SIZE (offsetof(ttt_solution, value_max) + sizeof(int32_t))

/* Copies the fields that fit in the caller's struct. */
static void write_solution(ttt_solution *out, const ttt_solution *found)
{
    size_t size = out->size < sizeof *found ? out->size : sizeof *found;
    memcpy((char *)out + sizeof(size_t), (const char *)found + sizeof(size_t),
           size - sizeof(size_t));
}

/* The value of a finished game for the player whose turn it would be. */
static int32_t finished_value(const snapshot *snap)
{
    if (snap->state == TTT_DRAW)
        return TTT_VALUE_DRAW;
    int winner = snap->state == TTT_X_WON ? TTT_X : TTT_O;
    return winner == ttt__mover_at(snap->ply) ? TTT_VALUE_WIN : TTT_VALUE_LOSS;
}

/* Runs a solve into r (r->best must hold nn cells) and found. */
static int run_solve(const ttt_game *game, const snapshot *snap,
                     uint64_t budget, size_t table_bytes, int all_moves,
                     solve_result *r, ttt_solution *found)
{
    found->nodes = 0;
    r->value = TTT_VALUE_DRAW;
    r->value_min = TTT_VALUE_LOSS;
    r->value_max = TTT_VALUE_WIN;
    r->plies = -1;
    r->best_count = 0;
    if (snap->state != TTT_IN_PROGRESS) {
        r->value = r->value_min = r->value_max = finished_value(snap);
        r->plies = 0;
        r->best_count = 0;
        found->value = found->value_min = found->value_max = r->value;
        found->plies = 0;
        return TTT_OK;
    }
    solver s;
    search_memory memory = {game, NULL};
    int status = solver_start(&s, &memory, snap, budget, table_bytes);
    if (status == TTT_OK) {
        status = solve_position(&s, all_moves, r);
        found->nodes = s.nodes;
    }
    solver_finish(&s, &memory);
    found->value = r->value;
    found->value_min = r->value_min;
    found->value_max = r->value_max;
    found->plies = r->plies;
    return status;
}

/* The memory ttt_solve and ttt_best_move share, in one block: the
 * snapshot's cells and the optimal moves' list. Takes the snapshot; returns
 * the block to release with engine_free, or NULL out of memory. */
static void *start_solve(const ttt_game *game, snapshot *snap, solve_result *r)
{
    int32_t nn = game->board.nn;
    carver sizes = {NULL, 0, 0};
    carve(&sizes, (size_t)nn, 1);
    carve(&sizes, (size_t)nn, sizeof(int32_t));
    void *block = engine_alloc(game, sizes.used);
    if (!block)
        return NULL;
    carver parts = {block, 0, 0};
    snap->cells = carve(&parts, (size_t)nn, 1);
    r->best = carve(&parts, (size_t)nn, sizeof(int32_t));
    take_snapshot(game, snap);
    return block;
}

int ttt_solve(const ttt_game *game, uint64_t node_budget, size_t table_bytes,
              int flags, ttt_solution *out, int32_t *best,
              size_t best_capacity, size_t *best_len)
{
    if (!game || !out || out->size < SOLUTION_V1_SIZE ||
        (flags & ~TTT_SOLVE_VALUE_ONLY) != 0 ||
        (!best && best_capacity > 0) || (best && !best_len))
        return TTT_E_INVALID;
    snapshot snap;
    solve_result r;
    void *block = start_solve(game, &snap, &r);
    if (!block)
        return TTT_E_NOMEM;

    ttt_solution found;
    memset(&found, 0, sizeof found);
    found.size = sizeof found;
    int status = run_solve(game, &snap, node_budget, table_bytes,
                           !(flags & TTT_SOLVE_VALUE_ONLY), &r, &found);
    if (status == TTT_OK || status == TTT_E_BUDGET) {
        size_t needed = (size_t)r.best_count;
        if (best_len)
            *best_len = needed;
        if (best_len && best_capacity < needed) {
            status = TTT_E_BUFFER;
        } else {
            if (best)
                memcpy(best, r.best, needed * sizeof(int32_t));
            write_solution(out, &found);
        }
    }
    engine_free(game, block);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Strong bot                                                                */

/*
 * For boards too large to solve: iterative-deepening alpha-beta within the
 * node budget, scoring the leaves by the window weights (each extra mark in
 * a window that is still one-sided multiplies its weight by eight). Every
 * node first applies the solver's immediate checks: a completion cell of
 * the mover wins, two of the opponent's lose, one must be blocked (and the
 * forced reply does not use up depth). So a win in one and a block are
 * found at the root, a double threat one ply later, and an open three
 * (which becomes a double threat if left alone) two plies later. Candidate
 * cells are the live cells sharing a window with some mark; the root tries
 * its best BOT_ROOT_MAX by weight, inner nodes their best BOT_BEAM.
 * Positions with few empty cells are handed to the exact solver first.
 */

#define BOT_WIN (INT64_C(1) << 50)
#define BOT_INF (INT64_C(1) << 52)
#define BOT_BEAM 12
#define BOT_SOLVE_EMPTY 16      /* try the exact solver from this many empty cells */
#define BOT_DEFAULT_BUDGET 100000
/* On long windows a position costs the bot far more: a mark changes the
 * sums of some 8K cells and the candidates lie along every mark's lines,
 * about K * K steps in all, so the default budget shrinks with K to keep
 * one move near 0.1 s: 100000 positions up to K = 25. */
#define BOT_DEFAULT_WORK 64000000

static uint64_t default_bot_budget(int32_t k)
{
    uint64_t budget = BOT_DEFAULT_WORK / ((uint64_t)k * (uint64_t)k);
    return budget < BOT_DEFAULT_BUDGET ? budget : BOT_DEFAULT_BUDGET;
}
#define BOT_ROOT_MAX 64          /* root moves searched: the best by weight */
#define BOT_MOVE_LIST_BYTES ((size_t)64 << 20)

typedef struct bot {
    sboard b;
    move_stack moves;
    uint64_t nodes;
    uint64_t budget;
    int stopped;
    int status;
} bot;

static int64_t bot_eval(const sboard *b, int me)
{
    int64_t e = me == 0 ? b->eval : -b->eval;
    /* In misère more marks in a one-sided window is worse, not better. */
    return b->misere ? -e : e;
}

/* 0 .. 127, higher nearer the centre of the board. */
static int64_t centrality(const sboard *b, int32_t cell)
{
    int32_t row = cell / b->n, col = cell % b->n, half = b->n / 2;
    int32_t dr = row > half ? row - half : half - row;
    int32_t dc = col > half ? col - half : half - col;
    int32_t far = dr > dc ? dr : dc;
    return far > 127 ? 0 : 127 - far;
}

/* Pushes the candidate cells of the node, each scored for ordering;
 * returns how many, or push_move's failure. */
static int32_t bot_candidates(bot *s, int me)
{
    sboard *b = &s->b;
    int opp = 1 - me;
    int any_mark = b->empty < b->nn;
    /* With marks on the board the candidates are touched cells, listed by
     * the board: no pass over the whole board at every node. */
    int32_t listed = any_mark ? b->touched_count : b->nn;
    int32_t count = 0;
    for (int32_t i = 0; i < listed; i++) {
        int32_t cell = any_mark ? b->touched[i] : i;
        if (b->cells[cell] != TTT_EMPTY || b->sums[cell].live == 0)
            continue;
        int64_t score = 2 * b->sums[cell].weight[me] + b->sums[cell].weight[opp];
        if (b->misere)
            score = SCORE_CAP / 4096 - score -
                    (b->threat_hits[me][cell] > 0 ? SCORE_CAP / 8192 : 0);
        /* Ties go to the cell nearer the centre; the low bits are left for
         * the root's seeded jitter. (Only absurd K reach the clamp.) */
        if (score > SCORE_CAP / 1024 - 1)
            score = SCORE_CAP / 1024 - 1;
        score = score * 1024 + centrality(b, cell) * 8;
        int status = push_move(&s->moves, cell, score);
        if (status != TTT_OK)
            return status;
        count++;
    }
    if (count == 0) {
        /* Only dead or far cells remain: any one of them will do, the
         * first live one, else the first empty one. */
        int32_t fallback = -1;
        for (int32_t cell = 0; cell < b->nn; cell++) {
            if (b->cells[cell] != TTT_EMPTY)
                continue;
            if (fallback < 0)
                fallback = cell;
            if (b->sums[cell].live > 0) {
                int status = push_move(&s->moves, cell, 1);
                if (status != TTT_OK)
                    return status;
                return 1;
            }
        }
        if (fallback >= 0) {
            int status = push_move(&s->moves, fallback, 0);
            if (status != TTT_OK)
                return status;
            count = 1;
        }
    }
    return count;
}

static int64_t bot_node(bot *s, int depth, int64_t alpha, int64_t beta,
                        int ply)
{
    sboard *b = &s->b;
    if (s->stopped)
        return 0;
    if (s->nodes >= s->budget || ply >= MAX_SEARCH_DEPTH) {
        s->stopped = 1;
        return 0;
    }
    s->nodes++;
    int me = sboard_mover(b), opp = 1 - me;
    int32_t forced = -1;
    if (!b->misere) {
        if (b->threat_cells[me] > 0)
            return BOT_WIN - ply;
        if (b->threat_cells[opp] >= 2)
            return -(BOT_WIN - ply - 1);
        if (b->threat_cells[opp] == 1)
            forced = (int32_t)b->threat_sum[opp];
        if (!can_complete(b, me) && !can_complete(b, opp))
            return 0;
    }
    if (depth <= 0 && forced < 0)
        return bot_eval(b, me);

    size_t base = s->moves.top;
    int32_t count;
    if (forced >= 0) {
        int status = push_move(&s->moves, forced, 0);
        count = status == TTT_OK ? 1 : status;
    } else {
        count = bot_candidates(s, me);
    }
    if (count < 0) {
        /* At the lists' cap the search stops as at its node budget, with
         * the last completed iteration's move. */
        s->moves.top = base;
        s->stopped = 1;
        if (count == TTT_E_NOMEM)
            s->status = TTT_E_NOMEM;
        return 0;
    }
    select_moves(s->moves.keys, base, base + (size_t)count, BOT_BEAM);
    if (count > BOT_BEAM)
        count = BOT_BEAM;

    int64_t best = -BOT_INF;
    for (int32_t i = 0; i < count; i++) {
        int32_t cell = move_cell(s->moves.keys[base + (size_t)i]);
        sboard_place(b, cell, me);
        int64_t v;
        int state = sboard_state(b, me);
        if (state == TTT_DRAW)
            v = 0;
        else if (state != TTT_IN_PROGRESS)
            v = (state == TTT_X_WON) == (me == 0) ? BOT_WIN - ply - 1 : -(BOT_WIN - ply - 1);
        else
            v = -bot_node(s, forced >= 0 ? depth : depth - 1, -beta, -alpha, ply + 1);
        sboard_remove(b, cell);
        if (s->stopped)
            break;
        if (v > best) {
            best = v;
            if (v > alpha)
                alpha = v;
            if (v >= beta)
                break;
        }
    }
    s->moves.top = base;
    return best;
}

/* The strong bot's choice for a position in progress. */
static int strong_move(const ttt_game *game, const snapshot *snap,
                       uint64_t budget, uint64_t *seed, int32_t *cell_out)
{
    bot s;
    memset(&s, 0, sizeof s);
    carver sizes = {NULL, 0, 0};
    sboard_size(&sizes, &s.b, snap->n, snap->k, 0);
    if (sizes.overflow)
        return TTT_E_NOMEM;
    void *block = engine_alloc(game, sizes.used);
    if (!block)
        return TTT_E_NOMEM;
    carver parts = {block, 0, 0};
    sboard_size(&parts, &s.b, snap->n, snap->k, 0);
    sboard_init(&s.b, snap, 0);
    s.moves.game = game;
    s.moves.limit = BOT_MOVE_LIST_BYTES / sizeof(int64_t);
    s.budget = UINT64_MAX; /* the first iteration always completes */
    s.status = TTT_OK;
    sboard *b = &s.b;
    int me = sboard_mover(b);

    int32_t chosen = -1;
    if (!b->misere && b->threat_cells[me] > 0) {
        chosen = some_threat_cell(b, me);
    } else if (!b->misere && b->threat_cells[1 - me] > 0) {
        chosen = some_threat_cell(b, 1 - me);
    } else {
        int32_t count = bot_candidates(&s, me);
        if (count < 0) {
            s.status = count;
        } else {
            /* Seeded tie-breaks: random low-order bits among equals. */
            if (seed) {
                for (int32_t i = 0; i < count; i++) {
                    int64_t key = s.moves.keys[i];
                    int64_t jitter = (int64_t)ttt__random_below(seed, 8);
                    s.moves.keys[i] = key + (jitter << CELL_BITS);
                }
            }
            if (count > BOT_ROOT_MAX) {
                select_top(s.moves.keys, (size_t)count, BOT_ROOT_MAX);
                count = BOT_ROOT_MAX;
            }
            sort_moves(s.moves.keys, 0, (size_t)count);
            s.moves.top = (size_t)count;
            chosen = move_cell(s.moves.keys[0]);
            for (int depth = 1; depth <= b->empty && !s.stopped; depth++) {
                int64_t alpha = -BOT_INF, best_score = -BOT_INF;
                int32_t best_index = 0;
                for (int32_t i = 0; i < count; i++) {
                    int32_t cell = move_cell(s.moves.keys[i]);
                    sboard_place(b, cell, me);
                    int64_t v;
                    int state = sboard_state(b, me);
                    if (state == TTT_DRAW)
                        v = 0;
                    else if (state != TTT_IN_PROGRESS)
                        v = (state == TTT_X_WON) == (me == 0) ? BOT_WIN : -BOT_WIN;
                    else
                        v = -bot_node(&s, depth - 1, -BOT_INF, -alpha, 1);
                    sboard_remove(b, cell);
                    if (s.stopped)
                        break;
                    if (v > best_score) {
                        best_score = v;
                        best_index = i;
                        if (v > alpha)
                            alpha = v;
                    }
                }
                if (s.stopped)
                    break;
                /* The completed iteration's best leads the next one. */
                int64_t first = s.moves.keys[best_index];
                memmove(s.moves.keys + 1, s.moves.keys, (size_t)best_index * sizeof(int64_t));
                s.moves.keys[0] = first;
                chosen = move_cell(first);
                if (best_score >= BOT_WIN - MAX_SEARCH_DEPTH ||
                    best_score <= -(BOT_WIN - MAX_SEARCH_DEPTH))
                    break; /* decided: deeper search changes nothing */
                s.budget = budget;
            }
        }
    }
    int status = s.status;
    engine_free(game, s.moves.keys);
    engine_free(game, block);
    if (status != TTT_OK)
        return status;
    *cell_out = chosen;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* ttt_best_move                                                             */

/* A uniformly chosen optimal move of a solve, or the only one. */
static int32_t pick_optimal(const solve_result *r, uint64_t *seed)
{
    if (r->best_count <= 1 || !seed)
        return r->best[0];
    return r->best[ttt__random_below(seed, (uint32_t)r->best_count)];
}

int ttt_best_move(const ttt_game *game, int level, uint64_t node_budget,
                  uint64_t *seed, int *row, int *col)
{
    if (!game || !row || !col ||
        (level != TTT_BOT_RANDOM && level != TTT_BOT_STRONG &&
         level != TTT_BOT_PERFECT) ||
        (level == TTT_BOT_RANDOM && !seed))
        return TTT_E_INVALID;
    if (level == TTT_BOT_RANDOM)
        return ttt_random_move(game, seed, row, col);

    int32_t n = game->board.n, nn = game->board.nn;
    snapshot snap;
    solve_result r;
    void *block = start_solve(game, &snap, &r);
    if (!block)
        return TTT_E_NOMEM;

    /* Work on a copy of the seed: a failed call leaves it as it was. */
    uint64_t state = seed ? *seed : 0;
    uint64_t *rng = seed ? &state : NULL;
    int status;
    int32_t cell = -1;
    ttt_solution found;
    memset(&found, 0, sizeof found);
    if (snap.state != TTT_IN_PROGRESS) {
        status = TTT_E_GAME_OVER;
    } else if (level == TTT_BOT_PERFECT) {
        status = run_solve(game, &snap, node_budget, 0, 1, &r, &found);
        if (status == TTT_OK)
            cell = pick_optimal(&r, rng);
    } else {
        uint64_t budget = node_budget ? node_budget : default_bot_budget(snap.k);
        status = TTT_E_BUDGET;
        if (nn - snap.ply <= BOT_SOLVE_EMPTY) {
            /* Small enough to try exactly: half the budget. */
            status = run_solve(game, &snap, budget / 2 + 1, 0, 1, &r, &found);
            if (status == TTT_OK)
                cell = pick_optimal(&r, rng);
            budget -= found.nodes < budget ? found.nodes : budget - 1;
        }
        if (status == TTT_E_BUDGET)
            status = strong_move(game, &snap, budget, rng, &cell);
    }
    engine_free(game, block);
    if (status != TTT_OK)
        return status;
    if (seed)
        *seed = state;
    *row = cell / n;
    *col = cell % n;
    return TTT_OK;
}
