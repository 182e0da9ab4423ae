/* compiler.h - the library's compiler shims (branch hints, noinline, always-inline, prefetch, register barrier), each written once with a plain C11 fallback, and the debug-build check TTT_ASSERT. */
#ifndef TTT_COMPILER_H
#define TTT_COMPILER_H

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
