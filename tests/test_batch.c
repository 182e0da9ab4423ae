/* test_batch.c - ttt_batch against B single games played with the same actions and seeds: boards, rewards, flags, statuses, masks, observations, auto-reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttt.h"

#define MAX_GAMES 16
#define MAX_CELLS (15 * 15)

/* The test's own numbers (not the library's generator). */
static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

static ttt_batch_config make_config(int width, int height, int k)
{
    ttt_batch_config config;
    memset(&config, 0, sizeof config);
    config.size = sizeof config;
    config.width = width;
    config.height = height;
    config.win_length = k;
    config.opponent = TTT_BATCH_SELF_PLAY;
    return config;
}

/* One reference game: what the batch's game i must equal. */
typedef struct reference {
    ttt_game *game;
    uint64_t seed;
    int agent;
} reference;

static ttt_game *new_single(const ttt_batch_config *config)
{
    ttt_game *game = NULL;
    assert_int_equal(ttt_game_new_rect(config->width, config->height,
                                       config->win_length, &game), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_MISERE, config->misere), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_EARLY_DRAW, config->early_draw), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_GRAVITY, config->gravity), TTT_OK);
    assert_int_equal(ttt_game_set_rule(game, TTT_RULE_PLY_LIMIT, config->ply_limit), TTT_OK);
    return game;
}

static void reference_opponent(const ttt_batch_config *config, reference *ref)
{
    int row, col;
    if (ttt_best_move(ref->game, config->opponent, config->opponent_budget,
                      &ref->seed, &row, &col) != TTT_OK)
        assert_int_equal(ttt_random_move(ref->game, &ref->seed, &row, &col), TTT_OK);
    assert_int_equal(ttt_play_next(ref->game, row, col, NULL), TTT_OK);
}

static void reference_start(const ttt_batch_config *config, reference *ref,
                            int first)
{
    assert_int_equal(ttt_game_reset(ref->game), TTT_OK);
    if (config->opponent == TTT_BATCH_SELF_PLAY)
        return;
    ref->agent = config->agent ? config->agent : first ? TTT_X : -ref->agent;
    if (ref->agent == TTT_O)
        reference_opponent(config, ref);
}

static int reference_play(const ttt_batch_config *config, ttt_game *game,
                          int32_t action)
{
    if (config->gravity)
        return ttt_drop(game, action, NULL, NULL);
    if (action < 0 || action >= config->width * config->height)
        return TTT_E_OFF_BOARD;
    return ttt_play_next(game, action / config->width, action % config->width, NULL);
}

/* Whether some K-window of the board holds marks of at most one side. */
static int any_live_window(const ttt_game *game)
{
    int8_t cells[MAX_CELLS];
    size_t len = 0;
    assert_int_equal(ttt_board(game, cells, sizeof cells, &len), TTT_OK);
    int width = ttt_width(game), height = ttt_height(game), k = ttt_win_length(game);
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    for (int r = 0; r < height; r++)
        for (int c = 0; c < width; c++)
            for (int d = 0; d < 4; d++) {
                int er = r + dr[d] * (k - 1), ec = c + dc[d] * (k - 1);
                if (er < 0 || er >= height || ec < 0 || ec >= width)
                    continue;
                int x = 0, o = 0;
                for (int i = 0; i < k; i++) {
                    int8_t m = cells[(r + dr[d] * i) * width + c + dc[d] * i];
                    x |= m == TTT_X;
                    o |= m == TTT_O;
                }
                if (!(x && o))
                    return 1;
            }
    return 0;
}

/* The expected outputs of one reference step. */
typedef struct expected {
    float reward;
    uint8_t terminated, truncated;
    int32_t status, outcome;
} expected;

/* The planes ttt_batch_step_final writes for a game that ended: the
 * agent's marks first with an opponent, else those of the side that did
 * not move last. */
static void reference_final(const ttt_batch_config *config,
                            const reference *ref, uint8_t *planes)
{
    int8_t cells[MAX_CELLS];
    size_t len = 0;
    assert_int_equal(ttt_board(ref->game, cells, sizeof cells, &len), TTT_OK);
    int first = config->opponent != TTT_BATCH_SELF_PLAY ? ref->agent
                : ttt_ply(ref->game) % 2 == 0           ? TTT_X
                                                        : TTT_O;
    for (size_t c = 0; c < len; c++) {
        planes[c] = (uint8_t)(cells[c] == first);
        planes[len + c] = (uint8_t)(cells[c] == -first);
    }
}

/* One step of the reference game; want_final, unless NULL, receives the
 * final planes if the game ends; skipped, it stays as it is. */
static expected reference_step(const ttt_batch_config *config, reference *ref,
                               int32_t action, int skipped,
                               uint8_t *want_final)
{
    expected e = {0.0f, 0, 0, TTT_OK, TTT_IN_PROGRESS};
    if (skipped)
        return e;
    int mark = ttt_to_move(ref->game);
    e.status = reference_play(config, ref->game, action);
    if (e.status != TTT_OK && config->illegal == TTT_BATCH_ILLEGAL_REJECT)
        return e;
    if (e.status != TTT_OK)
        assert_int_equal(ttt_resign(ref->game, mark, NULL), TTT_OK);
    else if (config->opponent != TTT_BATCH_SELF_PLAY &&
             ttt_state(ref->game) == TTT_IN_PROGRESS)
        reference_opponent(config, ref);
    int state = ttt_state(ref->game);
    int ply = ttt_ply(ref->game);
    int cells = config->width * config->height;
    e.outcome = state;
    if (state == TTT_X_WON)
        e.reward = mark == TTT_X ? 1.0f : -1.0f;
    if (state == TTT_O_WON)
        e.reward = mark == TTT_O ? 1.0f : -1.0f;
    e.truncated = (uint8_t)(state == TTT_DRAW && config->ply_limit &&
                            ply == config->ply_limit && ply < cells &&
                            ttt_ending(ref->game) == TTT_END_PLY_LIMIT &&
                            !(config->early_draw && !any_live_window(ref->game)));
    e.terminated = (uint8_t)(state != TTT_IN_PROGRESS && !e.truncated);
    if (state != TTT_IN_PROGRESS && want_final)
        reference_final(config, ref, want_final);
    if (state != TTT_IN_PROGRESS)
        reference_start(config, ref, 0);
    return e;
}

/* The batch's game i has the reference's board, state, turn and moves;
 * its mask row equals ttt_legal_moves and its planes equal the board. */
static void check_game(const ttt_batch_config *config, const ttt_batch *batch,
                       size_t i, const ttt_game *single, const uint8_t *mask,
                       const uint8_t *planes_u8, const float *planes_f32)
{
    const ttt_game *game = NULL;
    assert_int_equal(ttt_batch_game(batch, i, &game), TTT_OK);
    int8_t a[MAX_CELLS], b[MAX_CELLS];
    size_t alen = 0, blen = 0;
    assert_int_equal(ttt_board(game, a, sizeof a, &alen), TTT_OK);
    assert_int_equal(ttt_board(single, b, sizeof b, &blen), TTT_OK);
    assert_int_equal(alen, blen);
    assert_memory_equal(a, b, alen);
    assert_int_equal(ttt_state(game), ttt_state(single));
    assert_int_equal(ttt_to_move(game), ttt_to_move(single));
    assert_int_equal(ttt_ply(game), ttt_ply(single));
    assert_int_equal(ttt_ending(game), ttt_ending(single));
    for (int ply = 0; ply < ttt_ply(single); ply++) {
        int m[2], r[2], c[2];
        assert_int_equal(ttt_move_at(game, ply, &m[0], &r[0], &c[0]), TTT_OK);
        assert_int_equal(ttt_move_at(single, ply, &m[1], &r[1], &c[1]), TTT_OK);
        assert_int_equal(m[0], m[1]);
        assert_int_equal(r[0], r[1]);
        assert_int_equal(c[0], c[1]);
    }

    int32_t legal[MAX_CELLS], batch_legal[MAX_CELLS];
    size_t legal_len = 0, batch_legal_len = 0;
    assert_int_equal(ttt_legal_moves(single, legal, MAX_CELLS, &legal_len), TTT_OK);
    /* The same list in the same order: the game's order[] is the single
     * game's too, which the random opponent draws from. */
    assert_int_equal(ttt_legal_moves(game, batch_legal, MAX_CELLS, &batch_legal_len),
                     TTT_OK);
    assert_int_equal(batch_legal_len, legal_len);
    assert_memory_equal(batch_legal, legal, legal_len * sizeof legal[0]);
    int actions = ttt_batch_action_count(batch);
    uint8_t want[MAX_CELLS] = {0};
    for (size_t m = 0; m < legal_len; m++)
        want[config->gravity ? legal[m] % config->width : legal[m]] = 1;
    assert_memory_equal(mask + i * (size_t)actions, want, (size_t)actions);

    int mover = ttt_to_move(single);
    size_t cells = alen;
    for (size_t c = 0; c < cells; c++) {
        uint8_t mine = (uint8_t)(b[c] == mover), theirs = (uint8_t)(b[c] == -mover);
        assert_int_equal(planes_u8[i * 2 * cells + c], mine);
        assert_int_equal(planes_u8[i * 2 * cells + cells + c], theirs);
        assert_true(planes_f32[i * 2 * cells + c] == (float)mine);
        assert_true(planes_f32[i * 2 * cells + cells + c] == (float)theirs);
    }
}

/* Plays `steps` steps of count games, mostly legal actions and some
 * random ones (illegal among them), on the batch and on single games, and
 * compares everything after every step. Every other step is
 * ttt_batch_step_final's, with a few games given TTT_BATCH_NO_ACTION, and
 * the final planes of the games that ended are compared too. Returns the
 * games that ended. */
static int differential(const ttt_batch_config *config, size_t count,
                        int steps, uint64_t seed)
{
    ttt_batch *batch = NULL;
    assert_int_equal(ttt_batch_new(config, count, NULL, &batch), TTT_OK);
    assert_int_equal(ttt_batch_seed(batch, seed), TTT_OK);
    assert_int_equal(ttt_batch_reset(batch), TTT_OK);
    reference refs[MAX_GAMES];
    for (size_t i = 0; i < count; i++) {
        refs[i].game = new_single(config);
        refs[i].seed = seed + (uint64_t)i * 0x9E3779B97F4A7C15u;
        refs[i].agent = 0;
        reference_start(config, &refs[i], 1);
    }
    size_t cells = (size_t)config->width * (size_t)config->height;
    size_t actions = (size_t)ttt_batch_action_count(batch);
    uint8_t *mask = malloc(count * actions);
    uint8_t *planes_u8 = malloc(count * 2 * cells);
    float *planes_f32 = malloc(count * 2 * cells * sizeof(float));
    uint8_t *final = malloc(count * 2 * cells);
    uint8_t want_final[2 * MAX_CELLS];
    assert_non_null(final);
    assert_non_null(mask);
    assert_non_null(planes_u8);
    assert_non_null(planes_f32);
    uint64_t rng = seed ^ 0x5555;
    int ended = 0;
    for (int step = 0; step <= steps; step++) {
        assert_int_equal(ttt_batch_legal_mask(batch, mask, count * actions), TTT_OK);
        assert_int_equal(ttt_batch_observe_u8(batch, planes_u8, count * 2 * cells), TTT_OK);
        assert_int_equal(ttt_batch_observe_f32(batch, planes_f32, count * 2 * cells), TTT_OK);
        for (size_t i = 0; i < count; i++)
            check_game(config, batch, i, refs[i].game, mask, planes_u8, planes_f32);
        if (step == steps)
            break;
        int32_t act[MAX_GAMES];
        uint8_t skip[MAX_GAMES];
        int with_final = step % 2 == 1;
        for (size_t i = 0; i < count; i++) {
            skip[i] = (uint8_t)(with_final && next_random(&rng) % 16 == 0);
            if (next_random(&rng) % 8 == 0) {
                act[i] = (int32_t)(next_random(&rng) % (actions + 4)) - 2;
            } else {
                int32_t legal[MAX_CELLS];
                size_t len = 0;
                assert_int_equal(ttt_legal_moves(refs[i].game, legal, MAX_CELLS, &len), TTT_OK);
                assert_true(len > 0);
                int32_t cell = legal[next_random(&rng) % len];
                act[i] = config->gravity ? cell % config->width : cell;
            }
        }
        float rewards[MAX_GAMES];
        uint8_t terminated[MAX_GAMES], truncated[MAX_GAMES];
        int32_t status[MAX_GAMES], outcome[MAX_GAMES];
        ttt_batch_outputs out = {sizeof out, rewards, terminated, truncated, status, outcome};
        if (with_final) {
            memset(final, 0xAA, count * 2 * cells);
            assert_int_equal(ttt_batch_step_final(batch, act, skip, &out, final,
                                                  count * 2 * cells),
                             TTT_OK);
        } else {
            assert_int_equal(ttt_batch_step(batch, act, &out), TTT_OK);
        }
        for (size_t i = 0; i < count; i++) {
            expected e = reference_step(config, &refs[i], act[i],
                                        with_final && skip[i],
                                        with_final ? want_final : NULL);
            assert_true(rewards[i] == e.reward);
            assert_int_equal(terminated[i], e.terminated);
            assert_int_equal(truncated[i], e.truncated);
            assert_int_equal(status[i], e.status);
            assert_int_equal(outcome[i], e.outcome);
            ended += outcome[i] != TTT_IN_PROGRESS;
            if (!with_final)
                continue;
            const uint8_t *got = final + i * 2 * cells;
            if (outcome[i] != TTT_IN_PROGRESS) {
                assert_memory_equal(got, want_final, 2 * cells);
            } else {
                for (size_t c = 0; c < 2 * cells; c++)
                    assert_int_equal(got[c], 0xAA); /* left as it was */
            }
        }
    }
    free(final);
    for (size_t i = 0; i < count; i++)
        ttt_game_free(refs[i].game);
    free(mask);
    free(planes_u8);
    free(planes_f32);
    ttt_batch_free(batch);
    return ended;
}

static void test_self_play_every_shape_and_rule(void **state)
{
    (void)state;
    ttt_batch_config c;
    c = make_config(3, 3, 3);
    assert_true(differential(&c, 8, 120, 1) > 20);
    c.misere = 1;
    assert_true(differential(&c, 8, 120, 2) > 20);
    c = make_config(3, 3, 3);
    c.early_draw = 1;
    assert_true(differential(&c, 8, 120, 3) > 20);
    c = make_config(4, 4, 3);
    c.ply_limit = 5;
    assert_true(differential(&c, 8, 100, 4) > 20);
    c = make_config(4, 4, 4);
    c.ply_limit = 9;
    c.early_draw = 1;
    assert_true(differential(&c, 8, 100, 5) > 10);
    c = make_config(7, 6, 4);
    c.gravity = 1;
    assert_true(differential(&c, 8, 200, 6) > 10);
    c.misere = 1;
    c.ply_limit = 12;
    assert_true(differential(&c, 8, 150, 7) > 10);
    c = make_config(5, 4, 4);
    c.gravity = 1;
    c.early_draw = 1;
    assert_true(differential(&c, 8, 150, 8) > 10);
    c = make_config(6, 3, 3);
    assert_true(differential(&c, 8, 100, 9) > 10);
    c = make_config(15, 15, 5);
    assert_true(differential(&c, 4, 300, 10) > 0);
}

static void test_illegal_lose_mode(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(3, 3, 3);
    c.illegal = TTT_BATCH_ILLEGAL_LOSE;
    assert_true(differential(&c, 8, 120, 11) > 20);
    c = make_config(7, 6, 4);
    c.gravity = 1;
    c.illegal = TTT_BATCH_ILLEGAL_LOSE;
    assert_true(differential(&c, 8, 120, 12) > 10);
}

static void test_opponents(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(3, 3, 3);
    c.opponent = TTT_BOT_RANDOM;
    assert_true(differential(&c, 8, 80, 13) > 10);
    c.agent = TTT_O;
    assert_true(differential(&c, 8, 80, 14) > 10);
    c.agent = 0;
    c.opponent = TTT_BOT_PERFECT;
    assert_true(differential(&c, 4, 60, 15) > 5);
    c.misere = 1;
    assert_true(differential(&c, 4, 60, 16) > 5);
    c = make_config(7, 6, 4);
    c.gravity = 1;
    c.opponent = TTT_BOT_STRONG;
    c.opponent_budget = 300;
    c.illegal = TTT_BATCH_ILLEGAL_LOSE;
    assert_true(differential(&c, 4, 60, 17) > 0);
    c = make_config(4, 4, 4);
    c.opponent = TTT_BOT_PERFECT;
    c.opponent_budget = 50; /* runs out: a random move instead */
    assert_true(differential(&c, 4, 40, 18) > 0);
}

/* Boards of up to 64 cells with self-play or the random opponent are kept
 * as bitboards (src/batch_bits.c); bigger ones, and the searching
 * opponents, as ttt_games. Many random games on the bit path's shapes, on
 * both sides of its 64-bit limit and with every rule, against single games
 * moved by the game's own calls: the same outputs, boards, move histories,
 * masks, observations and opponent moves. */
static void test_bit_path_against_single_games(void **state)
{
    (void)state;
    /* width, height, k, gravity, misere, early_draw, ply_limit, random
     * opponent, agent, illegal */
    static const int cases[][10] = {
        {3, 3, 3, 0, 0, 0, 0, 1, 0, 0},
        {3, 3, 3, 0, 1, 1, 0, 1, TTT_O, 1},
        {3, 3, 3, 0, 0, 0, 0, 0, 0, 0},   /* self-play: wins_3x3 alone */
        {3, 3, 3, 0, 1, 0, 7, 0, 0, 1},
        {4, 4, 3, 0, 0, 1, 11, 1, 0, 1},
        {4, 4, 4, 0, 1, 0, 0, 0, 0, 0},
        {7, 6, 4, 1, 0, 0, 0, 1, 0, 0},
        {7, 6, 4, 1, 0, 1, 30, 1, TTT_X, 1},
        {7, 6, 4, 1, 1, 0, 0, 0, 0, 1},
        {7, 6, 6, 0, 0, 1, 0, 0, 0, 0},   /* diagonals just fit */
        {7, 6, 7, 1, 0, 0, 0, 0, 0, 0},   /* only rows fit */
        {7, 8, 4, 0, 0, 0, 40, 1, 0, 0},  /* 8 * 8 = 64 bits: the last fit */
        {8, 7, 5, 1, 0, 0, 0, 1, 0, 1},   /* 7 * 9 = 63 bits */
        {8, 8, 4, 0, 0, 1, 0, 1, 0, 0},   /* 72 bits: the general path */
        {12, 3, 5, 0, 0, 1, 0, 1, 0, 0},  /* only rows fit; rows of 12 */
        {3, 12, 4, 1, 1, 0, 0, 1, TTT_O, 0}, /* only columns fit */
        {15, 4, 15, 0, 0, 0, 0, 1, 0, 1}, /* 64 bits, no line before full */
        {5, 5, 4, 1, 1, 1, 16, 1, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int *t = cases[i];
        ttt_batch_config c = make_config(t[0], t[1], t[2]);
        c.gravity = t[3];
        c.misere = t[4];
        c.early_draw = t[5];
        c.ply_limit = t[6];
        c.opponent = t[7] ? TTT_BOT_RANDOM : TTT_BATCH_SELF_PLAY;
        c.agent = t[8];
        c.illegal = t[9];
        int ended = differential(&c, MAX_GAMES, 250, 100 + i);
        assert_true(ended >= 2 * MAX_GAMES);
    }
}

/* Rewards and flags by rule, on move lists whose results are known. */
static void play_list(const ttt_batch_config *c, const int32_t *moves, int len,
                      float reward, int terminated, int truncated, int outcome)
{
    ttt_batch *batch = NULL;
    assert_int_equal(ttt_batch_new(c, 1, NULL, &batch), TTT_OK);
    float r = 9.0f;
    uint8_t term = 9, trunc = 9;
    int32_t status = 9, out_state = 9;
    ttt_batch_outputs out = {sizeof out, &r, &term, &trunc, &status, &out_state};
    for (int m = 0; m < len; m++) {
        assert_int_equal(ttt_batch_step(batch, &moves[m], &out), TTT_OK);
        assert_int_equal(status, TTT_OK);
        if (m < len - 1) {
            assert_true(r == 0.0f);
            assert_int_equal(term, 0);
            assert_int_equal(trunc, 0);
            assert_int_equal(out_state, TTT_IN_PROGRESS);
        }
    }
    assert_true(r == reward);
    assert_int_equal(term, terminated);
    assert_int_equal(trunc, truncated);
    assert_int_equal(out_state, outcome);
    const ttt_game *game = NULL;
    assert_int_equal(ttt_batch_game(batch, 0, &game), TTT_OK);
    assert_int_equal(ttt_ply(game), 0); /* reset at once */
    ttt_batch_free(batch);
}

static void test_rewards_and_flags_by_rule(void **state)
{
    (void)state;
    const int32_t x_row[] = {0, 3, 1, 4, 2};
    const int32_t o_row[] = {0, 3, 1, 4, 8, 5};
    ttt_batch_config c = make_config(3, 3, 3);
    play_list(&c, x_row, 5, 1.0f, 1, 0, TTT_X_WON);
    play_list(&c, o_row, 6, 1.0f, 1, 0, TTT_O_WON);
    c.misere = 1; /* completing a line loses */
    play_list(&c, x_row, 5, -1.0f, 1, 0, TTT_O_WON);
    play_list(&c, o_row, 6, -1.0f, 1, 0, TTT_X_WON);
    c = make_config(3, 3, 3);
    const int32_t draw[] = {0, 1, 2, 4, 3, 5, 7, 6, 8};
    play_list(&c, draw, 9, 0.0f, 1, 0, TTT_DRAW);
    c.ply_limit = 4;
    play_list(&c, draw, 4, 0.0f, 0, 1, TTT_DRAW);
    c.ply_limit = 5; /* a line on the limit's move wins */
    play_list(&c, x_row, 5, 1.0f, 1, 0, TTT_X_WON);
    c.ply_limit = 9; /* the full board: no limit */
    play_list(&c, draw, 9, 0.0f, 1, 0, TTT_DRAW);
    c = make_config(7, 6, 4);
    c.gravity = 1;
    const int32_t drops[] = {3, 4, 3, 4, 3, 4, 3};
    play_list(&c, drops, 7, 1.0f, 1, 0, TTT_X_WON);
}

/* An early draw on the ply limit's move is an ending by the rules, not a
 * truncation; the same moves without early draw are truncated. */
static void test_early_draw_on_the_limit(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(3, 3, 3);
    c.early_draw = 1;
    uint64_t rng = 77;
    int32_t moves[9];
    int len = 0;
    for (int tries = 0; tries < 1000 && len == 0; tries++) {
        ttt_game *game = new_single(&c);
        int ply = 0;
        while (ttt_state(game) == TTT_IN_PROGRESS) {
            int32_t legal[9];
            size_t count = 0;
            assert_int_equal(ttt_legal_moves(game, legal, 9, &count), TTT_OK);
            moves[ply] = legal[next_random(&rng) % count];
            assert_int_equal(reference_play(&c, game, moves[ply]), TTT_OK);
            ply++;
        }
        if (ttt_state(game) == TTT_DRAW && ply < 9)
            len = ply;
        ttt_game_free(game);
    }
    assert_true(len > 0);
    c.ply_limit = len;
    play_list(&c, moves, len, 0.0f, 1, 0, TTT_DRAW);
    c.early_draw = 0;
    play_list(&c, moves, len, 0.0f, 0, 1, TTT_DRAW);
}

static void test_illegal_reject_keeps_game(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(7, 6, 4);
    c.gravity = 1;
    ttt_batch *batch = NULL;
    assert_int_equal(ttt_batch_new(&c, 2, NULL, &batch), TTT_OK);
    int32_t status[2];
    float rewards[2];
    ttt_batch_outputs out = {sizeof out, rewards, NULL, NULL, status, NULL};
    for (int m = 0; m < 6; m++) {
        int32_t act[2] = {0, 1};
        assert_int_equal(ttt_batch_step(batch, act, &out), TTT_OK);
    }
    int32_t act[2] = {0, 7};
    assert_int_equal(ttt_batch_step(batch, act, &out), TTT_OK);
    assert_int_equal(status[0], TTT_E_COLUMN_FULL);
    assert_int_equal(status[1], TTT_E_OFF_BOARD);
    const ttt_game *game = NULL;
    assert_int_equal(ttt_batch_game(batch, 0, &game), TTT_OK);
    assert_int_equal(ttt_ply(game), 6);
    uint8_t mask[14];
    assert_int_equal(ttt_batch_legal_mask(batch, mask, 14), TTT_OK);
    assert_int_equal(mask[0], 0);
    assert_int_equal(mask[1], 1);
    assert_int_equal(mask[7 + 1], 0);
    ttt_batch_free(batch);

    c = make_config(3, 3, 3);
    assert_int_equal(ttt_batch_new(&c, 2, NULL, &batch), TTT_OK);
    int32_t first[2] = {4, 4};
    assert_int_equal(ttt_batch_step(batch, first, &out), TTT_OK);
    int32_t again[2] = {4, 9};
    assert_int_equal(ttt_batch_step(batch, again, &out), TTT_OK);
    assert_int_equal(status[0], TTT_E_OCCUPIED);
    assert_int_equal(status[1], TTT_E_OFF_BOARD);
    assert_true(rewards[0] == 0.0f);
    ttt_batch_free(batch);
}

static void test_set_moves(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(3, 3, 3);
    c.opponent = TTT_BOT_PERFECT;
    ttt_batch *batch = NULL;
    assert_int_equal(ttt_batch_new(&c, 3, NULL, &batch), TTT_OK);
    const int32_t moves[] = {4, 0, 8};
    assert_int_equal(ttt_batch_set_moves(batch, 1, moves, 3), TTT_OK);
    const ttt_game *game = NULL;
    assert_int_equal(ttt_batch_game(batch, 1, &game), TTT_OK);
    int8_t cells[9];
    size_t len = 0;
    assert_int_equal(ttt_board(game, cells, 9, &len), TTT_OK);
    const int8_t want[9] = {TTT_O, 0, 0, 0, TTT_X, 0, 0, 0, TTT_X};
    assert_memory_equal(cells, want, 9);
    assert_int_equal(ttt_to_move(game), TTT_O); /* the agent plays O here */
    /* A rejected list changes nothing. */
    const int32_t occupied[] = {4, 4};
    assert_int_equal(ttt_batch_set_moves(batch, 1, occupied, 2), TTT_E_OCCUPIED);
    const int32_t won[] = {0, 3, 1, 4, 2};
    assert_int_equal(ttt_batch_set_moves(batch, 1, won, 5), TTT_E_GAME_OVER);
    const int32_t past_end[] = {0, 3, 1, 4, 2, 5};
    assert_int_equal(ttt_batch_set_moves(batch, 1, past_end, 6), TTT_E_GAME_OVER);
    const int32_t off[] = {9};
    assert_int_equal(ttt_batch_set_moves(batch, 1, off, 1), TTT_E_OFF_BOARD);
    assert_int_equal(ttt_board(game, cells, 9, &len), TTT_OK);
    assert_memory_equal(cells, want, 9);
    assert_int_equal(ttt_batch_set_moves(batch, 3, moves, 3), TTT_E_RANGE);
    assert_int_equal(ttt_batch_set_moves(batch, 0, NULL, 1), TTT_E_INVALID);
    assert_int_equal(ttt_batch_set_moves(batch, 0, NULL, 0), TTT_OK);
    /* Game 1's agent (O) plays 2, then the perfect bot answers as X. */
    int32_t act[3] = {4, 2, 4};
    assert_int_equal(ttt_batch_step(batch, act, NULL), TTT_OK);
    assert_int_equal(ttt_ply(game), 5);
    ttt_batch_free(batch);
}

static void test_caller_memory_and_bad_arguments(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(7, 6, 4);
    c.gravity = 1;
    size_t bytes = ttt_batch_footprint(&c, 5);
    assert_true(bytes > 5 * ttt_game_footprint_rect(7, 6, 4));
    void *mem = malloc(bytes);
    assert_non_null(mem);
    ttt_batch *batch = (ttt_batch *)(uintptr_t)0x1;
    assert_int_equal(ttt_batch_init(mem, bytes - 1, &c, 5, &batch), TTT_E_BUFFER);
    assert_int_equal(ttt_batch_init((char *)mem + 1, bytes - 1, &c, 5, &batch), TTT_E_INVALID);
    assert_ptr_equal(batch, (ttt_batch *)(uintptr_t)0x1);
    assert_int_equal(ttt_batch_init(mem, bytes, &c, 5, &batch), TTT_OK);
    assert_int_equal(ttt_batch_count(batch), 5);
    assert_int_equal(ttt_batch_action_count(batch), 7);
    int32_t act[5] = {0, 1, 2, 3, 4};
    assert_int_equal(ttt_batch_step(batch, act, NULL), TTT_OK);
    assert_int_equal(ttt_batch_step(batch, NULL, NULL), TTT_E_INVALID);
    ttt_batch_outputs small = {sizeof small - 1, NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(ttt_batch_step(batch, act, &small), TTT_E_INVALID);
    uint8_t planes[5 * 2 * 42];
    assert_int_equal(ttt_batch_observe_u8(batch, planes, sizeof planes - 1), TTT_E_BUFFER);
    assert_int_equal(ttt_batch_observe_u8(batch, NULL, 0), TTT_E_INVALID);
    uint8_t mask[35];
    assert_int_equal(ttt_batch_legal_mask(batch, mask, 34), TTT_E_BUFFER);
    const ttt_game *game = NULL;
    assert_int_equal(ttt_batch_game(batch, 5, &game), TTT_E_RANGE);
    ttt_batch_free(batch);
    free(mem);

    assert_int_equal(ttt_batch_count(NULL), 0);
    assert_int_equal(ttt_batch_action_count(NULL), 0);
    ttt_batch_free(NULL);
    assert_int_equal(ttt_batch_new(&c, 0, NULL, &batch), TTT_E_INVALID);
    assert_int_equal(ttt_batch_new(NULL, 1, NULL, &batch), TTT_E_INVALID);
    assert_int_equal(ttt_batch_footprint(&c, 0), 0);
    ttt_batch_config bad = c;
    bad.size = sizeof bad - 1;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_INVALID);
    bad = c;
    bad.width = 2;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_SIZE);
    assert_int_equal(ttt_batch_footprint(&bad, 1), 0);
    bad = c;
    bad.misere = 2;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_RULE);
    bad = c;
    bad.ply_limit = 43;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_RULE);
    bad = c;
    bad.opponent = 3;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_INVALID);
    bad = c;
    bad.agent = 2;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_INVALID);
    bad = c;
    bad.illegal = 2;
    assert_int_equal(ttt_batch_new(&bad, 1, NULL, &batch), TTT_E_INVALID);
    assert_int_equal(ttt_batch_footprint(&c, SIZE_MAX / 2), 0);
    assert_int_equal(ttt_batch_new(&c, SIZE_MAX / 2, NULL, &batch), TTT_E_NOMEM);
    assert_int_equal(ttt_batch_seed(NULL, 1), TTT_E_INVALID);
    assert_int_equal(ttt_batch_reset(NULL), TTT_E_INVALID);
}

/* The same seed gives the same games: two batches with a random opponent
 * and random agents' moves agree step for step. */
static void test_seeded_reproducible(void **state)
{
    (void)state;
    ttt_batch_config c = make_config(7, 6, 4);
    c.gravity = 1;
    c.opponent = TTT_BOT_RANDOM;
    ttt_batch *a = NULL, *b = NULL;
    assert_int_equal(ttt_batch_new(&c, 16, NULL, &a), TTT_OK);
    assert_int_equal(ttt_batch_new(&c, 16, NULL, &b), TTT_OK);
    assert_int_equal(ttt_batch_seed(a, 99), TTT_OK);
    assert_int_equal(ttt_batch_seed(b, 99), TTT_OK);
    assert_int_equal(ttt_batch_reset(a), TTT_OK);
    assert_int_equal(ttt_batch_reset(b), TTT_OK);
    uint8_t pa[16 * 84], pb[16 * 84];
    int differs_from_start = 0;
    for (int step = 0; step < 100; step++) {
        int32_t act[16];
        for (int i = 0; i < 16; i++)
            act[i] = (step * 3 + i) % 7;
        assert_int_equal(ttt_batch_step(a, act, NULL), TTT_OK);
        assert_int_equal(ttt_batch_step(b, act, NULL), TTT_OK);
        assert_int_equal(ttt_batch_observe_u8(a, pa, sizeof pa), TTT_OK);
        assert_int_equal(ttt_batch_observe_u8(b, pb, sizeof pb), TTT_OK);
        assert_memory_equal(pa, pb, sizeof pa);
        differs_from_start |= memcmp(pa, pa + 84, 84) != 0;
    }
    assert_true(differs_from_start);
    ttt_batch_free(a);
    ttt_batch_free(b);
}

/* Random action arrays, in and out of range, on every shape: the call
 * never fails and every status is OK or a move's error. */
static void test_fuzz_random_actions(void **state)
{
    (void)state;
    const int shapes[][5] = {{3, 3, 3, 0, 0}, {7, 6, 4, 1, 0}, {5, 5, 4, 0, 1},
                             {4, 6, 3, 1, 1}, {15, 15, 5, 0, 0}};
    uint64_t rng = 2024;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        ttt_batch_config c = make_config(shapes[s][0], shapes[s][1], shapes[s][2]);
        c.gravity = shapes[s][3];
        c.early_draw = shapes[s][4];
        c.illegal = (int32_t)(s % 2);
        c.opponent = s == 2 ? TTT_BOT_RANDOM : TTT_BATCH_SELF_PLAY;
        ttt_batch *batch = NULL;
        assert_int_equal(ttt_batch_new(&c, MAX_GAMES, NULL, &batch), TTT_OK);
        for (int step = 0; step < 400; step++) {
            int32_t act[MAX_GAMES];
            for (int i = 0; i < MAX_GAMES; i++)
            {
                uint64_t r = next_random(&rng);
                act[i] = (r & 1) ? (int32_t)(r % 300) - 20
                                 : (int32_t)(uint32_t)(r << 1);
            }
            int32_t status[MAX_GAMES];
            uint8_t term[MAX_GAMES], trunc[MAX_GAMES];
            ttt_batch_outputs out = {sizeof out, NULL, term, trunc, status, NULL};
            assert_int_equal(ttt_batch_step(batch, act, &out), TTT_OK);
            for (int i = 0; i < MAX_GAMES; i++) {
                assert_true(status[i] == TTT_OK || status[i] == TTT_E_OFF_BOARD ||
                            status[i] == TTT_E_OCCUPIED || status[i] == TTT_E_COLUMN_FULL);
                assert_false(term[i] && trunc[i]);
                const ttt_game *game = NULL;
                assert_int_equal(ttt_batch_game(batch, (size_t)i, &game), TTT_OK);
                assert_int_equal(ttt_state(game), TTT_IN_PROGRESS);
            }
        }
        ttt_batch_free(batch);
    }
}

/* An allocator that hands out nothing and records what it was asked for:
 * ttt_batch_new must never ask for fewer bytes than its games need. */
static size_t asked_bytes;
static void *refuse_alloc(void *user, size_t size)
{
    (void)user;
    asked_bytes = size;
    return NULL;
}
static void refuse_dealloc(void *user, void *ptr)
{
    (void)user;
    (void)ptr;
}

/* The least a batch of count games can take, as the header documents it:
 * count + 1 games, each rounded up to malloc's alignment, and 9 bytes a
 * game (its seed and agent mark); 0 if that does not fit in size_t.
 * Checked by division, so the test itself cannot wrap. */
static size_t least_bytes(size_t count, size_t game)
{
    size_t align = _Alignof(max_align_t);
    size_t slot = (game + align - 1) / align * align;
    if (count == SIZE_MAX || slot > SIZE_MAX / (count + 1))
        return 0;
    size_t slots = (count + 1) * slot;
    if (count > (SIZE_MAX - slots) / 9)
        return 0;
    return slots + 9 * count;
}

/* The footprint of count games is 0, or at least what they need; 0
 * whenever what they need does not fit. */
static int footprint_holds(size_t bytes, size_t count, size_t game)
{
    size_t least = least_bytes(count, game);
    return least == 0 ? bytes == 0 : bytes == 0 || bytes >= least;
}

/* The footprint never wraps: near every point where the block's sum or
 * product passes SIZE_MAX (for whatever size_t this build has), it is 0
 * or holds every game, and ttt_batch_new asks for no less. On i386 a
 * 978x980 batch of 559 games once got 5,463 bytes and wrote 560 games of
 * 7.6 MB into them. */
static void test_footprint_never_wraps(void **state)
{
    (void)state;
    static const int shapes[][4] = {
        {3, 3, 3, 0}, {7, 6, 4, 1}, {4, 4, 3, 0}, {15, 15, 5, 0},
        {978, 980, 3, 0}, {1024, 1024, 0, 0}, {1024, 3, 3, 1},
    };
    const ttt_allocator refuse = {refuse_alloc, refuse_dealloc, NULL};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        ttt_batch_config c = make_config(shapes[s][0], shapes[s][1], shapes[s][2]);
        c.gravity = shapes[s][3];
        size_t game = ttt_game_footprint_rect(c.width, c.height, c.win_length);
        assert_true(game > 0);
        /* Counts around SIZE_MAX divided by the slot's size and by the
         * slot plus each game's extra bytes (seed, mark, bit game), and
         * around every power of two. */
        size_t divisors[] = {1, 2, 9, 16, 256, game, game + 16, game + 9,
                             game + 9 + 24 + 3 * game / 8,
                             (game + 15) / 16 * 16 + 9,
                             (game + 15) / 16 * 16 + 9 + 512};
        size_t counts[400];
        size_t n = 0;
        for (size_t d = 0; d < sizeof divisors / sizeof divisors[0]; d++) {
            for (int delta = -4; delta <= 4; delta++)
                counts[n++] = SIZE_MAX / divisors[d] + (size_t)(ptrdiff_t)delta;
        }
        for (unsigned bit = 0; bit < sizeof(size_t) * 8 && n + 3 <= 400; bit++) {
            size_t p = (size_t)1 << bit;
            counts[n++] = p - 1;
            counts[n++] = p;
            counts[n++] = p + 1;
        }
        for (size_t i = 0; i < n; i++) {
            size_t count = counts[i];
            if (count == 0)
                continue;
            size_t bytes = ttt_batch_footprint(&c, count);
            if (!footprint_holds(bytes, count, game))
                fail_msg("%dx%d: %zu games got a footprint of %zu bytes",
                         c.width, c.height, count, bytes);
            /* Only counts whose games could fit are worth an allocation
             * attempt; the rest must be refused before it. */
            asked_bytes = 0;
            ttt_batch *batch = NULL;
            assert_int_equal(ttt_batch_new(&c, count, &refuse, &batch), TTT_E_NOMEM);
            assert_true(asked_bytes == 0 || asked_bytes == bytes);
            assert_true(footprint_holds(asked_bytes, count, game));
        }
    }
    /* The cases, on any size_t. */
    ttt_batch_config c = make_config(3, 3, 3);
    assert_int_equal(ttt_batch_footprint(&c, SIZE_MAX / 256 - 1), 0);
    c = make_config(978, 980, 3);
    size_t bytes = ttt_batch_footprint(&c, 559);
    size_t game = ttt_game_footprint_rect(978, 980, 3);
    if (least_bytes(559, game) == 0)
        assert_int_equal(bytes, 0); /* 32 bits: 560 slots of 7.6 MB do not fit */
    else
        assert_true(bytes >= least_bytes(559, game));
}

/* A ply limit of 1 where the opponent may open (the agent O, or
 * alternating) would end a game before the agent acts: refused. With the
 * agent X the agent's one move ends each game, truncated. */
static void test_ply_limit_one_with_an_opponent(void **state)
{
    (void)state;
    static const int opponents[] = {TTT_BOT_RANDOM, TTT_BOT_STRONG, TTT_BOT_PERFECT};
    for (size_t o = 0; o < 3; o++) {
        for (int gravity = 0; gravity <= 1; gravity++) {
            ttt_batch_config c = make_config(gravity ? 7 : 3, gravity ? 6 : 3,
                                             gravity ? 4 : 3);
            c.gravity = gravity;
            c.ply_limit = 1;
            c.opponent = opponents[o];
            ttt_batch *batch = NULL;
            c.agent = TTT_O;
            assert_int_equal(ttt_batch_new(&c, 2, NULL, &batch), TTT_E_RULE);
            assert_int_equal(ttt_batch_footprint(&c, 2), 0);
            c.agent = 0;
            assert_int_equal(ttt_batch_new(&c, 2, NULL, &batch), TTT_E_RULE);
            assert_int_equal(ttt_batch_footprint(&c, 2), 0);
            assert_null(batch);

            c.agent = TTT_X;
            c.illegal = TTT_BATCH_ILLEGAL_LOSE;
            assert_int_equal(ttt_batch_new(&c, 2, NULL, &batch), TTT_OK);
            uint8_t mask[2 * 9 * 7];
            assert_int_equal(ttt_batch_legal_mask(batch, mask, sizeof mask), TTT_OK);
            assert_int_equal(mask[0], 1); /* the game shown is not over */
            int32_t act[2] = {0, 1};
            float reward[2];
            uint8_t terminated[2], truncated[2];
            int32_t status[2];
            ttt_batch_outputs out = {sizeof out, reward, terminated, truncated,
                                     status, NULL};
            assert_int_equal(ttt_batch_step(batch, act, &out), TTT_OK);
            for (int i = 0; i < 2; i++) {
                assert_int_equal(status[i], TTT_OK);
                assert_int_equal(terminated[i], 0);
                assert_int_equal(truncated[i], 1);
                assert_true(reward[i] == 0.0f);
                const ttt_game *game = NULL;
                assert_int_equal(ttt_batch_game(batch, (size_t)i, &game), TTT_OK);
                assert_int_equal(ttt_ply(game), 0); /* reset for the next */
            }
            ttt_batch_free(batch);
        }
    }
}

/* ttt_batch_step_final's refusals change nothing; skip and final may be
 * NULL, and a skipped game ignores even an illegal action. */
static void test_step_final_arguments(void **state)
{
    (void)state;
    ttt_batch_config config = make_config(3, 3, 3);
    config.illegal = TTT_BATCH_ILLEGAL_LOSE;
    ttt_batch *batch = NULL;
    assert_int_equal(ttt_batch_new(&config, 2, NULL, &batch), TTT_OK);
    int32_t act[2] = {4, -7};
    uint8_t skip[2] = {0, 1};
    uint8_t final[36], planes[36];
    int32_t status[2];
    uint8_t terminated[2];
    ttt_batch_outputs out = {sizeof out, NULL, terminated, NULL, status, NULL};
    assert_int_equal(ttt_batch_step_final(NULL, act, skip, &out, final, 36), TTT_E_INVALID);
    assert_int_equal(ttt_batch_step_final(batch, NULL, skip, &out, final, 36), TTT_E_INVALID);
    assert_int_equal(ttt_batch_step_final(batch, act, skip, &out, final, 35), TTT_E_BUFFER);
    assert_int_equal(ttt_batch_observe_u8(batch, planes, 36), TTT_OK);
    for (size_t c = 0; c < 36; c++)
        assert_int_equal(planes[c], 0); /* refused: nothing played */
    act[1] = 2;
    assert_int_equal(ttt_batch_step_final(batch, act, NULL, &out, NULL, 0), TTT_OK);
    assert_int_equal(status[0], TTT_OK);
    assert_int_equal(status[1], TTT_OK);
    act[1] = -7; /* illegal, and in LOSE mode: but skipped */
    assert_int_equal(ttt_batch_step_final(batch, act, skip, &out, NULL, 0), TTT_OK);
    assert_int_equal(status[0], TTT_E_OCCUPIED);
    assert_int_equal(terminated[0], 1); /* lost and reset */
    assert_int_equal(status[1], TTT_OK);
    assert_int_equal(terminated[1], 0);
    assert_int_equal(ttt_batch_observe_u8(batch, planes, 36), TTT_OK);
    for (size_t c = 0; c < 18; c++)
        assert_int_equal(planes[c], 0); /* game 0 started anew */
    assert_int_equal(planes[18 + 2], 0); /* game 1: X on c1, O to move */
    assert_int_equal(planes[18 + 9 + 2], 1);
    ttt_batch_free(batch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_play_every_shape_and_rule),
        cmocka_unit_test(test_illegal_lose_mode),
        cmocka_unit_test(test_bit_path_against_single_games),
        cmocka_unit_test(test_opponents),
        cmocka_unit_test(test_rewards_and_flags_by_rule),
        cmocka_unit_test(test_early_draw_on_the_limit),
        cmocka_unit_test(test_illegal_reject_keeps_game),
        cmocka_unit_test(test_set_moves),
        cmocka_unit_test(test_caller_memory_and_bad_arguments),
        cmocka_unit_test(test_seeded_reproducible),
        cmocka_unit_test(test_fuzz_random_actions),
        cmocka_unit_test(test_footprint_never_wraps),
        cmocka_unit_test(test_ply_limit_one_with_an_opponent),
        cmocka_unit_test(test_step_final_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
