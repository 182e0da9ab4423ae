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
 *            [SP "limit=" number] SP "moves=" moves
 *            [SP "x=" name] [SP "o=" name] [SP "end=" ending] LF
 *   number = "0" / %x31-39 *DIGIT      ; decimal, no leading zeros
 *   rules  = "classic" / "misere" / "early-draw" / "misere+early-draw"
 *   moves  = "-" / cell *("," cell)
 *   cell   = 1*%x61-7A %x31-39 *DIGIT  ; lower-case column letters, row >= 1
 *   name   = DQUOTE 1*(%x20-21 / %x23-5B / %x5D-7E / %x80-FF
 *                      / %x5C DQUOTE / %x5C %x5C) DQUOTE
 *                                      ; a backslash escapes " and itself
 *   ending = "resign-x" / "resign-o" / "draw-agreed"
 *
 * and then: 3 <= n <= 1024, 3 <= k <= n, 1 <= limit < n * n, every move
 * is legal for the player to move, the unescaped bytes of a name are a
 * name ttt_game_set_name takes, and the ending is one the game after its
 * moves allows (it is still in progress). The record ends at the LF;
 * since 1.5 the LF may be missing or be CR LF, and blank lines (LF or CR
 * LF) may follow it: the parser reads the line without them
 * (line_length), as an editor or a mail leaves a record. Nothing else may
 * follow. Records without the fields of 1.2 (limit, names, ending) are
 * exactly those of 1.0 and 1.1.
 *
 * Each game has exactly one record, so a canonical record (one line, one
 * LF) that loads saves back byte for byte. That is why the parser rejects everything the grammar does not
 * produce (upper case, spaces, leading zeros, other rule orders).
 *
 * Error offsets: for TTT_E_PARSE, the first byte at which the text stops
 * being the start of any valid record (len when the text ends too early):
 * for an unterminated name, the LF inside it or len; for a bad escape, the
 * byte after the backslash; for an unknown ending, the first byte that
 * leaves every spelling. For TTT_E_SIZE, the start of the bad number; for
 * TTT_E_RULE, the start of the limit; for an illegal move, the start of its
 * cell name; for TTT_E_NAME, the first byte of the name that makes it
 * invalid (the byte past TTT_NAME_MAX for a long one); for an ending the
 * moves contradict (TTT_E_GAME_OVER), the start of the ending.
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

/* Every rules value, indexed by misere + 2 * early_draw + 4 * gravity: the
 * words of the rules in force joined by "+" in that order, or "classic".
 * The first four are 1.2's, unchanged. */
static const char *const rules_spellings[8] = {
    "classic",
    "misere",
    "early-draw",
    "misere+early-draw",
    "gravity",
    "misere+gravity",
    "early-draw+gravity",
    "misere+early-draw+gravity",
};

static const char *rules_name(int misere, int early_draw, int gravity)
{
    return rules_spellings[(misere != 0) + 2 * (early_draw != 0) +
                           4 * (gravity != 0)];
}

/* Writes " x=" or " o=" and the quoted name, if the side has one. */
static void put_name(sink *s, const ttt_game *game, int mark)
{
    int side = ttt__name_index(mark);
    size_t len = game->names ? game->names->len[side] : 0;
    if (len == 0)
        return;
    put_str(s, mark == TTT_X ? " x=\"" : " o=\"");
    for (size_t i = 0; i < len; i++) {
        char byte = game->names->text[side][i];
        if (byte == '"' || byte == '\\')
            put_str(s, "\\");
        put(s, &byte, 1);
    }
    put_str(s, "\"");
}

static const char *ending_name(int ending)
{
    switch (ending) {
    case TTT__ENDING_X_RESIGNED: return "resign-x";
    case TTT__ENDING_O_RESIGNED: return "resign-o";
    default: return "draw-agreed";
    }
}

/* Writes the record of game, whose lock the caller holds. */
static void write_record(const ttt_game *game, sink *s)
{
    const ttt__board *board = &game->board;
    int plies = board->nn - board->empty_count;

    /* A square keeps 1.2's n=N, so its records stay byte for byte. */
    if (board->width == board->height) {
        put_str(s, "ttt/1 n=");
        put_number(s, board->n);
    } else {
        put_str(s, "ttt/1 w=");
        put_number(s, board->width);
        put_str(s, " h=");
        put_number(s, board->height);
    }
    put_str(s, " k=");
    put_number(s, board->k);
    put_str(s, " rules=");
    put_str(s, rules_name(game->misere, game->early_draw, board->gravity));
    if (game->limit_empty != 0) {
        put_str(s, " limit=");
        put_number(s, board->nn - game->limit_empty);
    }
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
    put_name(s, game, TTT_X);
    put_name(s, game, TTT_O);
    if (game->ending != TTT__ENDING_NONE) {
        put_str(s, " end=");
        put_str(s, ending_name(game->ending));
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
    size_t len;       /* the record's line, without its line end */
    size_t pos;
    const char *want; /* what the failing step needed at pos */
} reader;

/* What the steps want, for ttt_game_load_expected. */
#define WANT_NUMBER "a decimal number without leading zeros"
#define WANT_CELL "a cell name: column letters a-z, then a row from 1 (b2)"

/* How many leading bytes of the remaining text match literal. */
static size_t matching(const reader *r, const char *literal)
{
    size_t n = 0;
    while (literal[n] != '\0' && r->pos + n < r->len &&
           r->text[r->pos + n] == literal[n])
        n++;
    return n;
}

static int expect(reader *r, const char *literal, const char *want)
{
    size_t n = matching(r, literal);
    r->pos += n;
    if (literal[n] == '\0')
        return TTT_OK;
    r->want = want;
    return TTT_E_PARSE;
}

/* Reads a number without leading zeros. It must be followed by another byte:
 * at the end of the text "n=1" could still be the start of "n=10", which is a
 * truncated record, not a bad size. Values past cap stop growing, so any
 * number of digits is safe and still out of range. */
static int read_number_to(reader *r, int cap, int *value)
{
    int v = 0;

    r->want = WANT_NUMBER;
    if (r->pos >= r->len || !is_digit(r->text[r->pos]))
        return TTT_E_PARSE;
    if (r->text[r->pos] == '0') {
        r->pos++;
        if (r->pos < r->len && is_digit(r->text[r->pos]))
            return TTT_E_PARSE;
    }
    for (; r->pos < r->len && is_digit(r->text[r->pos]); r->pos++)
        if (v <= cap)
            v = v * 10 + (r->text[r->pos] - '0');
    /* A number is always followed by more of the record. */
    r->want = "more of the record after the number";
    if (r->pos >= r->len)
        return TTT_E_PARSE;
    *value = v;
    return TTT_OK;
}

/* A board size or win length. */
static int read_number(reader *r, int *value)
{
    return read_number_to(r, TTT_MAX_SIZE, value);
}

/* Which of the literals the remaining text starts with: its index, the
 * reader moved past it. If none, -1, the reader moved to where the text
 * leaves the last of them to match (the first bad byte). */
static int read_choice(reader *r, const char *const *literals, size_t count)
{
    size_t best = 0;
    for (size_t i = 0; i < count; i++) {
        size_t n = matching(r, literals[i]);
        if (literals[i][n] == '\0') {
            r->pos += n;
            return (int)i;
        }
        if (n > best)
            best = n;
    }
    r->pos += best;
    return -1;
}

/* Reads the rules value and the space after it. Each spelling is tried whole
 * so the error lands where the text leaves the closest one
 * ("misere+misere" fails at the second 'm'). */
static int read_rules(reader *r, int *misere, int *early_draw, int *gravity)
{
    size_t best = 0;

    for (int i = 0; i < 8; i++) {
        const char *text = rules_spellings[i];
        size_t n = matching(r, text);
        size_t text_len = strlen(text);
        /* The spelling, then the space that ends the field. */
        if (n == text_len && r->pos + n < r->len && r->text[r->pos + n] == ' ') {
            r->pos += n + 1;
            *misere = i & 1;
            *early_draw = (i >> 1) & 1;
            *gravity = (i >> 2) & 1;
            return TTT_OK;
        }
        if (n > best)
            best = n;
    }
    r->pos += best;
    r->want = "the rules (classic, or misere, early-draw and gravity joined "
              "by + in that order), then a space";
    return TTT_E_PARSE;
}

/* Replays the moves into game, up to the first byte after them. On an
 * illegal move *move_at is set to its name's offset. */
static int read_moves(reader *r, ttt_game *game, size_t *move_at)
{
    if (r->pos < r->len && r->text[r->pos] == '-') {
        r->pos++;
        return TTT_OK;
    }
    for (int first = 1;; first = 0) {
        int row, col, mark, status;
        size_t used;

        if (scan_cell(r->text + r->pos, r->len - r->pos, 0, &row, &col,
                      &used) != TTT_OK) {
            r->pos += used;
            r->want = first ? WANT_CELL ", or - for no moves" : WANT_CELL;
            return TTT_E_PARSE;
        }
        *move_at = r->pos;
        r->pos += used;
        /* ttt_to_move gives no mark once the game is over; ttt_play would
         * call that a bad mark rather than a finished game. */
        mark = ttt_to_move(game);
        status = mark == TTT_EMPTY ? TTT_E_GAME_OVER
                                   : ttt_play(game, mark, row, col, NULL);
        if (status != TTT_OK) {
            r->want = "a move that is legal after the moves before it";
            return status;
        }
        if (r->pos >= r->len || r->text[r->pos] != ',')
            return TTT_OK;
        r->pos++;
    }
}

/* Reads a quoted name (the reader at its opening quote) and gives it to
 * side mark of game. On failure *where is the offset to report. */
static int read_name(reader *r, ttt_game *game, int mark, size_t *where)
{
    char name[TTT_NAME_MAX];
    size_t at[TTT_NAME_MAX + 1]; /* each name byte's offset in the record */
    size_t n = 0, bad;

    if (expect(r, "\"", "a double quote opening the name") != TTT_OK) {
        *where = r->pos;
        return TTT_E_PARSE;
    }
    size_t start = r->pos;
    for (;;) {
        /* The record is one line: a quote still open at its LF, or at the
         * end of the text, is never closed. */
        if (r->pos >= r->len || r->text[r->pos] == '\n') {
            *where = r->pos;
            r->want = "a double quote closing the name";
            return TTT_E_PARSE;
        }
        size_t byte_at = r->pos;
        char byte = r->text[r->pos];
        if (byte == '"')
            break;
        if (byte == '\\') {
            r->pos++;
            if (r->pos >= r->len ||
                (r->text[r->pos] != '"' && r->text[r->pos] != '\\')) {
                *where = r->pos;
                r->want = "a double quote or a backslash after a backslash";
                return TTT_E_PARSE;
            }
            byte = r->text[r->pos];
        }
        if (n == TTT_NAME_MAX) {
            /* Too long, unless a byte before already made it invalid. */
            int early = ttt__check_name(name, n, &bad) != TTT_OK && bad < n;
            *where = early ? at[bad] : byte_at;
            r->want = early ? "a name in UTF-8 without control characters"
                            : "a double quote closing a name of at most 64 "
                              "bytes";
            return TTT_E_NAME;
        }
        at[n] = byte_at;
        name[n++] = byte;
        r->pos++;
    }
    /* An empty name is written as no field at all. */
    if (n == 0) {
        *where = r->pos;
        r->want = "a name (a player without one has no field)";
        return TTT_E_PARSE;
    }
    at[n] = r->pos;
    if (ttt__check_name(name, n, &bad) != TTT_OK) {
        *where = at[bad];
        r->want = "a name in UTF-8 without control characters";
        return TTT_E_NAME;
    }
    r->pos++; /* the closing quote */
    int status = ttt_game_set_name(game, mark, name, n);
    if (status != TTT_OK) {
        *where = start - 1;
        r->want = "a name the game can store";
    }
    return status;
}

/* Reads the ending after " end=" and ends the game with it; it must end
 * the line. */
static int read_ending(reader *r, ttt_game *game,
                       const char *const endings[3], size_t *where)
{
    size_t ending_at = r->pos;
    int ending = read_choice(r, endings, 3);
    if (ending < 0) {
        r->want = "resign-x, resign-o or draw-agreed";
        *where = r->pos;
        return TTT_E_PARSE;
    }
    int status = ending == 2 ? ttt_agree_draw(game, NULL)
                             : ttt_resign(game, ending == 0 ? TTT_X : TTT_O,
                                          NULL);
    if (status != TTT_OK) {
        r->want = "an ending the moves leave open (the game in progress)";
        *where = ending_at;
    }
    return status;
}

/* Reads the optional fields after the moves (names, then the ending), in
 * their one order, up to the end of the record's line. On failure *where
 * is the offset to report. */
static int read_extras(reader *r, ttt_game *game, size_t *where)
{
    static const char *const fields[] = {" x=", " o=", " end="};
    /* What may come next, by the first field still allowed. */
    static const char *const wants[] = {
        "\" x=\", \" o=\", \" end=\" or the end of the line",
        "\" o=\", \" end=\" or the end of the line",
        "\" end=\" or the end of the line",
    };
    static const char *const endings[] = {"resign-x", "resign-o",
                                          "draw-agreed"};
    size_t first = 0; /* fields before this one are no longer allowed */
    while (r->pos < r->len) {
        size_t at = r->pos;
        if (first == 3) {
            r->want = "the end of the line";
        } else {
            int field = read_choice(r, fields + first, 3 - first);
            if (field >= 0) {
                field += (int)first;
                first = (size_t)field + 1;
                int status = TTT_OK;
                if (field < 2)
                    status = read_name(r, game, field == 0 ? TTT_X : TTT_O,
                                       where);
                else
                    status = read_ending(r, game, endings, where);
                if (status != TTT_OK)
                    return status;
                continue;
            }
            /* After a move name a comma and another move could follow. */
            r->want = first == 0 && at > 0 && is_digit(r->text[at - 1])
                          ? "\",\" and a cell name, \" x=\", \" o=\", \" end=\" "
                            "or the end of the line"
                          : wants[first];
        }
        /* The record is one line: after its line end, blank lines alone
         * may follow; the error is at the first byte of the next line
         * that is not blank. */
        size_t next = at;
        while (next < r->len &&
               (r->text[next] == '\n' ||
                (r->text[next] == '\r' && next + 1 < r->len &&
                 r->text[next + 1] == '\n')))
            next += r->text[next] == '\n' ? 1 : 2;
        if (next > at) {
            r->pos = next;
            r->want = "nothing but blank lines after the record's line";
        }
        *where = r->pos;
        return TTT_E_PARSE;
    }
    *where = r->pos;
    return TTT_OK;
}

/* Parses the whole record into *game (which the caller frees on failure)
 * and sets *where to the offset of the first problem. */
/* Reads a board side at the reader: TTT_E_SIZE (the reader on its first
 * digit) if it is out of range. */
static int read_side(reader *r, int *side)
{
    size_t at = r->pos;
    int status = read_number(r, side);
    if (status == TTT_OK && (*side < TTT_MIN_SIZE || *side > TTT_MAX_SIZE)) {
        r->pos = at;
        r->want = "a side from 3 to 1024";
        return TTT_E_SIZE;
    }
    return status;
}

/* Reads the geometry fields: "n=N" for a square (1.2's form) or
 * "w=W h=H" for a rectangle, then " k=K". A rectangle with equal sides is
 * a square written the other way, not canonical: TTT_E_PARSE at its h. */
static int read_geometry(reader *r, int *width, int *height, int *k)
{
    static const char *const starts[] = {"ttt/1 n=", "ttt/1 w="};
    int form = read_choice(r, starts, 2);
    if (form < 0) {
        r->want = "\"ttt/1 n=\" or \"ttt/1 w=\"";
        return TTT_E_PARSE;
    }
    int status = read_side(r, width);
    if (status != TTT_OK)
        return status;
    *height = *width;
    if (form == 1) {
        status = expect(r, " h=", "\" h=\" after the width");
        size_t h_at = r->pos;
        if (status == TTT_OK)
            status = read_side(r, height);
        if (status != TTT_OK)
            return status;
        if (*height == *width) {
            r->pos = h_at;
            r->want = "a height other than the width (a square is n=N)";
            return TTT_E_PARSE;
        }
    }
    status = expect(r, " k=", "\" k=\"");
    size_t k_at = r->pos;
    if (status == TTT_OK)
        status = read_number(r, k);
    /* k = 0 would mean "the shorter side" to the constructors, but it
     * would save back as the actual k, so it is not canonical. */
    int longest = *width > *height ? *width : *height;
    if (status == TTT_OK && (*k < TTT_MIN_SIZE || *k > longest)) {
        r->pos = k_at;
        r->want = "a k from 3 to the longer side";
        return TTT_E_SIZE;
    }
    return status;
}

static int read_record(reader *r, const ttt_allocator *alloc,
                       ttt_game **game, size_t *where)
{
    int width, height, k, misere, early_draw, gravity, limit, status;
    size_t move_at;

    status = read_geometry(r, &width, &height, &k);
    if (status == TTT_E_SIZE) {
        *where = r->pos;
        return status;
    }
    if (status == TTT_OK)
        status = expect(r, " rules=", "\" rules=\"");
    if (status == TTT_OK)
        status = read_rules(r, &misere, &early_draw, &gravity);
    /* The ply limit, if any, comes between the rules and the moves. */
    limit = 0;
    if (status == TTT_OK && r->pos < r->len && r->text[r->pos] == 'l') {
        status = expect(r, "limit=", "\"limit=\" or \"moves=\"");
        size_t limit_at = r->pos;
        if (status == TTT_OK)
            status = read_number_to(r, TTT_MAX_SIZE * TTT_MAX_SIZE, &limit);
        /* 0 and the cell count would mean no limit, which is written as
         * no field. */
        if (status == TTT_OK && (limit < 1 || limit >= width * height)) {
            *where = limit_at;
            r->want = "a ply limit from 1 to the number of cells - 1";
            return TTT_E_RULE;
        }
        if (status == TTT_OK)
            status = expect(r, " ", "a space after the limit");
    }
    if (status == TTT_OK)
        status = expect(r, "moves=", "\"limit=\" or \"moves=\"");
    if (status != TTT_OK) {
        *where = r->pos;
        return status;
    }

    status = ttt_game_new_rect_with(width, height, k, alloc, game);
    if (status == TTT_OK)
        status = ttt_game_set_rule(*game, TTT_RULE_MISERE, misere);
    if (status == TTT_OK)
        status = ttt_game_set_rule(*game, TTT_RULE_EARLY_DRAW, early_draw);
    if (status == TTT_OK)
        status = ttt_game_set_rule(*game, TTT_RULE_GRAVITY, gravity);
    if (status == TTT_OK)
        status = ttt_game_set_rule(*game, TTT_RULE_PLY_LIMIT, limit);
    if (status != TTT_OK) {
        /* Geometry and rules were checked above: only memory can fail. */
        *where = r->pos;
        r->want = "memory for the game";
        return status;
    }

    move_at = r->pos;
    status = read_moves(r, *game, &move_at);
    if (status != TTT_OK) {
        *where = status == TTT_E_PARSE ? r->pos : move_at;
        return status;
    }
    return read_extras(r, *game, where);
}

/* The length of the record's line in text: without the line end (LF or
 * CR LF) and the blank lines after it, so a record with no final newline,
 * with CR LF line ends, or followed by empty lines reads as the line it
 * holds. */
static size_t line_length(const char *text, size_t len)
{
    while (len > 0 && text[len - 1] == '\n') {
        len--;
        if (len > 0 && text[len - 1] == '\r')
            len--;
    }
    return len;
}

/* Reads text into *game (which the caller frees), as ttt_game_load. */
static int load(const char *text, size_t len, const ttt_allocator *alloc,
                ttt_game **game, size_t *where, const char **want)
{
    reader r = {text, line_length(text, len), 0, ""};
    int status = read_record(&r, alloc, game, where);
    *want = r.want;
    return status;
}

/* On success error_offset is left untouched. */
int ttt_game_load(const char *text, size_t len, const ttt_allocator *alloc,
                  ttt_game **out, size_t *error_offset)
{
    ttt_game *game = NULL;
    size_t where = 0;
    const char *want;
    int status;

    if ((text == NULL && len > 0) || out == NULL) {
        status = TTT_E_INVALID;
    } else {
        status = load(text, len, alloc, &game, &where, &want);
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

const char *ttt_game_load_expected(const char *text, size_t len)
{
    ttt_game *game = NULL;
    size_t where = 0;
    const char *want = "";

    if (text == NULL && len > 0)
        return "";
    int status = load(text, len, NULL, &game, &where, &want);
    ttt_game_free(game);
    return status == TTT_OK || want == NULL ? "" : want;
}
