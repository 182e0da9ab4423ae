/* pairing.c - pairing strategies: finding two private cells for every open window by bipartite matching, and ttt_solve's draw with no search. */
#include <string.h>

#include "pairing.h"

/* Row and column steps of the four directions of pairing_pair. */
static const int32_t step_row[4] = {0, 1, 1, 1};
static const int32_t step_col[4] = {1, 0, 1, -1};

/* Windows along one direction: starts that fit on the board. */
static size_t windows_along(int32_t width, int32_t height, int32_t k, int d)
{
    int64_t rows = step_row[d] ? (int64_t)height - k + 1 : height;
    int64_t cols = step_col[d] ? (int64_t)width - k + 1 : width;
    if (rows <= 0 || cols <= 0)
        return 0;
    return (size_t)rows * (size_t)cols;
}

size_t ttt__pairing_windows(int32_t width, int32_t height, int32_t k)
{
    size_t total = 0;
    for (int d = 0; d < 4; d++)
        total += windows_along(width, height, k, d);
    return total;
}

/* The scratch block's pieces, carved the same way for sizing and use. */
typedef struct pairing_scratch {
    pairing_pair *open;   /* the open windows, cells[] filled by the match */
    int32_t *match_cell;  /* per left node (2 per open window): its cell */
    int32_t *match_left;  /* per cell: its left node, or -1 */
    uint32_t *visited;    /* per cell: the search that last reached it */
    int32_t *stack_left;  /* augmenting path: the left nodes */
    int32_t *stack_next;  /* and the next offset each will try */
    int32_t open_count;
} pairing_scratch;

static void carve_scratch(carver *parts, pairing_scratch *s, size_t windows,
                          size_t cells)
{
    s->open = carve(parts, windows, sizeof(pairing_pair));
    s->match_cell = carve(parts, windows, 2 * sizeof(int32_t));
    s->match_left = carve(parts, cells, sizeof(int32_t));
    s->visited = carve(parts, cells, sizeof(uint32_t));
    s->stack_left = carve(parts, windows, 2 * sizeof(int32_t));
    s->stack_next = carve(parts, windows, 2 * sizeof(int32_t));
}

size_t ttt__pairing_scratch_bytes(size_t windows, size_t cells)
{
    carver sizes = {NULL, 0, 0};
    pairing_scratch s;
    carve_scratch(&sizes, &s, windows, cells);
    return sizes.overflow ? 0 : sizes.used;
}

int32_t ttt__pairing_window_cell(int32_t width, const pairing_pair *pair,
                                 int32_t i)
{
    return pair->start + i * (step_row[pair->direction] * width +
                              step_col[pair->direction]);
}

/* Looks for an augmenting path from left node root (unmatched): a depth-first
 * search over alternating edges with an explicit stack. On success flips
 * the path, so one more left node is matched, and returns 1. */
static int augment(const pairing_board *board, pairing_scratch *s,
                   int32_t root, uint32_t search)
{
    int32_t k = board->k;
    int32_t top = 0;
    s->stack_left[0] = root;
    s->stack_next[0] = 0;
    while (top >= 0) {
        int32_t left = s->stack_left[top];
        if (s->stack_next[top] == k) {
            top--;
            continue;
        }
        int32_t cell = ttt__pairing_window_cell(board->width, &s->open[left / 2],
                                                s->stack_next[top]++);
        if (board->cells[cell] != TTT_EMPTY || s->visited[cell] == search)
            continue;
        s->visited[cell] = search;
        int32_t holder = s->match_left[cell];
        if (holder < 0) {
            /* Flip the path: each node on the stack takes the cell the one
             * above it gave up, the top one the free cell. */
            for (; top >= 0; top--) {
                int32_t node = s->stack_left[top];
                int32_t previous = s->match_cell[node];
                s->match_cell[node] = cell;
                s->match_left[cell] = node;
                cell = previous;
            }
            return 1;
        }
        top++;
        s->stack_left[top] = holder;
        s->stack_next[top] = 0;
    }
    return 0;
}

/* Calls visit(start, direction, free cells) for each window holding no
 * mark of the defender, in a fixed order; stops early when visit returns 0.
 * Returns 0 if stopped, else 1. */
typedef int (*window_visit)(void *user, int32_t start, int d, int32_t free_cells);

static int each_open_window(const pairing_board *board, int attacker,
                            window_visit visit, void *user)
{
    int32_t width = board->width, height = board->height, k = board->k;
    int8_t defender = (int8_t)-attacker;
    for (int d = 0; d < 4; d++) {
        int32_t step = step_row[d] * width + step_col[d];
        int32_t first_col = step_col[d] < 0 ? k - 1 : 0;
        int32_t last_col = step_col[d] > 0 ? width - k : width - 1;
        int32_t last_row = step_row[d] ? height - k : height - 1;
        for (int32_t row = 0; row <= last_row; row++) {
            for (int32_t col = first_col; col <= last_col; col++) {
                int32_t start = row * width + col, free_cells = 0;
                int blocked = 0;
                for (int32_t i = 0; i < k && !blocked; i++) {
                    int8_t mark = board->cells[start + i * step];
                    blocked = mark == defender;
                    free_cells += mark == TTT_EMPTY;
                }
                if (!blocked && !visit(user, start, d, free_cells))
                    return 0;
            }
        }
    }
    return 1;
}

typedef struct open_count {
    size_t open;
    size_t empty;
} open_count;

static int count_window(void *user, int32_t start, int d, int32_t free_cells)
{
    open_count *count = user;
    (void)start;
    (void)d;
    count->open++;
    return free_cells >= 2 && 2 * count->open <= count->empty;
}

int32_t ttt__pairing_open(const pairing_board *board, int attacker)
{
    size_t cells = (size_t)board->width * (size_t)board->height;
    open_count count = {0, 0};
    for (size_t cell = 0; cell < cells; cell++)
        count.empty += board->cells[cell] == TTT_EMPTY;
    if (!each_open_window(board, attacker, count_window, &count))
        return -1;
    return (int32_t)count.open;
}

static int list_window(void *user, int32_t start, int d, int32_t free_cells)
{
    pairing_scratch *s = user;
    (void)free_cells;
    s->open[s->open_count].start = start;
    s->open[s->open_count].direction = d;
    s->open_count++;
    return 1;
}

int32_t ttt__pairing_find(const pairing_board *board, int attacker,
                          int32_t open, void *scratch, pairing_pair *pairs)
{
    int32_t width = board->width, k = board->k;
    size_t cells = (size_t)width * (size_t)board->height;
    pairing_scratch s;
    carver parts = {scratch, 0, 0};
    carve_scratch(&parts, &s, (size_t)open, cells);
    s.open_count = 0;
    each_open_window(board, attacker, list_window, &s);
    TTT_ASSERT(s.open_count == open);

    for (size_t cell = 0; cell < cells; cell++) {
        s.match_left[cell] = -1;
        s.visited[cell] = 0;
    }
    /* Greedy start: each node takes the first free empty cell of its
     * window; the augmenting paths then repair what greed got wrong. */
    for (int32_t node = 0; node < 2 * open; node++) {
        s.match_cell[node] = -1;
        for (int32_t i = 0; i < k; i++) {
            int32_t cell = ttt__pairing_window_cell(width, &s.open[node / 2], i);
            if (board->cells[cell] == TTT_EMPTY && s.match_left[cell] < 0) {
                s.match_cell[node] = cell;
                s.match_left[cell] = node;
                break;
            }
        }
    }
    uint32_t search = 0;
    for (int32_t node = 0; node < 2 * open; node++) {
        if (s.match_cell[node] < 0 && !augment(board, &s, node, ++search))
            return -1;
    }
    if (pairs) {
        for (int32_t w = 0; w < open; w++) {
            pairs[w] = s.open[w];
            pairs[w].cells[0] = s.match_cell[2 * w];
            pairs[w].cells[1] = s.match_cell[2 * w + 1];
        }
    }
    return open;
}

/* Whether attacker can be kept from completing any window: counts first,
 * then the matching in memory of its own. 1 yes, 0 no, TTT_E_NOMEM. */
static int has_pairing(const ttt_game *game, const pairing_board *board,
                       int attacker)
{
    int32_t open = ttt__pairing_open(board, attacker);
    if (open < 0)
        return 0;
    size_t bytes = ttt__pairing_scratch_bytes(
        (size_t)open, (size_t)board->width * (size_t)board->height);
    if (bytes == 0)
        return TTT_E_NOMEM;
    void *scratch = engine_alloc(game, bytes);
    if (!scratch)
        return TTT_E_NOMEM;
    int found = ttt__pairing_find(board, attacker, open, scratch, NULL) >= 0;
    engine_free(game, scratch);
    return found;
}

int ttt__pairing_answer(const ttt_game *game, int32_t width, int32_t height,
                        const snapshot *snap, int all_moves, solve_result *r,
                        ttt_solution *found)
{
    if (snap->misere || snap->state != TTT_IN_PROGRESS ||
        (all_moves && snap->early_draw))
        return 0;
    int32_t empty = snap->nn - snap->ply;
    /* Each side needs two cells per window it must stop; on an empty board
     * every window is open to both, so this count alone rules out most
     * boards before any pass over the windows. */
    if (snap->ply == 0 && 2 * ttt__pairing_windows(width, height, snap->k) > (size_t)empty)
        return 0;
    pairing_board board = {width, height, snap->k, snap->cells};
    int x_stopped = has_pairing(game, &board, TTT_X);
    if (x_stopped <= 0)
        return x_stopped;
    int o_stopped = has_pairing(game, &board, TTT_O);
    if (o_stopped <= 0)
        return o_stopped;

    r->value = r->value_min = r->value_max = TTT_VALUE_DRAW;
    r->best_count = 0;
    if (all_moves) {
        /* Nobody can win: the game runs to the full board or the ply
         * limit whatever is played, and every move keeps the draw. */
        r->plies = empty - snap->limit_empty;
        for (int32_t cell = 0; cell < snap->nn; cell++) {
            if (snap->cells[cell] == TTT_EMPTY)
                r->best[r->best_count++] = cell;
        }
    } else {
        r->plies = -1;
        for (int32_t cell = 0; cell < snap->nn && r->best_count == 0; cell++) {
            if (snap->cells[cell] == TTT_EMPTY)
                r->best[r->best_count++] = cell;
        }
    }
    found->value = found->value_min = found->value_max = TTT_VALUE_DRAW;
    found->plies = r->plies;
    found->nodes = 0;
    found->method = TTT_METHOD_PAIRING;
    return 1;
}
