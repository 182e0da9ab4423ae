/* compiler.h - the library's compiler shims (branch hints, noinline, always-inline, prefetch, register barrier, bit counts), each written once with a plain C11 fallback, and the debug-build check TTT_ASSERT. */
#ifndef TTT_COMPILER_H
#define TTT_COMPILER_H

#include <stdint.h>

#if defined(__GNUC__)
/* x is almost always false: the compiler lays the true path out of line. */
#define TTT__RARE(x) __builtin_expect(!!(x), 0)
/* Keeps a rarely taken helper out of its caller, so the caller's loop keeps
 * its values in registers. */
#define TTT__OUT_OF_LINE __attribute__((noinline))
/* Inlines a function into every caller, so that a caller passing a
 * constant gets a copy specialised for it. */
#define TTT__ALWAYS_INLINE __attribute__((always_inline)) inline
/* A hint to start loading addr's cache line (for writing if rw is 1); it
 * reads nothing in C's sense, so any address is safe. */
#define TTT__PREFETCH(addr, rw) __builtin_prefetch((addr), (rw))
/* Makes the compiler forget where the integer lvalue v came from, without
 * an instruction: it stops GCC from turning a loop's shrinking bound into a
 * wider counter that spills to the stack. */
#define TTT__OPAQUE(v) __asm__("" : "+r"(v))
#else
#define TTT__RARE(x) (x)
#define TTT__OUT_OF_LINE
#define TTT__ALWAYS_INLINE inline
#define TTT__PREFETCH(addr, rw) ((void)(addr), (void)(rw))
#define TTT__OPAQUE(v) ((void)0)
#endif

/* The set bits of x. GCC's builtin is one instruction only where the
 * target has one (-mpopcnt); elsewhere it calls a library routine that is
 * slower than these five steps. */
static TTT__ALWAYS_INLINE int ttt__popcount64(uint64_t x)
{
#if defined(__GNUC__) && defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* The index of the lowest set bit of x; x is not 0. */
static TTT__ALWAYS_INLINE int ttt__lowest_index(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_ctzll(x);
#else
    int i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* The index of the highest set bit of x; x is not 0. */
static TTT__ALWAYS_INLINE int ttt__highest_index(uint64_t x)
{
#if defined(__GNUC__)
    return 63 - __builtin_clzll(x);
#else
    int i = 0;
    while (x >>= 1)
        i++;
    return i;
#endif
}

/* TTT_ASSERT states a precondition one of the library's own functions
 * relies on, checked in debug builds and compiled to nothing with NDEBUG
 * (meson's release builds). Never for caller input: that gets a status. */
#ifdef NDEBUG
#define TTT_ASSERT(cond) ((void)0)
#else
#include <assert.h>
#define TTT_ASSERT(cond) assert(cond)
#endif

#endif /* TTT_COMPILER_H */
