/* ttt.c - the ttt program: play tic-tac-toe in a terminal, replay a saved game, count games, solve positions, run bot matches. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

static char mark_char(int mark)
{
    return mark == TTT_X ? 'X' : mark == TTT_O ? 'O' : '.';
}

static int side_index(int mark)
{
    return mark == TTT_O ? 1 : 0;
}

/* Names (row, col) as "b2"; off-board cells (which cannot be named) as "?". */
static const char *cell_name(int row, int col, char *buf)
{
    size_t len;
    if (ttt_cell_name(row, col, buf, NAME_CAP, &len) != TTT_OK)
        strcpy(buf, "?");
    return buf;
}

static const char *result_text(int state)
{
    switch (state) {
    case TTT_X_WON: return "X won";
    case TTT_O_WON: return "O won";
    case TTT_DRAW: return "draw";
    default: return "unfinished";
    }
}

static const char *player_kind_name(enum player_kind kind)
{
    for (size_t i = 0; i < PLAYER_KIND_COUNT; i++)
        if (player_kinds[i].kind == kind)
            return player_kinds[i].name;
    return "?";
}

/* Parses a whole decimal token into [lo, hi]; strtol alone accepts trailing
 * junk and saturates silently, so both are checked here. */
static int parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* As parse_long for a uint64_t; strtoull would quietly negate "-1". */
static int parse_u64(const char *text, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (*text < '0' || *text > '9') /* no sign, no leading space */
        return -1;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
#if ULLONG_MAX > UINT64_MAX
    if (v > UINT64_MAX)
        return -1;
#endif
    *out = (uint64_t)v;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Drawing the board                                                         */
/* ------------------------------------------------------------------------ */

/* Whether (row, col) lies on the segment from (r0, c0) to (r1, c1), which is
 * a row, column or diagonal as ttt_winning_line reports it. */
static int on_line(int r0, int c0, int r1, int c1, int row, int col)
{
    int dr = (r1 > r0) - (r1 < r0);
    int dc = (c1 > c0) - (c1 < c0);
    int steps = abs(r1 - r0) > abs(c1 - c0) ? abs(r1 - r0) : abs(c1 - c0);
    int i = dr != 0 ? (row - r0) * dr : (col - c0) * dc;
    return i >= 0 && i <= steps && row == r0 + i * dr && col == c0 + i * dc;
}

/* Prints the board with column letters across the top and 1-based row
 * numbers down the side. The cells of a completed line are shown in
 * brackets, which reads without colour. Wide boards just get wider columns. */
static void print_board(const ttt_game *g)
{
    char name[NAME_CAP];
    size_t len = 0;
    int n = ttt_size(g);
    int r0 = -1, c0 = -1, r1 = -1, c1 = -1;
    int have_line = ttt_winning_line(g, &r0, &c0, &r1, &c1) == TTT_OK;
    int letters, width, row_width = 1;

    /* The widest column name is the last one's; its row digit is "1". */
    ttt_cell_name(0, n - 1, name, sizeof name, &len);
    letters = (int)len - 1;
    width = letters + 1 > 3 ? letters + 1 : 3; /* room for "[X]" */
    for (int v = n; v >= 10; v /= 10)
        row_width++;

    printf("%*s ", row_width, "");
    for (int col = 0; col < n; col++) {
        ttt_cell_name(0, col, name, sizeof name, &len);
        name[len - 1] = '\0'; /* keep the letters, drop the row digit */
        /* The name ends in the column where the marks sit, width - 2. */
        printf("%*s%s", width - 1, name, col + 1 < n ? " " : "");
    }
    putchar('\n');

    for (int row = 0; row < n; row++) {
        printf("%*d ", row_width, row + 1);
        for (int col = 0; col < n; col++) {
            int mark = TTT_EMPTY;
            int hit = have_line && on_line(r0, c0, r1, c1, row, col);
            ttt_cell(g, row, col, &mark);
            printf("%*s%c%c", width - 3, "", hit ? '[' : ' ', mark_char(mark));
            if (hit)
                putchar(']');
            else if (col + 1 < n)
                putchar(' ');
        }
        putchar('\n');
    }
}

/* One line saying how a finished game ended, printed above the result. */
static void print_outcome(const ttt_game *g)
{
    char a[NAME_CAP], b[NAME_CAP];
    int state = ttt_state(g), ply = ttt_ply(g);
    int r0, c0, r1, c1, mover = TTT_EMPTY, misere = 0;

    if (state == TTT_DRAW) {
        int n = ttt_size(g);
        if (ply < n * n)
            printf("draw: no line can be completed any more\n");
        else
            printf("draw: the board is full\n");
        return;
    }
    if (ttt_winning_line(g, &r0, &c0, &r1, &c1) != TTT_OK)
        return;
    ttt_move_at(g, ply - 1, &mover, NULL, NULL);
    ttt_game_get_rule(g, TTT_RULE_MISERE, &misere);
    printf("%c completed the line %s-%s%s\n", mark_char(mover),
           cell_name(r0, c0, a), cell_name(r1, c1, b),
           misere ? " and loses (misere)" : " and wins");
}

/* ------------------------------------------------------------------------ */
/* Computer players                                                          */
/* ------------------------------------------------------------------------ */

/* Asks the computer player of the side to move for its move. The seed
 * advances only when a move is found, so a perfect player that runs out of
 * budget hands the same seed to the bot that stands in for it. */
static int computer_move(struct engine *e, const ttt_game *g,
                         enum player_kind kind, int *row, int *col)
{
    int side = side_index(ttt_to_move(g));
    int status;

    switch (kind) {
    case PLAYER_RANDOM:
        return ttt_random_move(g, &e->seed, row, col);
    case PLAYER_BOT:
        return ttt_best_move(g, TTT_BOT_STRONG, e->bot_budget, &e->seed, row,
                             col);
    case PLAYER_PERFECT:
        if (e->gave_up[side])
            return ttt_best_move(g, TTT_BOT_STRONG, e->bot_budget, &e->seed,
                                 row, col);
        status = ttt_best_move(g, TTT_BOT_PERFECT, e->perfect_budget, &e->seed,
                               row, col);
        if (status != TTT_E_BUDGET)
            return status;
        /* Later positions are smaller, but on a board this size the solver
         * would most likely run out again: stop paying for it. */
        e->gave_up[side] = 1;
        fprintf(e->notes,
                "%c: the perfect player cannot solve this board within "
                "%" PRIu64 " nodes (--perfect-budget); the bot plays for it "
                "from here on\n",
                mark_char(ttt_to_move(g)), e->perfect_budget);
        return ttt_best_move(g, TTT_BOT_STRONG, e->bot_budget, &e->seed, row,
                             col);
    case PLAYER_HUMAN:
        break;
    }
    return TTT_E_INVALID;
}

/* ------------------------------------------------------------------------ */
/* Playing                                                                   */
/* ------------------------------------------------------------------------ */

static void print_play_help(void)
{
    printf("Type a move or a command, one per line:\n"
           "  b2          column letter(s) then row number; a1 is the top-left cell\n"
           "  2 2         row then column as numbers, both counted from 1\n"
           "  undo        take back the last move; against a computer player, take\n"
           "              back moves until it is your turn again (usually two;\n"
           "              a computer's opening move is never taken back)\n"
           "  redo        replay what undo took back, up to your next turn\n"
           "  save FILE   write the record of the moves played so far to FILE\n"
           "  quit        stop here; the result is \"unfinished\"\n"
           "  help        show this list\n");
}

/* Plays mark at (row, col) and reports it; "what" is how the user named the
 * cell, for the explanation when the move is rejected. */
static int apply_move(struct session *s, int row, int col, const char *what)
{
    char name[NAME_CAP], last[NAME_CAP];
    int mark = ttt_to_move(s->game);
    int status = ttt_play(s->game, mark, row, col, NULL);
    int n = ttt_size(s->game);

    if (status == TTT_OK) {
        printf("%c plays %s\n", mark_char(mark), cell_name(row, col, name));
        s->board_shown = 0;
        return TTT_OK;
    }
    printf("cannot play %s: %s", what, ttt_strerror(status));
    if (status == TTT_E_OCCUPIED) {
        int there = TTT_EMPTY;
        ttt_cell(s->game, row, col, &there);
        printf(" (%c is on %s)", mark_char(there), cell_name(row, col, name));
    } else if (status == TTT_E_OFF_BOARD) {
        printf(" (the %dx%d board runs from a1 to %s; numbers count from 1)", n,
               n, cell_name(n - 1, n - 1, last));
    }
    putchar('\n');
    return status;
}

/* Takes back the last move, and more while that would leave a computer
 * player to move, so a human gets their own turn back. Undoing the move at
 * ply p gives the turn to whoever made it. */
static int undo_to_human(struct session *s)
{
    char name[NAME_CAP];
    int ply = ttt_ply(s->game), count = 0;

    /* Find how far back the nearest human move is before changing anything,
     * so that a refused undo changes nothing. */
    for (int p = ply - 1; p >= 0; p--) {
        int mark = TTT_EMPTY;
        ttt_move_at(s->game, p, &mark, NULL, NULL);
        count++;
        if (s->player[side_index(mark)] == PLAYER_HUMAN)
            break;
        if (p == 0)
            count = 0; /* only computer moves: undoing would hand it back */
    }
    if (count == 0) {
        printf("undo: %s\n", ttt_strerror(TTT_E_NO_UNDO));
        return TTT_E_NO_UNDO;
    }
    while (count-- > 0) {
        int mark = TTT_EMPTY, row = 0, col = 0;
        ttt_move_at(s->game, ttt_ply(s->game) - 1, &mark, &row, &col);
        ttt_undo(s->game);
        printf("took back %c %s\n", mark_char(mark), cell_name(row, col, name));
    }
    s->board_shown = 0;
    return TTT_OK;
}

/* Redoes one move, then more while a computer would be to move, so redo
 * retraces what undo took back. */
static int redo_to_human(struct session *s)
{
    char name[NAME_CAP];
    int status = ttt_redo(s->game);

    if (status != TTT_OK) {
        printf("redo: %s\n", ttt_strerror(status));
        return status;
    }
    for (;;) {
        int mark = TTT_EMPTY, row = 0, col = 0, next;
        ttt_move_at(s->game, ttt_ply(s->game) - 1, &mark, &row, &col);
        printf("replayed %c %s\n", mark_char(mark), cell_name(row, col, name));
        next = ttt_to_move(s->game);
        if (next == TTT_EMPTY || s->player[side_index(next)] == PLAYER_HUMAN ||
            ttt_redo(s->game) != TTT_OK)
            break;
    }
    s->board_shown = 0;
    return TTT_OK;
}

/* Writes the game record to path. */
static void save_game(struct session *s, const char *path)
{
    size_t len = 0;
    char *text;
    FILE *f;
    int written, err;
    int status = ttt_game_save(s->game, NULL, 0, &len);

    if (status != TTT_OK && status != TTT_E_BUFFER) {
        printf("save: %s\n", ttt_strerror(status));
        return;
    }
    text = malloc(len + 1);
    if (text == NULL) {
        printf("save: %s\n", ttt_strerror(TTT_E_NOMEM));
        return;
    }
    status = ttt_game_save(s->game, text, len + 1, &len);
    if (status != TTT_OK) {
        printf("save: %s\n", ttt_strerror(status));
        free(text);
        return;
    }
    f = fopen(path, "w");
    if (f == NULL) {
        printf("save: cannot write %s: %s\n", path, strerror(errno));
        free(text);
        return;
    }
    written = fwrite(text, 1, len, f) == len;
    err = errno;
    /* Data may sit in the stream's buffer until fclose, so check it too. */
    if (fclose(f) != 0 && written) {
        written = 0;
        err = errno;
    }
    if (written)
        printf("saved %d moves to %s\n", ttt_ply(s->game), path);
    else
        printf("save: cannot write %s: %s\n", path, strerror(err));
    free(text);
}

/* Reads one line of at most INPUT_CAP - 1 bytes into buf, without its line
 * ending. Returns 1 for a line, 0 at end of input, -1 for an overlong line
 * or one holding a NUL byte (the whole line is read and thrown away). A
 * byte at a time, so that a NUL byte is seen wherever it is: the string
 * functions would stop at it and take "b2\0zz" for "b2". */
static int read_line(char *buf)
{
    size_t n = 0;
    int c, seen_any = 0, malformed = 0;

    while ((c = getchar()) != EOF && c != '\n') {
        seen_any = 1;
        if (c == '\0' || n == INPUT_CAP - 1)
            malformed = 1;
        else
            buf[n++] = (char)c;
    }
    if (c == EOF && !seen_any)
        return 0;
    buf[n] = '\0';
    if (malformed)
        return -1;
    if (n > 0 && buf[n - 1] == '\r') /* tolerate CRLF input */
        buf[--n] = '\0';
    return 1;
}

/* Splits off the first whitespace-separated word of *text (NUL-terminating
 * it) and advances *text past the following whitespace. */
static char *next_word(char **text)
{
    char *p = *text, *word;
    while (*p == ' ' || *p == '\t')
        p++;
    word = p;
    while (*p != '\0' && *p != ' ' && *p != '\t')
        p++;
    if (*p != '\0')
        *p++ = '\0';
    while (*p == ' ' || *p == '\t')
        p++;
    *text = p;
    return word;
}

/* Handles one typed move: "b2" or "row col" (1-based). */
static void human_move(struct session *s, char *first, char *rest)
{
    int row, col;
    size_t used = 0;

    if (*rest == '\0') {
        size_t len = strlen(first);
        int status = ttt_parse_cell(first, len, &row, &col, &used);
        if (status != TTT_OK || used != len) {
            /* Echo at most 40 bytes: enough to recognise a typo. */
            printf("'%.40s%s' is not a move: %s (moves look like b2 or "
                   "\"2 2\"; type help)\n", first, len > 40 ? "..." : "",
                   ttt_strerror(TTT_E_PARSE));
            return;
        }
        apply_move(s, row, col, first);
    } else {
        char what[INPUT_CAP + 2];
        char *second = next_word(&rest);
        long r, c;
        /* Out-of-range numbers still reach ttt_play, which explains them;
         * the bounds only keep the 0-based values inside int. */
        if (*rest != '\0' || parse_long(first, INT_MIN + 1, INT_MAX, &r) != 0 ||
            parse_long(second, INT_MIN + 1, INT_MAX, &c) != 0) {
            printf("not a move: %s (moves look like b2 or \"2 2\", row then "
                   "column from 1; type help)\n", ttt_strerror(TTT_E_PARSE));
            return;
        }
        snprintf(what, sizeof what, "%s %s", first, second);
        apply_move(s, (int)(r - 1), (int)(c - 1), what);
    }
}

/* Names an empty cell for the prompt's example: the centre while it is
 * free, else the first free cell, so the example is always a legal move. */
static const char *example_cell(const ttt_game *g, char *buf)
{
    int n = ttt_size(g), mark = TTT_X;

    ttt_cell(g, n / 2, n / 2, &mark);
    if (mark == TTT_EMPTY)
        return cell_name(n / 2, n / 2, buf);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            mark = TTT_X;
            ttt_cell(g, r, c, &mark);
            if (mark == TTT_EMPTY)
                return cell_name(r, c, buf);
        }
    return cell_name(0, 0, buf);
}

/* Shows the prompt (on a terminal), reads one line and acts on it. Returns
 * 1 when the game should stop (quit or end of input), else 0. */
static int human_turn(struct session *s)
{
    char line[INPUT_CAP], name[NAME_CAP];
    char *rest = line, *word;
    int got;

    if (s->interactive) {
        if (!s->board_shown) {
            putchar('\n');
            print_board(s->game);
            s->board_shown = 1;
        }
        printf("%c to move (e.g. %s): ", mark_char(ttt_to_move(s->game)),
               example_cell(s->game, name));
    }
    fflush(stdout);
    got = read_line(line);
    if (got == 0) {
        if (s->interactive)
            putchar('\n'); /* end the prompt's line */
        return 1;
    }
    if (got < 0) {
        printf("line ignored: longer than %d bytes or holding a NUL byte\n",
               INPUT_CAP - 1);
        return 0;
    }

    word = next_word(&rest);
    if (*word == '\0')
        return 0; /* blank lines are harmless */
    if (strcmp(word, "quit") == 0 && *rest == '\0')
        return 1;
    if (strcmp(word, "help") == 0 && *rest == '\0')
        print_play_help();
    else if (strcmp(word, "undo") == 0 && *rest == '\0')
        undo_to_human(s);
    else if (strcmp(word, "redo") == 0 && *rest == '\0')
        redo_to_human(s);
    else if (strcmp(word, "save") == 0) {
        /* The file name is the rest of the line, spaces included. */
        size_t n = strlen(rest);
        while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
            rest[--n] = '\0';
        if (n == 0)
            printf("save: which file? (save FILE)\n");
        else
            save_game(s, rest);
    } else
        human_move(s, word, rest);
    return 0;
}

/* Lets a computer player move. Returns its status; a failure stops the game
 * rather than looping forever. */
static int computer_turn(struct session *s, enum player_kind kind)
{
    int row = 0, col = 0;
    int status = computer_move(&s->engine, s->game, kind, &row, &col);
    char name[NAME_CAP];

    if (status == TTT_OK)
        status = apply_move(s, row, col, cell_name(row, col, name));
    else
        printf("%s player failed: %s\n", player_kind_name(kind),
               ttt_strerror(status));
    return status;
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */
/* ------------------------------------------------------------------------ */

static void print_usage(FILE *out)
{
    fprintf(out,
            "usage: ttt play [options]               play a game in the terminal\n"
            "       ttt replay FILE                  show every position of a saved game\n"
            "                                        (FILE: at most 8 MiB)\n"
            "       ttt perft SIZE K DEPTH [MOVES]   count the games DEPTH plies deep\n"
            "       ttt solve SIZE K [MOVES]         solve a position exactly\n"
            "       ttt match --x KIND --o KIND [options]\n"
            "                                        play computer players against\n"
            "                                        each other\n"
            "       ttt help | --help                show this help\n"
            "       ttt --version                    show the library version\n"
            "\n"
            "SIZE is the side of the board (%d..%d), K the number in a row that\n"
            "completes a line (3..SIZE). MOVES are cell names played in turn from\n"
            "X, e.g. b2 a1 (a1 is the top-left cell).\n"
            "\n"
            "Rules, for every command but replay:\n"
            "  --misere      completing a line loses instead of winning\n"
            "  --early-draw  the game is drawn once no line can be completed\n"
            "\n"
            "play and match options:\n"
            "  --size N      an N x N board (default 3)\n"
            "  --k K         K in a row completes a line (default N)\n"
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
            "                player gave up in an earlier game).\n",
            TTT_MIN_SIZE, TTT_MAX_SIZE, PERFECT_BUDGET_DEFAULT);
    /* In parts: C compilers need only take string literals of 4095 bytes. */
    fputs("  KIND is one of:\n"
          "    human       you, typing moves (not in a match)\n"
          "    random      a uniformly random empty cell\n"
          "    bot         a heuristic search within --budget: takes a win in\n"
          "                one, blocks one, sees double threats; with 16 or\n"
          "                fewer empty cells it solves exactly if the budget\n"
          "                allows\n"
          "    perfect     an optimal move of the exact solver (ties broken by\n"
          "                the seed); practical up to 4x4 and 5x5 with K = 4\n",
          out);
    fputs("\n"
          "perft prints one line x_won=<n> o_won=<n> draw=<n> open=<n>: the\n"
          "games (sequences of moves) from the position that end in each way\n"
          "within DEPTH plies, and those still open after DEPTH plies. Then one\n"
          "line \"len <plies> <games>\" per length that some game has, shortest\n"
          "first: the games ending after exactly that many plies, plus, at\n"
          "DEPTH, those still open.\n"
          "\n"
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
          "\n"
          "match prints one line x_won=<n> o_won=<n> draw=<n>.\n",
          out);
    fputs("\n"
          "During play, type a move or a command, one per line:\n"
          "  b2 or 2 2     a move: column letter(s) and row number, or row and\n"
          "                column as two numbers; both count from 1 at the\n"
          "                top left (a1 = 1 1)\n"
          "  undo, redo    take back or replay a move; against a computer\n"
          "                player, undo goes back to your previous turn\n"
          "  save FILE     write the moves so far to FILE (for ttt replay)\n"
          "  quit, help\n"
          "\n"
          "When input is not a terminal there are no prompts: one move or\n"
          "command per line, and a rejected line is explained and skipped.\n"
          "The last line printed is always \"result: X won\", \"result: O won\",\n"
          "\"result: draw\" or \"result: unfinished\".\n"
          "\n"
          "Exit status: 0 on success (after a game, finished or not); 1 if\n"
          "memory or a solve budget ran out; 2 for bad arguments, an illegal\n"
          "move among MOVES, or a file that cannot be read or loaded.\n",
          out);
}

static int usage_error(void)
{
    fprintf(stderr, "Try 'ttt --help'.\n");
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
        fprintf(stderr, "ttt: %s: '%s' is not %s\n", name, v, what);
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
        fprintf(stderr, "ttt: %s: '%s' is not a number from 0 to 2^64-1\n",
                name, v);
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
    fprintf(stderr, "ttt: %s: unknown player '%s' (choose from:", name, v);
    for (size_t k = 0; k < PLAYER_KIND_COUNT; k++)
        fprintf(stderr, " %s", player_kinds[k].name);
    fprintf(stderr, ")\n");
    return -1;
}

/* Which options a command takes. */
enum {
    OPT_RULES = 1,   /* --misere, --early-draw */
    OPT_BOARD = 2,   /* --size, --k */
    OPT_PLAYERS = 4, /* --x, --o, --seed, --budget, --perfect-budget */
    OPT_GAMES = 8,   /* --games */
    OPT_SOLVE = 16   /* --value-only, --budget */
};

/* Every command's options, with their defaults. */
struct options {
    long size, k; /* k 0: the library's "K = N" */
    int misere, early_draw;
    enum player_kind player[2];
    int player_given[2];
    uint64_t seed;
    uint64_t budget; /* a bot's per move, or solve's in all */
    uint64_t perfect_budget;
    long games;
    int value_only;
    int help;
};

static struct options default_options(void)
{
    struct options o = {3, 0, 0, 0, {PLAYER_HUMAN, PLAYER_HUMAN}, {0, 0},
                        1, 0, PERFECT_BUDGET_DEFAULT, 100, 0, 0};
    return o;
}

/* Reads the options a command takes (the OPT_* in allowed), wherever they
 * stand among its arguments, and moves the other arguments, in order, to
 * the front of argv; *npos receives their number. Returns 0, or -1 after
 * reporting a bad option. */
static int parse_options(const char *cmd, unsigned allowed, int argc,
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
        if ((allowed & OPT_SOLVE) && strcmp(arg, "--value-only") == 0) {
            o->value_only = 1;
            continue;
        }
        /* Each try below matches its own name or leaves m at 0. */
        if (m == 0 && (allowed & OPT_BOARD))
            m = count_option(argc, argv, &i, "--size", "a board size", &o->size);
        if (m == 0 && (allowed & OPT_BOARD))
            m = count_option(argc, argv, &i, "--k", "a line length", &o->k);
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
        if (m == 0 && (allowed & OPT_GAMES))
            m = count_option(argc, argv, &i, "--games", "a number of games",
                             &o->games);
        if (m == 0)
            fprintf(stderr, "ttt: %s: unknown option '%s'\n", cmd, arg);
        if (m <= 0)
            return -1;
    }
    return 0;
}

/* Creates the board a command works on. Returns 0, or the exit status
 * after reporting a size or K the library rejects. */
static int make_game(const struct options *o, ttt_game **g)
{
    int status = ttt_game_new((int)o->size, (int)o->k, g);

    if (status != TTT_OK) {
        fprintf(stderr, "ttt: size %ld, k %ld: %s (need %d <= K <= N <= %d)\n",
                o->size, o->k ? o->k : o->size, ttt_strerror(status),
                TTT_MIN_SIZE, TTT_MAX_SIZE);
        return status == TTT_E_NOMEM ? EXIT_FAILURE : EXIT_USAGE;
    }
    ttt_game_set_rule(*g, TTT_RULE_MISERE, o->misere);
    ttt_game_set_rule(*g, TTT_RULE_EARLY_DRAW, o->early_draw);
    return 0;
}

static int cmd_play(int argc, char **argv)
{
    struct options o = default_options();
    struct session s;
    int npos, status, computer_failed = 0;

    o.player[1] = PLAYER_PERFECT;
    if (parse_options("play", OPT_RULES | OPT_BOARD | OPT_PLAYERS, argc, argv,
                      &o, &npos) != 0)
        return usage_error();
    if (o.help) {
        print_usage(stdout);
        return 0;
    }
    if (npos > 0) {
        fprintf(stderr, "ttt: play: unexpected argument '%s'\n", argv[0]);
        return usage_error();
    }
    memset(&s, 0, sizeof s);
    if ((status = make_game(&o, &s.game)) != 0)
        return status;
    s.player[0] = o.player[0];
    s.player[1] = o.player[1];
    s.engine.seed = o.seed;
    s.engine.bot_budget = o.budget;
    s.engine.perfect_budget = o.perfect_budget;
    s.engine.notes = stdout; /* part of the game's transcript */
    s.interactive = isatty(STDIN_FILENO);

    if (s.interactive)
        printf("%ldx%ld board, %d in a row%s%s; X: %s, O: %s. Type help for "
               "the commands.\n",
               o.size, o.size, ttt_win_length(s.game),
               o.misere ? ", misere: completing a line loses" : "",
               o.early_draw ? ", early draw" : "",
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
    char name[NAME_CAP];
    char *text = NULL;
    size_t len = 0, offset = 0;
    ttt_game *g = NULL;
    int status, plies, misere = 0, early_draw = 0;

    if (argc != 1) {
        fprintf(stderr, "ttt: replay needs exactly one FILE\n");
        return usage_error();
    }
    if (read_file(argv[0], RECORD_CAP, &text, &len) != 0) {
        if (errno == EFBIG)
            fprintf(stderr,
                    "ttt: %s: larger than 8 MiB (%zu bytes); no saved game "
                    "is that long\n",
                    argv[0], RECORD_CAP);
        else
            fprintf(stderr, "ttt: cannot read %s: %s\n", argv[0], strerror(errno));
        return EXIT_USAGE;
    }
    status = ttt_game_load(text, len, NULL, &g, &offset);
    free(text);
    if (status != TTT_OK) {
        fprintf(stderr, "ttt: %s: byte %zu: %s\n", argv[0], offset,
                ttt_strerror(status));
        return EXIT_USAGE;
    }

    ttt_game_get_rule(g, TTT_RULE_MISERE, &misere);
    ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &early_draw);
    plies = ttt_ply(g);
    printf("%dx%d board, %d in a row, rules %s, %d moves\n", ttt_size(g),
           ttt_size(g), ttt_win_length(g),
           misere && early_draw ? "misere+early-draw"
           : misere             ? "misere"
           : early_draw         ? "early-draw"
                                : "classic",
           plies);

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
    print_outcome(g);
    printf("result: %s\n", result_text(ttt_state(g)));
    ttt_game_free(g);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Engine commands: perft, solve, match                                      */
/* ------------------------------------------------------------------------ */

/* Sets up the position perft and solve work on: SIZE and K from the
 * command line (into o), then the named moves played in turn from X.
 * Returns 0, or the exit status after reporting the problem. */
static int setup_position(const char *cmd, const char *size, const char *k,
                          char **moves, int move_count, struct options *o,
                          ttt_game **g)
{
    int status;

    if (parse_long(size, 1, INT_MAX, &o->size) != 0) {
        fprintf(stderr, "ttt: %s: SIZE '%s' is not a board size\n", cmd, size);
        return usage_error();
    }
    if (parse_long(k, 1, INT_MAX, &o->k) != 0) {
        fprintf(stderr, "ttt: %s: K '%s' is not a line length\n", cmd, k);
        return usage_error();
    }
    if ((status = make_game(o, g)) != 0)
        return status;
    for (int i = 0; i < move_count; i++) {
        size_t len = strlen(moves[i]), used = 0;
        int row = 0, col = 0;

        status = ttt_parse_cell(moves[i], len, &row, &col, &used);
        if (status == TTT_OK && used != len)
            status = TTT_E_PARSE; /* "b2x": a name followed by junk */
        if (status == TTT_OK)
            status = ttt_play(*g, ttt_to_move(*g), row, col, NULL);
        if (status != TTT_OK) {
            fprintf(stderr, "ttt: %s: move %d, '%s': %s\n", cmd, i + 1,
                    moves[i], ttt_strerror(status));
            ttt_game_free(*g);
            *g = NULL;
            return EXIT_USAGE;
        }
    }
    return 0;
}

static int cmd_perft(int argc, char **argv)
{
    struct options o = default_options();
    uint64_t counts[4];
    uint64_t *by_length;
    size_t capacity, len = 0;
    long depth;
    ttt_game *g = NULL;
    int npos, status, empty;

    if (parse_options("perft", OPT_RULES, argc, argv, &o, &npos) != 0)
        return usage_error();
    if (o.help) {
        print_usage(stdout);
        return 0;
    }
    if (npos < 3) {
        fprintf(stderr, "ttt: perft needs SIZE K DEPTH\n");
        return usage_error();
    }
    if (parse_long(argv[2], 0, INT_MAX, &depth) != 0) {
        fprintf(stderr, "ttt: perft: DEPTH '%s' is not a number of plies\n",
                argv[2]);
        return usage_error();
    }
    if ((status = setup_position("perft", argv[0], argv[1], argv + 3,
                                 npos - 3, &o, &g)) != 0)
        return status;

    /* Games end by the time the board is full, so lengths stop there. */
    empty = ttt_size(g) * ttt_size(g) - ttt_ply(g);
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

static const char *value_name(int value)
{
    switch (value) {
    case TTT_VALUE_WIN: return "win";
    case TTT_VALUE_DRAW: return "draw";
    case TTT_VALUE_LOSS: return "loss";
    default: return "unknown";
    }
}

static int cmd_solve(int argc, char **argv)
{
    struct options o = default_options();
    ttt_solution sol;
    int32_t *best;
    size_t cells, best_len = 0;
    ttt_game *g = NULL;
    int npos, status, n, complete;

    if (parse_options("solve", OPT_RULES | OPT_SOLVE, argc, argv, &o,
                      &npos) != 0)
        return usage_error();
    if (o.help) {
        print_usage(stdout);
        return 0;
    }
    if (npos < 2) {
        fprintf(stderr, "ttt: solve needs SIZE K\n");
        return usage_error();
    }
    if ((status = setup_position("solve", argv[0], argv[1], argv + 2,
                                 npos - 2, &o, &g)) != 0)
        return status;

    n = ttt_size(g);
    cells = (size_t)n * (size_t)n; /* enough for every optimal move */
    best = malloc(cells * sizeof *best);
    memset(&sol, 0, sizeof sol);
    sol.size = sizeof sol;
    status = best == NULL
                 ? TTT_E_NOMEM
                 : ttt_solve(g, o.budget, 0,
                             o.value_only ? TTT_SOLVE_VALUE_ONLY : 0, &sol,
                             best, cells, &best_len);
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
               cell_name((int)(best[i] / n), (int)(best[i] % n), name));
    }
    printf(" nodes=%" PRIu64 "\n", sol.nodes);

    if (status == TTT_E_BUDGET)
        fprintf(stderr,
                "ttt: solve: the budget of %" PRIu64 " nodes ran out; the "
                "value lies between %s and %s\n",
                o.budget, value_name(sol.value_min), value_name(sol.value_max));
    ttt_game_free(g);
    free(best);
    return status == TTT_OK ? 0 : EXIT_FAILURE;
}

static int cmd_match(int argc, char **argv)
{
    struct options o = default_options();
    struct engine e;
    uint64_t wins[4] = {0, 0, 0, 0}; /* indexed by the final state */
    ttt_game *g = NULL;
    int npos, status = TTT_OK;

    if (parse_options("match", OPT_RULES | OPT_BOARD | OPT_PLAYERS | OPT_GAMES,
                      argc, argv, &o, &npos) != 0)
        return usage_error();
    if (o.help) {
        print_usage(stdout);
        return 0;
    }
    if (npos > 0) {
        fprintf(stderr, "ttt: match: unexpected argument '%s'\n", argv[0]);
        return usage_error();
    }
    if (!o.player_given[0] || !o.player_given[1]) {
        fprintf(stderr, "ttt: match needs --x KIND and --o KIND\n");
        return usage_error();
    }
    if (o.player[0] == PLAYER_HUMAN || o.player[1] == PLAYER_HUMAN) {
        fprintf(stderr, "ttt: match: players are random, bot or perfect\n");
        return usage_error();
    }
    if ((status = make_game(&o, &g)) != 0)
        return status;

    memset(&e, 0, sizeof e);
    e.bot_budget = o.budget;
    e.perfect_budget = o.perfect_budget;
    e.notes = stderr; /* stdout carries only the tally */
    for (long i = 0; i < o.games && status == TTT_OK; i++) {
        /* Each game on its own seed, as `ttt play --seed S+i` plays it.
         * A perfect player that gave up stays the bot: the next game's
         * opening would cost it the same fruitless search. */
        e.seed = o.seed + (uint64_t)i;
        ttt_game_reset(g);
        while (status == TTT_OK && ttt_state(g) == TTT_IN_PROGRESS) {
            int row = 0, col = 0;
            enum player_kind kind = o.player[side_index(ttt_to_move(g))];
            status = computer_move(&e, g, kind, &row, &col);
            if (status == TTT_OK)
                status = ttt_play(g, ttt_to_move(g), row, col, NULL);
        }
        wins[ttt_state(g)]++;
    }
    ttt_game_free(g);
    if (status != TTT_OK) {
        fprintf(stderr, "ttt: match: %s\n", ttt_strerror(status));
        return EXIT_FAILURE;
    }
    printf("x_won=%" PRIu64 " o_won=%" PRIu64 " draw=%" PRIu64 "\n",
           wins[TTT_X_WON], wins[TTT_O_WON], wins[TTT_DRAW]);
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd == NULL) {
        print_usage(stderr);
        return EXIT_USAGE;
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
    fprintf(stderr, "ttt: unknown command '%s'\n", cmd);
    return usage_error();
}
