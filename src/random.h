/* random.h - the documented splitmix64 generator and exactly uniform bounded draws, shared by the random player and the bots. */
#ifndef TTT_RANDOM_H
#define TTT_RANDOM_H

#include <stdint.h>

#include "compiler.h"

/* splitmix64: adds the golden-ratio increment to the seed (the generator's
 * whole memory) and scrambles the sum. Every 64-bit seed is valid, the period is 2^64, and the output
 * passes BigCrush; ttt.h spells it out so bindings can reproduce it. */
static inline uint64_t ttt__next_random(uint64_t *seed)
{
    uint64_t z = (*seed += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The high and low 64 bits of x * range for range < 2^32. Where the
 * compiler has a 128-bit integer this is one multiply; TTT__OPAQUE hides
 * where range came from, because GCC otherwise turns a loop's shrinking
 * range into a 128-bit counter that spills to the stack. Elsewhere two
 * 64-bit products give the same bits (C11 has no 128-bit integer). */
#if defined(__SIZEOF_INT128__) && defined(__GNUC__)
__extension__ typedef unsigned __int128 ttt__u128;
static inline uint64_t ttt__mul_high(uint64_t x, uint32_t range, uint64_t *low)
{
    uint64_t wide = range;
    TTT__OPAQUE(wide);
    ttt__u128 product = (ttt__u128)x * wide;
    *low = (uint64_t)product;
    return (uint64_t)(product >> 64);
}
#else
static inline uint64_t ttt__mul_high(uint64_t x, uint32_t range, uint64_t *low)
{
    uint64_t high_part = (x >> 32) * range;
    uint64_t low_part = (x & 0xffffffffu) * range;
    *low = x * range;
    return (high_part + (low_part >> 32)) >> 32;
}
#endif

/* A seed and the number drawn with it. */
typedef struct ttt__draw {
    uint64_t seed;
    uint32_t value;
} ttt__draw;

/* ttt__random_below's second chance: draws again while the low 64 bits fall
 * below 2^64 mod range. Out of line and taking the seed by value, so the
 * callers' loops keep the seed and everything else in registers. */
static TTT__OUT_OF_LINE ttt__draw ttt__random_redraw(uint64_t seed,
                                                     uint32_t range,
                                                     uint64_t high,
                                                     uint64_t low)
{
    uint64_t threshold = (0 - (uint64_t)range) % range; /* 2^64 mod range */
    while (low < threshold)
        high = ttt__mul_high(ttt__next_random(&seed), range, &low);
    ttt__draw draw = {seed, (uint32_t)high};
    return draw;
}

/* A number below range (1 <= range < 2^32), exactly uniform: the high 64
 * bits of next() * range, drawn again while the low 64 bits fall in the few
 * products that would bias it (Lemire's method). Usually one draw and no
 * division: a low part below range, the only case that may draw again,
 * comes once in 2^32 draws or less. */
static inline uint32_t ttt__random_below(uint64_t *seed, uint32_t range)
{
    uint64_t low;
    uint64_t high = ttt__mul_high(ttt__next_random(seed), range, &low);
    if (TTT__RARE(low < range)) {
        ttt__draw draw = ttt__random_redraw(*seed, range, high, low);
        *seed = draw.seed;
        return draw.value;
    }
    return (uint32_t)high;
}

#endif /* TTT_RANDOM_H */
