/* bench_batch.c - steps a second of ttt_batch_step with random legal actions on 3x3, Connect Four and 15x15 K=5, alone and with observations and masks, beside the same number of single games moved by ttt_play_next; then the CPU time of a step against the budgeted perfect opponent on Connect Four. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ttt.h"

/* The thread's CPU time: on a machine shared with other work, a second of
 * it is a second on one core, whatever the scheduler does meanwhile. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* A uniformly random legal action per game, from the masks. */
static void random_actions(const uint8_t *mask, size_t count, int actions,
                           uint64_t *rng, int32_t *out)
{
    for (size_t g = 0; g < count; g++) {
        const uint8_t *row = mask + g * (size_t)actions;
        int32_t a;
        do
            a = (int32_t)(next_random(rng) % (uint64_t)actions);
        while (!row[a]);
        out[g] = a;
    }
}

/* Moves a second of count single games, each moved by ttt_play_next with
 * a random legal move (drawn by ttt_random_move outside the timing) and
 * reset when it ends: the single game's own path, for comparison. */
static double single_rate(int width, int height, int k, int gravity,
                          size_t count, double seconds)
{
    ttt_game **games = calloc(count, sizeof *games);
    int *rows = malloc(count * sizeof *rows), *cols = malloc(count * sizeof *cols);
    if (!games || !rows || !cols)
        return 0;
    for (size_t g = 0; g < count; g++)
        if (ttt_game_new_rect(width, height, k, &games[g]) != TTT_OK ||
            ttt_game_set_rule(games[g], TTT_RULE_GRAVITY, gravity) != TTT_OK)
            return 0;
    uint64_t seed = 1;
    uint64_t steps = 0;
    double spent = 0;
    double start = now();
    while (now() - start < seconds) {
        for (size_t g = 0; g < count; g++)
            if (ttt_random_move(games[g], &seed, &rows[g], &cols[g]) != TTT_OK)
                return 0;
        double t0 = now();
        for (size_t g = 0; g < count; g++) {
            int state = TTT_IN_PROGRESS;
            if (ttt_play_next(games[g], rows[g], cols[g], &state) != TTT_OK)
                return 0;
            if (state != TTT_IN_PROGRESS)
                (void)ttt_game_reset(games[g]);
        }
        spent += now() - t0;
        steps += count;
    }
    for (size_t g = 0; g < count; g++)
        ttt_game_free(games[g]);
    free(games);
    free(rows);
    free(cols);
    return (double)steps / spent;
}

typedef struct shape {
    const char *name;
    int width, height, k, gravity;
} shape;

/* One row: the CPU time of a step of 64 Connect Four games against the
 * perfect opponent with this node budget, agents alternating sides, random
 * legal actions; steps for at least seconds (at least one step). Each
 * step makes one opponent move a game (the solver with its budget, or a
 * random move where the budget runs out), so its cost is bounded by the
 * budget. */
static int perfect_row(uint64_t budget, double seconds)
{
    const size_t count = 64;
    ttt_batch_config config;
    memset(&config, 0, sizeof config);
    config.size = sizeof config;
    config.width = 7;
    config.height = 6;
    config.win_length = 4;
    config.gravity = 1;
    config.opponent = TTT_BOT_PERFECT;
    config.opponent_budget = budget;
    ttt_batch *batch = NULL;
    if (ttt_batch_new(&config, count, NULL, &batch) != TTT_OK)
        return 1;
    int32_t act[64];
    uint8_t mask[64 * 7];
    uint64_t rng = 7;
    uint64_t steps = 0;
    double spent = 0;
    while (steps == 0 || spent < seconds) {
        ttt_batch_legal_mask(batch, mask, sizeof mask);
        random_actions(mask, count, 7, &rng, act);
        double t0 = now();
        if (ttt_batch_step(batch, act, NULL) != TTT_OK)
            return 1;
        spent += now() - t0;
        steps++;
    }
    printf("perfect c4 budget %-8llu %4zu games %6llu steps %12.3f ms a step %10.1f us an opponent move\n",
           (unsigned long long)budget, count, (unsigned long long)steps,
           spent / (double)steps * 1e3, spent / (double)steps / (double)count * 1e6);
    ttt_batch_free(batch);
    return 0;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    const size_t count = 4096;
    const double seconds = quick ? 0.05 : 1.0;
    const shape shapes[] = {{"3x3", 3, 3, 3, 0},
                            {"connect4", 7, 6, 4, 1},
                            {"15x15k5", 15, 15, 5, 0}};
    printf("bench_batch: %zu games, random legal actions, one thread; "
           "steps/s are game moves a second of CPU time\n", count);
    printf("%-10s %16s %22s %14s %16s %8s\n", "board", "step/s",
           "step+obs+mask/s", "games ended", "single game/s", "ratio");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        ttt_batch_config config;
        memset(&config, 0, sizeof config);
        config.size = sizeof config;
        config.width = shapes[s].width;
        config.height = shapes[s].height;
        config.win_length = shapes[s].k;
        config.gravity = shapes[s].gravity;
        config.opponent = TTT_BATCH_SELF_PLAY;
        ttt_batch *batch = NULL;
        if (ttt_batch_new(&config, count, NULL, &batch) != TTT_OK)
            return 1;
        int actions = ttt_batch_action_count(batch);
        size_t planes_len = count * 2 * (size_t)(config.width * config.height);
        uint8_t *mask = malloc(count * (size_t)actions);
        float *planes = malloc(planes_len * sizeof *planes);
        int32_t *act = malloc(count * sizeof *act);
        int32_t *outcome = malloc(count * sizeof *outcome);
        float *rewards = malloc(count * sizeof *rewards);
        uint8_t *term = malloc(count), *trunc = malloc(count);
        if (!mask || !planes || !act || !outcome || !rewards || !term || !trunc)
            return 1;
        ttt_batch_outputs out = {sizeof out, rewards, term, trunc, NULL, outcome};
        uint64_t rng = 1;
        double step_time = 0, write_time = 0;
        uint64_t steps = 0, ended = 0;
        ttt_batch_legal_mask(batch, mask, count * (size_t)actions);
        double start = now();
        while (now() - start < seconds) {
            random_actions(mask, count, actions, &rng, act);
            double t0 = now();
            if (ttt_batch_step(batch, act, &out) != TTT_OK)
                return 1;
            double t1 = now();
            ttt_batch_observe_f32(batch, planes, planes_len);
            ttt_batch_legal_mask(batch, mask, count * (size_t)actions);
            double t2 = now();
            step_time += t1 - t0;
            write_time += t2 - t1;
            steps += count;
            for (size_t g = 0; g < count; g++)
                ended += outcome[g] != TTT_IN_PROGRESS;
        }
        double single = single_rate(config.width, config.height, config.win_length,
                                    config.gravity, count, seconds);
        printf("%-10s %16.0f %22.0f %14llu %16.0f %7.1fx\n", shapes[s].name,
               (double)steps / step_time,
               (double)steps / (step_time + write_time),
               (unsigned long long)ended, single,
               (double)steps / step_time / single);
        free(mask);
        free(planes);
        free(act);
        free(outcome);
        free(rewards);
        free(term);
        free(trunc);
        ttt_batch_free(batch);
    }
    printf("the perfect opponent on Connect Four (7x6, gravity): CPU time of "
           "ttt_batch_step, 64 games, random legal actions\n");
    const uint64_t budgets[] = {1, 10, 1000};
    for (size_t b = quick ? 1 : 0; b < (quick ? 2u : 3u); b++)
        if (perfect_row(budgets[b], quick ? 0.0 : 1.0))
            return 1;
    return 0;
}
