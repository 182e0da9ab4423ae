/* ttable.c - the move lists and the transposition table of the solver and the bots. */
#include <stdlib.h>
#include <string.h>

#include "ttable.h"

static int compare_keys_descending(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

int ttt__push_move(move_stack *stack, int32_t cell, int64_t score)
{
    if (stack->top == stack->capacity) {
        size_t capacity =
            stack->capacity ? ttt__size_mul(stack->capacity, 2) : 256;
        if (stack->top >= stack->limit)
            return TTT_E_BUDGET;
        if (capacity > stack->limit)
            capacity = stack->limit;
        size_t bytes = ttt__size_mul(capacity, sizeof(int64_t));
        if (!ttt__size_ok(bytes))
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

void ttt__sort_moves(int64_t *keys, size_t from, size_t to)
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

void ttt__select_moves(int64_t *keys, size_t from, size_t to, size_t wanted)
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

void ttt__select_top(int64_t *keys, size_t count, size_t wanted)
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

int ttt__tt_resize(ttable *tt, size_t buckets)
{
    size_t bytes = ttt__size_mul(buckets, TT_WAYS * sizeof(tt_entry));
    if (!ttt__size_ok(bytes))
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

void ttt__tt_release(ttable *tt)
{
    engine_free(tt->game, tt->entries);
    tt->entries = NULL;
}

void ttt__tt_clear(ttable *tt)
{
    memset(tt->entries, 0, (tt->bucket_mask + 1) * TT_WAYS * sizeof(tt_entry));
    tt->used = 0;
}

int ttt__tt_store(ttable *tt, uint64_t key, int32_t lower, int32_t upper,
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
        return ttt__tt_resize(tt, bigger);
    }
    return TTT_OK;
}
