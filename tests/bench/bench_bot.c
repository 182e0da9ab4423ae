/* bench_bot.c - ttt-bench-bot: the strong bot's positions a second and the depth it reaches, on fixed 15x15 K=5 positions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "threat.h"
#include "ttt.h"

#define MAX_POSITIONS 256

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seeded self-play of the strong bot on a small budget (3000 positions a
 * move) from `games` two-stone openings near the centre; every sixth
 * position from ply 5 up to ply 40 is kept. The same arguments give the
 * same positions as long as the bot plays the same moves on them. */
static int collect(int games, ttt_game **positions)
{
    uint64_t seed = 12345;
    int count = 0;
    for (int g = 0; g < games; g++) {
        ttt_game *game = NULL;
        if (ttt_game_new(15, 5, &game) != TTT_OK)
            return -1;
        int row = 5 + (int)(seed % 5), col = 5 + (int)((seed / 5) % 5);
        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        ttt_play_next(game, 7, 7, NULL);
        ttt_play_next(game, row == 7 && col == 7 ? 8 : row, col, NULL);
        for (int ply = 2; ply < 40 && ttt_state(game) == TTT_IN_PROGRESS; ply++) {
            int r, c;
            if (ttt_best_move(game, TTT_BOT_STRONG, 3000, &seed, &r, &c) != TTT_OK)
                break;
            ttt_play_next(game, r, c, NULL);
            if (ply % 6 == 5 && ttt_state(game) == TTT_IN_PROGRESS && count < MAX_POSITIONS &&
                ttt_game_clone(game, &positions[count]) == TTT_OK)
                count++;
        }
        ttt_game_free(game);
    }
    return count;
}

int main(int argc, char **argv)
{
    uint64_t budget = argc > 1 ? strtoull(argv[1], NULL, 10) : 50000;
    int games = argc > 2 ? atoi(argv[2]) : 6;
    if (budget == 0 || games <= 0 || games > 40) {
        fprintf(stderr, "usage: ttt-bench-bot [budget (50000)] [games 1..40 (6)]\n");
        return 2;
    }
    ttt_game *positions[MAX_POSITIONS];
    int count = collect(games, positions);
    if (count <= 0) {
        fprintf(stderr, "ttt-bench-bot: no positions\n");
        return 1;
    }
    /* Each search runs to its budget unless decided first, so the rate is
     * the budget's: the same positions before and after a change. */
    double start = seconds();
    long depth_sum = 0;
    uint64_t moves_hash = 0;
    for (int i = 0; i < count; i++) {
        int32_t cell = -1;
        int depth = 0;
        if (ttt__strong_search(positions[i], budget, 1, &cell, &depth) != TTT_OK) {
            fprintf(stderr, "ttt-bench-bot: search failed\n");
            return 1;
        }
        depth_sum += depth;
        moves_hash = moves_hash * 31 + (uint64_t)cell;
    }
    double spent = seconds() - start;
    printf("ttt-bench-bot: %d positions, budget %llu: %.3f s, %.0f positions/s, "
           "mean depth %.2f, moves hash %llu\n",
           count, (unsigned long long)budget, spent, (double)count * (double)budget / spent,
           (double)depth_sum / count, (unsigned long long)moves_hash);
    for (int i = 0; i < count; i++)
        ttt_game_free(positions[i]);
    return 0;
}
