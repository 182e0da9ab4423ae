/* commands.c - the ttt program: the commands (play, replay, perft, solve, match) and main. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"

static int cmd_play(int argc, char **argv)
{
    struct options o = default_options();
    struct session s;
    int npos, status, computer_failed = 0;

    o.player[1] = PLAYER_PERFECT;
    if (parse_options("play",
                      OPT_RULES | OPT_BOARD | OPT_PLAYERS | OPT_NAMES |
                          OPT_SAVE | OPT_PRESET,
                      argc, argv, &o, &npos) != 0)
        return usage_error("play");
    if (o.preset != NULL && !o.player_given[1])
        o.player[1] = o.preset->opponent;
    if (o.help) {
        print_command_help("play", stdout);
        return 0;
    }
    if (npos > 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr, "ttt: play: unexpected argument '%s'\n", shown_text(argv[0], shown));
        return usage_error("play");
    }
    if (o.save_path != NULL) {
        const char *why = "";
        if (check_writable(o.save_path, &why) != 0) {
            char shown[SHOWN_PATH_CAP];
            fprintf(stderr, "ttt: play: --save: cannot write %s: %s\n",
                    shown_path(o.save_path, shown), why);
            return EXIT_USAGE;
        }
    }
    memset(&s, 0, sizeof s);
    if ((status = make_game(&o, &s.game)) != 0)
        return status;
    if ((status = set_names(s.game, o.name[0], o.name[1])) != 0) {
        ttt_game_free(s.game);
        return status;
    }
    s.player[0] = o.player[0];
    s.player[1] = o.player[1];
    s.engine.seed = o.seed;
    s.engine.bot_budget = o.budget;
    s.engine.perfect_budget = o.perfect_budget;
    s.engine.notes = stdout; /* part of the game's transcript */
    s.interactive = isatty(STDIN_FILENO);

    if (s.interactive)
        printf("%dx%d board, %d in a row%s%s%s; X: %s, O: %s. Type help for "
               "the commands.\n",
               ttt_width(s.game), ttt_height(s.game), ttt_win_length(s.game),
               o.misere ? ", misere: completing a line loses" : "",
               o.early_draw ? ", early draw" : "",
               o.gravity ? ", gravity: type a column letter to drop a mark" : "",
               player_kind_name(s.player[0]), player_kind_name(s.player[1]));

    while (ttt_state(s.game) == TTT_IN_PROGRESS) {
        enum player_kind kind = s.player[side_index(ttt_to_move(s.game))];
        if (kind == PLAYER_HUMAN) {
            if (human_turn(&s))
                break;
        } else if (computer_turn(&s, kind) != TTT_OK) {
            computer_failed = 1; /* exit status 1, as for a match */
            break;
        }
    }

    if (o.save_path != NULL) {
        const char *why = "";
        char shown[SHOWN_PATH_CAP];
        shown_path(o.save_path, shown);
        if (save_record(s.game, o.save_path, &why) == 0) {
            printf("saved %d moves to %s\n", ttt_ply(s.game), shown);
        } else {
            fprintf(stderr, "ttt: play: cannot save %s: %s\n", shown, why);
            computer_failed = 1; /* exit status 1: the record is lost */
        }
    }
    putchar('\n');
    print_board(s.game);
    print_outcome(s.game);
    printf("result: %s\n", result_text(ttt_state(s.game)));
    ttt_game_free(s.game);
    return computer_failed ? 1 : 0;
}

/* Reads a whole file of at most max bytes into a malloc'd buffer. Returns
 * 0, or -1 with errno (EFBIG for a longer file, after reading max + 1
 * bytes of it and no more). */
static int read_file(const char *path, size_t max, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;

    if (f == NULL)
        return -1;
    for (;;) {
        if (n == cap) {
            /* Room for max + 1 bytes at most: one past the limit tells a
             * file of exactly max bytes from a longer one. */
            size_t grown_cap = cap ? cap * 2 : 4096;
            if (grown_cap > max + 1)
                grown_cap = max + 1;
            char *grown = realloc(buf, grown_cap);
            if (grown == NULL) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return -1;
            }
            buf = grown;
            cap = grown_cap;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n > max) {
            free(buf);
            fclose(f);
            errno = EFBIG;
            return -1;
        }
        if (n < cap)
            break; /* end of file or an error, told apart below */
    }
    if (ferror(f)) {
        int saved = errno ? errno : EIO;
        free(buf);
        fclose(f);
        errno = saved;
        return -1;
    }
    fclose(f);
    *text = buf;
    *len = n;
    return 0;
}

static int cmd_replay(int argc, char **argv)
{
    char name[NAME_CAP], rules[64], shown[SHOWN_PATH_CAP];
    char *text = NULL;
    size_t len = 0, offset = 0;
    ttt_game *g = NULL;
    int status, plies;

    if (argc == 1 && (strcmp(argv[0], "--help") == 0 ||
                      strcmp(argv[0], "-h") == 0)) {
        print_command_help("replay", stdout);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "ttt: replay needs exactly one FILE\n");
        return usage_error("replay");
    }
    shown_path(argv[0], shown);
    if (read_file(argv[0], RECORD_CAP, &text, &len) != 0) {
        if (errno == EFBIG)
            fprintf(stderr,
                    "ttt: %s: larger than 8 MiB (%zu bytes); no saved game "
                    "is that long\n",
                    shown, RECORD_CAP);
        else
            fprintf(stderr, "ttt: cannot read %s: %s\n", shown, strerror(errno));
        return EXIT_USAGE;
    }
    status = ttt_game_load(text, len, NULL, &g, &offset);
    if (status != TTT_OK) {
        /* What the record needed there: the library says it. */
        fprintf(stderr, "ttt: %s: byte %zu: %s; expected %s\n", shown, offset,
                ttt_strerror(status), ttt_game_load_expected(text, len));
        free(text);
        return EXIT_USAGE;
    }
    free(text);

    plies = ttt_ply(g);
    printf("%dx%d board, %d in a row, rules %s, %d moves\n", ttt_width(g),
           ttt_height(g), ttt_win_length(g),
           rules_text(g, rules, sizeof rules), plies);

    {
        char x_name[TTT_NAME_MAX + 1], o_name[TTT_NAME_MAX + 1];
        size_t x_len = 0, o_len = 0;
        ttt_game_get_name(g, TTT_X, x_name, sizeof x_name, &x_len);
        ttt_game_get_name(g, TTT_O, o_name, sizeof o_name, &o_len);
        if (x_len > 0 || o_len > 0) /* older records have none: no line */
            printf("X: %s, O: %s\n", x_len ? x_name : "-", o_len ? o_name : "-");
    }

    /* Walk back to the start, then forward one move at a time: the loaded
     * game's own undo and redo give every position. */
    while (ttt_undo(g) == TTT_OK)
        ;
    printf("\nply 0: start\n");
    print_board(g);
    for (int p = 1; p <= plies && ttt_redo(g) == TTT_OK; p++) {
        int mark = TTT_EMPTY, row = 0, col = 0;
        ttt_move_at(g, p - 1, &mark, &row, &col);
        printf("\nply %d: %c %s\n", p, mark_char(mark), cell_name(row, col, name));
        print_board(g);
    }
    /* A resignation or an agreed draw comes back last, after the moves. */
    while (ttt_redo(g) == TTT_OK)
        ;
    print_outcome(g);
    printf("result: %s\n", result_text(ttt_state(g)));
    ttt_game_free(g);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Engine commands: perft, solve, match                                      */
/* ------------------------------------------------------------------------ */

/* Sets up the position perft and solve work on: the board from SIZE and K
 * (into o), or from --game when size is NULL, then the named moves played
 * in turn from X. Returns 0, or the exit status after reporting the
 * problem. */
static int setup_position(const char *cmd, const char *size, const char *k,
                          char **moves, int move_count, struct options *o,
                          ttt_game **g)
{
    int status;

    if (size != NULL && parse_board_size(size, &o->width, &o->height) != 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr,
                "ttt: %s: SIZE '%s' is not a board size (N, or WxH: width x "
                "height, e.g. 7x6)\n", cmd, shown_text(size, shown));
        return usage_error(cmd);
    }
    if (k != NULL && parse_long(k, 1, INT_MAX, &o->k) != 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr, "ttt: %s: K '%s' is not a line length\n", cmd, shown_text(k, shown));
        return usage_error(cmd);
    }
    if ((status = make_game(o, g)) != 0)
        return status;
    for (int i = 0; i < move_count; i++) {
        int row = 0, col = 0, column = 0;

        status = play_move_text(*g, moves[i], &row, &col);
        if (status != TTT_OK) {
            char cell[NAME_CAP], shown[SHOWN_CAP];
            fprintf(stderr, "ttt: %s: move %d, '%s': %s", cmd, i + 1,
                    shown_text(moves[i], shown), ttt_strerror(status));
            if (status == TTT_E_FLOATING)
                fprintf(stderr, " (a mark in this column lands on %s)",
                        cell_name(landing_row(*g, col), col, cell));
            else if (status == TTT_E_PARSE && parse_column(moves[i], &column) == 0)
                fprintf(stderr, " (a column letter alone is a move only "
                                "under --gravity)");
            fputc('\n', stderr);
            ttt_game_free(*g);
            *g = NULL;
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Whether arg reads as a board size: given --game, perft and solve would
 * take it as SIZE, and say that --game already sets the board. */
static int clashes_with_game(const char *cmd, const struct options *o,
                             const char *arg)
{
    long w, h;

    if (o->preset == NULL || arg == NULL || parse_board_size(arg, &w, &h) != 0)
        return 0;
    fprintf(stderr, "ttt: %s: --game %s sets the board and K; give no SIZE K "
                    "with it\n", cmd, o->preset->name);
    return 1;
}

static int cmd_perft(int argc, char **argv)
{
    struct options o = default_options();
    uint64_t counts[4];
    uint64_t *by_length;
    size_t capacity, len = 0;
    long depth;
    ttt_game *g = NULL;
    int npos, status, empty, board_args;

    if (parse_options("perft", OPT_RULES | OPT_PRESET, argc, argv, &o,
                      &npos) != 0)
        return usage_error("perft");
    if (o.help) {
        print_command_help("perft", stdout);
        return 0;
    }
    /* With --game the arguments are DEPTH [MOVES]: a move is never a
     * number, so a number after DEPTH means SIZE K DEPTH was given too. */
    board_args = o.preset != NULL ? 0 : 2;
    if (o.preset != NULL && npos >= 2 &&
        clashes_with_game("perft", &o, argv[1]))
        return usage_error("perft");
    if (npos < board_args + 1) {
        fprintf(stderr, "ttt: perft needs %s\n",
                o.preset != NULL ? "DEPTH" : "SIZE K DEPTH");
        return usage_error("perft");
    }
    if (parse_long(argv[board_args], 0, INT_MAX, &depth) != 0) {
        char shown[SHOWN_CAP];
        if (!clashes_with_game("perft", &o, argv[0]))
            fprintf(stderr, "ttt: perft: DEPTH '%s' is not a number of plies\n",
                    shown_text(argv[board_args], shown));
        return usage_error("perft");
    }
    if ((status = setup_position("perft", board_args ? argv[0] : NULL,
                                 board_args ? argv[1] : NULL,
                                 argv + board_args + 1,
                                 npos - board_args - 1, &o, &g)) != 0)
        return status;

    /* Games end by the time the board is full, so lengths stop there. */
    empty = ttt_width(g) * ttt_height(g) - ttt_ply(g);
    capacity = (size_t)(depth < empty ? depth : empty) + 1;
    by_length = malloc(capacity * sizeof *by_length);
    status = by_length == NULL ? TTT_E_NOMEM
                               : ttt_perft(g, (int)depth, 0, counts, by_length,
                                           capacity, &len);
    ttt_game_free(g);
    if (status != TTT_OK) {
        fprintf(stderr, "ttt: perft: %s\n", ttt_strerror(status));
        free(by_length);
        return EXIT_FAILURE;
    }
    printf("x_won=%" PRIu64 " o_won=%" PRIu64 " draw=%" PRIu64
           " open=%" PRIu64 "\n",
           counts[TTT_X_WON], counts[TTT_O_WON], counts[TTT_DRAW],
           counts[TTT_IN_PROGRESS]);
    for (size_t i = 0; i < len; i++)
        if (by_length[i] != 0)
            printf("len %zu %" PRIu64 "\n", i, by_length[i]);
    free(by_length);
    return 0;
}

static int cmd_solve(int argc, char **argv)
{
    struct options o = default_options();
    ttt_solution sol;
    int32_t *best;
    size_t cells, best_len = 0;
    ttt_game *g = NULL;
    int npos, status, width, complete, board_args, interrupted = 0;

    if (parse_options("solve", OPT_RULES | OPT_SOLVE | OPT_PRESET, argc, argv,
                      &o, &npos) != 0)
        return usage_error("solve");
    if (o.help) {
        print_command_help("solve", stdout);
        return 0;
    }
    /* With --game the arguments are the MOVES alone. */
    board_args = o.preset != NULL ? 0 : 2;
    if (o.preset != NULL && npos >= 1 &&
        clashes_with_game("solve", &o, argv[0]))
        return usage_error("solve");
    if (npos < board_args) {
        fprintf(stderr, "ttt: solve needs SIZE K\n");
        return usage_error("solve");
    }
    if ((status = setup_position("solve", board_args ? argv[0] : NULL,
                                 board_args ? argv[1] : NULL,
                                 argv + board_args, npos - board_args, &o,
                                 &g)) != 0)
        return status;

    width = ttt_width(g);
    /* enough for every optimal move */
    cells = (size_t)width * (size_t)ttt_height(g);
    best = malloc(cells * sizeof *best);
    memset(&sol, 0, sizeof sol);
    sol.size = sizeof sol;
    status = best == NULL
                 ? TTT_E_NOMEM
                 : solve_watched(g, o.budget,
                                 o.value_only ? TTT_SOLVE_VALUE_ONLY : 0, &sol,
                                 best, cells, &best_len, &interrupted);
    if (status != TTT_OK && status != TTT_E_BUDGET) {
        fprintf(stderr, "ttt: solve: %s\n", ttt_strerror(status));
        ttt_game_free(g);
        free(best);
        return EXIT_FAILURE;
    }

    /* Out of budget, the value may still be known (only the second pass
     * missing), but best then holds a guess: print no moves. */
    complete = status == TTT_OK && !o.value_only;
    printf("value=%s",
           sol.value_min == sol.value_max ? value_name(sol.value) : "unknown");
    if (complete)
        printf(" plies=%" PRId32, sol.plies);
    else
        printf(" plies=-");
    printf(" best=");
    if (!complete || best_len == 0)
        putchar('-');
    for (size_t i = 0; complete && i < best_len; i++) {
        char name[NAME_CAP];
        printf("%s%s", i > 0 ? "," : "",
               cell_name((int)(best[i] / width), (int)(best[i] % width),
                         name));
    }
    printf(" nodes=%" PRIu64 "\n", sol.nodes);

    if (interrupted)
        fprintf(stderr,
                "ttt: solve: interrupted after %" PRIu64 " positions; the "
                "value lies between %s and %s\n",
                sol.nodes, value_name(sol.value_min), value_name(sol.value_max));
    else if (status == TTT_E_BUDGET)
        fprintf(stderr,
                "ttt: solve: the budget of %" PRIu64 " nodes ran out; the "
                "value lies between %s and %s\n",
                o.budget, value_name(sol.value_min), value_name(sol.value_max));
    ttt_game_free(g);
    free(best);
    return status == TTT_OK ? 0 : EXIT_FAILURE;
}

/* The two players of a match: kind and name, by player (not colour). */
struct match_players {
    enum player_kind kind[2];
    char name[2][TTT_NAME_MAX + 1];
};

/* Names the players: the given names, else their kinds ("bot", or "bot-1"
 * and "bot-2" for two of a kind). Returns 0, or the exit status after
 * reporting names that are the same, which would merge the scores. */
static int name_players(const struct options *o, struct match_players *p)
{
    int same_kind = o->player[0] == o->player[1];

    for (int i = 0; i < 2; i++) {
        p->kind[i] = o->player[i];
        if (o->name[i] != NULL)
            snprintf(p->name[i], sizeof p->name[i], "%s", o->name[i]);
        else if (same_kind)
            snprintf(p->name[i], sizeof p->name[i], "%s-%d",
                     player_kind_name(o->player[i]), i + 1);
        else
            snprintf(p->name[i], sizeof p->name[i], "%s",
                     player_kind_name(o->player[i]));
    }
    if (strcmp(p->name[0], p->name[1]) == 0) {
        fprintf(stderr, "ttt: match: both players are named '%s'; the names "
                        "must differ\n", p->name[0]);
        return EXIT_USAGE;
    }
    return 0;
}

/* The file game number of a match is saved in under dir, malloc'd (the
 * whole name, however long dir is), or NULL if memory ran out. */
static char *record_path(const char *dir, long number)
{
    size_t cap = strlen(dir) + sizeof "/game-.ttt" + 20; /* 20: any long */
    char *path = malloc(cap);

    if (path != NULL)
        snprintf(path, cap, "%s/game-%ld.ttt", dir, number);
    return path;
}

/* Plays one game of a match on g, reset, with player first_player moving
 * first (as X), the names in the game; saves its record as
 * DIR/game-<number>.ttt if record_dir is set. Returns a library status, or
 * TTT_E_INVALID after reporting a record that could not be saved. */
static int match_game(ttt_game *g, struct engine *e,
                      const struct match_players *p, int first_player,
                      const char *record_dir, long number)
{
    int status = ttt_game_reset(g);
    const char *x_name = p->name[first_player];
    const char *o_name = p->name[1 - first_player];

    if (status == TTT_OK)
        status = ttt_game_set_name(g, TTT_X, x_name, strlen(x_name));
    if (status == TTT_OK)
        status = ttt_game_set_name(g, TTT_O, o_name, strlen(o_name));
    while (status == TTT_OK && ttt_state(g) == TTT_IN_PROGRESS) {
        int row = 0, col = 0;
        int mover = side_index(ttt_to_move(g)); /* 0: X */
        enum player_kind kind = p->kind[mover == 0 ? first_player : 1 - first_player];
        status = computer_move(e, g, kind, &row, &col);
        if (status == TTT_OK)
            status = ttt_play(g, ttt_to_move(g), row, col, NULL);
    }
    if (status == TTT_OK && record_dir != NULL) {
        char *path = record_path(record_dir, number);
        const char *why = "";
        if (path == NULL)
            return TTT_E_NOMEM;
        if (save_record(g, path, &why) != 0) {
            char shown[SHOWN_PATH_CAP];
            fprintf(stderr, "ttt: match: cannot save %s: %s\n",
                    shown_path(path, shown), why);
            status = TTT_E_INVALID;
        }
        free(path);
    }
    return status;
}

/* Whether match can save its records in dir: an existing directory where
 * the first game's record can be written. Returns 0, or the exit status
 * after reporting why not. */
static int check_record_dir(const char *dir)
{
    struct stat st;
    const char *why = "";
    char *path, shown[SHOWN_PATH_CAP];
    int ok;

    if (stat(dir, &st) != 0)
        why = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "not a directory";
    if (*why != '\0') {
        fprintf(stderr, "ttt: match: --record: %s: %s\n", shown_path(dir, shown),
                why);
        return EXIT_USAGE;
    }
    if ((path = record_path(dir, 1)) == NULL) {
        fprintf(stderr, "ttt: match: %s\n", ttt_strerror(TTT_E_NOMEM));
        return EXIT_FAILURE;
    }
    ok = check_writable(path, &why) == 0;
    if (!ok)
        fprintf(stderr, "ttt: match: --record: cannot write %s: %s\n",
                shown_path(path, shown), why);
    free(path);
    return ok ? 0 : EXIT_USAGE;
}

static int cmd_match(int argc, char **argv)
{
    struct options o = default_options();
    struct engine e;
    struct match_players p;
    uint64_t wins[4] = {0, 0, 0, 0}; /* indexed by the final state */
    uint64_t player_wins[2] = {0, 0}, draws = 0, played = 0;
    ttt_game *g = NULL;
    int npos, status = TTT_OK;

    if (parse_options("match",
                      OPT_RULES | OPT_BOARD | OPT_PLAYERS | OPT_GAMES |
                          OPT_NAMES | OPT_MATCH | OPT_PRESET,
                      argc, argv, &o, &npos) != 0)
        return usage_error("match");
    if (o.help) {
        print_command_help("match", stdout);
        return 0;
    }
    if (npos > 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr, "ttt: match: unexpected argument '%s'\n", shown_text(argv[0], shown));
        return usage_error("match");
    }
    if (!o.player_given[0] || !o.player_given[1]) {
        fprintf(stderr, "ttt: match needs --x KIND and --o KIND\n");
        return usage_error("match");
    }
    if (o.player[0] == PLAYER_HUMAN || o.player[1] == PLAYER_HUMAN) {
        fprintf(stderr, "ttt: match: players are random, bot or perfect\n");
        return usage_error("match");
    }
    if (o.best_of > INT_MAX / 10) {
        fprintf(stderr, "ttt: match: --best-of %ld is too many games\n", o.best_of);
        return usage_error("match");
    }
    if (o.record_dir != NULL && (status = check_record_dir(o.record_dir)) != 0)
        return status;
    if ((status = make_game(&o, &g)) != 0)
        return status;
    /* The given names are checked here, before any game is played, by the
     * library's rule, as play checks them; the kinds' names always pass. */
    if ((status = set_names(g, o.name[0], o.name[1])) != 0) {
        ttt_game_free(g);
        return status;
    }
    if (name_players(&o, &p) != 0) {
        ttt_game_free(g);
        return usage_error("match");
    }
    if (o.best_of > 0 && !o.games_given)
        o.games = 10 * o.best_of; /* the cap that ends a drawn-out match */

    memset(&e, 0, sizeof e);
    e.bot_budget = o.budget;
    e.perfect_budget = o.perfect_budget;
    e.notes = stderr; /* stdout carries only the tally */
    for (long i = 0; i < o.games && status == TTT_OK; i++) {
        /* Each game on its own seed, as `ttt play --seed S+i` plays it.
         * A perfect player that gave up stays the bot: the next game's
         * opening would cost it the same fruitless search. In a best-of
         * match the players take turns to move first. */
        int first = o.best_of > 0 ? (int)(i % 2) : 0;
        int state;
        e.seed = o.seed + (uint64_t)i;
        status = match_game(g, &e, &p, first, o.record_dir, i + 1);
        if (status != TTT_OK)
            break;
        state = ttt_state(g);
        wins[state]++;
        played++;
        if (o.best_of == 0)
            continue;
        /* X is player `first`. */
        int winner = state == TTT_X_WON ? first
                     : state == TTT_O_WON ? 1 - first
                                          : -1;
        if (winner >= 0)
            player_wins[winner]++;
        else
            draws++;
        printf("game=%ld x=%s o=%s result=%s winner=%s\n", i + 1,
               p.name[first], p.name[1 - first],
               state == TTT_X_WON ? "x_won" : state == TTT_O_WON ? "o_won" : "draw",
               winner >= 0 ? p.name[winner] : "-");
        if (player_wins[0] > (uint64_t)o.best_of / 2 ||
            player_wins[1] > (uint64_t)o.best_of / 2)
            break;
    }
    ttt_game_free(g);
    if (status != TTT_OK) {
        if (status != TTT_E_INVALID)
            fprintf(stderr, "ttt: match: %s\n", ttt_strerror(status));
        return EXIT_FAILURE;
    }
    if (o.best_of == 0) {
        printf("x_won=%" PRIu64 " o_won=%" PRIu64 " draw=%" PRIu64 "\n",
               wins[TTT_X_WON], wins[TTT_O_WON], wins[TTT_DRAW]);
        return 0;
    }
    printf("games=%" PRIu64 " draws=%" PRIu64 "\n", played, draws);
    for (int i = 0; i < 2; i++)
        printf("wins=%" PRIu64 " player=%s\n", player_wins[i], p.name[i]);
    if (player_wins[0] > (uint64_t)o.best_of / 2)
        printf("match winner: %s\n", p.name[0]);
    else if (player_wins[1] > (uint64_t)o.best_of / 2)
        printf("match winner: %s\n", p.name[1]);
    else
        printf("no match winner\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd == NULL) {
        fprintf(stderr, "ttt: no command given\n");
        return usage_error(NULL);
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("%s\n", ttt_version_string());
        return 0;
    }
    if (strcmp(cmd, "play") == 0)
        return cmd_play(argc - 2, argv + 2);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc - 2, argv + 2);
    if (strcmp(cmd, "perft") == 0)
        return cmd_perft(argc - 2, argv + 2);
    if (strcmp(cmd, "solve") == 0)
        return cmd_solve(argc - 2, argv + 2);
    if (strcmp(cmd, "match") == 0)
        return cmd_match(argc - 2, argv + 2);
    if (strcmp(cmd, "brain") == 0)
        return cmd_brain(argc - 2, argv + 2);
    char shown[SHOWN_CAP];
    fprintf(stderr, "ttt: unknown command '%s'\n", shown_text(cmd, shown));
    return usage_error(NULL);
}
