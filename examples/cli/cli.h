/* cli.h - the ttt program's shared declarations: players, the session, options, and the functions its files call across. */
#ifndef TTT_CLI_H
#define TTT_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "ttt.h"

#define EXIT_USAGE 2
/* One input line: a move, a command, or "save" plus a file name. */
#define INPUT_CAP 1024
/* The largest file replay reads. The longest record there can be, every
 * cell of a 1024 x 1024 board under "rules=misere+early-draw", is 6509618
 * bytes; a larger file is refused before it is read, so a device such as
 * /dev/zero cannot make replay take all memory. */
#define RECORD_CAP ((size_t)8 << 20)
/* Enough for any cell name up to TTT_MAX_SIZE ("amj1024"). */
#define NAME_CAP 16
/* Text from the user echoed back (a rejected name or move): at most
 * SHOWN_BYTES bytes of it, each shown as at most 4 bytes ("\x1B"), and "...". */
#define SHOWN_BYTES 40
#define SHOWN_CAP (4 * SHOWN_BYTES + 4)
/* A file path echoed back: the same escapes, cut only past 8 KiB (twice
 * PATH_MAX's usual 4096 bytes: a relative name may be longer). */
#define SHOWN_PATH_BYTES 8192
#define SHOWN_PATH_CAP (4 * SHOWN_PATH_BYTES + 4)
/* The perfect player's default node budget per move. The empty 4x4 board
 * takes the solver thousands of positions, (5,5,4) millions: seconds or
 * more at every move. So beyond 4x4 the perfect player gives up within a
 * second or two and the bot takes over, instead of searching for minutes
 * (or, on big boards, for ever). */
#define PERFECT_BUDGET_DEFAULT UINT64_C(2000000)

/* Who makes the moves for one side. To add a kind: a value here, a row in
 * player_kinds, and a case in computer_move. */
enum player_kind { PLAYER_HUMAN, PLAYER_RANDOM, PLAYER_BOT, PLAYER_PERFECT };

static const struct {
    const char *name;
    enum player_kind kind;
} player_kinds[] = {
    {"human", PLAYER_HUMAN},
    {"random", PLAYER_RANDOM},
    {"bot", PLAYER_BOT},
    {"perfect", PLAYER_PERFECT},
};

#define PLAYER_KIND_COUNT (sizeof player_kinds / sizeof player_kinds[0])

/* How the computer players choose their moves; shared by play and match. */
struct engine {
    uint64_t seed;           /* advanced by every random choice */
    uint64_t bot_budget;     /* nodes per bot move; 0: the library's default */
    uint64_t perfect_budget; /* nodes per perfect move; 0: unlimited */
    int gave_up[2];          /* that side's perfect player ran out of budget
                                and plays as the bot from then on */
    FILE *notes;             /* where that change is announced */
};

/* Everything one `ttt play` run needs. */
struct session {
    ttt_game *game;
    enum player_kind player[2]; /* [0] plays X, [1] plays O */
    struct engine engine;
    int interactive;            /* stdin is a terminal: prompt, show the board */
    int board_shown;            /* the board on screen is the current one */
};


/* Which options a command takes. */
enum {
    OPT_RULES = 1,   /* --misere, --early-draw */
    OPT_BOARD = 2,   /* --size, --k */
    OPT_PLAYERS = 4, /* --x, --o, --seed, --budget, --perfect-budget */
    OPT_GAMES = 8,   /* --games */
    OPT_SOLVE = 16,  /* --value-only, --budget */
    OPT_NAMES = 32,  /* --x-name, --o-name */
    OPT_MATCH = 64,  /* --best-of, --record */
    OPT_SAVE = 128,  /* --save */
    OPT_PRESET = 256 /* --game */
};

/* A named game --game chooses: the board, K and gravity in one word. */
struct preset {
    const char *name;
    long width, height, k;
    int gravity;
    enum player_kind opponent; /* play's default O on this board */
};

/* Every command's options, with their defaults. */
struct options {
    long width, height; /* --size N gives N x N, --size WxH W x H */
    long k;             /* 0: the library's default, min(width, height) */
    int size_given, k_given;
    const struct preset *preset; /* --game; NULL: none */
    int misere, early_draw, gravity;
    enum player_kind player[2];
    int player_given[2];
    uint64_t seed;
    uint64_t budget; /* a bot's per move, or solve's in all */
    uint64_t perfect_budget;
    long games;
    int games_given;
    const char *name[2];    /* --x-name, --o-name; NULL: not given */
    long best_of;           /* 0: no best-of, --games games */
    const char *record_dir; /* NULL: records are not saved */
    const char *save_path;  /* play --save: the record at the end */
    int value_only;
    int help;
};

/* draw.c */
char mark_char(int mark);
int side_index(int mark);
const char *cell_name(int row, int col, char *buf);
const char *result_text(int state);
const char *shown_text(const char *text, char *buf);
/* shown_text for a file path, into buf of SHOWN_PATH_CAP bytes. */
const char *shown_path(const char *path, char *buf);
const char *value_name(int value);
double now_ms(void);
const char *player_kind_name(enum player_kind kind);
int parse_long(const char *text, long lo, long hi, long *out);
int parse_u64(const char *text, uint64_t *out);
int parse_board_size(const char *text, long *width, long *height);
int parse_column(const char *text, int *col);
const char *column_name(int col, char *buf);
int has_gravity(const ttt_game *g);
int landing_row(const ttt_game *g, int col);
const char *rules_text(const ttt_game *g, char *buf, size_t cap);
void print_board(const ttt_game *g);
void print_outcome(const ttt_game *g);

/* session.c */
int save_record(const ttt_game *g, const char *path, const char **why);
int check_writable(const char *path, const char **why);
int computer_move(struct engine *e, const ttt_game *g,
                  enum player_kind kind, int *row, int *col);
int human_turn(struct session *s);
int computer_turn(struct session *s, enum player_kind kind);
int play_move_text(ttt_game *g, const char *text, int *row, int *col);

/* options.c */
/* The whole help (ttt --help), one command's (0, or -1 for an unknown
 * command), and the line after a usage error's message (cmd NULL: no or
 * an unknown command); usage_error returns EXIT_USAGE. */
void print_usage(FILE *out);
int print_command_help(const char *cmd, FILE *out);
int usage_error(const char *cmd);
struct options default_options(void);
int parse_options(const char *cmd, unsigned allowed, int argc,
                  char **argv, struct options *o, int *npos);
int make_game(const struct options *o, ttt_game **g);
int set_names(ttt_game *g, const char *x, const char *o);

/* solve.c */
int solve_watched(const ttt_game *g, uint64_t budget, int flags,
                  ttt_solution *sol, int32_t *best, size_t best_capacity,
                  size_t *best_len, int *interrupted);

/* brain.c */
int cmd_brain(int argc, char **argv);

#endif /* TTT_CLI_H */
