/* glicko2.h - Glicko-2 rating computation (Glickman, "Example of the Glicko-2 system"), pure and allocation-free. */
#ifndef TTT_SERVER_GLICKO2_H
#define TTT_SERVER_GLICKO2_H

/* A rating on the Glicko scale: rating r, deviation RD, volatility sigma. */
struct glicko2 {
    double rating, deviation, volatility;
};

/* One game of a rating period, seen from the rated player: the opponent's
 * rating before the period and the score (1 win, 0.5 draw, 0 loss). */
struct glicko2_game {
    struct glicko2 opponent;
    double score;
};

/* The server's parameters, as lichess uses them: a new player starts at
 * 1500, RD 500, volatility 0.09; tau (the system constant that bounds how
 * fast volatility moves) is 0.75; RD stays within [45, 500]; a player whose
 * RD is above 110 is provisional. */
#define GLICKO2_INITIAL_RATING 1500.0
#define GLICKO2_INITIAL_DEVIATION 500.0
#define GLICKO2_INITIAL_VOLATILITY 0.09
#define GLICKO2_TAU 0.75
#define GLICKO2_MIN_DEVIATION 45.0
#define GLICKO2_MAX_DEVIATION 500.0
#define GLICKO2_PROVISIONAL_DEVIATION 110.0

/* The player's rating after one rating period holding games[0..count-1]
 * (count 0: only the deviation grows, by the volatility), with system
 * constant tau. Steps 1-8 of Glickman's paper; the new volatility by the
 * Illinois algorithm (step 5.1-5.5, convergence tolerance 1e-6). No bound
 * is applied here: the caller clamps the deviation if it wants to. */
struct glicko2 glicko2_update(struct glicko2 player, const struct glicko2_game *games,
                              int count, double tau);

#endif
