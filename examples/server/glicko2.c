/* glicko2.c - Glicko-2 rating computation, step by step as in Glickman's "Example of the Glicko-2 system". */
#include "glicko2.h"

#include <math.h>

/* The Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178. */
#define SCALE 173.7178
#define EPSILON 0.000001

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

/* Step 5.1's f(x). */
static double f_of(double x, double delta2, double phi2, double v, double a, double tau)
{
    double ex = exp(x);
    double d = phi2 + v + ex;
    return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

struct glicko2 glicko2_update(struct glicko2 player, const struct glicko2_game *games,
                              int count, double tau)
{
    /* Step 2: to the Glicko-2 scale. */
    double mu = (player.rating - 1500.0) / SCALE;
    double phi = player.deviation / SCALE;
    double sigma = player.volatility;
    if (count <= 0) {
        /* Step 6 alone: a period without games only widens the deviation. */
        player.deviation = sqrt(phi * phi + sigma * sigma) * SCALE;
        return player;
    }
    /* Steps 3 and 4: the estimated variance v and improvement delta. */
    double v_inv = 0.0, sum = 0.0;
    for (int j = 0; j < count; j++) {
        double mu_j = (games[j].opponent.rating - 1500.0) / SCALE;
        double g = g_of(games[j].opponent.deviation / SCALE);
        double e = 1.0 / (1.0 + exp(-g * (mu - mu_j)));
        v_inv += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1.0 / v_inv;
    double delta = v * sum;
    /* Step 5: the new volatility, by the Illinois algorithm. */
    double a = log(sigma * sigma), delta2 = delta * delta, phi2 = phi * phi;
    double big_a = a, big_b;
    if (delta2 > phi2 + v) {
        big_b = log(delta2 - phi2 - v);
    } else {
        /* f is decreasing: step down by tau until f is no longer negative
         * (bounded: f(a - k tau) >= 0 within a few steps for any sane tau). */
        int k = 1;
        while (k < 1000 && f_of(a - k * tau, delta2, phi2, v, a, tau) < 0)
            k++;
        big_b = a - k * tau;
    }
    double f_a = f_of(big_a, delta2, phi2, v, a, tau);
    double f_b = f_of(big_b, delta2, phi2, v, a, tau);
    /* Each pass narrows the bracket; the count bounds it all the same. */
    for (int i = 0; i < 200 && fabs(big_b - big_a) > EPSILON; i++) {
        double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        double f_c = f_of(big_c, delta2, phi2, v, a, tau);
        if (f_c * f_b <= 0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    double sigma_new = exp(big_a / 2.0);
    /* Steps 6 and 7: the new deviation and rating. */
    double phi_star = sqrt(phi2 + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    /* Step 8: back to the Glicko scale. */
    return (struct glicko2){SCALE * mu_new + 1500.0, SCALE * phi_new, sigma_new};
}
