/* notation.c - cell names and the saved-game record: format and strict parser. */

/*
 * Loading goes through the public API only, so a record is judged by exactly
 * the rules ttt_play enforces. Saving reads the game's board and history
 * directly (internal.h), under the game's lock, so that another thread's
 * move cannot tear the record.
 *
 * Record grammar (ABNF; literals are case-sensitive):
 *
 *   record = "ttt/1" SP "n=" number SP "k=" number SP "rules=" rules
 *            SP "moves=" moves LF
 *   number = "0" / %x31-39 *DIGIT      ; decimal, no leading zeros
 *   rules  = "classic" / "misere" / "early-draw" / "misere+early-draw"
 *   moves  = "-" / cell *("," cell)
 *   cell   = 1*%x61-7A %x31-39 *DIGIT  ; lower-case column letters, row >= 1
 *
 * and then: 3 <= n <= 1024, 3 <= k <= n, and every move is legal for the
 * player to move. The record ends at the LF; nothing may follow it.
 *
 * Each game has exactly one record, so a record that loads saves back byte
 * for byte. That is why the parser rejects everything the grammar does not
 * produce (upper case, spaces, leading zeros, other rule orders).
 *
 * Error offsets: for TTT_E_PARSE, the first byte at which the text stops
 * being the start of any valid record (len when the text ends too early);
 * for TTT_E_SIZE, the start of the bad number; for an illegal move, the start
 * of its cell name.
 */

#include <string.h>

#include "internal.h"

/* The longest name: three letters (up to "amj") and four digits. */
#define CELL_NAME_MAX 7

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Reads a cell name at the start of text. On success *end is the number of
 * bytes used; on TTT_E_PARSE it is the offset of the first bad byte. Values
 * are checked as each byte arrives, so no input can overflow them. */
static int scan_cell(const char *text, size_t len, int allow_upper, int *row,
                     int *col, size_t *end)
{
    size_t i = 0;
    int col_number = 0; /* bijective base 26: a = 1, z = 26, aa = 27 */
    int row_number = 0;

    for (; i < len; i++) {
        int letter;
        if (text[i] >= 'a' && text[i] <= 'z')
            letter = text[i] - 'a' + 1;
        else if (allow_upper && text[i] >= 'A' && text[i] <= 'Z')
            letter = text[i] - 'A' + 1;
        else
            break;
        col_number = col_number * 26 + letter;
        if (col_number > TTT_MAX_SIZE) {
            *end = i;
            return TTT_E_PARSE;
        }
    }
    /* No letters, no row, or a row starting with 0 ("a0", "a01"). */
    if (i == 0 || i == len || text[i] < '1' || text[i] > '9') {
        *end = i;
        return TTT_E_PARSE;
    }
    for (; i < len && is_digit(text[i]); i++) {
        row_number = row_number * 10 + (text[i] - '0');
        if (row_number > TTT_MAX_SIZE) {
            *end = i;
            return TTT_E_PARSE;
        }
    }
    *row = row_number - 1;
    *col = col_number - 1;
    *end = i;
    return TTT_OK;
}

/* Writes the name of a cell known to be in range; returns its length. */
static size_t format_cell(int row, int col, char name[CELL_NAME_MAX])
{
    char letters[3];
    size_t count = 0, n = 0;
    int rest = col + 1;

    /* Bijective base 26 has no zero digit: shift each digit down by one. */
    while (rest > 0) {
        rest -= 1;
        letters[count++] = (char)('a' + rest % 26);
        rest /= 26;
    }
    while (count > 0)
        name[n++] = letters[--count];

    char digits[4];
    rest = row + 1;
    do {
        digits[count++] = (char)('0' + rest % 10);
        rest /= 10;
    } while (rest > 0);
    while (count > 0)
        name[n++] = digits[--count];
    return n;
}

int ttt_cell_name(int row, int col, char *buf, size_t capacity, size_t *len)
{
    char name[CELL_NAME_MAX];
    size_t n;

    if (len == NULL || (buf == NULL && capacity > 0))
        return TTT_E_INVALID;
    if (row < 0 || row >= TTT_MAX_SIZE || col < 0 || col >= TTT_MAX_SIZE)
        return TTT_E_OFF_BOARD;
    n = format_cell(row, col, name);
    *len = n;
    if (capacity < n + 1)
        return TTT_E_BUFFER;
    memcpy(buf, name, n);
    buf[n] = '\0';
    return TTT_OK;
}

int ttt_parse_cell(const char *text, size_t len, int *row, int *col,
                   size_t *used)
{
    int r, c;
    size_t end;

    if ((text == NULL && len > 0) || row == NULL || col == NULL)
        return TTT_E_INVALID;
    if (scan_cell(text, len, 1, &r, &c, &end) != TTT_OK)
        return TTT_E_PARSE;
    *row = r;
    *col = c;
    if (used != NULL)
        *used = end;
    return TTT_OK;
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                    */
/* ------------------------------------------------------------------------ */

/* Collects output, storing only what fits but counting everything, so one
 * routine both measures and writes the record. */
typedef struct sink {
    char *buf;
    size_t capacity;
    size_t len;
} sink;

static void put(sink *s, const char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++, s->len++)
        if (s->len < s->capacity)
            s->buf[s->len] = bytes[i];
}

static void put_str(sink *s, const char *str) { put(s, str, strlen(str)); }

static void put_number(sink *s, int value)
{
    char digits[12];
    size_t count = 0;

    do {
        digits[sizeof digits - 1 - count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    put(s, digits + sizeof digits - count, count);
}

static const char *rules_name(int misere, int early_draw)
{
    if (misere && early_draw)
        return "misere+early-draw";
    if (misere)
        return "misere";
    if (early_draw)
        return "early-draw";
    return "classic";
}

/* Writes the record of game, whose lock the caller holds. */
static void write_record(const ttt_game *game, sink *s)
{
    const ttt__board *board = &game->board;
    int plies = board->nn - board->empty_count;

    put_str(s, "ttt/1 n=");
    put_number(s, board->n);
    put_str(s, " k=");
    put_number(s, board->k);
    put_str(s, " rules=");
    put_str(s, rules_name(game->misere, game->early_draw));
    put_str(s, " moves=");
    if (plies == 0)
        put_str(s, "-");
    for (int ply = 0; ply < plies; ply++) {
        char name[CELL_NAME_MAX];
        int32_t packed = ttt__board_move_at(board, ply);
        if (ply > 0)
            put_str(s, ",");
        put(s, name, format_cell(TTT__ROW(packed), TTT__COL(packed), name));
    }
    put_str(s, "\n");
}

int ttt_game_save(const ttt_game *game, char *buf, size_t capacity,
                  size_t *len)
{
    if (game == NULL || len == NULL || (buf == NULL && capacity > 0))
        return TTT_E_INVALID;
    /* Measure first so a buffer that is too small is left untouched, as the
     * header promises for every failed call; both passes run under the
     * game's lock so the record is one consistent position. */
    int status = TTT_OK;
    ttt__lock(game);
    sink measure = {NULL, 0, 0};
    write_record(game, &measure);
    *len = measure.len;
    if (capacity < measure.len + 1) {
        status = TTT_E_BUFFER;
    } else {
        sink out = {buf, measure.len, 0};
        write_record(game, &out);
        buf[out.len] = '\0';
    }
    ttt__unlock(game);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

/* The record being parsed. pos only moves forward; when a step fails it is
 * left at the first bad byte, which becomes the error offset. */
typedef struct reader {
    const char *text;
    size_t len;
    size_t pos;
} reader;

/* How many leading bytes of the remaining text match literal. */
static size_t matching(const reader *r, const char *literal)
{
    size_t n = 0;
    while (literal[n] != '\0' && r->pos + n < r->len &&
           r->text[r->pos + n] == literal[n])
        n++;
    return n;
}

static int expect(reader *r, const char *literal)
{
    size_t n = matching(r, literal);
    r->pos += n;
    return literal[n] == '\0' ? TTT_OK : TTT_E_PARSE;
}

/* Reads a number without leading zeros. It must be followed by another byte:
 * at the end of the text "n=1" could still be the start of "n=10", which is a
 * truncated record, not a bad size. Values past TTT_MAX_SIZE stop growing, so
 * any number of digits is safe and still out of range. */
static int read_number(reader *r, int *value)
{
    int v = 0;

    if (r->pos >= r->len || !is_digit(r->text[r->pos]))
        return TTT_E_PARSE;
    if (r->text[r->pos] == '0') {
        r->pos++;
        if (r->pos < r->len && is_digit(r->text[r->pos]))
            return TTT_E_PARSE;
    }
    for (; r->pos < r->len && is_digit(r->text[r->pos]); r->pos++)
        if (v <= TTT_MAX_SIZE)
            v = v * 10 + (r->text[r->pos] - '0');
    if (r->pos >= r->len)
        return TTT_E_PARSE;
    *value = v;
    return TTT_OK;
}

/* Reads the rules value and the space after it. Each spelling is tried whole
 * so the error lands where the text leaves the closest one
 * ("misere+misere" fails at the second 'm'). */
static int read_rules(reader *r, int *misere, int *early_draw)
{
    static const struct {
        const char *text;
        int misere, early_draw;
    } spellings[] = {
        {"classic ", 0, 0},
        {"misere ", 1, 0},
        {"early-draw ", 0, 1},
        {"misere+early-draw ", 1, 1},
    };
    size_t best = 0;

    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        size_t n = matching(r, spellings[i].text);
        if (spellings[i].text[n] == '\0') {
            r->pos += n;
            *misere = spellings[i].misere;
            *early_draw = spellings[i].early_draw;
            return TTT_OK;
        }
        if (n > best)
            best = n;
    }
    r->pos += best;
    return TTT_E_PARSE;
}

/* Replays the moves into game up to the final LF (not consumed). On an
 * illegal move *move_at is set to its name's offset. */
static int read_moves(reader *r, ttt_game *game, size_t *move_at)
{
    if (r->pos < r->len && r->text[r->pos] == '-') {
        r->pos++;
        return TTT_OK;
    }
    for (;;) {
        int row, col, mark, status;
        size_t used;

        if (scan_cell(r->text + r->pos, r->len - r->pos, 0, &row, &col,
                      &used) != TTT_OK) {
            r->pos += used;
            return TTT_E_PARSE;
        }
        *move_at = r->pos;
        r->pos += used;
        /* A name at the very end may be cut short ("b1" of "b10"). */
        if (r->pos >= r->len)
            return TTT_E_PARSE;
        /* ttt_to_move gives no mark once the game is over; ttt_play would
         * call that a bad mark rather than a finished game. */
        mark = ttt_to_move(game);
        status = mark == TTT_EMPTY ? TTT_E_GAME_OVER
                                   : ttt_play(game, mark, row, col, NULL);
        if (status != TTT_OK)
            return status;
        if (r->text[r->pos] != ',')
            return TTT_OK;
        r->pos++;
    }
}

/* Parses the whole record into *game (which the caller frees on failure)
 * and sets *where to the offset of the first problem. */
static int read_record(reader *r, const ttt_allocator *alloc,
                       ttt_game **game, size_t *where)
{
    int n, k, misere, early_draw, status;
    size_t n_at, k_at, move_at;

    status = expect(r, "ttt/1 n=");
    n_at = r->pos;
    if (status == TTT_OK)
        status = read_number(r, &n);
    if (status == TTT_OK && (n < TTT_MIN_SIZE || n > TTT_MAX_SIZE)) {
        *where = n_at;
        return TTT_E_SIZE;
    }
    if (status == TTT_OK)
        status = expect(r, " k=");
    k_at = r->pos;
    if (status == TTT_OK)
        status = read_number(r, &k);
    /* k = 0 would mean "k = n" to ttt_game_new_with, but it would save back
     * as the actual k, so it is not canonical. */
    if (status == TTT_OK && (k < TTT_MIN_SIZE || k > n)) {
        *where = k_at;
        return TTT_E_SIZE;
    }
    if (status == TTT_OK)
        status = expect(r, " rules=");
    if (status == TTT_OK)
        status = read_rules(r, &misere, &early_draw);
    if (status == TTT_OK)
        status = expect(r, "moves=");
    if (status != TTT_OK) {
        *where = r->pos;
        return status;
    }

    status = ttt_game_new_with(n, k, alloc, game);
    if (status == TTT_OK)
        status = ttt_game_set_rule(*game, TTT_RULE_MISERE, misere);
    if (status == TTT_OK)
        status = ttt_game_set_rule(*game, TTT_RULE_EARLY_DRAW, early_draw);
    if (status != TTT_OK) {
        *where = status == TTT_E_SIZE ? n_at : r->pos;
        return status;
    }

    move_at = r->pos;
    status = read_moves(r, *game, &move_at);
    if (status != TTT_OK) {
        *where = status == TTT_E_PARSE ? r->pos : move_at;
        return status;
    }
    status = expect(r, "\n");
    if (status == TTT_OK && r->pos != r->len)
        status = TTT_E_PARSE;
    *where = r->pos;
    return status;
}

/* On success error_offset is left untouched. */
int ttt_game_load(const char *text, size_t len, const ttt_allocator *alloc,
                  ttt_game **out, size_t *error_offset)
{
    reader r = {text, len, 0};
    ttt_game *game = NULL;
    size_t where = 0;
    int status;

    if ((text == NULL && len > 0) || out == NULL) {
        status = TTT_E_INVALID;
    } else {
        status = read_record(&r, alloc, &game, &where);
        if (status == TTT_OK) {
            *out = game;
            return TTT_OK;
        }
        ttt_game_free(game);
    }
    if (error_offset != NULL)
        *error_offset = where;
    return status;
}
