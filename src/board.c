/* board.c - board geometry (squares and W x H rectangles): marks, the empty-cell permutation, line counters and K-in-a-row scans. */
#include <string.h>

#include "board.h"

static int uses_line_counters(const ttt__board *board)
{
    return ttt__board_counts_lines(board);
}

/* Whole lines counted: a square with K = N has 2n + 2, any other board
 * none. */
static int line_count(int width, int height, int k)
{
    return width == height && k == width ? 2 * width + 2 : 0;
}

/* K-windows along one line of length len: none when it is shorter. */
static int32_t windows_along(int len, int k)
{
    return len >= k ? len - k + 1 : 0;
}

/* Every K-window of the board: rows and columns, then both diagonals. A
 * diagonal window spans k rows and k columns, so there are as many of them
 * per direction as (columns - k + 1) * (rows - k + 1). */
static int32_t window_count(int width, int height, int k)
{
    int32_t across = windows_along(width, k), down = windows_along(height, k);
    return height * across + width * down + 2 * across * down;
}

size_t ttt__board_bytes_rect(int width, int height, int k)
{
    size_t nn = ttt__size_mul((size_t)width, (size_t)height);
    /* int32 arrays first, then the int16 column fills and counters: every
     * array lands aligned without padding. */
    size_t bytes = ttt__size_add(
        ttt__size_add(ttt__size_mul(nn, 2 * sizeof(int32_t)),
                      ttt__size_mul((size_t)width, sizeof(int16_t))),
        ttt__size_mul((size_t)line_count(width, height, k), sizeof(ttt__line)));
    return ttt__size_ok(bytes) ? bytes : 0;
}

size_t ttt__board_bytes(int n, int k)
{
    return ttt__board_bytes_rect(n, n, k);
}

static void update_slow_moves(ttt__board *board)
{
    board->slow_moves =
        !uses_line_counters(board) || board->track_live || board->gravity;
}

void ttt__board_bind_rect(ttt__board *board, int width, int height, int k,
                          void *mem)
{
    int32_t nn = width * height;
    board->n = width;
    board->width = (int16_t)width;
    board->height = (int16_t)height;
    board->k = k;
    board->nn = nn;
    board->order = (int32_t *)mem;
    board->cells = board->order + nn;
    board->lines = (ttt__line *)(void *)(ttt__board_fills(board) + width);
    board->track_live = 0;
    board->gravity = 0;
    update_slow_moves(board);
}

void ttt__board_bind(ttt__board *board, int n, int k, void *mem)
{
    ttt__board_bind_rect(board, n, n, k, mem);
}

void ttt__board_clear(ttt__board *board)
{
    int width = board->width, height = board->height;
    int32_t index = 0;
    for (int row = 0; row < height; row++) {
        for (int col = 0; col < width; col++) {
            board->order[index] = TTT__PACK(row, col);
            board->cells[index] = TTT__BARE_ENTRY(index);
            index++;
        }
    }
    memset(ttt__board_fills(board), 0, (size_t)width * sizeof(int16_t));
    memset(board->lines, 0,
           (size_t)line_count(width, height, board->k) * sizeof(ttt__line));
    board->empty_count = board->nn;
    board->live = uses_line_counters(board)
                      ? line_count(width, height, board->k)
                      : window_count(width, height, board->k);
}

void ttt__board_track_live(ttt__board *board, int on)
{
    board->track_live = (int16_t)on;
    update_slow_moves(board);
}

void ttt__board_set_gravity(ttt__board *board, int on)
{
    board->gravity = (int16_t)on;
    /* The board is empty: every column's fill is zero. */
    memset(ttt__board_fills(board), 0, (size_t)board->width * sizeof(int16_t));
    update_slow_moves(board);
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

/* Whether the cell holds mark (X or O). Boards without line counters keep
 * every code exact, since lifting a mark clears its code there, so the code
 * alone answers, as fast as a byte compare; boards with them leave a lifted
 * cell's code behind, so its slot must be at or above the boundary too. */
static int holds(const ttt__board *board, int32_t cell, int mark)
{
    int32_t entry = board->cells[cell];
    if ((entry & 3) != TTT__CODE(mark))
        return 0;
    return !uses_line_counters(board) ||
           TTT__SLOT(entry) >= board->empty_count;
}

/* Cells holding mark next to (row, col) in direction d, up to limit. */
static int run_length(const ttt__board *board, int row, int col, int d,
                      int sign, int mark, int limit)
{
    int n = board->n, height = board->height;
    int step_row = sign * ttt__dir_row[d], step_col = sign * ttt__dir_col[d];
    int count = 0;
    row += step_row;
    col += step_col;
    while (count < limit && (unsigned)row < (unsigned)height &&
           (unsigned)col < (unsigned)n && holds(board, row * n + col, mark)) {
        count++;
        row += step_row;
        col += step_col;
    }
    return count;
}

/* The K-windows through the empty cell (row, col) that hold the opposite of
 * mark and no mark: exactly the windows that putting mark there turns from
 * one-sided to dead. O(K) per direction with a sliding window. Only boards
 * without line counters count windows, so the codes are exact (see holds). */
static int32_t windows_killed_by(const ttt__board *board, int row, int col,
                                 int mark)
{
    int n = board->n, height = board->height, k = board->k;
    int32_t killed = 0;
    for (int d = 0; d < 4; d++) {
        int back = ttt__room_rect(n, height, row, col, d, -1, k - 1);
        int ahead = ttt__room_rect(n, height, row, col, d, +1, k - 1);
        if (back + ahead + 1 < k)
            continue;
        int step = ttt__dir_row[d] * n + ttt__dir_col[d];
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
    if (board->gravity)
        ttt__board_fills(board)[col]++;
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
    if (board->gravity)
        ttt__board_fills(board)[col]--;
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
    int longest = n > board->height ? n : board->height;
    for (int d = 0; d < 4; d++) {
        int back = run_length(board, row, col, d, -1, mark, longest);
        int ahead = run_length(board, row, col, d, +1, mark, longest);
        if (back + ahead + 1 >= board->k) {
            ends[0] = row - back * ttt__dir_row[d];
            ends[1] = col - back * ttt__dir_col[d];
            ends[2] = row + ahead * ttt__dir_row[d];
            ends[3] = col + ahead * ttt__dir_col[d];
            return 1;
        }
    }
    return 0;
}
