/* brain.c - the ttt program: `ttt brain`, a Gomocup (piskvork) protocol brain on standard input and output. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Gomoku: five in a row (or more: freestyle) wins. */
#define BRAIN_K 5
/* Boards from 5 x 5 (where five fit) up to the library's largest. */
#define BRAIN_MIN_SIZE BRAIN_K
/* Commands are short; a BOARD line is "x,y,f". Longer lines are refused
 * whole (the rest is read and dropped), as the protocol allows. */
#define LINE_CAP 256
/* The time limit per move when the manager sends no INFO timeout_turn. */
#define DEFAULT_TIMEOUT_TURN_MS 5000
/* The share of the per-move limit spent searching. The node budget only
 * estimates the time (a position with many marks near each other costs
 * more per node than the one the speed was last measured on), so a margin
 * stays; the speed follows each move's measure, down at once. */
#define THINK_SHARE 0.7
/* With a match clock, at most this fraction of the time left per move. */
#define TIME_LEFT_SHARE 0.05
/* Node budgets: below the floor the bot still blocks and wins in one and
 * answers within a millisecond or two; the ceiling keeps a wrong speed
 * estimate from meaning hours. */
#define BUDGET_FLOOR UINT64_C(500)
#define BUDGET_CEILING UINT64_C(200000000)
/* The rule bits of INFO rule. */
#define RULE_EXACT_FIVE 1
#define RULE_CONTINUOUS 2
#define RULE_RENJU 4
#define RULE_CARO 8

/* One stone of a BOARD command. */
struct stone {
    int x, y, who;
};

struct brain {
    ttt_game *game;   /* NULL until START */
    int size;
    int own;          /* the brain's mark, TTT_EMPTY until a game starts */
    long timeout_turn;  /* ms per move; 0: as fast as possible */
    long timeout_match; /* ms per game; 0: no limit */
    long time_left;     /* ms left in the game; -1: not told */
    double nodes_per_ms;  /* the strong bot's measured speed */
    uint64_t seed;
    /* BOARD ... DONE in progress */
    int in_board;
    const char *board_error; /* the first problem among its lines */
    struct stone *stones;
    size_t stone_count, stone_cap;
};

/* Writes one line and flushes it: the manager waits for it. */
static void answer(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* Parses a whole decimal number lo..hi from text (leading and trailing
 * blanks allowed). Returns 0, or -1. */
static int parse_number(const char *text, long lo, long hi, long *out)
{
    char *end;
    long v;

    while (*text == ' ' || *text == '\t')
        text++;
    if (!isdigit((unsigned char)*text) && *text != '-')
        return -1;
    errno = 0;
    v = strtol(text, &end, 10);
    if (errno != 0 || end == text || v < lo || v > hi)
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* Splits "a,b" or "a,b,c" (count numbers, blanks allowed around them) into
 * numbers in lo..hi. Returns 0, or -1. */
static int parse_tuple(const char *text, int count, long lo, long hi,
                       long *out)
{
    char part[LINE_CAP];

    for (int i = 0; i < count; i++) {
        const char *comma = strchr(text, ',');
        size_t len = comma != NULL ? (size_t)(comma - text) : strlen(text);

        if ((i < count - 1) != (comma != NULL) || len >= sizeof part)
            return -1;
        memcpy(part, text, len);
        part[len] = '\0';
        if (parse_number(part, lo, hi, &out[i]) != 0)
            return -1;
        text += len + (comma != NULL);
    }
    return 0;
}

/* Parses "x,y" into a cell of the board. Returns 0, or -1. */
static int parse_cell(const struct brain *b, const char *text, int *x, int *y)
{
    long v[2];

    if (parse_tuple(text, 2, 0, b->size - 1, v) != 0)
        return -1;
    *x = (int)v[0];
    *y = (int)v[1];
    return 0;
}

/* Measures the strong bot's speed on an opening position of this board,
 * three stones at the centre and no threat, where a node costs about the
 * most (later positions with forced moves cost less). */
static void calibrate(struct brain *b)
{
    static const int offsets[][2] = {{0, 0}, {1, 1}, {0, 1}};
    const uint64_t budget = 30000;
    ttt_game *g = NULL;
    int row, col, c = b->size / 2;

    b->nodes_per_ms = 1000.0; /* a cautious guess if the measure fails */
    if (ttt_game_clone(b->game, &g) != TTT_OK)
        return;
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        int r = c + offsets[i][0], k = c + offsets[i][1];
        if (r >= 0 && r < b->size && k >= 0 && k < b->size &&
            ttt_state(g) == TTT_IN_PROGRESS)
            ttt_play_next(g, r, k, NULL);
    }
    if (ttt_state(g) == TTT_IN_PROGRESS) {
        double start = now_ms();
        if (ttt_best_move(g, TTT_BOT_STRONG, budget, NULL, &row, &col) ==
            TTT_OK) {
            double spent = now_ms() - start;
            b->nodes_per_ms = (double)budget / (spent > 0.5 ? spent : 0.5);
        }
    }
    ttt_game_free(g);
}

/* The node budget for the next move, from the limits the manager gave. */
static uint64_t node_budget(const struct brain *b)
{
    double think_ms, nodes;

    if (b->timeout_turn == 0)
        return BUDGET_FLOOR; /* "as fast as possible" */
    think_ms = (double)b->timeout_turn * THINK_SHARE;
    if (b->timeout_match > 0 && b->time_left >= 0 &&
        (double)b->time_left * TIME_LEFT_SHARE < think_ms)
        think_ms = (double)b->time_left * TIME_LEFT_SHARE;
    nodes = think_ms * b->nodes_per_ms;
    if (nodes < (double)BUDGET_FLOOR)
        return BUDGET_FLOOR;
    if (nodes > (double)BUDGET_CEILING)
        return BUDGET_CEILING;
    return (uint64_t)nodes;
}

/* Chooses, plays and announces the brain's move; the brain must be to
 * move. The bot first; should it fail, any legal move. */
static void move_and_answer(struct brain *b)
{
    uint64_t budget = node_budget(b);
    double start = now_ms(), spent;
    int row = 0, col = 0, status;

    if (ttt_state(b->game) != TTT_IN_PROGRESS) {
        answer("ERROR the game is over: no move to make");
        return;
    }
    if (ttt_ply(b->game) == 0) {
        /* The opening move needs no search, and the empty board is the
         * slowest to search per node. */
        row = col = b->size / 2;
        status = ttt_play(b->game, b->own, row, col, NULL);
        if (status == TTT_OK)
            answer("%d,%d", col, row);
        else
            answer("ERROR no move: %s", ttt_strerror(status));
        return;
    }
    status = ttt_best_move(b->game, TTT_BOT_STRONG, budget, &b->seed, &row,
                           &col);
    spent = now_ms() - start;
    if (status == TTT_OK && spent >= 20.0) {
        /* Follow the speed of the positions being played: down at once
         * (the time limit is at stake), up slowly. */
        double measured = (double)budget / spent;
        b->nodes_per_ms = measured < b->nodes_per_ms
                              ? measured
                              : 0.75 * b->nodes_per_ms + 0.25 * measured;
    }
    if (status != TTT_OK)
        status = ttt_random_move(b->game, &b->seed, &row, &col);
    if (status == TTT_OK)
        status = ttt_play(b->game, b->own, row, col, NULL);
    if (status != TTT_OK) {
        answer("ERROR no move: %s", ttt_strerror(status));
        return;
    }
    answer("%d,%d", col, row);
}

/* START size (and RECTSTART with equal sides). */
static void start_game(struct brain *b, long size)
{
    ttt_game *g = NULL;
    int status;

    if (size < BRAIN_MIN_SIZE || size > TTT_MAX_SIZE) {
        answer("ERROR unsupported size: boards are %d..%d", BRAIN_MIN_SIZE,
               TTT_MAX_SIZE);
        return;
    }
    status = ttt_game_new((int)size, BRAIN_K, &g);
    if (status != TTT_OK) {
        answer("ERROR cannot make the board: %s", ttt_strerror(status));
        return;
    }
    ttt_game_free(b->game);
    b->game = g;
    b->size = (int)size;
    b->own = TTT_EMPTY;
    calibrate(b);
    answer("OK");
}

/* Plays the stones of both sides on an empty board, alternating from the
 * first player, X: xs X stones and os O stones, xs == os or xs == os + 1.
 * Returns a problem, or NULL. */
static const char *replay_stones(struct brain *b, const struct stone *list,
                                 size_t count, int x_who)
{
    size_t next[2] = {0, 0}; /* the next stone of X, of O to look at */

    ttt_game_reset(b->game);
    for (size_t placed = 0; placed < count; placed++) {
        int want = placed % 2 == 0 ? x_who : 3 - x_who;
        size_t *i = &next[placed % 2];
        int status;

        while (*i < count && list[*i].who != want)
            (*i)++;
        if (*i == count)
            return "the stone counts do not alternate";
        status = ttt_play_next(b->game, list[*i].y, list[*i].x, NULL);
        if (status == TTT_E_OCCUPIED)
            return "a cell is given twice";
        if (status == TTT_E_GAME_OVER)
            return "the position already holds five in a row";
        if (status != TTT_OK)
            return ttt_strerror(status);
        (*i)++;
    }
    if (ttt_state(b->game) != TTT_IN_PROGRESS)
        return "the position already holds five in a row or is full";
    return NULL;
}

/* Rebuilds the game from stones marked 1 (the brain's) and 2 (the
 * opponent's), with the brain to move. Returns a problem, or NULL; on a
 * problem the board is left empty. */
static const char *set_position(struct brain *b, const struct stone *list,
                                size_t count)
{
    size_t own = 0, other = 0;
    const char *problem;

    for (size_t i = 0; i < count; i++) {
        if (list[i].who == 1)
            own++;
        else
            other++;
    }
    /* The first player moves at even plies: equal counts make the brain
     * the first player, one stone fewer the second. */
    if (own == other)
        b->own = TTT_X;
    else if (own + 1 == other)
        b->own = TTT_O;
    else {
        ttt_game_reset(b->game);
        b->own = TTT_EMPTY;
        return "the brain cannot be to move with these stone counts";
    }
    problem = replay_stones(b, list, count, b->own == TTT_X ? 1 : 2);
    if (problem != NULL) {
        ttt_game_reset(b->game);
        b->own = TTT_EMPTY;
    }
    return problem;
}

static void board_line(struct brain *b, const char *line)
{
    long v[3];

    if (b->board_error != NULL)
        return;
    if (parse_tuple(line, 3, 0, LONG_MAX, v) != 0 || v[0] >= b->size ||
        v[1] >= b->size || v[2] < 1 || v[2] > 3) {
        b->board_error = "a BOARD line is not x,y,1|2|3 on the board";
        return;
    }
    if (v[2] == 3) {
        b->board_error = "continuous games (field 3) are not supported";
        return;
    }
    if (b->stone_count == (size_t)b->size * (size_t)b->size) {
        b->board_error = "more stones than cells";
        return;
    }
    if (b->stone_count == b->stone_cap) {
        size_t cap = b->stone_cap ? b->stone_cap * 2 : 64;
        struct stone *grown = realloc(b->stones, cap * sizeof *grown);
        if (grown == NULL) {
            b->board_error = "out of memory";
            return;
        }
        b->stones = grown;
        b->stone_cap = cap;
    }
    b->stones[b->stone_count].x = (int)v[0];
    b->stones[b->stone_count].y = (int)v[1];
    b->stones[b->stone_count].who = (int)v[2];
    b->stone_count++;
}

static void board_done(struct brain *b)
{
    const char *problem = b->board_error;

    b->in_board = 0;
    if (problem == NULL)
        problem = set_position(b, b->stones, b->stone_count);
    if (problem != NULL)
        answer("ERROR BOARD: %s", problem);
    else
        move_and_answer(b);
}

/* TAKEBACK x,y: removes that stone, which must be the last one of the
 * side that moved last (any such stone after a BOARD, whose order is
 * free). */
static void takeback(struct brain *b, int x, int y)
{
    int plies = ttt_ply(b->game), mark = TTT_EMPTY, row, col;
    struct stone *list;
    size_t count = 0;
    const char *problem;
    ttt_game *saved = NULL;

    ttt_cell(b->game, y, x, &mark);
    if (mark == TTT_EMPTY) {
        answer("ERROR TAKEBACK: %d,%d is empty", x, y);
        return;
    }
    ttt_move_at(b->game, plies - 1, &mark, &row, &col);
    if (row == y && col == x) {
        ttt_undo(b->game);
        answer("OK");
        return;
    }
    /* Rebuild without it, the brain's stones as 1, once the counts show
     * that the two sides still alternate; a copy of the game is kept to
     * put back should the rebuild fail. */
    list = malloc((size_t)plies * sizeof *list);
    if (list == NULL || ttt_game_clone(b->game, &saved) != TTT_OK) {
        free(list);
        answer("ERROR TAKEBACK: out of memory");
        return;
    }
    for (int p = 0; p < plies; p++) {
        ttt_move_at(b->game, p, &mark, &row, &col);
        if (row == y && col == x)
            continue;
        list[count].x = col;
        list[count].y = row;
        list[count].who = mark == b->own ? 1 : 2;
        count++;
    }
    {
        size_t own_count = 0, x_count, o_count;
        for (size_t i = 0; i < count; i++)
            own_count += list[i].who == 1;
        x_count = b->own == TTT_X ? own_count : count - own_count;
        o_count = count - x_count;
        if (x_count != o_count && x_count != o_count + 1) {
            free(list);
            ttt_game_free(saved);
            answer("ERROR TAKEBACK: %d,%d was not played by the side that "
                   "moved last", x, y);
            return;
        }
    }
    problem = replay_stones(b, list, count, b->own == TTT_X ? 1 : 2);
    free(list);
    if (problem != NULL) {
        ttt_game_free(b->game);
        b->game = saved;
        answer("ERROR TAKEBACK: %s", problem);
    } else {
        ttt_game_free(saved);
        answer("OK");
    }
}

static void info(struct brain *b, const char *args)
{
    char key[32];
    size_t len = strcspn(args, " \t");
    const char *value = args + len;
    long v;

    if (len == 0 || len >= sizeof key) {
        answer("ERROR INFO needs a key and a value");
        return;
    }
    memcpy(key, args, len);
    key[len] = '\0';
    for (size_t i = 0; i < len; i++)
        key[i] = (char)tolower((unsigned char)key[i]);

    if (strcmp(key, "timeout_turn") == 0 || strcmp(key, "timeout_match") == 0 ||
        strcmp(key, "time_left") == 0) {
        if (parse_number(value, 0, LONG_MAX, &v) != 0) {
            answer("ERROR INFO %s needs milliseconds, 0 or more", key);
            return;
        }
        if (strcmp(key, "timeout_turn") == 0)
            b->timeout_turn = v;
        else if (strcmp(key, "timeout_match") == 0)
            b->timeout_match = v;
        else
            b->time_left = v;
    } else if (strcmp(key, "max_memory") == 0 ||
               strcmp(key, "game_type") == 0) {
        /* The bot needs a few hundred bytes a cell, whatever the limit,
         * and plays the same against anyone. */
        if (parse_number(value, 0, LONG_MAX, &v) != 0)
            answer("ERROR INFO %s needs a number, 0 or more", key);
    } else if (strcmp(key, "rule") == 0) {
        if (parse_number(value, 0, LONG_MAX, &v) != 0) {
            answer("ERROR INFO rule needs a number (bits: 1 exact five, 2 "
                   "continuous, 4 renju, 8 caro)");
            return;
        }
        if (v & (RULE_RENJU | RULE_CARO))
            answer("MESSAGE renju and caro rules are not supported: the "
                   "brain plays freestyle (five or more in a row wins)");
        else if (v & RULE_EXACT_FIVE)
            answer("MESSAGE exact five is not supported: the brain counts "
                   "overlines as wins (freestyle)");
        if (v & RULE_CONTINUOUS)
            answer("MESSAGE continuous games are not supported: one game "
                   "at a time");
    }
    /* Other keys (evaluate, folder, later ones) need nothing from a brain
     * and the protocol asks it to ignore what it does not know. */
}

/* Gives the command word of line (upper case, at most cap - 1 bytes) and
 * where its arguments start. */
static const char *command_word(const char *line, char *word, size_t cap)
{
    size_t len = strcspn(line, " \t");
    const char *args = line + len;

    if (len >= cap)
        len = cap - 1;
    for (size_t i = 0; i < len; i++)
        word[i] = (char)toupper((unsigned char)line[i]);
    word[len] = '\0';
    while (*args == ' ' || *args == '\t')
        args++;
    return args;
}

/* Does one command line. Returns 1 after END, else 0. */
static int command(struct brain *b, const char *line)
{
    char word[16];
    const char *args = command_word(line, word, sizeof word);
    long v[2];
    int x, y, status;

    if (b->in_board) {
        if (strcmp(word, "DONE") == 0 && *args == '\0') {
            board_done(b);
            return 0;
        }
        if (isdigit((unsigned char)line[0]) || line[0] == '-') {
            board_line(b, line);
            return 0;
        }
        /* A command in the middle: the manager gave up on the BOARD. */
        b->in_board = 0;
        answer("ERROR BOARD ended without DONE");
    }

    if (strcmp(word, "END") == 0)
        return 1;
    if (strcmp(word, "ABOUT") == 0) {
        answer("name=\"libttt\", version=\"%s\", author=\"The libttt "
               "authors\", country=\"-\", www=\"-\"",
               ttt_version_string());
        return 0;
    }
    if (strcmp(word, "INFO") == 0) {
        info(b, args);
        return 0;
    }
    if (strcmp(word, "START") == 0) {
        if (parse_number(args, LONG_MIN, LONG_MAX, &v[0]) != 0)
            answer("ERROR START needs a board size");
        else
            start_game(b, v[0]);
        return 0;
    }
    if (strcmp(word, "RECTSTART") == 0) {
        if (parse_tuple(args, 2, 0, LONG_MAX, v) != 0)
            answer("ERROR RECTSTART needs width,height");
        else if (v[0] != v[1])
            answer("ERROR rectangular boards are not supported");
        else
            start_game(b, v[0]);
        return 0;
    }
    if (strcmp(word, "RESTART") == 0 || strcmp(word, "BEGIN") == 0 ||
        strcmp(word, "TURN") == 0 || strcmp(word, "BOARD") == 0 ||
        strcmp(word, "TAKEBACK") == 0 || strcmp(word, "PLAY") == 0) {
        if (b->game == NULL) {
            answer("ERROR no board yet: START comes first");
            return 0;
        }
    } else {
        answer("UNKNOWN command '%.40s'", word);
        return 0;
    }

    if (strcmp(word, "RESTART") == 0) {
        ttt_game_reset(b->game);
        b->own = TTT_EMPTY;
        answer("OK");
    } else if (strcmp(word, "BEGIN") == 0) {
        if (ttt_ply(b->game) != 0) {
            answer("ERROR BEGIN needs an empty board (RESTART first)");
            return 0;
        }
        b->own = TTT_X;
        move_and_answer(b);
    } else if (strcmp(word, "TURN") == 0) {
        if (parse_cell(b, args, &x, &y) != 0) {
            answer("ERROR TURN needs x,y on the board (0..%d)", b->size - 1);
            return 0;
        }
        if (ttt_ply(b->game) == 0)
            b->own = TTT_O; /* the opponent opened */
        if (ttt_to_move(b->game) == b->own) {
            answer("ERROR TURN: the opponent is not to move");
            return 0;
        }
        status = ttt_play_next(b->game, y, x, NULL);
        if (status != TTT_OK) {
            answer("ERROR TURN %d,%d: %s", x, y, ttt_strerror(status));
            return 0;
        }
        move_and_answer(b);
    } else if (strcmp(word, "BOARD") == 0) {
        b->in_board = 1;
        b->board_error = *args != '\0' ? "BOARD takes no arguments" : NULL;
        b->stone_count = 0;
    } else if (strcmp(word, "TAKEBACK") == 0) {
        if (parse_cell(b, args, &x, &y) != 0)
            answer("ERROR TAKEBACK needs x,y on the board (0..%d)",
                   b->size - 1);
        else
            takeback(b, x, y);
    } else { /* PLAY x,y: the manager makes the brain's move for it */
        if (parse_cell(b, args, &x, &y) != 0) {
            answer("ERROR PLAY needs x,y on the board (0..%d)", b->size - 1);
            return 0;
        }
        if (b->own == TTT_EMPTY || ttt_to_move(b->game) != b->own) {
            answer("ERROR PLAY: the brain is not to move");
            return 0;
        }
        status = ttt_play_next(b->game, y, x, NULL);
        if (status != TTT_OK)
            answer("ERROR PLAY %d,%d: %s", x, y, ttt_strerror(status));
        else
            answer("%d,%d", x, y);
    }
    return 0;
}

int cmd_brain(int argc, char **argv)
{
    struct brain b;
    char line[LINE_CAP] = {0}; /* all defined, for the analyzers */
    size_t len = 0;
    int too_long = 0, has_nul = 0, done = 0;

    if (argc > 0 && (strcmp(argv[0], "--help") == 0 ||
                     strcmp(argv[0], "-h") == 0)) {
        print_command_help("brain", stdout);
        return 0;
    }
    if (argc > 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr, "ttt: brain: unexpected argument '%s'\n", shown_text(argv[0], shown));
        return usage_error("brain");
    }
    memset(&b, 0, sizeof b);
    b.own = TTT_EMPTY;
    b.timeout_turn = DEFAULT_TIMEOUT_TURN_MS;
    b.time_left = -1;
    b.seed = 1;

    /* Lines end in CR LF, LF or CR; the empty lines between are skipped. */
    while (!done) {
        int c = getchar();
        if (c != EOF && c != '\n' && c != '\r') {
            if (c == '\0')
                has_nul = 1;
            if (len < sizeof line - 1)
                line[len++] = (char)c;
            else
                too_long = 1;
            continue;
        }
        line[len] = '\0';
        /* Blanks at the ends are not part of the command. */
        while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        if (too_long) {
            if (b.in_board)
                b.board_error = "a BOARD line is too long";
            else
                answer("ERROR line longer than %d bytes", LINE_CAP - 1);
        } else if (has_nul) {
            if (b.in_board)
                b.board_error = "a BOARD line holds a NUL byte";
            else
                answer("ERROR the line holds a NUL byte");
        } else {
            const char *text = line;
            while (*text == ' ' || *text == '\t')
                text++;
            if (*text != '\0')
                done = command(&b, text);
        }
        len = 0;
        too_long = has_nul = 0;
        if (c == EOF)
            break;
    }
    if (b.in_board && !done) /* the manager went away mid-BOARD */
        answer("ERROR BOARD ended without DONE");
    ttt_game_free(b.game);
    free(b.stones);
    return 0;
}
