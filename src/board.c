/* board.c - board geometry: marks, the empty-cell permutation, line counters and K-in-a-row scans. */
#include <string.h>

#include "board.h"
#include "random.h"

/* The four line directions as (row step, column step): row, column,
 * diagonal (down-right), anti-diagonal (down-left). The order is the one
 * ttt_winning_line documents. */
static const int dir_row[4] = {0, 1, 1, 1};
static const int dir_col[4] = {1, 0, 1, -1};

static int uses_line_counters(const ttt__board *board)
{
    return board->k == board->n;
}

static int line_count(int n, int k)
{
    return k == n ? 2 * n + 2 : 0;
}

/* Every K-window of the board: rows and columns, then both diagonals. */
static int32_t window_count(int n, int k)
{
    int32_t per_line = n - k + 1;
    return 2 * n * per_line + 2 * per_line * per_line;
}

size_t ttt__board_bytes(int n, int k)
{
    size_t nn = (size_t)n * (size_t)n;
    /* int32 arrays first, then the int16 counters: every array lands
     * aligned without padding. */
    return 2 * nn * sizeof(int32_t) +
           (size_t)line_count(n, k) * sizeof(ttt__line);
}

void ttt__board_bind(ttt__board *board, int n, int k, void *mem)
{
    int32_t nn = n * n;
    board->n = n;
    board->k = k;
    board->nn = nn;
    board->order = (int32_t *)mem;
    board->cells = board->order + nn;
    board->lines = (ttt__line *)(board->cells + nn);
    board->track_live = 0;
    board->slow_moves = k != n;
}

void ttt__board_clear(ttt__board *board)
{
    int n = board->n;
    int32_t index = 0;
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            board->order[index] = TTT__PACK(row, col);
            board->cells[index] = TTT__BARE_ENTRY(index);
            index++;
        }
    }
    memset(board->lines, 0, (size_t)line_count(n, board->k) * sizeof(ttt__line));
    board->empty_count = board->nn;
    board->live = uses_line_counters(board) ? line_count(n, n)
                                            : window_count(n, board->k);
}

void ttt__board_track_live(ttt__board *board, int on)
{
    board->track_live = on;
    board->slow_moves = board->k != board->n || on;
}

/* A line holds one kind of mark, so either player could still fill it,
 * exactly when |sum| == fill. */
static int line_pure(const ttt__line *line)
{
    return line->sum == line->fill || -line->sum == line->fill;
}

/* Adds mark to a whole line, keeping fill and live; returns 1 when the line
 * is now full of mark. */
static int line_add(ttt__board *board, ttt__line *line, int mark)
{
    int was_pure = line_pure(line);
    line->sum = (int16_t)(line->sum + mark);
    line->fill = (int16_t)(line->fill + 1);
    board->live -= was_pure && !line_pure(line);
    return line->sum * mark == board->n;
}

static void line_remove(ttt__board *board, ttt__line *line, int mark)
{
    int was_pure = line_pure(line);
    line->sum = (int16_t)(line->sum - mark);
    line->fill = (int16_t)(line->fill - 1);
    board->live += !was_pure && line_pure(line);
}

/* Whether the cell holds mark (X or O). Boards with K < N keep every code
 * exact, since lifting a mark clears its code there, so the code alone
 * answers, as fast as a byte compare; boards with K = N leave a lifted
 * cell's code behind, so its slot must be at or above the boundary too. */
static int holds(const ttt__board *board, int32_t cell, int mark)
{
    int32_t entry = board->cells[cell];
    if ((entry & 3) != TTT__CODE(mark))
        return 0;
    return board->k != board->n || TTT__SLOT(entry) >= board->empty_count;
}

/* Cells holding mark next to (row, col) in direction d, up to limit. */
static int run_length(const ttt__board *board, int row, int col, int d,
                      int sign, int mark, int limit)
{
    int n = board->n;
    int step_row = sign * dir_row[d], step_col = sign * dir_col[d];
    int count = 0;
    row += step_row;
    col += step_col;
    while (count < limit && (unsigned)row < (unsigned)n &&
           (unsigned)col < (unsigned)n && holds(board, row * n + col, mark)) {
        count++;
        row += step_row;
        col += step_col;
    }
    return count;
}

/* Steps from (row, col) in direction d (sign +1 or -1) that stay on the
 * board, capped at limit. */
static int room(int n, int row, int col, int d, int sign, int limit)
{
    int steps = 0;
    row += sign * dir_row[d];
    col += sign * dir_col[d];
    while (steps < limit && (unsigned)row < (unsigned)n &&
           (unsigned)col < (unsigned)n) {
        steps++;
        row += sign * dir_row[d];
        col += sign * dir_col[d];
    }
    return steps;
}

/* The K-windows through the empty cell (row, col) that hold the opposite of
 * mark and no mark: exactly the windows that putting mark there turns from
 * one-sided to dead. O(K) per direction with a sliding window. Only boards
 * with K < N count windows, so the codes are exact (see holds). */
static int32_t windows_killed_by(const ttt__board *board, int row, int col,
                                 int mark)
{
    int n = board->n, k = board->k;
    int32_t killed = 0;
    for (int d = 0; d < 4; d++) {
        int back = room(n, row, col, d, -1, k - 1);
        int ahead = room(n, row, col, d, +1, k - 1);
        if (back + ahead + 1 < k)
            continue;
        int step = dir_row[d] * n + dir_col[d];
        const int32_t *centre = board->cells + row * n + col;
        int32_t own_code = TTT__CODE(mark), other_code = TTT__CODE(-mark);
        int own = 0, other = 0;
        /* First window: offsets -back .. -back + k - 1. */
        for (int i = -back; i < -back + k; i++) {
            int32_t code = centre[i * step] & 3;
            own += code == own_code;
            other += code == other_code;
        }
        int last_start = ahead - (k - 1);
        for (int start = -back;; start++) {
            killed += other > 0 && own == 0;
            if (start == last_start)
                break;
            int32_t out = centre[start * step] & 3;
            int32_t in = centre[(start + k) * step] & 3;
            own += (in == own_code) - (out == own_code);
            other += (in == other_code) - (out == other_code);
        }
    }
    return killed;
}

int ttt__board_place_slow(ttt__board *board, int row, int col, int mark)
{
    int n = board->n;
    if (uses_line_counters(board)) {
        ttt__line *lines = board->lines;
        int done = line_add(board, &lines[row], mark);
        done |= line_add(board, &lines[n + col], mark);
        if (row == col)
            done |= line_add(board, &lines[2 * n], mark);
        if (row + col == n - 1)
            done |= line_add(board, &lines[2 * n + 1], mark);
        board->cells[row * n + col] = TTT__ENTRY(board->empty_count, mark);
        return done;
    }
    /* The cell has its slot but no mark yet: it still reads as empty. */
    if (board->track_live)
        board->live -= windows_killed_by(board, row, col, mark);
    board->cells[row * n + col] = TTT__ENTRY(board->empty_count, mark);
    int k = board->k;
    for (int d = 0; d < 4; d++) {
        int run = 1 + run_length(board, row, col, d, +1, mark, k - 1);
        if (run < k)
            run += run_length(board, row, col, d, -1, mark, k - run);
        if (run >= k)
            return 1;
    }
    return 0;
}

void ttt__board_lift_slow(ttt__board *board, int row, int col, int mark)
{
    int n = board->n;
    if (uses_line_counters(board)) {
        ttt__line *lines = board->lines;
        line_remove(board, &lines[row], mark);
        line_remove(board, &lines[n + col], mark);
        if (row == col)
            line_remove(board, &lines[2 * n], mark);
        if (row + col == n - 1)
            line_remove(board, &lines[2 * n + 1], mark);
        return;
    }
    /* K < N: clear the code, so that codes stay exact (see holds). */
    int32_t *entry = &board->cells[row * n + col];
    *entry = TTT__BARE_ENTRY(TTT__SLOT(*entry));
    if (board->track_live) {
        /* The cell is empty again, as windows_killed_by expects. */
        board->live += windows_killed_by(board, row, col, mark);
    }
}

int ttt__board_line_through(const ttt__board *board, int row, int col,
                            int mark, int ends[4])
{
    int n = board->n;
    if (ttt__board_mark(board, row * n + col) != mark)
        return 0;
    for (int d = 0; d < 4; d++) {
        int back = run_length(board, row, col, d, -1, mark, n);
        int ahead = run_length(board, row, col, d, +1, mark, n);
        if (back + ahead + 1 >= board->k) {
            ends[0] = row - back * dir_row[d];
            ends[1] = col - back * dir_col[d];
            ends[2] = row + ahead * dir_row[d];
            ends[3] = col + ahead * dir_col[d];
            return 1;
        }
    }
    return 0;
}

/*
 * Boards of 3x3 and 4x4 with K = N play random games in registers
 * (ttt__small_board). Each side's line counts are 6-bit lanes of one
 * uint64_t, in the order of lines[]: rows, columns, diagonal, anti-diagonal.
 * A mark adds its cell's lanes; a lane reaching n completes a line, which
 * adding 32 - n to every lane turns into that lane's bit 5.
 */
#define LANE(i) (UINT64_C(1) << (6 * (i)))
#define ALL_LANES UINT64_C(0x041041041041041) /* lanes 0 .. 9 */
/* The lanes of the cell at entry rc = row * 4 + col of an n x n board. */
#define CELL_LANES(n, rc)                                                   \
    (LANE((rc) >> 2) | LANE((n) + ((rc) & 3)) |                              \
     (((rc) >> 2) == ((rc) & 3) ? LANE(2 * (n)) : 0) |                       \
     (((rc) >> 2) + ((rc) & 3) == (n) - 1 ? LANE(2 * (n) + 1) : 0))
#define CELL_LANES_OF(n)                                                     \
    {CELL_LANES(n, 0),  CELL_LANES(n, 1),  CELL_LANES(n, 2),                 \
     CELL_LANES(n, 3),  CELL_LANES(n, 4),  CELL_LANES(n, 5),                 \
     CELL_LANES(n, 6),  CELL_LANES(n, 7),  CELL_LANES(n, 8),                 \
     CELL_LANES(n, 9),  CELL_LANES(n, 10), CELL_LANES(n, 11),                \
     CELL_LANES(n, 12), CELL_LANES(n, 13), CELL_LANES(n, 14),                \
     CELL_LANES(n, 15)}

static const uint64_t lanes_3x3[16] = CELL_LANES_OF(3);
static const uint64_t lanes_4x4[16] = CELL_LANES_OF(4);

static unsigned packed_entry(int32_t packed)
{
    return (unsigned)(TTT__ROW(packed) << 2 | TTT__COL(packed));
}

int ttt__small_load(const ttt__board *board, int mark, ttt__small_board *small)
{
    int n = board->n;
    if (n > TTT__SMALL_MAX || board->slow_moves)
        return 0;
    const uint64_t *lanes = n == 3 ? lanes_3x3 : lanes_4x4;
    int32_t empty = board->empty_count;
    uint64_t empty_cells = 0, lanes_of[2] = {0, 0};
    /* Upside down: order[empty - 1] ends in the lowest 4 bits. */
    for (int32_t i = 0; i < empty; i++)
        empty_cells = empty_cells << 4 | packed_entry(board->order[i]);
    for (int32_t i = empty; i < board->nn; i++) {
        int32_t packed = board->order[i];
        int placed = ttt__board_mark(board, TTT__ROW(packed) * n + TTT__COL(packed));
        lanes_of[placed != mark] += lanes[packed_entry(packed)];
    }
    small->empty_cells = empty_cells;
    small->placed = 0;
    small->to_move = lanes_of[0];
    small->other = lanes_of[1];
    small->empty_count = empty;
    small->n = n;
    return 1;
}

/* One ply on a packed board, as ttt__board_take does it on order[]: draw an
 * index, give it the top empty entry (the lowest 4 bits) and drop the top.
 * Then the mover's lanes; returns nonzero if that completed a line. */
static inline int small_ply(ttt__small_board *small, uint64_t *mover,
                            uint64_t *rng, const uint64_t *lanes, int n)
{
    uint32_t empty = (uint32_t)small->empty_count;
    uint32_t pick = ttt__random_below(rng, empty);
    uint32_t shift = 4 * (empty - 1 - pick);
    uint64_t cells = small->empty_cells;
    unsigned cell = (unsigned)(cells >> shift) & 15;
    uint64_t diff = (cell ^ cells) & 15; /* the drawn entry ^ the top one */
    small->empty_cells = (cells ^ diff << shift) >> 4;
    small->placed = small->placed << 4 | cell;
    small->empty_count = (int32_t)empty - 1;
    *mover += lanes[cell];
    return ((*mover + ALL_LANES * (uint64_t)(32 - n)) & ALL_LANES * 32) != 0;
}

/* ttt__board_random_fill on a packed board of side n (a constant where it
 * is inlined); returns 1 if the side to move at the start completed a line,
 * -1 if the other side did, 0 if the board filled. Two plies a turn of the
 * loop, so that each side's counts stay in their own register. */
static inline int small_random_fill(ttt__small_board *small, uint64_t *seed,
                                    int n)
{
    const uint64_t *lanes = n == 3 ? lanes_3x3 : lanes_4x4;
    ttt__small_board work = *small; /* in registers, whatever small is */
    uint64_t first = work.to_move, second = work.other;
    uint64_t rng = *seed;
    int completed = 0;
    while (work.empty_count > 0) {
        if (small_ply(&work, &first, &rng, lanes, n)) {
            completed = 1;
            break;
        }
        if (work.empty_count == 0)
            break;
        if (small_ply(&work, &second, &rng, lanes, n)) {
            completed = -1;
            break;
        }
    }
    *seed = rng;
    /* The side to move next is the first mover after an even number of
     * plies. */
    int first_next = (small->empty_count - work.empty_count) % 2 == 0;
    work.to_move = first_next ? first : second;
    work.other = first_next ? second : first;
    *small = work;
    return completed;
}

/* Many games from one position, with n a constant. */
static inline void small_random_games(const ttt__small_board *small,
                                      uint64_t *seed, uint64_t games,
                                      uint64_t by_result[3], int n)
{
    uint64_t rng = *seed;
    for (uint64_t game = 0; game < games; game++) {
        ttt__small_board work = *small;
        by_result[small_random_fill(&work, &rng, n) + 1]++;
    }
    *seed = rng;
}

void ttt__small_random_games(const ttt__small_board *small, uint64_t *seed,
                             uint64_t games, uint64_t by_result[3])
{
    by_result[0] = by_result[1] = by_result[2] = 0;
    if (small->n == 3)
        small_random_games(small, seed, games, by_result, 3);
    else
        small_random_games(small, seed, games, by_result, 4);
}

/* Puts the cell of entry rc at index i of order[], with cells[] entry
 * cell_entry. */
static void put_entry(ttt__board *board, int32_t i, unsigned rc,
                      int32_t cell_entry)
{
    int row = (int)(rc >> 2), col = (int)(rc & 3);
    board->order[i] = TTT__PACK(row, col);
    board->cells[row * board->n + col] = cell_entry;
}

/* Writes small, loaded from board with mark to move and then played on,
 * back into board. */
static void small_store(const ttt__small_board *small, ttt__board *board,
                        int mark)
{
    int32_t start = board->empty_count, empty = small->empty_count;
    /* The mark of the last ply: mark's after an odd number of plies. */
    int last = (start - empty) % 2 ? mark : -mark;
    uint64_t entries = small->empty_cells;
    for (int32_t i = empty - 1; i >= 0; i--, entries >>= 4)
        put_entry(board, i, (unsigned)entries & 15, TTT__BARE_ENTRY(i));
    /* The placed cells, the latest lowest, go to order[empty ..] most
     * recent first. The first of them, ply start - empty, was mark's if
     * that count is odd; the marks alternate back from there. */
    entries = small->placed;
    int placed_mark = last;
    for (int32_t i = empty; i < start; i++, entries >>= 4) {
        put_entry(board, i, (unsigned)entries & 15, TTT__ENTRY(i, placed_mark));
        placed_mark = -placed_mark;
    }
    /* The last mover's lanes are other. */
    uint64_t x = last == TTT_X ? small->other : small->to_move;
    uint64_t o = last == TTT_X ? small->to_move : small->other;
    for (int line = 0; line < 2 * board->n + 2; line++, x >>= 6, o >>= 6)
        board->lines[line].sum = (int16_t)((int)(x & 63) - (int)(o & 63));
    board->empty_count = empty;
}

int ttt__board_random_fill(ttt__board *board, uint64_t *seed, int mark)
{
    ttt__small_board small;
    if (ttt__small_load(board, mark, &small)) {
        int completed = small.n == 3 ? small_random_fill(&small, seed, 3)
                                     : small_random_fill(&small, seed, 4);
        small_store(&small, board, mark);
        return completed * mark;
    }
    if (board->slow_moves) {
        while (board->empty_count > 0) {
            int32_t packed = ttt__board_random_cell(board, seed);
            if (ttt__board_place(board, TTT__ROW(packed), TTT__COL(packed), mark))
                return mark;
            mark = -mark;
        }
        return 0;
    }
    /* ttt__board_place for K = N, with the arrays and the empty count in
     * locals: the stores below cannot then force them to be reloaded
     * (20-25% faster random games on 5x5 to 19x19 than calling it). */
    int n = board->n;
    int32_t *order = board->order, *cells = board->cells;
    ttt__line *rows = board->lines, *cols = board->lines + n;
    ttt__line *diagonal = board->lines + 2 * n, *anti = diagonal + 1;
    int32_t empty = board->empty_count;
    int winner = 0;
    while (empty > 0) {
        int32_t pick = (int32_t)ttt__random_below(seed, (uint32_t)empty);
        int32_t packed = order[pick];
        int row = TTT__ROW(packed), col = TTT__COL(packed);
        /* The drawn cell sits at index pick: swap it to the top. */
        int32_t top = --empty;
        int32_t moved = order[top];
        order[pick] = moved;
        cells[TTT__ROW(moved) * n + TTT__COL(moved)] = TTT__BARE_ENTRY(pick);
        order[top] = packed;
        cells[row * n + col] = TTT__ENTRY(top, mark);
        int full = mark * n;
        int done = (rows[row].sum = (int16_t)(rows[row].sum + mark)) == full;
        done |= (cols[col].sum = (int16_t)(cols[col].sum + mark)) == full;
        if (row == col)
            done |= (diagonal->sum = (int16_t)(diagonal->sum + mark)) == full;
        if (row + col == n - 1)
            done |= (anti->sum = (int16_t)(anti->sum + mark)) == full;
        if (done) {
            winner = mark;
            break;
        }
        mark = -mark;
    }
    board->empty_count = empty;
    return winner;
}
