/* fuzz_api.c - libFuzzer target: bytes become a sequence of API calls, each checked against a naive model of the game. */

/*
 * The model below is written for clarity, not speed: its own board array,
 * a full rescan of every K-window after each move to find a win (so it
 * knows nothing of the library's counters, scans or permutation), and early
 * draw read straight from its definition: every K-window in the four
 * directions holds both marks. Every call's status, out-parameters and
 * listener event are compared with what the model predicts; the first
 * disagreement traps, which libFuzzer reports as a crash.
 *
 * Input layout: a stream of operations, one byte of opcode then the bytes
 * its arguments need; running out of bytes reads zeros. Up to SLOTS games
 * are alive at once so clone and load can target another game.
 *
 * Since 1.2 the model also follows player names (checked against its own
 * UTF-8 reading of the rules), resignations and agreed draws with their
 * undo and redo, and the ply limit. ttt_random_playout is not run on a game
 * with a ply limit: the header says the engine does not apply the limit.
 *
 * Since 1.3 the model's board is W x H (a square when W = H) and it knows
 * gravity from its definition (an empty cell over an empty cell floats);
 * it checks the rectangle constructors, ttt_width, ttt_height, ttt_drop,
 * ttt_legal_moves and the w=/h= and gravity records.
 */

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)               \
    do {                          \
        if (!(cond))              \
            __builtin_trap();     \
    } while (0)

#define SLOTS 3
#define MAXN 12        /* largest board the model follows move by move */
#define MAX_OPS 512    /* bounds the work per input */

/* ------------------------------------------------------------------------ */
/* Reading the input                                                         */

typedef struct input {
    const uint8_t *p;
    size_t left;
} input;

static unsigned byte(input *in)
{
    if (in->left == 0)
        return 0;
    in->left--;
    return *in->p++;
}

/* Values that sit on or beyond every boundary the API has. */
static const int edge_values[16] = {
    INT_MIN, INT_MIN + 1, -65536, -2, -1, 0, 1, 2,
    3, 4, TTT_MAX_SIZE - 1, TTT_MAX_SIZE, TTT_MAX_SIZE + 1, 65536, INT_MAX - 1,
    INT_MAX,
};

/* An int: one of the edge values, or a small one in 0..range-1. */
static int any_int(input *in, int range)
{
    unsigned b = byte(in);
    if (b < 16)
        return edge_values[b];
    return (int)((b - 16) % (unsigned)range);
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

typedef struct model {
    int w, h, k, misere, early_draw, gravity; /* w columns, h rows */
    int state;
    int ply;   /* moves in history */
    int redo;  /* moves on the redo stack */
    int8_t cells[MAXN * MAXN];
    int hist[MAXN * MAXN]; /* cell index of each move, in order */
    int undone[MAXN * MAXN]; /* redo stack, the next move to redo on top */
    int limit;       /* the ply limit, 0 for none (n * n reads back as 0) */
    int ending;      /* OFF_BOARD_* below, or 0 for none */
    int redo_ending; /* an undone ending at the bottom of the redo stack */
    int named;       /* a name was ever set: the game has its name block */
    int name_len[2]; /* X, then O */
    char name[2][TTT_NAME_MAX];
} model;

/* The endings that are not on the board. */
#define OFF_BOARD_X_RESIGNED 1
#define OFF_BOARD_O_RESIGNED 2
#define OFF_BOARD_AGREED 3

static const int step_row[4] = {0, 1, 1, 1};
static const int step_col[4] = {1, 0, 1, -1};

static void model_init(model *m, int w, int h, int k)
{
    memset(m, 0, sizeof *m);
    m->w = w;
    m->h = h;
    m->k = k == 0 ? (w < h ? w : h) : k;
    m->state = TTT_IN_PROGRESS;
}

static int mover_of(int ply)
{
    return (ply % 2 == 0) ? TTT_X : TTT_O;
}

static int on_board(const model *m, int row, int col)
{
    return row >= 0 && row < m->h && col >= 0 && col < m->w;
}

/* Counts the marks in the K-window starting at (row, col) in direction d;
 * returns 0 if that window does not fit on the board. */
static int window_marks(const model *m, int row, int col, int d, int *x, int *o)
{
    if (!on_board(m, row + (m->k - 1) * step_row[d],
                  col + (m->k - 1) * step_col[d]))
        return 0;
    *x = *o = 0;
    for (int i = 0; i < m->k; i++) {
        int8_t c = m->cells[(row + i * step_row[d]) * m->w + col + i * step_col[d]];
        *x += c == TTT_X;
        *o += c == TTT_O;
    }
    return 1;
}

/* Some K-window is all mark. */
static int has_line(const model *m, int mark)
{
    for (int row = 0; row < m->h; row++)
        for (int col = 0; col < m->w; col++)
            for (int d = 0; d < 4; d++) {
                int x, o;
                if (window_marks(m, row, col, d, &x, &o) &&
                    (mark == TTT_X ? x : o) == m->k)
                    return 1;
            }
    return 0;
}

/* Some K-window lacks one of the marks, so someone could still fill it. */
static int has_open_window(const model *m)
{
    for (int row = 0; row < m->h; row++)
        for (int col = 0; col < m->w; col++)
            for (int d = 0; d < 4; d++) {
                int x, o;
                if (window_marks(m, row, col, d, &x, &o) && (x == 0 || o == 0))
                    return 1;
            }
    return 0;
}

/* Places the mover's mark at cell and settles the state: a completed line
 * first, then a full board or (early draw) no window left open. */
static void model_place(model *m, int cell)
{
    int mark = mover_of(m->ply);
    m->cells[cell] = (int8_t)mark;
    m->hist[m->ply++] = cell;
    if (has_line(m, mark)) {
        int winner = m->misere ? -mark : mark;
        m->state = winner == TTT_X ? TTT_X_WON : TTT_O_WON;
    } else if (m->ply == m->w * m->h ||
               (m->early_draw && !has_open_window(m)) ||
               (m->limit > 0 && m->ply == m->limit)) {
        m->state = TTT_DRAW;
    }
}

/* How the game ended, as ttt_ending must tell it. */
static int model_ending(const model *m)
{
    if (m->state == TTT_IN_PROGRESS)
        return TTT_END_NONE;
    if (m->ending == OFF_BOARD_AGREED)
        return TTT_END_AGREED;
    if (m->ending != 0)
        return TTT_END_RESIGN;
    if (m->state != TTT_DRAW)
        return TTT_END_LINE;
    if (m->ply == m->w * m->h)
        return TTT_END_FULL_BOARD;
    if (m->early_draw && !has_open_window(m))
        return TTT_END_NO_LINE;
    return TTT_END_PLY_LIMIT;
}

static int ending_state(int ending)
{
    return ending == OFF_BOARD_X_RESIGNED   ? TTT_O_WON
           : ending == OFF_BOARD_O_RESIGNED ? TTT_X_WON
                                            : TTT_DRAW;
}

static int ending_mark(int ending)
{
    return ending == OFF_BOARD_X_RESIGNED   ? TTT_X
           : ending == OFF_BOARD_O_RESIGNED ? TTT_O
                                            : TTT_EMPTY;
}

/* A name as the header defines one, read the long way: decode each
 * character, then judge it. */
static int model_name_ok(const unsigned char *b, size_t len)
{
    if (len > TTT_NAME_MAX)
        return 0;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n;
        if (b[i] < 0x80) {
            cp = b[i];
            n = 1;
        } else if ((b[i] & 0xE0) == 0xC0) {
            cp = b[i] & 0x1Fu;
            n = 2;
        } else if ((b[i] & 0xF0) == 0xE0) {
            cp = b[i] & 0x0Fu;
            n = 3;
        } else if ((b[i] & 0xF8) == 0xF0) {
            cp = b[i] & 0x07u;
            n = 4;
        } else {
            return 0;
        }
        if (i + n > len)
            return 0;
        for (size_t j = 1; j < n; j++) {
            if ((b[i + j] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (b[i + j] & 0x3Fu);
        }
        static const uint32_t shortest[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < shortest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
            return 0;
        i += n;
    }
    return 1;
}

/* The status ttt_play must give, in the header's order of checks. */
static int model_play_status(const model *m, int mark, int row, int col)
{
    if (m->state != TTT_IN_PROGRESS)
        return TTT_E_GAME_OVER;
    if (mark != TTT_X && mark != TTT_O)
        return TTT_E_MARK;
    if (mark != mover_of(m->ply))
        return TTT_E_WRONG_TURN;
    if (!on_board(m, row, col))
        return TTT_E_OFF_BOARD;
    if (m->cells[row * m->w + col] != TTT_EMPTY)
        return TTT_E_OCCUPIED;
    /* Gravity, from its definition: the cell below must be taken. */
    if (m->gravity && row + 1 < m->h && m->cells[(row + 1) * m->w + col] == TTT_EMPTY)
        return TTT_E_FLOATING;
    return TTT_OK;
}

/* Whether the side to move could play cell (under gravity, only a landing
 * cell). */
static int model_playable(const model *m, int cell)
{
    return m->cells[cell] == TTT_EMPTY &&
           (!m->gravity || cell / m->w + 1 == m->h ||
            m->cells[cell + m->w] != TTT_EMPTY);
}

/* The row a dropped mark lands in: a walk up the column; -1 if full. */
static int model_drop_row(const model *m, int col)
{
    int row = m->h - 1;
    while (row >= 0 && m->cells[row * m->w + col] != TTT_EMPTY)
        row--;
    return row;
}

static void model_undo(model *m)
{
    int cell = m->hist[--m->ply];
    m->cells[cell] = TTT_EMPTY;
    m->undone[m->redo++] = cell;
    m->state = TTT_IN_PROGRESS;
}

static int model_to_move(const model *m)
{
    return m->state == TTT_IN_PROGRESS ? mover_of(m->ply) : TTT_EMPTY;
}

/* The winning line's ends: the longest run of the last mover's mark through
 * the last move, in the first direction where it reaches K. */
static int model_line(const model *m, int ends[4])
{
    if ((m->state != TTT_X_WON && m->state != TTT_O_WON) || m->ending != 0)
        return TTT_E_NO_LINE;
    int cell = m->hist[m->ply - 1];
    int row = cell / m->w, col = cell % m->w, mark = m->cells[cell];
    for (int d = 0; d < 4; d++) {
        int back = 0, ahead = 0;
        while (on_board(m, row - (back + 1) * step_row[d],
                        col - (back + 1) * step_col[d]) &&
               m->cells[(row - (back + 1) * step_row[d]) * m->w +
                        (col - (back + 1) * step_col[d])] == mark)
            back++;
        while (on_board(m, row + (ahead + 1) * step_row[d],
                        col + (ahead + 1) * step_col[d]) &&
               m->cells[(row + (ahead + 1) * step_row[d]) * m->w +
                        (col + (ahead + 1) * step_col[d])] == mark)
            ahead++;
        if (back + ahead + 1 >= m->k) {
            ends[0] = row - back * step_row[d];
            ends[1] = col - back * step_col[d];
            ends[2] = row + ahead * step_row[d];
            ends[3] = col + ahead * step_col[d];
            return TTT_OK;
        }
    }
    return TTT_E_NO_LINE;
}

/* A cell name written the long way: bijective base 26 letters, then the
 * 1-based row. */
static size_t model_cell_name(int row, int col, char *out)
{
    char letters[8];
    int count = 0;
    size_t len = 0;
    for (int v = col + 1; v > 0; v = (v - 1) / 26)
        letters[count++] = (char)('a' + (v - 1) % 26);
    while (count > 0)
        out[len++] = letters[--count];
    char digits[12];
    for (int v = row + 1; v > 0; v /= 10)
        digits[count++] = (char)('0' + v % 10);
    while (count > 0)
        out[len++] = digits[--count];
    return len;
}

/* The record the library must save for the model's game. */
static size_t model_record(const model *m, char *out)
{
    static const char *const rules[2][2][2] = {
        {{"classic", "gravity"}, {"early-draw", "early-draw+gravity"}},
        {{"misere", "misere+gravity"},
         {"misere+early-draw", "misere+early-draw+gravity"}}};
    size_t len = 0;
    /* Built by hand, not with snprintf, to share nothing with the library.
     * A square is n=N, a rectangle w=W h=H. */
    char n_text[24], k_text[8];
    const char *parts[] = {m->w == m->h ? "ttt/1 n=" : "ttt/1 w=", NULL, " k=",
                           NULL, " rules=",
                           rules[m->misere][m->early_draw][m->gravity], " moves="};
    char h_text[8];
    int values[3] = {m->w, m->k, m->h};
    char *texts[3] = {n_text, k_text, h_text};
    for (int i = 0; i < 3; i++) {
        char rev[8];
        int count = 0;
        for (int v = values[i]; v > 0; v /= 10)
            rev[count++] = (char)('0' + v % 10);
        int j = 0;
        while (count > 0)
            texts[i][j++] = rev[--count];
        texts[i][j] = '\0';
    }
    if (m->w != m->h) {
        size_t at = strlen(n_text);
        memcpy(n_text + at, " h=", 3);
        memcpy(n_text + at + 3, h_text, strlen(h_text) + 1);
    }
    parts[1] = n_text;
    parts[3] = k_text;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        size_t l = strlen(parts[i]);
        memcpy(out + len, parts[i], l);
        len += l;
    }
    if (m->limit > 0) {
        /* " limit=" goes before " moves=", which was just written. */
        len -= strlen(" moves=");
        memcpy(out + len, " limit=", 7);
        len += 7;
        char rev[8];
        int count = 0;
        for (int v = m->limit; v > 0; v /= 10)
            rev[count++] = (char)('0' + v % 10);
        while (count > 0)
            out[len++] = rev[--count];
        memcpy(out + len, " moves=", 7);
        len += 7;
    }
    if (m->ply == 0)
        out[len++] = '-';
    for (int i = 0; i < m->ply; i++) {
        if (i > 0)
            out[len++] = ',';
        len += model_cell_name(m->hist[i] / m->w, m->hist[i] % m->w, out + len);
    }
    for (int side = 0; side < 2; side++) {
        if (m->name_len[side] == 0)
            continue;
        memcpy(out + len, side == 0 ? " x=\"" : " o=\"", 4);
        len += 4;
        for (int i = 0; i < m->name_len[side]; i++) {
            char c = m->name[side][i];
            if (c == '"' || c == '\\')
                out[len++] = '\\';
            out[len++] = c;
        }
        out[len++] = '"';
    }
    if (m->ending != 0) {
        static const char *const endings[] = {"", " end=resign-x",
                                              " end=resign-o",
                                              " end=draw-agreed"};
        size_t l = strlen(endings[m->ending]);
        memcpy(out + len, endings[m->ending], l);
        len += l;
    }
    out[len++] = '\n';
    return len;
}

/* The longest record: header, then n*n names of up to 4 bytes plus commas,
 * the limit, two names of up to 64 bytes all escaped, and the ending. */
#define RECORD_MAX (96 + MAXN * MAXN * 5 + 16 + 2 * (5 + 2 * TTT_NAME_MAX) + 20)

/* ------------------------------------------------------------------------ */
/* A counting allocator, so no input can leak a block unnoticed.            */

typedef struct heap {
    long live;
    int fail_next; /* refuse the next allocation */
} heap;

static heap the_heap; /* reset at the start of every input */

static void *heap_alloc(void *user, size_t size)
{
    heap *h = user;
    if (h->fail_next) {
        h->fail_next = 0;
        return NULL;
    }
    void *p = malloc(size);
    h->live += p != NULL;
    return p;
}

static void heap_dealloc(void *user, void *ptr)
{
    heap *h = user;
    if (ptr != NULL)
        h->live--;
    free(ptr);
}

static const ttt_allocator counting = {heap_alloc, heap_dealloc, &the_heap};

/* ------------------------------------------------------------------------ */
/* Games under test                                                          */

typedef struct slot {
    ttt_game *game;   /* NULL when the slot is empty */
    void *mem;        /* caller memory behind a ttt_game_init game */
    int counted;      /* allocated by the counting allocator */
    int listening;    /* our listener is installed */
    int events;       /* events seen */
    ttt_event last;   /* the latest of them */
    model m;
} slot;

static slot slots[SLOTS];

/* The listener checks the event against the game it came from: it may call
 * read-only functions, and they must already show the event's result. */
static void on_event(void *user, const ttt_event *event)
{
    slot *s = user;
    CHECK(ttt_ply(s->game) == event->ply);
    CHECK(ttt_state(s->game) == event->state);
    s->events++;
    s->last = *event;
}

static void release(slot *s)
{
    ttt_game_free(s->game);
    free(s->mem);
    s->game = NULL;
    s->mem = NULL;
    s->counted = 0;
    s->listening = 0;
}

/* The game agrees with its model in everything a caller can read. */
static void check_game(const slot *s)
{
    const model *m = &s->m;
    ttt_game *g = s->game;
    if (g == NULL)
        return;
    CHECK(ttt_size(g) == (m->w == m->h ? m->w : TTT_E_SIZE));
    CHECK(ttt_width(g) == m->w && ttt_height(g) == m->h);
    CHECK(ttt_win_length(g) == m->k);
    CHECK(ttt_state(g) == m->state);
    CHECK(ttt_ply(g) == m->ply);
    CHECK(ttt_redo_count(g) == m->redo + (m->redo_ending != 0));
    CHECK(ttt_ending(g) == model_ending(m));
    CHECK(ttt_to_move(g) == model_to_move(m));
    int value = -1;
    CHECK(ttt_game_get_rule(g, TTT_RULE_MISERE, &value) == TTT_OK);
    CHECK(value == m->misere);
    CHECK(ttt_game_get_rule(g, TTT_RULE_EARLY_DRAW, &value) == TTT_OK);
    CHECK(value == m->early_draw);
    CHECK(ttt_game_get_rule(g, TTT_RULE_PLY_LIMIT, &value) == TTT_OK);
    CHECK(value == m->limit);
    CHECK(ttt_game_get_rule(g, TTT_RULE_GRAVITY, &value) == TTT_OK);
    CHECK(value == m->gravity);

    /* The legal moves: the cells the model would take, ascending. */
    int32_t legal[MAXN * MAXN];
    size_t legal_len = 0, want_legal = 0;
    CHECK(ttt_legal_moves(g, legal, MAXN * MAXN, &legal_len) == TTT_OK);
    for (int cell = 0; cell < m->w * m->h && m->state == TTT_IN_PROGRESS; cell++) {
        if (model_playable(m, cell)) {
            CHECK(want_legal < legal_len && legal[want_legal] == cell);
            want_legal++;
        }
    }
    CHECK(legal_len == want_legal);
    for (int side = 0; side < 2; side++) {
        char name[TTT_NAME_MAX + 1];
        size_t len = 0;
        CHECK(ttt_game_get_name(g, side == 0 ? TTT_X : TTT_O, name, sizeof name,
                                &len) == TTT_OK);
        CHECK(len == (size_t)m->name_len[side] && name[len] == '\0');
        CHECK(memcmp(name, m->name[side], len) == 0);
    }

    int8_t cells[MAXN * MAXN];
    size_t len = 0;
    CHECK(ttt_board(g, cells, sizeof cells, &len) == TTT_OK);
    CHECK(len == (size_t)(m->w * m->h));
    CHECK(memcmp(cells, m->cells, len) == 0);

    for (int ply = 0; ply < m->ply; ply++) {
        int mark = 0, row = -1, col = -1;
        CHECK(ttt_move_at(g, ply, &mark, &row, &col) == TTT_OK);
        CHECK(mark == mover_of(ply));
        CHECK(row * m->w + col == m->hist[ply]);
    }
    CHECK(ttt_move_at(g, m->ply, NULL, NULL, NULL) == TTT_E_RANGE);
    CHECK(ttt_move_at(g, -1, NULL, NULL, NULL) == TTT_E_RANGE);

    int ends[4] = {-9, -9, -9, -9}, want[4];
    int status = ttt_winning_line(g, &ends[0], &ends[1], &ends[2], &ends[3]);
    CHECK(status == model_line(m, want));
    if (status == TTT_OK)
        CHECK(memcmp(ends, want, sizeof ends) == 0);
}

/* After a call that should have announced exactly one event. */
static void check_event(slot *s, int before, int kind, int mark, int row,
                        int col)
{
    if (!s->listening) {
        CHECK(s->events == before);
        return;
    }
    CHECK(s->events == before + 1);
    CHECK(s->last.kind == kind);
    CHECK(s->last.mark == mark);
    CHECK(s->last.row == row);
    CHECK(s->last.col == col);
    CHECK(s->last.ply == s->m.ply);
    CHECK(s->last.state == s->m.state);
}

static void adopt(slot *s, ttt_game *game, void *mem, int counted,
                  const model *m)
{
    release(s);
    s->game = game;
    s->mem = mem;
    s->counted = counted;
    s->m = *m;
    s->events = 0;
    if (ttt_set_listener(game, NULL, NULL) != TTT_OK)
        __builtin_trap();
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */

static int valid_side(int side)
{
    return side >= TTT_MIN_SIZE && side <= TTT_MAX_SIZE;
}

static int valid_geometry(int width, int height, int k)
{
    int longest = width > height ? width : height;
    return valid_side(width) && valid_side(height) &&
           (k == 0 || (k >= TTT_MIN_SIZE && k <= longest));
}

/* A board too large for the model: only its shape and emptiness are
 * checked before it goes. */
static void check_big(ttt_game *g, int width, int height, int k)
{
    int mark = -5;
    CHECK(ttt_size(g) == (width == height ? width : TTT_E_SIZE));
    CHECK(ttt_width(g) == width && ttt_height(g) == height);
    CHECK(ttt_win_length(g) == (k == 0 ? (width < height ? width : height) : k));
    CHECK(ttt_ply(g) == 0);
    CHECK(ttt_cell(g, height - 1, width - 1, &mark) == TTT_OK && mark == TTT_EMPTY);
    CHECK(ttt_cell(g, height, 0, &mark) == TTT_E_OFF_BOARD);
    CHECK(ttt_cell(g, 0, width, &mark) == TTT_E_OFF_BOARD);
    CHECK(ttt_play(g, TTT_X, height - 1, 0, NULL) == TTT_OK);
    CHECK(ttt_cell(g, height - 1, 0, &mark) == TTT_OK && mark == TTT_X);
}

/* The first four ways make squares through the 1.0 calls, the next four
 * rectangles through the 1.3 ones (same order: plain, allocator, caller
 * memory, NULL out). */
static void op_new(input *in, slot *s)
{
    unsigned how = byte(in);
    int rect = (how & 4) != 0;
    int size = any_int(in, MAXN + 2);
    int height = rect ? any_int(in, MAXN + 2) : size;
    int k = any_int(in, MAXN + 2);
    int valid = valid_geometry(size, height, k);
    ttt_game *game = NULL;
    void *mem = NULL;
    int status;

    size_t footprint = rect ? ttt_game_footprint_rect(size, height, k)
                            : ttt_game_footprint(size, k);
    CHECK((footprint > 0) == valid);
    if (valid && !rect)
        CHECK(footprint == ttt_game_footprint_rect(size, size, k));
    /* Boards beyond the model's reach cost up to megabytes and a clear of
     * every cell: keep them rare, or they take most of the fuzzing time. */
    int big = valid && (size > MAXN || height > MAXN);
    if (big && (how & 0xf0) != 0)
        return;

    switch (how % 4) {
    case 0:
        status = rect ? ttt_game_new_rect(size, height, k, &game)
                      : ttt_game_new(size, k, &game);
        break;
    case 1:
        the_heap.fail_next = (how & 8) != 0;
        status = rect ? ttt_game_new_rect_with(size, height, k, &counting, &game)
                      : ttt_game_new_with(size, k, &counting, &game);
        if (valid && (how & 8)) {
            CHECK(status == TTT_E_NOMEM && game == NULL);
            CHECK(the_heap.fail_next == 0);
            return;
        }
        the_heap.fail_next = 0;
        break;
    case 2: {
        /* Caller memory, sometimes one byte short or misaligned. */
        size_t bytes = valid ? footprint : 64;
        int short_by = (how & 8) != 0;
        int misalign = (how & 16) != 0 && (how & 0xe0) == 0;
        mem = malloc(bytes + 16);
        CHECK(mem != NULL);
        void *at = (char *)mem + (misalign ? 1 : 0);
        status = rect ? ttt_game_init_rect(at, bytes - (size_t)short_by, size,
                                           height, k, &game)
                      : ttt_game_init(at, bytes - (size_t)short_by, size, k, &game);
        if (misalign) {
            CHECK(status == TTT_E_INVALID && game == NULL);
            free(mem);
            return;
        }
        if (valid && short_by) {
            CHECK(status == TTT_E_BUFFER && game == NULL);
            free(mem);
            return;
        }
        break;
    }
    default:
        /* NULL out-pointer first: it wins over every other problem. */
        CHECK(ttt_game_new(size, k, NULL) == TTT_E_INVALID);
        CHECK(ttt_game_new_with(size, k, &counting, NULL) == TTT_E_INVALID);
        CHECK(ttt_game_new_rect(size, height, k, NULL) == TTT_E_INVALID);
        CHECK(ttt_game_new_rect_with(size, height, k, &counting, NULL) ==
              TTT_E_INVALID);
        return;
    }

    if (!valid) {
        CHECK(status == TTT_E_SIZE && game == NULL);
        free(mem);
        return;
    }
    CHECK(status == TTT_OK && game != NULL);
    if (big) {
        check_big(game, size, height, k);
        ttt_game_free(game);
        free(mem);
        return;
    }
    model m;
    model_init(&m, size, height, k);
    adopt(s, game, mem, how % 4 == 1, &m);
}

static int pick_mark(input *in, const model *m)
{
    unsigned b = byte(in);
    switch (b % 8) {
    case 0: return TTT_X;
    case 1: return TTT_O;
    case 5: return TTT_EMPTY;
    case 6: {
        int v = any_int(in, 5);
        return v >= INT_MIN + 2 ? v - 2 : v;
    }
    default: return m->state == TTT_IN_PROGRESS ? mover_of(m->ply) : TTT_X;
    }
}

static int pick_coord(input *in, const model *m)
{
    unsigned b = byte(in);
    if (b < 16)
        return edge_values[b];
    int longest = m->w > m->h ? m->w : m->h;
    return (int)((b - 16) % (unsigned)(longest + 1));
}

/* ttt_play with the model's verdict, then the state out-parameter and the
 * event. */
static void play_and_check(slot *s, int mark, int row, int col)
{
    int expect = model_play_status(&s->m, mark, row, col);
    int state = 77, before = s->events;
    int status = ttt_play(s->game, mark, row, col, &state);
    CHECK(status == expect);
    if (status != TTT_OK) {
        CHECK(state == 77); /* failed calls leave out-parameters alone */
        CHECK(s->events == before);
        return;
    }
    s->m.redo = 0;
    s->m.redo_ending = 0;
    model_place(&s->m, row * s->m.w + col);
    CHECK(state == s->m.state);
    check_event(s, before, TTT_EVENT_PLAY, mark, row, col);
}

static void op_play(input *in, slot *s)
{
    int mark = pick_mark(in, &s->m);
    int row = pick_coord(in, &s->m);
    int col = pick_coord(in, &s->m);
    play_and_check(s, mark, row, col);
}

/* A legal move (when the game is open): the n-th empty cell. Random ints
 * alone rarely get a game far. */
static void op_play_empty(input *in, slot *s)
{
    const model *m = &s->m;
    int empties = 0;
    for (int cell = 0; cell < m->w * m->h; cell++)
        empties += model_playable(m, cell);
    if (empties == 0)
        return;
    int pick = (int)(byte(in) % (unsigned)empties);
    for (int cell = 0; cell < m->w * m->h; cell++) {
        if (model_playable(m, cell) && pick-- == 0) {
            int mark = m->state == TTT_IN_PROGRESS ? mover_of(m->ply) : TTT_O;
            play_and_check(s, mark, cell / m->w, cell % m->w);
            return;
        }
    }
}

/* Plays a whole random game from here (legal moves, seeded by two input
 * bytes), checking after every move: many finished games per input. */
static void op_playout(input *in, slot *s)
{
    uint32_t rng = (byte(in) << 8 | byte(in)) * 2654435761u + 1u;
    while (s->m.state == TTT_IN_PROGRESS) {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        const model *m = &s->m;
        int empties = 0;
        for (int cell = 0; cell < m->w * m->h; cell++)
            empties += model_playable(m, cell);
        int pick = (int)(rng % (uint32_t)empties);
        for (int cell = 0; cell < m->w * m->h; cell++) {
            if (model_playable(m, cell) && pick-- == 0) {
                play_and_check(s, mover_of(m->ply), cell / m->w, cell % m->w);
                break;
            }
        }
        check_game(s);
    }
}

#ifdef TTT_SOLVE_VALUE_ONLY /* the engine's functions are declared */
/* The random player: a move is an empty cell and the seed moves on only on
 * success; a playout is a run of legal moves to the end, each announced;
 * many playouts change nothing but the seed. */
static void op_random(input *in, slot *s)
{
    model *m = &s->m;
    uint64_t seed = byte(in), before_seed = seed;
    int row = -1, col = -1, state = 77;
    unsigned which = byte(in) % 3;
    if (which == 2) {
        /* Many playouts: counted, and the game and its listener untouched. */
        uint64_t games = byte(in) % 8, results[4] = {7, 7, 7, 7};
        int events = s->events;
        int status = ttt_random_playouts(s->game, &seed, games, results);
        if (m->state != TTT_IN_PROGRESS) {
            CHECK(status == TTT_E_GAME_OVER && seed == before_seed);
            CHECK(results[0] == 7 && results[1] == 7 && results[3] == 7);
            return;
        }
        CHECK(status == TTT_OK && results[TTT_IN_PROGRESS] == 0);
        CHECK(results[TTT_X_WON] + results[TTT_O_WON] + results[TTT_DRAW] == games);
        CHECK((seed != before_seed) == (games > 0) && s->events == events);
        check_game(s);
        return;
    }
    if (which == 1) {
        int status = ttt_random_move(s->game, &seed, &row, &col);
        if (m->state != TTT_IN_PROGRESS) {
            CHECK(status == TTT_E_GAME_OVER && seed == before_seed && row == -1);
            return;
        }
        CHECK(status == TTT_OK && on_board(m, row, col));
        CHECK(model_playable(m, row * m->w + col) && seed != before_seed);
        return;
    }
    if (m->limit > 0)
        return; /* see the top of this file */
    int ply = m->ply, events = s->events;
    int status = ttt_random_playout(s->game, &seed, &state);
    if (m->state != TTT_IN_PROGRESS) {
        CHECK(status == TTT_E_GAME_OVER && state == 77);
        return;
    }
    CHECK(status == TTT_OK);
    /* Follow the moves it made in the model, which judges each one. */
    int played = ttt_ply(s->game);
    CHECK(played > ply);
    m->redo = 0;
    m->redo_ending = 0;
    for (int i = ply; i < played; i++) {
        int mark = 0;
        CHECK(ttt_move_at(s->game, i, &mark, &row, &col) == TTT_OK);
        CHECK(m->state == TTT_IN_PROGRESS && mark == mover_of(m->ply));
        CHECK(on_board(m, row, col) && model_playable(m, row * m->w + col));
        model_place(m, row * m->w + col);
    }
    CHECK(m->state != TTT_IN_PROGRESS && state == m->state);
    CHECK(s->events == events + (s->listening ? played - ply : 0));
}
#endif

/* ttt_drop (since 1.3), with or without gravity: the model walks up the
 * column for the landing row. */
static void op_drop(input *in, slot *s)
{
    model *m = &s->m;
    int col = pick_coord(in, m);
    int row = -1;
    int expect;
    if (m->state != TTT_IN_PROGRESS)
        expect = TTT_E_GAME_OVER;
    else if (col < 0 || col >= m->w)
        expect = TTT_E_OFF_BOARD;
    else if ((row = model_drop_row(m, col)) < 0)
        expect = TTT_E_COLUMN_FULL;
    else
        expect = TTT_OK;
    int got_row = 77, state = 77, before = s->events;
    int mark = model_to_move(m);
    int status = ttt_drop(s->game, col, (byte(in) & 1) ? &got_row : NULL, &state);
    CHECK(status == expect);
    if (status != TTT_OK) {
        CHECK(got_row == 77 && state == 77 && s->events == before);
        return;
    }
    CHECK(got_row == 77 || got_row == row);
    m->redo = 0;
    m->redo_ending = 0;
    model_place(m, row * m->w + col);
    CHECK(state == m->state);
    check_event(s, before, TTT_EVENT_PLAY, mark, row, col);
}

static void op_play_at(input *in, slot *s)
{
    model *m = &s->m;
    unsigned how = byte(in);
    int ply, mark, row, col;
    if (how % 4 == 1 && m->ply > 0) {
        /* A retry of a move in the history, sometimes altered. */
        ply = (int)(byte(in) % (unsigned)m->ply);
        mark = mover_of(ply);
        row = m->hist[ply] / m->w;
        col = m->hist[ply] % m->w;
        if (how & 4)
            mark = -mark;
        if (how & 8)
            row = pick_coord(in, m);
        if (how & 16)
            col = pick_coord(in, m);
    } else {
        ply = how % 4 == 0 ? m->ply : how % 4 == 3 ? m->ply + 1 : any_int(in, 200);
        mark = pick_mark(in, m);
        row = pick_coord(in, m);
        col = pick_coord(in, m);
    }

    /* At the current ply, ttt_play's checks in their order; elsewhere the
     * mark, then the ply. */
    int expect, retry = 0;
    if (ply == m->ply)
        expect = model_play_status(m, mark, row, col);
    else if (mark != TTT_X && mark != TTT_O)
        expect = TTT_E_MARK;
    else if (ply < 0)
        expect = TTT_E_RANGE;
    else if (ply < m->ply && mark == mover_of(ply) && on_board(m, row, col) &&
             m->hist[ply] == row * m->w + col)
        expect = TTT_OK, retry = 1;
    else
        expect = TTT_E_STALE;

    int state = 77, before = s->events;
    int status = ttt_play_at(s->game, ply, mark, row, col, &state);
    CHECK(status == expect);
    if (status != TTT_OK) {
        CHECK(state == 77 && s->events == before);
        return;
    }
    if (retry) {
        /* Nothing changes and nothing is announced. */
        CHECK(state == m->state && s->events == before);
        return;
    }
    m->redo = 0;
    m->redo_ending = 0;
    model_place(m, row * m->w + col);
    CHECK(state == m->state);
    check_event(s, before, TTT_EVENT_PLAY, mark, row, col);
}

static void op_undo(slot *s)
{
    model *m = &s->m;
    int before = s->events;
    int status = ttt_undo(s->game);
    if (m->ending != 0) {
        /* The ending alone goes, onto the redo stack. */
        CHECK(status == TTT_OK);
        m->redo_ending = m->ending;
        m->ending = 0;
        m->state = TTT_IN_PROGRESS;
        check_event(s, before, TTT_EVENT_UNDO_ENDING,
                    ending_mark(m->redo_ending), -1, -1);
        return;
    }
    if (m->ply == 0) {
        CHECK(status == TTT_E_NO_UNDO && s->events == before);
        return;
    }
    CHECK(status == TTT_OK);
    int cell = m->hist[m->ply - 1];
    int mark = m->cells[cell];
    model_undo(m);
    check_event(s, before, TTT_EVENT_UNDO, mark, cell / m->w, cell % m->w);
}

static void op_redo(slot *s)
{
    model *m = &s->m;
    int before = s->events;
    int status = ttt_redo(s->game);
    if (m->redo == 0 && m->redo_ending == 0) {
        CHECK(status == TTT_E_NO_REDO && s->events == before);
        return;
    }
    if (m->redo == 0) {
        /* The moves above it are back: the ending is re-applied. */
        CHECK(status == TTT_OK);
        m->ending = m->redo_ending;
        m->redo_ending = 0;
        m->state = ending_state(m->ending);
        check_event(s, before, TTT_EVENT_REDO_ENDING, ending_mark(m->ending),
                    -1, -1);
        return;
    }
    CHECK(status == TTT_OK);
    int cell = m->undone[--m->redo];
    int mark = mover_of(m->ply);
    model_place(m, cell);
    check_event(s, before, TTT_EVENT_REDO, mark, cell / m->w, cell % m->w);
}

static void op_rule(input *in, slot *s)
{
    model *m = &s->m;
    int rule = any_int(in, 6);
    int cells = m->w * m->h;
    int value = any_int(in, rule == TTT_RULE_PLY_LIMIT ? cells + 2 : 3);
    int known = rule == TTT_RULE_MISERE || rule == TTT_RULE_EARLY_DRAW ||
                rule == TTT_RULE_PLY_LIMIT || rule == TTT_RULE_GRAVITY;
    int top = rule == TTT_RULE_PLY_LIMIT ? cells : 1;
    int expect;
    if (!known || value < 0 || value > top)
        expect = TTT_E_RULE;
    else if (m->ply > 0 || m->redo > 0 || m->redo_ending != 0 ||
             m->state != TTT_IN_PROGRESS)
        expect = TTT_E_RULES_LOCKED;
    else
        expect = TTT_OK;
    CHECK(ttt_game_set_rule(s->game, rule, value) == expect);
    if (expect == TTT_OK) {
        if (rule == TTT_RULE_MISERE)
            m->misere = value;
        else if (rule == TTT_RULE_EARLY_DRAW)
            m->early_draw = value;
        else if (rule == TTT_RULE_GRAVITY)
            m->gravity = value;
        else
            m->limit = value == cells ? 0 : value;
    }
    int got = 55;
    CHECK(ttt_game_get_rule(s->game, rule, &got) == (known ? TTT_OK : TTT_E_RULE));
    CHECK(known || got == 55);
    CHECK(ttt_game_get_rule(s->game, rule, NULL) == TTT_E_INVALID);
}

static void op_clone(input *in, slot *from, slot *to)
{
    unsigned how = byte(in);
    ttt_game *copy = NULL;
    int before = from->events;
    if (from->counted && (how & 1)) {
        the_heap.fail_next = 1;
        CHECK(ttt_game_clone(from->game, &copy) == TTT_E_NOMEM && copy == NULL);
        CHECK(the_heap.fail_next == 0);
        return;
    }
    CHECK(ttt_game_clone(from->game, NULL) == TTT_E_INVALID);
    CHECK(ttt_game_clone(from->game, &copy) == TTT_OK && copy != NULL);
    if (from == to) {
        /* Replace the original by its copy. */
        model m = from->m;
        int counted = from->counted;
        adopt(to, copy, NULL, counted, &m);
        return;
    }
    adopt(to, copy, NULL, from->counted, &from->m);
    /* The copy is independent and silent: a move on it changes neither the
     * original nor the original's listener count. */
    if (to->m.state == TTT_IN_PROGRESS && to->m.ply < to->m.w * to->m.h) {
        op_play_empty(in, to);
        CHECK(from->events == before);
        check_game(from);
    }
}

/* Saves from, checks the record against the model's, then loads it (whole,
 * or cut short, which fails unless the cut leaves a shorter record) into
 * to. */
static void op_save_load(input *in, slot *from, slot *to)
{
    char want[RECORD_MAX], buf[RECORD_MAX + 8];
    size_t want_len = model_record(&from->m, want), len = 0;
    unsigned how = byte(in);

    /* Measuring: no buffer, or one too small, which stays untouched. */
    CHECK(ttt_game_save(from->game, NULL, 0, &len) == TTT_E_BUFFER);
    CHECK(len == want_len);
    size_t small = byte(in) % (want_len + 1);
    memset(buf, '#', sizeof buf);
    len = 0;
    CHECK(ttt_game_save(from->game, buf, small, &len) == TTT_E_BUFFER);
    CHECK(len == want_len);
    for (size_t i = 0; i < sizeof buf; i++)
        CHECK(buf[i] == '#');
    CHECK(ttt_game_save(from->game, NULL, 5, &len) == TTT_E_INVALID);
    CHECK(ttt_game_save(from->game, buf, sizeof buf, NULL) == TTT_E_INVALID);

    CHECK(ttt_game_save(from->game, buf, want_len + 1, &len) == TTT_OK);
    CHECK(len == want_len && memcmp(buf, want, len) == 0 && buf[len] == '\0');
    CHECK(buf[len + 1] == '#');

    size_t cut = (how & 1) ? byte(in) % (want_len + 1) : want_len;
    ttt_game *loaded = NULL;
    size_t offset = (size_t)-1;
    int counted = (how & 2) != 0;
    if (counted && (how & 4) && cut == want_len)
        the_heap.fail_next = 1;
    int status = ttt_game_load(buf, cut, counted ? &counting : NULL, &loaded,
                               &offset);
    /* A whole record always gets as far as allocating its game, so an
     * armed refusal must have been used. */
    CHECK(the_heap.fail_next == 0);
    if (counted && (how & 4) && cut == want_len) {
        CHECK(status == TTT_E_NOMEM && loaded == NULL);
        return;
    }
    if (cut < want_len) {
        /* A proper prefix of a record is a record only when it ends right
         * after a move, a name or an ending (or is the line without its
         * LF): then it saves back as itself and an LF. */
        if (status == TTT_OK) {
            char again[sizeof buf];
            size_t again_len = 0;
            CHECK(loaded != NULL && offset == (size_t)-1);
            CHECK(ttt_game_save(loaded, again, sizeof again, &again_len) ==
                  TTT_OK);
            CHECK(again_len == cut + 1 && memcmp(again, buf, cut) == 0 &&
                  again[cut] == '\n');
            ttt_game_free(loaded);
            return;
        }
        CHECK(loaded == NULL && offset <= cut);
        return;
    }
    CHECK(status == TTT_OK && loaded != NULL && offset == (size_t)-1);
    model m = from->m;
    m.redo = 0; /* undone moves are not saved */
    m.redo_ending = 0;
    m.named = m.name_len[0] > 0 || m.name_len[1] > 0;
    adopt(to, loaded, NULL, counted, &m);
}

static void op_reset(slot *s)
{
    model *m = &s->m;
    int before = s->events;
    CHECK(ttt_game_reset(s->game) == TTT_OK);
    model kept = *m;
    model_init(m, m->w, m->h, m->k);
    /* Rules and names stay. */
    m->misere = kept.misere;
    m->gravity = kept.gravity;
    m->early_draw = kept.early_draw;
    m->limit = kept.limit;
    m->named = kept.named;
    memcpy(m->name_len, kept.name_len, sizeof m->name_len);
    memcpy(m->name, kept.name, sizeof m->name);
    if (s->listening) {
        CHECK(s->events == before + 1 && s->last.kind == TTT_EVENT_RESET);
        CHECK(s->last.mark == TTT_EMPTY && s->last.row == -1 && s->last.col == -1);
        CHECK(s->last.ply == 0 && s->last.state == TTT_IN_PROGRESS);
    }
}

static void op_reads(input *in, slot *s)
{
    const model *m = &s->m;
    int row = pick_coord(in, m), col = pick_coord(in, m);
    int mark = 99;
    int status = ttt_cell(s->game, row, col, &mark);
    if (on_board(m, row, col))
        CHECK(status == TTT_OK && mark == m->cells[row * m->w + col]);
    else
        CHECK(status == TTT_E_OFF_BOARD && mark == 99);
    CHECK(ttt_cell(s->game, 0, 0, NULL) == TTT_E_INVALID);

    int8_t cells[MAXN * MAXN];
    size_t len = 0, capacity = byte(in) % (size_t)(m->w * m->h);
    memset(cells, 9, sizeof cells);
    CHECK(ttt_board(s->game, cells, capacity, &len) == TTT_E_BUFFER);
    CHECK(len == (size_t)(m->w * m->h));
    for (size_t i = 0; i < sizeof cells; i++)
        CHECK(cells[i] == 9);
    CHECK(ttt_board(s->game, NULL, 0, &len) == TTT_E_BUFFER);
    CHECK(ttt_board(s->game, NULL, 4, &len) == TTT_E_INVALID);
    CHECK(ttt_board(s->game, cells, sizeof cells, NULL) == TTT_E_INVALID);

    int ply = any_int(in, m->ply + 2), got = 0;
    status = ttt_move_at(s->game, ply, &got, NULL, NULL);
    if (ply >= 0 && ply < m->ply)
        CHECK(status == TTT_OK && got == mover_of(ply));
    else
        CHECK(status == TTT_E_RANGE);
    /* Any out-pointer of the winning line may be NULL. */
    int want[4];
    CHECK(ttt_winning_line(s->game, NULL, NULL, NULL, NULL) == model_line(m, want));
}

/* Resignation, agreed draw, names and their refusals (since 1.2). */
static void op_match(input *in, slot *s)
{
    model *m = &s->m;
    int before = s->events, state = 77;
    switch (byte(in) % 4) {
    case 0: {
        int mark = pick_mark(in, m);
        int status = ttt_resign(s->game, mark, &state);
        if (m->state != TTT_IN_PROGRESS || (mark != TTT_X && mark != TTT_O)) {
            CHECK(status == (m->state != TTT_IN_PROGRESS ? TTT_E_GAME_OVER
                                                         : TTT_E_MARK));
            CHECK(state == 77 && s->events == before);
            return;
        }
        CHECK(status == TTT_OK);
        m->ending = mark == TTT_X ? OFF_BOARD_X_RESIGNED : OFF_BOARD_O_RESIGNED;
        m->state = ending_state(m->ending);
        m->redo = 0;
        m->redo_ending = 0;
        CHECK(state == m->state);
        check_event(s, before, TTT_EVENT_RESIGN, mark, -1, -1);
        return;
    }
    case 1: {
        int status = ttt_agree_draw(s->game, (byte(in) & 1) ? &state : NULL);
        if (m->state != TTT_IN_PROGRESS) {
            CHECK(status == TTT_E_GAME_OVER && state == 77);
            CHECK(s->events == before);
            return;
        }
        CHECK(status == TTT_OK);
        m->ending = OFF_BOARD_AGREED;
        m->state = TTT_DRAW;
        m->redo = 0;
        m->redo_ending = 0;
        CHECK(state == 77 || state == TTT_DRAW);
        check_event(s, before, TTT_EVENT_DRAW_AGREED, TTT_EMPTY, -1, -1);
        return;
    }
    case 2: {
        int mark = pick_mark(in, m);
        unsigned how = byte(in);
        size_t len = byte(in) % (TTT_NAME_MAX + 8);
        unsigned char name[TTT_NAME_MAX + 8];
        for (size_t i = 0; i < len; i++)
            name[i] = (unsigned char)byte(in);
        /* Mostly printable ASCII, so that valid names are common. */
        if (how & 1)
            for (size_t i = 0; i < len; i++)
                name[i] = (unsigned char)(0x20 + name[i] % 0x5F);
        const char *text = (how & 2) && len > 0 ? NULL : (const char *)name;
        int valid = model_name_ok(name, len);
        int expect = text == NULL                       ? TTT_E_INVALID
                     : mark != TTT_X && mark != TTT_O   ? TTT_E_MARK
                     : !valid                           ? TTT_E_NAME
                                                        : TTT_OK;
        /* The first name allocates; a refusal then changes nothing. */
        int arm = expect == TTT_OK && s->counted && !m->named && len > 0 &&
                  (how & 4);
        the_heap.fail_next = arm;
        int status = ttt_game_set_name(s->game, mark, text, len);
        CHECK(the_heap.fail_next == 0);
        CHECK(status == (arm ? TTT_E_NOMEM : expect));
        CHECK(s->events == before);
        if (status == TTT_OK) {
            int side = mark == TTT_X ? 0 : 1;
            memcpy(m->name[side], name, len);
            m->name_len[side] = (int)len;
            m->named |= len > 0;
        }
        return;
    }
    default: {
        /* get_name with too small a buffer, and the calls' refusals. */
        int side = byte(in) & 1;
        int mark = side ? TTT_O : TTT_X;
        char buf[TTT_NAME_MAX + 1];
        size_t len = 999, capacity = byte(in) % (size_t)(m->name_len[side] + 1);
        memset(buf, '#', sizeof buf);
        CHECK(ttt_game_get_name(s->game, mark, buf, capacity, &len) ==
              TTT_E_BUFFER);
        CHECK(len == (size_t)m->name_len[side]);
        for (size_t i = 0; i < sizeof buf; i++)
            CHECK(buf[i] == '#');
        CHECK(ttt_game_get_name(s->game, mark, NULL, 0, &len) == TTT_E_BUFFER);
        CHECK(ttt_game_get_name(s->game, mark, NULL, 3, &len) == TTT_E_INVALID);
        CHECK(ttt_game_get_name(s->game, mark, buf, sizeof buf, NULL) ==
              TTT_E_INVALID);
        CHECK(ttt_game_get_name(s->game, TTT_EMPTY, buf, sizeof buf, &len) ==
              TTT_E_MARK);
        CHECK(ttt_game_get_name(NULL, mark, buf, sizeof buf, &len) ==
              TTT_E_INVALID);
        CHECK(ttt_game_set_name(NULL, mark, "a", 1) == TTT_E_INVALID);
        CHECK(ttt_resign(NULL, mark, &state) == TTT_E_INVALID);
        CHECK(ttt_agree_draw(NULL, &state) == TTT_E_INVALID);
        CHECK(ttt_ending(NULL) == TTT_E_INVALID && state == 77);
        CHECK(s->events == before);
        return;
    }
    }
}

static void op_listener(slot *s)
{
    s->listening = !s->listening;
    CHECK(ttt_set_listener(s->game, s->listening ? on_event : NULL, s) == TTT_OK);
}

/* Every entry point refuses a NULL game the same way. */
static void op_null_calls(void)
{
    int v = 3;
    size_t len = 0;
    CHECK(ttt_play(NULL, TTT_X, 0, 0, &v) == TTT_E_INVALID && v == 3);
    CHECK(ttt_play_at(NULL, 0, TTT_X, 0, 0, &v) == TTT_E_INVALID && v == 3);
    CHECK(ttt_undo(NULL) == TTT_E_INVALID);
    CHECK(ttt_redo(NULL) == TTT_E_INVALID);
    CHECK(ttt_game_reset(NULL) == TTT_E_INVALID);
    CHECK(ttt_game_set_rule(NULL, TTT_RULE_MISERE, 1) == TTT_E_INVALID);
    CHECK(ttt_game_get_rule(NULL, TTT_RULE_MISERE, &v) == TTT_E_INVALID);
    CHECK(ttt_state(NULL) == TTT_E_INVALID);
    CHECK(ttt_size(NULL) == TTT_E_INVALID);
    CHECK(ttt_win_length(NULL) == TTT_E_INVALID);
    CHECK(ttt_ply(NULL) == TTT_E_INVALID);
    CHECK(ttt_redo_count(NULL) == TTT_E_INVALID);
    CHECK(ttt_to_move(NULL) == TTT_EMPTY);
    CHECK(ttt_cell(NULL, 0, 0, &v) == TTT_E_INVALID);
    CHECK(ttt_move_at(NULL, 0, &v, &v, &v) == TTT_E_INVALID);
    CHECK(ttt_winning_line(NULL, &v, &v, &v, &v) == TTT_E_INVALID);
    CHECK(ttt_board(NULL, NULL, 0, &len) == TTT_E_INVALID);
    CHECK(ttt_set_listener(NULL, NULL, NULL) == TTT_E_INVALID);
    CHECK(ttt_game_save(NULL, NULL, 0, &len) == TTT_E_INVALID);
    CHECK(ttt_game_clone(NULL, NULL) == TTT_E_INVALID);
    CHECK(ttt_drop(NULL, 0, &v, &v) == TTT_E_INVALID);
    CHECK(ttt_width(NULL) == TTT_E_INVALID && ttt_height(NULL) == TTT_E_INVALID);
    ttt_game_free(NULL);
    CHECK(v == 3);
}

/* Cell names round-trip for every cell a board can have and are refused
 * for every other. */
static void op_cell_name(input *in)
{
    int row = any_int(in, 40), col = any_int(in, 800);
    char name[16], upper[16];
    size_t len = 99, used = 0;
    int status = ttt_cell_name(row, col, name, sizeof name, &len);
    if (row < 0 || row >= TTT_MAX_SIZE || col < 0 || col >= TTT_MAX_SIZE) {
        CHECK(status == TTT_E_OFF_BOARD && len == 99);
        return;
    }
    char want[16];
    size_t want_len = model_cell_name(row, col, want);
    CHECK(status == TTT_OK && len == want_len && memcmp(name, want, len) == 0);
    CHECK(name[len] == '\0');
    CHECK(ttt_cell_name(row, col, name, len, &len) == TTT_E_BUFFER);
    int r = -1, c = -1;
    CHECK(ttt_parse_cell(name, len, &r, &c, &used) == TTT_OK);
    CHECK(r == row && c == col && used == len);
    for (size_t i = 0; i <= len; i++)
        upper[i] = (name[i] >= 'a' && name[i] <= 'z') ? (char)(name[i] - 32) : name[i];
    CHECK(ttt_parse_cell(upper, len, &r, &c, NULL) == TTT_OK);
    CHECK(r == row && c == col);
    /* Every proper prefix without its whole row number differs: the
     * letters alone never parse. */
    size_t letters = 0;
    while (letters < len && name[letters] >= 'a')
        letters++;
    CHECK(ttt_parse_cell(name, letters, &r, &c, NULL) == TTT_E_PARSE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    memset(&the_heap, 0, sizeof the_heap);
    memset(slots, 0, sizeof slots);

    /* The first byte picks a small game for slot 0, so that even short
     * inputs spend their bytes playing rather than failing to find a game. */
    if (in.left > 0) {
        unsigned shape = byte(&in);
        int n = 3 + (int)(shape % 6);
        /* From bit 6: a rectangle (height from the high bits), and from
         * bit 7 gravity. */
        int height = (shape & 64) ? 3 + (int)((shape >> 3) % 5) : n;
        int longest = n > height ? n : height;
        int k = (shape / 6) % 2 == 0 ? 0
                                     : 3 + (int)((shape / 12) % (unsigned)(longest - 2));
        model m;
        ttt_game *game = NULL;
        CHECK(ttt_game_new_rect(n, height, k, &game) == TTT_OK);
        model_init(&m, n, height, k);
        if (shape & 128) {
            CHECK(ttt_game_set_rule(game, TTT_RULE_GRAVITY, 1) == TTT_OK);
            m.gravity = 1;
        }
        adopt(&slots[0], game, NULL, 0, &m);
    }

    for (int ops = 0; in.left > 0 && ops < MAX_OPS; ops++) {
        unsigned op = byte(&in);
        slot *s = &slots[byte(&in) % SLOTS];
        if (op % 16 == 0) {
            op_new(&in, s);
            check_game(s);
            continue;
        }
        if (op % 16 == 13 && (op & 16) == 0) {
            op_null_calls();
            continue;
        }
        if (op % 16 == 14) {
            op_cell_name(&in);
            continue;
        }
        if (s->game == NULL)
            continue;
        slot *other = &slots[byte(&in) % SLOTS];
        switch (op % 16) {
        case 1:
            if (op & 16)
                op_drop(&in, s);
            else
                op_play(&in, s);
            break;
        case 2: op_playout(&in, s); break;
        case 3: op_play_empty(&in, s); break;
#ifdef TTT_SOLVE_VALUE_ONLY
        case 4: op_random(&in, s); break;
#else
        case 4: op_play_empty(&in, s); break;
#endif
        case 5: op_play_at(&in, s); break;
        case 6: op_undo(s); break;
        case 7: op_redo(s); break;
        case 8: op_rule(&in, s); break;
        case 9: op_clone(&in, s, other); s = other; break;
        case 10:
            op_save_load(&in, s, other);
            s = other;
            break;
        case 11: op_reset(s); break;
        case 12: op_reads(&in, s); break;
        case 13: op_match(&in, s); break;
        case 15:
            if (byte(&in) & 1) {
                op_listener(s);
            } else {
                release(s);
            }
            break;
        default: break;
        }
        check_game(s);
    }

    for (int i = 0; i < SLOTS; i++)
        release(&slots[i]);
    /* Every block the counting allocator handed out came back. */
    CHECK(the_heap.live == 0);
    return 0;
}
