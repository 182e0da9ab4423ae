/* bench_bot.c - ttt-bench-bot: the strong bot's positions a second and the depth it reaches, and its VCT search's reach, on 15x15 K=5 positions from self-play or from fixed game records. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Ten games of an earlier strong bot (black) against Rapfi (white) at 100 ms
 * a move, as "x,y" (column, row) from the first stone: positions that do
 * not depend on the bot being measured. */
static const char *const match_records[] = {
    "6,6 9,5 8,8 7,7 8,6 7,6 7,5 8,4 9,7 10,8 8,9 8,7 10,6 7,9 9,8 7,10 7,8 "
    "6,7 11,6 9,6 5,8 6,8 5,7 5,9 4,10 11,5 4,8 3,9 4,9 4,7 9,10 12,5 10,5 "
    "9,4 11,4 10,3 8,5 9,3 9,2 12,6 13,7 12,3 6,4 5,3 10,11 11,12 4,11 4,12 "
    "9,9 9,11 11,3 12,4 12,2 12,7",
    "7,6 7,5 8,6 9,6 6,6 8,7 7,8 8,5 5,6 4,6 6,7 4,5 6,5 6,8 7,4 4,7 4,4 5,4 "
    "6,3 6,4 5,3 7,3 5,5 7,7 4,9 3,5 5,7 5,8 6,9 10,7 3,9 5,9 3,8 10,5 11,7 "
    "11,4 12,3 9,4 11,5 10,4 3,3 2,2 4,8 2,10 8,9 9,10 2,3 4,3 8,3 9,2 10,6 "
    "12,4 8,4 13,4",
    "5,5 7,5 7,7 8,8 5,6 5,7 6,6 4,6 6,8 8,6 6,7 6,5 7,8 8,9 8,7 6,9 4,4 3,3 "
    "5,3 3,4 3,5 6,2 9,7 10,7 5,8 4,8 4,9 3,10 9,8 5,2 9,6 9,5 2,5 10,5 8,5 "
    "7,6 2,7 2,6 3,8 1,6 3,6 1,5 3,7 3,9 1,8 5,4 4,2 4,3 3,2 6,1 7,0 7,2 4,5 "
    "0,9 8,4 9,2 8,2 8,3 9,4 7,4 10,1 7,3",
    "8,8 9,5 6,6 7,7 8,6 7,6 7,5 8,4 9,7 10,8 8,9 8,7 10,6 7,9 9,8 7,10 7,8 "
    "9,10 6,7 6,5 11,6 5,4 4,3 12,6 4,2 4,5 11,4 11,5 12,5 10,7 10,3 9,2 "
    "10,4 8,10 10,10 9,9 11,7 7,11 6,12 6,8 9,11 4,8 10,2 10,5 10,1 10,0 "
    "13,6 14,7 6,4 5,3 7,13 4,6 5,7 4,7 4,4 4,9",
    "7,5 7,7 7,6 6,6 5,5 6,5 6,4 7,3 5,3 4,2 5,4 5,2 4,4 3,4 6,2 3,5 3,6 4,5 "
    "8,5 8,6 6,7 9,4 7,1 8,0 6,1 7,4 5,6 5,7 5,1 8,1 5,8 4,9 4,6 8,3 10,4 "
    "9,2 10,1 9,3 6,3 6,0 1,6 2,6 3,1 4,1 2,8 3,7 9,5 10,3 11,3 11,4 7,0 "
    "12,5",
    "9,5 8,6 7,5 10,5 7,6 7,4 8,4 10,6 8,5 9,4 6,6 5,7 6,5 5,5 6,7 6,4 5,4 "
    "8,7 7,8 6,8 5,8 4,9 4,5 5,6 4,6 4,3 3,6 2,7 4,7 6,9 7,3 9,3 3,5 4,4 3,8 "
    "3,9 5,9 10,7 10,8 12,6 2,5 1,4 1,5 0,5 3,7 3,4 4,8 2,6 2,8 1,8 1,9 0,10 "
    "7,9 7,7 7,2 6,3 7,11 6,10 8,3 10,4 10,3 11,5 8,2 13,7",
    "7,5 6,6 5,5 4,6 5,6 4,5 5,4 5,3 7,4 6,5 7,6 7,7 8,5 6,7 6,4 8,4 9,6 "
    "10,7 6,9 4,4 4,7 5,8 9,5 9,7 8,7 10,5 8,8 8,9 9,4 9,3 10,6 11,6 9,8 7,8 "
    "12,8 3,5 6,2 6,8 5,7 4,8 3,8 5,9 6,3 5,2 6,1 6,0 7,2 7,3 11,7 13,9 10,3 "
    "11,2 8,1 9,0 10,9 11,10 10,8 11,8 5,0 8,3 1,10 2,9 4,10 2,6 1,7 3,7 1,5 "
    "6,10",
    "7,8 6,6 8,7 9,6 8,9 6,7 8,8 8,6 7,6 6,8 6,5 9,8 7,9 7,7 9,5 5,9 4,10 "
    "6,10 6,9 4,8 3,7 7,11 8,12 8,11 10,6 9,11 6,11 10,11 11,11 9,9 9,7 11,5 "
    "7,10 5,10 7,5 8,5 7,4 7,3 5,4 4,3 8,4 6,4 5,6 4,7 10,8 10,7 11,8 5,5 "
    "8,2 8,3 5,12 4,13 11,10 11,9 9,10 4,4 3,3 4,5 4,6 2,5 3,5 3,4 5,2 1,4 "
    "5,8 2,4 0,4 2,3 12,8 11,7 10,10 8,10 12,10 13,10 14,8 13,8 13,9 10,12 "
    "2,2 4,1 4,2 3,2 5,0 0,5",
    "6,6 5,7 5,6 4,6 6,8 6,7 7,7 8,8 4,7 8,6 3,8 2,9 7,8 7,9 5,8 4,8 6,9 "
    "7,10 8,7 5,10 9,8 6,5 9,6 10,5 9,7 9,9 10,7 11,7 8,5 11,8 3,9 3,10 4,10 "
    "10,9 11,9 9,10 7,4 6,3 3,6 2,5 9,4 9,5 7,6 7,5 10,3 11,2 5,9 3,11 3,5 "
    "3,7 8,11 8,10 6,10 10,8 12,6 7,11",
    "8,5 8,8 7,5 9,5 7,4 8,6 9,6 6,3 7,7 7,6 5,7 6,5 6,6 8,4 8,7 6,7 7,8 6,9 "
    "7,3 7,9 5,5 10,6 9,7 11,7 12,8 4,6 4,4 3,3 5,3 6,2 7,2 7,1 5,4 5,6 5,2 "
    "5,1 9,4 10,5 3,4 6,4 6,1 4,3 11,8 10,7 10,8 9,8 8,9 4,9 4,7 6,10 5,9 "
    "5,11 4,12 3,9 6,12 3,11 8,3 5,0 13,8 14,8 2,4 1,4 5,8 6,11 6,8 4,11 "
    "2,11 7,11",
};

/* Ten games the strong bot lost as white to Rapfi (black) at 100 ms a
 * move, from the opening's two stones on: positions where black's slower
 * threats (VCTs) decide. */
static const char *const white_records[] = {
    "7,5 8,5 8,7 9,4 7,6 7,4 9,6 8,4 6,4 8,6 6,5 5,4 6,7 6,3 7,8 11,4 10,4 "
    "5,2 4,1 8,3 8,2 6,9 7,7 7,9 5,7 4,7 9,7",
    "6,9 9,8 7,10 9,10 7,8 9,9 9,7 8,7 7,9 7,11 5,9 4,9 6,10 5,11 6,8 6,7 7,7 "
    "7,6 8,6 9,5 4,10",
    "6,6 7,7 8,6 9,6 6,7 9,7 6,5 6,8 5,6 9,8 9,5 7,8 7,6 4,6 5,8 8,5 7,4 4,7 "
    "6,4 6,3 5,4 8,8 10,8 9,9 9,10 10,10 11,11 4,4 4,3 3,2 8,7",
    "9,8 7,7 10,9 8,6 9,9 6,8 9,5 7,8 11,8 9,10 10,7 9,6 10,8 5,9 4,10 10,6 "
    "12,8 8,8 13,8",
    "8,6 9,6 8,8 8,5 10,7 9,5 9,7 7,5 10,5 10,6 11,7 12,7 8,7 7,7 10,8 12,6 "
    "11,6 5,5 6,5 9,8 11,9 12,10 11,8 11,5 11,10",
    "9,5 7,9 7,5 5,7 8,6 6,8 4,6 6,4 8,4 6,5 10,6 7,3 8,5 8,7 6,6 8,10 9,11 "
    "7,6 9,3 10,2 8,2 8,3 11,5 10,5 10,4 7,1 12,6",
    "6,5 8,5 8,7 7,4 9,6 5,4 7,6 6,4 8,4 10,6 9,8 10,9 7,8 10,5 6,9 5,10 7,7 "
    "7,5 10,8 8,8 9,7 9,5 11,5 4,4 3,4 6,7 10,7 11,7 7,10 7,9 8,9 11,6 6,11",
    "6,9 9,8 7,10 8,7 6,10 10,9 7,6 6,7 6,11 6,12 8,11 9,12 5,10 8,10 7,11 "
    "5,11 7,12 11,10 12,11 7,13 4,9 3,8 8,13",
    "7,5 9,5 8,6 9,7 8,4 8,7 9,4 9,6 7,4 6,4 7,6 7,7 6,7 8,5 6,6 5,7 8,3 10,7 "
    "11,7 9,8 9,9 11,8 12,9 7,3 5,6 4,6 6,5 9,2 4,7",
    "5,5 6,6 7,5 3,6 6,4 4,5 4,6 7,3 5,3 4,2 5,4 5,6 3,4 2,4 7,4 4,4 8,4 9,4 "
    "8,5 8,7 5,2 5,1 6,3 4,1 9,6",
};

#define RECORD_MAX 128 /* the moves read from one record */

/* The moves of a record ("x,y" = column, row) into cols and rows, at most
 * RECORD_MAX; returns how many. */
static int parse_record(const char *p, int *cols, int *rows)
{
    int plies = 0, used = 0;
    while (plies < RECORD_MAX && sscanf(p, "%d,%d%n", &cols[plies], &rows[plies], &used) == 2) {
        plies++;
        p += used;
    }
    return plies;
}

/* Every sixth position of each record from ply 8 up to ten plies before its
 * end: the middle games where the search decides. */
static int collect_records(ttt_game **positions)
{
    int count = 0;
    for (size_t g = 0; g < sizeof match_records / sizeof match_records[0]; g++) {
        int cols[RECORD_MAX], rows[RECORD_MAX];
        int plies = parse_record(match_records[g], cols, rows);
        for (int end = 8; end <= plies - 10 && count < MAX_POSITIONS; end += 6) {
            ttt_game *game = NULL;
            if (ttt_game_new(15, 5, &game) != TTT_OK)
                return -1;
            for (int i = 0; i < end; i++) {
                if (ttt_play_next(game, rows[i], cols[i], NULL) != TTT_OK) {
                    ttt_game_free(game);
                    return -1;
                }
            }
            positions[count++] = game;
        }
    }
    return count;
}

/*
 * The VCT search (src/threat.h) of the side to move, within budget nodes,
 * on every position of the count records from ply 8 on: how many it finds,
 * its nodes and its time. A VCT is a guide, not a proof, so the count is
 * what the search claims. Returns 0, or 1 if a call fails.
 */
static int bench_vct(const char *name, const char *const *records, size_t count,
                     uint64_t budget)
{
    int found = 0, positions = 0;
    uint64_t nodes = 0;
    double spent = 0;
    for (size_t g = 0; g < count; g++) {
        int cols[RECORD_MAX], rows[RECORD_MAX];
        int plies = parse_record(records[g], cols, rows);
        ttt_game *game = NULL;
        if (ttt_game_new(15, 5, &game) != TTT_OK)
            return 1;
        for (int ply = 1; ply <= plies; ply++) {
            if (ttt_play_next(game, rows[ply - 1], cols[ply - 1], NULL) != TTT_OK ||
                ttt_state(game) != TTT_IN_PROGRESS)
                break;
            if (ply < 8)
                continue;
            int8_t cells[15 * 15];
            size_t len = 0;
            if (ttt_board(game, cells, sizeof cells, &len) != TTT_OK) {
                ttt_game_free(game);
                return 1;
            }
            int32_t move = -1;
            uint64_t used_nodes = 0;
            double start = seconds();
            int status = ttt__threat_vct(game, 15, 15, 5, cells, ttt_to_move(game), budget,
                                         &move, &used_nodes);
            spent += seconds() - start;
            if (status < 0) {
                ttt_game_free(game);
                return 1;
            }
            found += status;
            nodes += used_nodes;
            positions++;
        }
        ttt_game_free(game);
    }
    printf("ttt-bench-bot vct, %s: %d positions, budget %llu: %d VCTs found, %llu nodes, "
           "%.3f s, %.0f nodes/s\n",
           name, positions, (unsigned long long)budget, found, (unsigned long long)nodes, spent,
           (double)nodes / spent);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t budget = argc > 1 ? strtoull(argv[1], NULL, 10) : 50000;
    int records = argc > 2 && strcmp(argv[2], "records") == 0;
    int vct = argc > 2 && strcmp(argv[2], "vct") == 0;
    int games = argc > 2 && !records && !vct ? atoi(argv[2]) : 6;
    if (budget == 0 || games <= 0 || games > 40) {
        fprintf(stderr, "usage: ttt-bench-bot [budget (50000)] [games 1..40 (6) | records | vct]\n");
        return 2;
    }
    if (vct)
        return bench_vct("bot as black", match_records,
                         sizeof match_records / sizeof match_records[0], budget) ||
               bench_vct("bot as white", white_records,
                         sizeof white_records / sizeof white_records[0], budget);
    ttt_game *positions[MAX_POSITIONS];
    int count = records ? collect_records(positions) : collect(games, positions);
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
