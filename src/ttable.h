/* ttable.h - the engine's move lists (one growable stack of scored cells) and its transposition table. */
#ifndef TTT_TTABLE_H
#define TTT_TTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

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

static inline int32_t move_cell(int64_t key)
{
    return (int32_t)(key & CELL_MASK);
}

/* TTT_E_BUDGET when the stack is at its limit: the cap bounds the work of
 * a search like its node budget does, and nothing failed to allocate. */
int ttt__push_move(move_stack *stack, int32_t cell, int64_t score);

/* Sorts keys[from, to) by descending key: score first, then the higher
 * cell, which is deterministic. Insertion sort for the short lists of small
 * boards, qsort for the long ones of large boards. */
void ttt__sort_moves(int64_t *keys, size_t from, size_t to);

/* Moves the `wanted` best keys of [from, to) to its front, best first:
 * cheaper than sorting when only a few of many are searched. */
void ttt__select_moves(int64_t *keys, size_t from, size_t to, size_t wanted);

/* Moves the `wanted` highest keys of keys[0, count) to its front, in any
 * order: a three-way quickselect, linear on average where sorting a huge
 * board's list would not be. The keys are distinct (they hold the cell). */
void ttt__select_top(int64_t *keys, size_t count, size_t wanted);

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

static inline uint64_t tt_pack(int32_t lower, int32_t upper, int32_t move, int work)
{
    return TT_USED | (uint64_t)(uint16_t)(lower + 32768) |
           (uint64_t)(uint16_t)(upper + 32768) << 16 |
           (uint64_t)(uint32_t)(move + 1) << 32 | (uint64_t)work << 56;
}

static inline int32_t tt_lower(uint64_t data)
{
    return (int32_t)(data & 0xffff) - 32768;
}

static inline int32_t tt_upper(uint64_t data)
{
    return (int32_t)(data >> 16 & 0xffff) - 32768;
}

static inline int32_t tt_move(uint64_t data)
{
    return (int32_t)(data >> 32 & 0xffffff) - 1;
}

static inline int tt_work(uint64_t data)
{
    return (int)(data >> 56 & 0x7f);
}

static inline tt_entry *tt_bucket(const ttable *tt, uint64_t key)
{
    size_t bucket = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> tt->bucket_shift) &
                    tt->bucket_mask;
    return tt->entries + bucket * TT_WAYS;
}

/* Asks the memory system for a bucket ahead of its probe, so the misses of
 * a node's children overlap instead of queueing. A hint only. */
static inline void tt_prefetch(const ttable *tt, uint64_t key)
{
    TTT__PREFETCH(tt_bucket(tt, key), 0);
}

static inline const tt_entry *tt_probe(const ttable *tt, uint64_t key)
{
    const tt_entry *bucket = tt_bucket(tt, key);
    for (int i = 0; i < TT_WAYS; i++) {
        if ((bucket[i].data & TT_USED) && bucket[i].key == key)
            return &bucket[i];
    }
    return NULL;
}

/* Allocates a table of `buckets` empty buckets (a power of two) and moves
 * the old entries into it, if both fit under the cap together; otherwise
 * the old entries (only a cache) go first, so the table never holds more
 * than its cap. */
int ttt__tt_resize(ttable *tt, size_t buckets);

void ttt__tt_release(ttable *tt);

void ttt__tt_clear(ttable *tt);

/* Records bounds for key, merged with what the table knew. Returns
 * TTT_E_NOMEM if growing the table failed. */
int ttt__tt_store(ttable *tt, uint64_t key, int32_t lower, int32_t upper,
                    int32_t move, uint64_t nodes);

#endif /* TTT_TTABLE_H */
