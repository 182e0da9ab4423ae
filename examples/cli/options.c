/* options.c - the ttt program: option parsing: the usage text and every command's options. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ------------------------------------------------------------------------ */
/* Command line                                                              */
/* ------------------------------------------------------------------------ */

/* The help is made of blocks; `ttt --help` prints them all, `ttt COMMAND
 * --help` the ones that command reads. */
enum {
    HELP_SIZE = 1u << 0,     /* SIZE, K and MOVES */
    HELP_RULES = 1u << 1,    /* --misere, --early-draw, --gravity */
    HELP_GAMES = 1u << 2,    /* --game NAME */
    HELP_PLAYERS = 1u << 3,  /* play and match options, KIND */
    HELP_PERFT = 1u << 4,
    HELP_SOLVE = 1u << 5,
    HELP_MATCH = 1u << 6,
    HELP_DURING = 1u << 7,   /* what to type during play */
    HELP_BRAIN = 1u << 8,
    HELP_EXIT = 1u << 9,
};

/* Each command's usage lines and the blocks its help shows. */
static const struct command_help {
    const char *name;
    const char *usage;
    unsigned blocks;
} command_helps[] = {
    {"play",
     "ttt play [options]               play a game in the terminal\n",
     HELP_SIZE | HELP_RULES | HELP_GAMES | HELP_PLAYERS | HELP_DURING |
         HELP_EXIT},
    {"replay",
     "ttt replay FILE                  show every position of a saved game\n"
     "                                 (FILE: at most 8 MiB)\n",
     HELP_EXIT},
    {"perft",
     "ttt perft SIZE K DEPTH [MOVES]   count the games DEPTH plies deep\n"
     "ttt perft --game NAME DEPTH [MOVES]\n",
     HELP_SIZE | HELP_RULES | HELP_GAMES | HELP_PERFT | HELP_EXIT},
    {"solve",
     "ttt solve SIZE K [MOVES]         solve a position exactly\n"
     "ttt solve --game NAME [MOVES]\n",
     HELP_SIZE | HELP_RULES | HELP_GAMES | HELP_SOLVE | HELP_EXIT},
    {"match",
     "ttt match --x KIND --o KIND [options]\n"
     "                                 play computer players against\n"
     "                                 each other\n",
     HELP_SIZE | HELP_RULES | HELP_GAMES | HELP_PLAYERS | HELP_MATCH |
         HELP_EXIT},
    {"brain",
     "ttt brain                        play Gomoku (five in a row) over the\n"
     "                                 Gomocup protocol on stdin/stdout\n",
     HELP_BRAIN},
};

static void print_blocks(unsigned blocks, FILE *out)
{
    if (blocks & HELP_SIZE)
        fprintf(out,
                "\n"
                "SIZE is N for an N x N board, or WxH for one W columns wide and H\n"
                "rows high (e.g. 7x6); each side %d..%d. K is the number in a row\n"
                "that completes a line (3 up to the longer side). MOVES are cell\n"
                "names played in turn from X, e.g. b2 a1 (a1 is the top-left cell);\n"
                "under --gravity also column letters, e.g. d d c.\n",
                TTT_MIN_SIZE, TTT_MAX_SIZE);
    if (blocks & HELP_RULES)
        fputs("\n"
              "Rules, for every command but replay:\n"
              "  --misere      completing a line loses instead of winning\n"
              "  --early-draw  the game is drawn once no line can be completed\n"
              "  --gravity     a mark drops to the lowest empty cell of its column\n"
              "                (the bottom row is the last): a move is a column\n"
              "                letter, or the cell where the mark would land\n",
              out);
    if (blocks & HELP_GAMES)
        fputs("\n"
              "Games, for play, perft, solve and match (not with --size or --k,\n"
              "nor with perft's and solve's SIZE K):\n"
              "  --game NAME   tictactoe (3x3, K 3), connect4 (7x6, K 4, gravity)\n"
              "                or gomoku (15x15, K 5); play's default O on\n"
              "                connect4 and gomoku is the bot\n",
              out);
    if (blocks & HELP_PLAYERS) {
        fprintf(out,
                "\n"
                "play and match options:\n"
                "  --size N      an N x N board (default 3)\n"
                "  --size WxH    a board W columns wide and H rows high\n"
                "  --k K         K in a row completes a line (default: the shorter\n"
                "                side)\n"
                "  --x KIND      who plays X (play: default human)\n"
                "  --o KIND      who plays O (play: default perfect)\n"
                "  --seed S      seed of the computer players' random choices,\n"
                "                0..2^64-1 (default 1; the same seed plays the same\n"
                "                game)\n"
                "  --budget N    positions the bot searches per move (default 100000,\n"
                "                fewer for K > 25; about 0.1 s)\n"
                "  --perfect-budget N\n"
                "                positions the perfect player may search per move\n"
                "                (default %" PRIu64 "; 0: no limit). If they run out,\n"
                "                the bot plays for it for the rest of the game (of a\n"
                "                match: of the match), and a note says so.\n"
                "  --games N     match: how many games (default 100). Game i (from 0)\n"
                "                uses seed S+i: `ttt play` with the same players and\n"
                "                --seed S+i shows it move by move (unless a perfect\n"
                "                player gave up in an earlier game).\n"
                "  --x-name NAME, --o-name NAME\n"
                "                the players' names (at most %d bytes of UTF-8, no\n"
                "                control characters), kept in saved records. In a\n"
                "                match the names default to the kinds (bot-1 and\n"
                "                bot-2 for two of a kind) and must differ.\n",
                PERFECT_BUDGET_DEFAULT, TTT_NAME_MAX);
        fputs("  --best-of N   match: play until one player has won more than N/2\n"
              "                games (draws do not count), the players taking\n"
              "                turns to move first (the --x player in game 1);\n"
              "                at most --games games (default 10*N), so drawn\n"
              "                matches end\n"
              "  --save FILE   play: write the game's record to FILE when it ends\n"
              "                (however it ends, even unfinished); checked\n"
              "                before the first move\n"
              "  --record DIR  match: save every game's record as DIR/game-<i>.ttt\n"
              "                (i from 1; DIR must exist, checked before the\n"
              "                first game), for ttt replay\n"
              "  KIND is one of:\n"
              "    human       you, typing moves (not in a match)\n"
              "    random      a uniformly random empty cell\n"
              "    bot         a heuristic search within --budget: takes a win in\n"
              "                one, blocks one, sees double threats; with 16 or\n"
              "                fewer empty cells it solves exactly if the budget\n"
              "                allows\n"
              "    perfect     an optimal move of the exact solver (ties broken by\n"
              "                the seed); practical up to 4x4 and 5x5 with K = 4\n",
              out);
    }
    if (blocks & HELP_PERFT)
        fputs("\n"
              "perft prints one line x_won=<n> o_won=<n> draw=<n> open=<n>: the\n"
              "games (sequences of moves) from the position that end in each way\n"
              "within DEPTH plies, and those still open after DEPTH plies. Then one\n"
              "line \"len <plies> <games>\" per length that some game has, shortest\n"
              "first: the games ending after exactly that many plies, plus, at\n"
              "DEPTH, those still open.\n",
              out);
    if (blocks & HELP_SOLVE)
        fputs("\n"
              "solve prints one line value=<win|draw|loss> plies=<n> best=<cells>\n"
              "nodes=<n> for the player to move under perfect play by both: the\n"
              "value; the plies to the end (the fastest win, the slowest loss; for a\n"
              "draw, to the full board, or with --early-draw to the soonest drawn\n"
              "ending); every optimal move, joined by commas (- for none); and the\n"
              "positions searched. A finished game has plies=0 best=- and the value\n"
              "for whoever would move next.\n"
              "  --value-only  find only the value, much faster: plies=- best=-\n"
              "  --budget N    give up after N positions (default 0: no limit); the\n"
              "                line then shows what was found (value=unknown if\n"
              "                not the value) and the exit status is 1\n"
              "When stderr is a terminal, solve searches in rounds of doubling\n"
              "budgets (up to about twice the time), shows a progress line there\n"
              "at most every second, and Ctrl-C stops it: the line then shows what\n"
              "the finished rounds found, and the exit status is 1.\n",
              out);
    if (blocks & HELP_MATCH)
        fputs("\n"
              "match prints one line x_won=<n> o_won=<n> draw=<n>. With --best-of\n"
              "it prints one line per game,\n"
              "  game=<i> x=<name> o=<name> result=<x_won|o_won|draw> winner=<name|->\n"
              "then games=<n> draws=<n>, one line wins=<n> player=<name> per player\n"
              "(the --x player first) and \"match winner: <name>\", or \"no match\n"
              "winner\" if the cap on games ended it.\n",
              out);
    if (blocks & HELP_DURING)
        fputs("\n"
              "During play, type a move or a command, one per line:\n"
              "  b2 or 2 2     a move: column letter(s) and row number, or row and\n"
              "                column as two numbers; both count from 1 at the\n"
              "                top left (a1 = 1 1)\n"
              "  d             under gravity: drop a mark into column d\n"
              "  undo, redo    take back or replay a move; against a computer\n"
              "                player, undo goes back to your previous turn\n"
              "  save FILE     write the moves so far to FILE (for ttt replay)\n"
              "  resign        give up: the other side wins\n"
              "  draw          offer a draw: a human opponent answers yes or no\n"
              "                (asked again until it does); a computer player\n"
              "                accepts only when its solver proves the position\n"
              "                drawn (16 or fewer empty cells)\n"
              "  quit, help\n"
              "\n"
              "When input is not a terminal there are no prompts: one move or\n"
              "command per line, and a rejected line is explained and skipped.\n"
              "The last line printed is always \"result: X won\", \"result: O won\",\n"
              "\"result: draw\" or \"result: unfinished\".\n",
              out);
    if (blocks & HELP_BRAIN)
        fputs("\n"
              "brain reads Gomocup protocol commands on stdin (START, BEGIN, TURN,\n"
              "BOARD, INFO, END, ABOUT, RESTART, TAKEBACK, PLAY) and answers on\n"
              "stdout; it takes no options (see ttt(1), BRAIN PROTOCOL).\n",
              out);
    if (blocks & HELP_EXIT)
        fputs("\n"
              "Exit status: 0 on success (after a game, finished or not); 1 if\n"
              "memory or a solve budget ran out or solve was interrupted; 2 for\n"
              "bad arguments (a --save FILE or --record DIR that cannot be written\n"
              "among them, found before the first move), an illegal move among\n"
              "MOVES, or a file that cannot be read or loaded.\n",
              out);
}

void print_usage(FILE *out)
{
    unsigned blocks = 0;
    for (size_t i = 0; i < sizeof command_helps / sizeof command_helps[0]; i++) {
        const char *line = command_helps[i].usage;
        /* Each usage line gets the "usage: " column; the rest align. */
        fputs(i == 0 ? "usage: " : "       ", out);
        for (; *line != '\0'; line++) {
            fputc(*line, out);
            if (*line == '\n' && line[1] != '\0')
                fputs("       ", out);
        }
        blocks |= command_helps[i].blocks;
    }
    fputs("       ttt help | --help                show this help\n"
          "       ttt COMMAND --help               show one command's help\n"
          "       ttt --version                    show the library version\n",
          out);
    print_blocks(blocks, out);
}

int print_command_help(const char *cmd, FILE *out)
{
    for (size_t i = 0; i < sizeof command_helps / sizeof command_helps[0]; i++) {
        const struct command_help *h = &command_helps[i];
        if (strcmp(cmd, h->name) != 0)
            continue;
        const char *line = h->usage;
        fputs("usage: ", out);
        for (; *line != '\0'; line++) {
            fputc(*line, out);
            if (*line == '\n' && line[1] != '\0')
                fputs("       ", out);
        }
        print_blocks(h->blocks, out);
        return 0;
    }
    return -1;
}

int usage_error(const char *cmd)
{
    if (cmd)
        fprintf(stderr, "Try 'ttt %s --help'.\n", cmd);
    else
        fprintf(stderr, "Try 'ttt COMMAND --help' (COMMAND: play, replay, "
                        "perft, solve, match or brain), or 'ttt --help'.\n");
    return EXIT_USAGE;
}

/* Matches "--name" or "--name=value" at argv[*i] and yields the value, taken
 * from the next argument in the first form. Returns 1 on a match, 0 if the
 * argument is another option, -1 if the value is missing. */
static int option_value(int argc, char **argv, int *i, const char *name,
                        const char **value)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];

    if (strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '=') {
        *value = arg + len + 1;
        return 1;
    }
    if (arg[len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "ttt: %s needs a value\n", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

/* The option_value of "--name N" for a count N from 1 up. The upper bound
 * only keeps N an int; the library judges sizes further. Returns as
 * option_value, with -1 also for a bad number (reported). */
static int count_option(int argc, char **argv, int *i, const char *name,
                        const char *what, long *out)
{
    const char *v = "";
    int m = option_value(argc, argv, i, name, &v);

    if (m > 0 && parse_long(v, 1, INT_MAX, out) != 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr, "ttt: %s: '%s' is not %s\n", name, shown_text(v, shown), what);
        return -1;
    }
    return m;
}

/* As count_option for a uint64_t from 0 up (a seed or a node budget). */
static int u64_option(int argc, char **argv, int *i, const char *name,
                      uint64_t *out)
{
    const char *v = "";
    int m = option_value(argc, argv, i, name, &v);

    if (m > 0 && parse_u64(v, out) != 0) {
        char shown[SHOWN_CAP];
        fprintf(stderr, "ttt: %s: '%s' is not a number from 0 to 2^64-1\n",
                name, shown_text(v, shown));
        return -1;
    }
    return m;
}

/* As count_option for a player kind. */
static int player_option(int argc, char **argv, int *i, const char *name,
                         enum player_kind *out)
{
    const char *v = "";
    int m = option_value(argc, argv, i, name, &v);

    if (m <= 0)
        return m;
    for (size_t k = 0; k < PLAYER_KIND_COUNT; k++)
        if (strcmp(v, player_kinds[k].name) == 0) {
            *out = player_kinds[k].kind;
            return 1;
        }
    char shown[SHOWN_CAP];
    fprintf(stderr, "ttt: %s: unknown player '%s' (choose from:", name,
            shown_text(v, shown));
    for (size_t k = 0; k < PLAYER_KIND_COUNT; k++)
        fprintf(stderr, " %s", player_kinds[k].name);
    fprintf(stderr, ")\n");
    return -1;
}


/* The games --game names. Connect Four and Gomoku are too large for the
 * perfect player's default budget, so play's default O there is the bot. */
static const struct preset presets[] = {
    {"tictactoe", 3, 3, 3, 0, PLAYER_PERFECT},
    {"connect4", 7, 6, 4, 1, PLAYER_BOT},
    {"gomoku", 15, 15, 5, 0, PLAYER_BOT},
};

#define PRESET_COUNT (sizeof presets / sizeof presets[0])

/* As count_option for --game NAME. */
static int preset_option(int argc, char **argv, int *i,
                         const struct preset **out)
{
    const char *v = "";
    int m = option_value(argc, argv, i, "--game", &v);

    if (m <= 0)
        return m;
    for (size_t k = 0; k < PRESET_COUNT; k++)
        if (strcmp(v, presets[k].name) == 0) {
            *out = &presets[k];
            return 1;
        }
    char shown[SHOWN_CAP];
    fprintf(stderr, "ttt: --game: unknown game '%s' (choose from:",
            shown_text(v, shown));
    for (size_t k = 0; k < PRESET_COUNT; k++)
        fprintf(stderr, " %s", presets[k].name);
    fprintf(stderr, ")\n");
    return -1;
}

/* As count_option for --size N or --size WxH. */
static int size_option(int argc, char **argv, int *i, struct options *o)
{
    const char *v = "";
    int m = option_value(argc, argv, i, "--size", &v);

    if (m > 0 && parse_board_size(v, &o->width, &o->height) != 0) {
        fprintf(stderr,
                "ttt: --size: '%s' is not a board size (N, or WxH: width x "
                "height, e.g. 7x6)\n", v);
        return -1;
    }
    return m;
}

struct options default_options(void)
{
    struct options o;
    memset(&o, 0, sizeof o);
    o.width = o.height = 3;
    o.player[0] = o.player[1] = PLAYER_HUMAN;
    o.seed = 1;
    o.perfect_budget = PERFECT_BUDGET_DEFAULT;
    o.games = 100;
    return o;
}

/* Reads the options a command takes (the OPT_* in allowed), wherever they
 * stand among its arguments, and moves the other arguments, in order, to
 * the front of argv; *npos receives their number. Returns 0, or -1 after
 * reporting a bad option. */
int parse_options(const char *cmd, unsigned allowed, int argc,
                  char **argv, struct options *o, int *npos)
{
    *npos = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int m = 0;

        /* A negative number is a bad value, reported as one, not an
         * unknown option. */
        if (arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9')) {
            /* *npos <= i, so this never overwrites an unread argument. */
            argv[(*npos)++] = argv[i];
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            o->help = 1;
            continue;
        }
        if ((allowed & OPT_RULES) && strcmp(arg, "--misere") == 0) {
            o->misere = 1;
            continue;
        }
        if ((allowed & OPT_RULES) && strcmp(arg, "--early-draw") == 0) {
            o->early_draw = 1;
            continue;
        }
        if ((allowed & OPT_RULES) && strcmp(arg, "--gravity") == 0) {
            o->gravity = 1;
            continue;
        }
        if ((allowed & OPT_SOLVE) && strcmp(arg, "--value-only") == 0) {
            o->value_only = 1;
            continue;
        }
        /* Each try below matches its own name or leaves m at 0. */
        if (m == 0 && (allowed & OPT_BOARD)) {
            m = size_option(argc, argv, &i, o);
            o->size_given |= m > 0;
        }
        if (m == 0 && (allowed & OPT_BOARD)) {
            m = count_option(argc, argv, &i, "--k", "a line length", &o->k);
            o->k_given |= m > 0;
        }
        if (m == 0 && (allowed & OPT_PRESET))
            m = preset_option(argc, argv, &i, &o->preset);
        if (m == 0 && (allowed & OPT_PLAYERS)) {
            m = player_option(argc, argv, &i, "--x", &o->player[0]);
            o->player_given[0] |= m > 0;
        }
        if (m == 0 && (allowed & OPT_PLAYERS)) {
            m = player_option(argc, argv, &i, "--o", &o->player[1]);
            o->player_given[1] |= m > 0;
        }
        if (m == 0 && (allowed & OPT_PLAYERS))
            m = u64_option(argc, argv, &i, "--seed", &o->seed);
        if (m == 0 && (allowed & OPT_PLAYERS))
            m = u64_option(argc, argv, &i, "--perfect-budget",
                           &o->perfect_budget);
        if (m == 0 && (allowed & (OPT_PLAYERS | OPT_SOLVE)))
            m = u64_option(argc, argv, &i, "--budget", &o->budget);
        if (m == 0 && (allowed & OPT_GAMES)) {
            m = count_option(argc, argv, &i, "--games", "a number of games",
                             &o->games);
            o->games_given |= m > 0;
        }
        if (m == 0 && (allowed & OPT_NAMES))
            m = option_value(argc, argv, &i, "--x-name", &o->name[0]);
        if (m == 0 && (allowed & OPT_NAMES))
            m = option_value(argc, argv, &i, "--o-name", &o->name[1]);
        if (m == 0 && (allowed & OPT_MATCH))
            m = count_option(argc, argv, &i, "--best-of", "a number of games",
                             &o->best_of);
        if (m == 0 && (allowed & OPT_MATCH))
            m = option_value(argc, argv, &i, "--record", &o->record_dir);
        if (m == 0 && (allowed & OPT_SAVE))
            m = option_value(argc, argv, &i, "--save", &o->save_path);
        if (m == 0) {
            char shown[SHOWN_CAP];
            fprintf(stderr, "ttt: %s: unknown option '%s'\n", cmd, shown_text(arg, shown));
        }
        if (m <= 0)
            return -1;
    }
    if (o->preset != NULL) {
        if (o->size_given || o->k_given) {
            fprintf(stderr,
                    "ttt: %s: --game %s sets the board and K; it cannot be "
                    "combined with %s\n",
                    cmd, o->preset->name, o->size_given ? "--size" : "--k");
            return -1;
        }
        o->width = o->preset->width;
        o->height = o->preset->height;
        o->k = o->preset->k;
        o->gravity |= o->preset->gravity;
    }
    return 0;
}

/* Creates the board a command works on: N x N through ttt_game_new, as
 * ever; a rectangle through ttt_game_new_rect. Returns 0, or the exit
 * status after reporting a size or K the library rejects. */
int make_game(const struct options *o, ttt_game **g)
{
    int status = o->width == o->height
                     ? ttt_game_new((int)o->width, (int)o->k, g)
                     : ttt_game_new_rect((int)o->width, (int)o->height,
                                         (int)o->k, g);

    if (status != TTT_OK) {
        if (o->width == o->height)
            fprintf(stderr, "ttt: size %ld, k %ld: %s (need %d <= K <= N <= %d)\n",
                    o->width, o->k ? o->k : o->width, ttt_strerror(status),
                    TTT_MIN_SIZE, TTT_MAX_SIZE);
        else
            fprintf(stderr,
                    "ttt: size %ldx%ld, k %ld: %s (need %d <= width, height "
                    "<= %d and %d <= K <= the longer side)\n",
                    o->width, o->height,
                    o->k ? o->k : (o->width < o->height ? o->width : o->height),
                    ttt_strerror(status), TTT_MIN_SIZE, TTT_MAX_SIZE,
                    TTT_MIN_SIZE);
        return status == TTT_E_NOMEM ? EXIT_FAILURE : EXIT_USAGE;
    }
    ttt_game_set_rule(*g, TTT_RULE_MISERE, o->misere);
    ttt_game_set_rule(*g, TTT_RULE_EARLY_DRAW, o->early_draw);
    if (o->gravity &&
        (status = ttt_game_set_rule(*g, TTT_RULE_GRAVITY, 1)) != TTT_OK) {
        fprintf(stderr, "ttt: --gravity: %s\n", ttt_strerror(status));
        ttt_game_free(*g);
        *g = NULL;
        return EXIT_USAGE;
    }
    return 0;
}

/* Gives the sides of g the names x and o (NULL: none). Returns 0, or the
 * exit status after reporting a name the library refuses. */
int set_names(ttt_game *g, const char *x, const char *o)
{
    const char *names[2] = {x, o};

    for (int i = 0; i < 2; i++) {
        int status;
        if (names[i] == NULL)
            continue;
        status = ttt_game_set_name(g, i == 0 ? TTT_X : TTT_O, names[i],
                                   strlen(names[i]));
        if (status != TTT_OK) {
            char shown[SHOWN_CAP];
            fprintf(stderr,
                    "ttt: --%c-name: '%s': %s (at most %d bytes of UTF-8, "
                    "no control characters)\n",
                    i == 0 ? 'x' : 'o', shown_text(names[i], shown),
                    ttt_strerror(status), TTT_NAME_MAX);
            return status == TTT_E_NOMEM ? EXIT_FAILURE : EXIT_USAGE;
        }
    }
    return 0;
}
