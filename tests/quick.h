/* quick.h - TTT_TEST_QUICK: the switch by which the slow CI stages (valgrind, qemu, wine) have the heavy suites check a representative fraction. */
#ifndef TTT_TESTS_QUICK_H
#define TTT_TESTS_QUICK_H

#include <stdlib.h>
#include <string.h>

/* Nonzero when TTT_TEST_QUICK is set to anything but "" or "0". Each suite
 * says by its own use what a quick run leaves out; every check still runs
 * on some of its cases, so a quick run can fail. */
static inline int quick_mode(void)
{
    const char *quick = getenv("TTT_TEST_QUICK");
    return quick != NULL && *quick != '\0' && strcmp(quick, "0") != 0;
}

#endif
