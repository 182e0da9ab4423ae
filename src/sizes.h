/* sizes.h - the library's one overflow check for byte counts: sums, products and roundings of size_t that saturate at TTT__SIZE_OVER instead of wrapping. */
#ifndef TTT_SIZES_H
#define TTT_SIZES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Every size the library computes (a game's footprint, a batch's block, a
 * search's tables) is built from these, each checked before it adds or
 * multiplies. A result that does not fit becomes TTT__SIZE_OVER and stays
 * so through every later step, so a formula is written once, in one
 * expression, and tested once at its end with ttt__size_ok. No object can
 * be SIZE_MAX bytes, so the value is free to mean "too big".
 */
#define TTT__SIZE_OVER SIZE_MAX

static inline size_t ttt__size_add(size_t a, size_t b)
{
    if (a == TTT__SIZE_OVER || b == TTT__SIZE_OVER)
        return TTT__SIZE_OVER;
    return a > TTT__SIZE_OVER - 1 - b ? TTT__SIZE_OVER : a + b;
}

static inline size_t ttt__size_mul(size_t a, size_t b)
{
    if (a == TTT__SIZE_OVER || b == TTT__SIZE_OVER)
        return TTT__SIZE_OVER;
    return b != 0 && a > (TTT__SIZE_OVER - 1) / b ? TTT__SIZE_OVER : a * b;
}

/* a rounded up to a multiple of align (a power of two). */
static inline size_t ttt__size_round(size_t a, size_t align)
{
    size_t up = ttt__size_add(a, align - 1);
    return up == TTT__SIZE_OVER ? up : up & ~(align - 1);
}

/* 1 if a computed size fits (is not TTT__SIZE_OVER). */
static inline int ttt__size_ok(size_t a)
{
    return a != TTT__SIZE_OVER;
}

#endif /* TTT_SIZES_H */
