/* glicko2_test.c - the Glicko-2 computation against Glickman's worked example, and its edge cases. */
#include "glicko2.h"

#include <math.h>
#include <stdio.h>

static int failures;

static void near(const char *what, double got, double want, double tolerance)
{
    if (!(fabs(got - want) <= tolerance)) {
        fprintf(stderr, "FAIL %s: got %.6f, want %.6f (within %g)\n", what, got, want, tolerance);
        failures++;
    }
}

int main(void)
{
    /* "Example of the Glicko-2 system", Glickman: a 1500/200/0.06 player
     * beats a 1400/30 player and loses to 1550/100 and 1700/300, tau 0.5:
     * r' 1464.06, RD' 151.52, sigma' 0.05999. The paper rounds as it goes
     * (mu' = -0.2069 to four places, +-0.0087 in r'; sigma' cut to five
     * places from 0.059996), so the check allows its last printed digit:
     * exact arithmetic gives r' 1464.0507, RD' 151.5165. */
    struct glicko2 player = {1500, 200, 0.06};
    struct glicko2_game games[] = {
        {{1400, 30, 0.06}, 1.0},
        {{1550, 100, 0.06}, 0.0},
        {{1700, 300, 0.06}, 0.0},
    };
    struct glicko2 after = glicko2_update(player, games, 3, 0.5);
    near("rating", after.rating, 1464.06, 0.01);
    near("deviation", after.deviation, 151.52, 0.005);
    near("volatility", after.volatility, 0.05999, 0.00001);
    printf("example: r' %.4f, RD' %.4f, sigma' %.6f\n", after.rating, after.deviation,
           after.volatility);

    /* A period without games: the rating stays, RD grows to sqrt(RD^2 +
     * (173.7178 sigma)^2). */
    struct glicko2 idle = glicko2_update(player, NULL, 0, 0.5);
    near("idle rating", idle.rating, 1500, 0);
    near("idle deviation", idle.deviation, sqrt(200.0 * 200 + pow(173.7178 * 0.06, 2)), 1e-9);

    /* Symmetry: two new players, one game; the winner gains what the loser
     * loses, and a draw between equals moves nobody. */
    struct glicko2 fresh = {GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_DEVIATION,
                            GLICKO2_INITIAL_VOLATILITY};
    struct glicko2 win = glicko2_update(fresh, &(struct glicko2_game){fresh, 1.0}, 1, GLICKO2_TAU);
    struct glicko2 loss = glicko2_update(fresh, &(struct glicko2_game){fresh, 0.0}, 1, GLICKO2_TAU);
    struct glicko2 draw = glicko2_update(fresh, &(struct glicko2_game){fresh, 0.5}, 1, GLICKO2_TAU);
    near("win + loss", win.rating + loss.rating, 3000, 1e-6);
    near("draw", draw.rating, 1500, 1e-9);
    if (!(win.rating > 1500 && win.deviation < 500)) {
        fprintf(stderr, "FAIL a win raises the rating and narrows RD: %.3f %.3f\n", win.rating,
                win.deviation);
        failures++;
    }
    /* An upset with a large delta takes the other branch of step 5.2. */
    struct glicko2 sure = {1500, 30, 0.06};
    struct glicko2 upset = glicko2_update(sure, &(struct glicko2_game){{2900, 30, 0.06}, 1.0}, 1,
                                          0.5);
    if (!(isfinite(upset.rating) && isfinite(upset.volatility) && upset.volatility > 0.06)) {
        fprintf(stderr, "FAIL an upset raises the volatility: %.6f\n", upset.volatility);
        failures++;
    }
    return failures ? 1 : 0;
}
