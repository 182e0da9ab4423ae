/* proof.c - depth-first proof-number search (df-pn) with threat-based move cuts, pairing disproofs and disproof zones, on a board of its own. */
#include <string.h>

#include "proof.h"
#include "prover.h"

/* ------------------------------------------------------------------------ */
/* Proof numbers and the table                                               */

/* Proof and disproof numbers live in 28 bits so that an entry packs them
 * with the log2 of its work into 64. PN_INF marks a settled side. */
/* The starting numbers grow by one for every POTENTIAL_STEP of a side's
 * weighted open windows, up to POTENTIAL_CAP times: (6,6,5) takes 0.84M
 * positions with them against 1.46M with mobility alone. */
#define POTENTIAL_STEP 32
#define POTENTIAL_CAP 64
#define PN_INF ((UINT32_C(1) << 28) - 1)
#define PROOF_WAYS 4
#define PROOF_DEFAULT_TABLE_BYTES ((size_t)64 << 20)
/* The defender's moves (best first) that prove's first pass searches at a
 * node no rule cut. With every move, (7,7,5) took 272,706 positions and
 * (8,8,5) did not settle; with 6, 63,820 and 55,563,000; with 8, 67,289
 * and 74,114,248 (4, 12 and 16 gave (7,7,5) 96,480, 100,606 and 95,822). */
#define PROOF_DEFENDER_MOVES 6

typedef struct proof_entry {
    uint64_t key;  /* 0: empty (real keys have bit 0 set) */
    uint64_t data;
    cell_set zone; /* a disproof's zone, in the key's orientation */
} proof_entry;

static uint64_t pack_entry(uint32_t pn, uint32_t dn, uint32_t work_log)
{
    return (uint64_t)pn | (uint64_t)dn << 28 | (uint64_t)work_log << 56;
}

static uint32_t entry_pn(uint64_t data)
{
    return (uint32_t)(data & PN_INF);
}

static uint32_t entry_dn(uint64_t data)
{
    return (uint32_t)(data >> 28 & PN_INF);
}

static uint32_t entry_work(uint64_t data)
{
    return (uint32_t)(data >> 56);
}

static uint32_t log2_of(uint64_t x)
{
    uint32_t log = 0;
    while (x > 1) {
        x >>= 1;
        log++;
    }
    return log;
}

/* Saturating sum of proof numbers: INF stays INF, everything else stops
 * just below it. */
static uint32_t pn_add(uint32_t a, uint32_t b)
{
    if (a >= PN_INF || b >= PN_INF)
        return PN_INF;
    uint32_t sum = a + b;
    return sum >= PN_INF ? PN_INF - 1 : sum;
}

/* ------------------------------------------------------------------------ */
/* The prover's moves and keys                                               */

typedef struct child {
    int32_t cell;
    uint32_t pn, dn;
    cell_set zone; /* once disproven: its zone */
} child;

static void place(prover *pv, int32_t cell, int p)
{
    pv->cells[cell] = mark_of_player(p);
    for (int32_t i = pv->cell_first[cell]; i < pv->cell_first[cell + 1]; i++)
        pv->marks[2 * pv->cell_windows[i] + p]++;
    for (int s = 0; s < 8; s++)
        pv->hash[s] ^= pv->zobrist[2 * pv->symmetric[s * pv->nn + cell] + p];
    pv->ply++;
    pv->empty--;
}

static void unplace(prover *pv, int32_t cell, int p)
{
    pv->cells[cell] = TTT_EMPTY;
    for (int32_t i = pv->cell_first[cell]; i < pv->cell_first[cell + 1]; i++)
        pv->marks[2 * pv->cell_windows[i] + p]--;
    for (int s = 0; s < 8; s++)
        pv->hash[s] ^= pv->zobrist[2 * pv->symmetric[s * pv->nn + cell] + p];
    pv->ply--;
    pv->empty++;
}

/* The canonical key: the least hash over the symmetries, with the attacker
 * mixed in (the two questions share the table) and bit 0 set. */
static uint64_t position_key(const prover *pv, int *symmetry)
{
    uint64_t key = pv->hash[0];
    *symmetry = 0;
    for (int s = 1; s < 8; s++) {
        if (pv->hash[s] < key) {
            key = pv->hash[s];
            *symmetry = s;
        }
    }
    if (pv->attacker)
        key ^= UINT64_C(0x9e3779b97f4a7c15);
    return key | 1;
}

/* A zone in the orientation of symmetry s (to_key), or back from it. */
static cell_set zone_turned(const prover *pv, cell_set zone, int s, int to_key)
{
    if (s == 0 || set_is_every_cell(zone))
        return zone;
    cell_set turned = no_cell;
    const int32_t *image = pv->symmetric + (size_t)s * (size_t)pv->nn;
    for (int32_t cell = 0; cell < pv->nn; cell++) {
        int32_t from = to_key ? cell : image[cell], to = to_key ? image[cell] : cell;
        if (set_has(zone, from))
            set_add(&turned, to);
    }
    return turned;
}

static proof_entry *table_find(const prover *pv, uint64_t key)
{
    proof_entry *bucket = pv->table + ((key >> 8) & pv->bucket_mask) * PROOF_WAYS;
    for (int i = 0; i < PROOF_WAYS; i++) {
        if (bucket[i].key == key)
            return &bucket[i];
    }
    return NULL;
}

/* Stores pn, dn; a new position replaces the cheapest entry of its bucket,
 * settled ones counting as dearest, so proofs survive. */
static void table_store(prover *pv, uint64_t key, uint32_t pn, uint32_t dn, uint64_t work,
                        cell_set zone)
{
    proof_entry *bucket = pv->table + ((key >> 8) & pv->bucket_mask) * PROOF_WAYS;
    uint32_t work_log = log2_of(work + 1);
    if (pn == 0 || dn == 0)
        work_log += 32; /* settled: kept over any open entry */
    proof_entry *victim = NULL;
    uint32_t cheapest = UINT32_MAX;
    for (int i = 0; i < PROOF_WAYS; i++) {
        if (bucket[i].key == key || bucket[i].key == 0) {
            victim = &bucket[i];
            break;
        }
        uint32_t w = entry_work(bucket[i].data);
        if (w < cheapest) {
            cheapest = w;
            victim = &bucket[i];
        }
    }
    victim->key = key;
    victim->data = pack_entry(pn, dn, work_log > 255 ? 255 : work_log);
    victim->zone = zone;
}

/* The starting numbers of a node met for the first time: settled, or by
 * its mobility (an OR node is as hard to disprove as it has moves plus the
 * open windows its best pairing try left uncovered, an AND node as hard to
 * prove as it has moves), each scaled by the other side's strength: the
 * more open windows the attacker has, the harder a disproof, and the more
 * the defender has, the harder a proof. The pairing term took (7,7,5) from
 * 707,440 positions to 518,742. */
static void first_numbers(prover *pv, int result, int32_t moves, uint32_t *pn, uint32_t *dn)
{
    if (result == NODE_PROVEN) {
        *pn = 0;
        *dn = PN_INF;
    } else if (result == NODE_DISPROVEN) {
        *pn = PN_INF;
        *dn = 0;
    } else {
        int64_t a = 1 + pv->potential[pv->attacker] / POTENTIAL_STEP;
        int64_t d = 1 + pv->potential[1 - pv->attacker] / POTENTIAL_STEP;
        if (a > POTENTIAL_CAP)
            a = POTENTIAL_CAP;
        if (d > POTENTIAL_CAP)
            d = POTENTIAL_CAP;
        if (player_at(pv->ply) == pv->attacker) {
            *pn = (uint32_t)d;
            *dn = (uint32_t)((moves + pv->shortfall) * a);
        } else {
            *pn = (uint32_t)(moves * d);
            *dn = (uint32_t)a;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* df-pn                                                                     */

/* Threshold for the best child from the second best: 1 + epsilon (1/4)
 * keeps the search from switching between siblings too often. */
static uint32_t next_threshold(uint32_t limit, uint32_t second)
{
    uint64_t t = (uint64_t)second + second / 4 + 1;
    return t < limit ? (uint32_t)t : limit;
}

/* Marks every open child outside zone disproven: the attacker's mark there
 * is one of the extra marks the zone's disproof allows (with the disproven
 * sibling's mark besides, which only helps the attacker). Its own zone
 * adds nothing: the sibling's zone, already in the node's, covers it. */
static void refute_outside(child *ch, int32_t count, cell_set zone)
{
    for (int32_t i = 0; i < count; i++) {
        if (ch[i].pn != 0 && ch[i].dn != 0 && !set_has(zone, ch[i].cell)) {
            ch[i].pn = PN_INF;
            ch[i].dn = 0;
            ch[i].zone = no_cell;
        }
    }
}

/*
 * Multiple iterative deepening (Nagai): searches the node below the board's
 * current position until its proof number reaches thpn or its disproof
 * number thdn, or it is settled, or the budget runs out; stores and returns
 * its numbers, and if disproven its zone.
 *
 * Zones: a pairing's zone is its
 * cells, a full board's is empty, other settled nodes' are every cell. A
 * disproven AND node's is its refuting child's plus that move; a disproven
 * OR node's the union of its children's (every cell if a rule cut its
 * moves, plus the dead cells it did not try, which are answered like the
 * one it did). Once an attacker's move is disproven, every sibling outside
 * its zone is too, without a search (see refute_outside).
 */
static void search(prover *pv, int32_t depth, uint32_t thpn, uint32_t thdn,
                   uint32_t *out_pn, uint32_t *out_dn, cell_set *out_zone)
{
    const int32_t nn = pv->nn;
    child *ch = pv->children + (size_t)depth * (size_t)nn;
    int32_t *moves = pv->moves + (size_t)depth * (size_t)nn;
    int32_t *scratch = pv->moves + (size_t)(depth + 1) * (size_t)nn;
    int symmetry;
    uint64_t key = position_key(pv, &symmetry);
    uint64_t start = pv->nodes;
    int32_t count;
    int result = ttt__proof_evaluate(pv, moves, &count);
    *out_zone = every_cell;
    if (result != NODE_OPEN || depth >= nn) {
        first_numbers(pv, result == NODE_OPEN ? NODE_DISPROVEN : result, 0, out_pn, out_dn);
        if (result == NODE_DISPROVEN)
            *out_zone = pv->leaf_zone;
        table_store(pv, key, *out_pn, *out_dn, 1, zone_turned(pv, *out_zone, symmetry, 1));
        return;
    }
    const int rule_cut = pv->rule_cut;
    const cell_set dead_cells = pv->dead_cells;
    const int mover = player_at(pv->ply);
    const int or_node = mover == pv->attacker;
    cell_set common = every_cell; /* within every disproven child's zone */
    for (int32_t i = 0; i < count; i++) {
        ch[i].cell = moves[i];
        ch[i].zone = every_cell;
        if (or_node && !set_has(common, moves[i])) {
            ch[i].pn = PN_INF;
            ch[i].dn = 0;
            ch[i].zone = no_cell;
            continue;
        }
        place(pv, moves[i], mover);
        int child_symmetry;
        uint64_t child_key = position_key(pv, &child_symmetry);
        const proof_entry *e = table_find(pv, child_key);
        if (e) {
            ch[i].pn = entry_pn(e->data);
            ch[i].dn = entry_dn(e->data);
            if (ch[i].dn == 0)
                ch[i].zone = zone_turned(pv, e->zone, child_symmetry, 0);
        } else {
            /* Stored at once: the parent comes back to its children many
             * times, and evaluating is most of a node's cost. */
            int32_t child_moves;
            int child_result = ttt__proof_evaluate(pv, scratch, &child_moves);
            first_numbers(pv, child_result, child_moves, &ch[i].pn, &ch[i].dn);
            if (child_result == NODE_DISPROVEN)
                ch[i].zone = pv->leaf_zone;
            table_store(pv, child_key, ch[i].pn, ch[i].dn, 0,
                        zone_turned(pv, ch[i].zone, child_symmetry, 1));
        }
        unplace(pv, moves[i], mover);
        if (or_node && ch[i].dn == 0) {
            common = set_common(common, ch[i].zone);
            refute_outside(ch, i, common);
        }
    }

    uint32_t pn = 0, dn = 0;
    int32_t best = 0;
    for (;;) {
        /* This node's numbers and its best child. */
        uint32_t second = PN_INF;
        best = 0;
        if (or_node) {
            pn = PN_INF;
            dn = 0;
            for (int32_t i = 0; i < count; i++) {
                dn = pn_add(dn, ch[i].dn);
                if (ch[i].pn < pn) {
                    second = pn;
                    pn = ch[i].pn;
                    best = i;
                } else if (ch[i].pn < second) {
                    second = ch[i].pn;
                }
            }
        } else {
            pn = 0;
            dn = PN_INF;
            for (int32_t i = 0; i < count; i++) {
                pn = pn_add(pn, ch[i].pn);
                if (ch[i].dn < dn) {
                    second = dn;
                    dn = ch[i].dn;
                    best = i;
                } else if (ch[i].dn < second) {
                    second = ch[i].dn;
                }
            }
        }
        if (depth == 0)
            pv->root_best = ch[best].cell;
        if (pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || pv->stopped)
            break;
        if (pv->nodes >= pv->budget) {
            pv->stopped = 1;
            break;
        }
        uint32_t child_thpn, child_thdn;
        if (or_node) {
            child_thpn = next_threshold(thpn, second);
            child_thdn = thdn - dn + ch[best].dn;
        } else {
            child_thdn = next_threshold(thdn, second);
            child_thpn = thpn - pn + ch[best].pn;
        }
        if (child_thpn > PN_INF)
            child_thpn = PN_INF;
        if (child_thdn > PN_INF)
            child_thdn = PN_INF;
        place(pv, ch[best].cell, mover);
        search(pv, depth + 1, child_thpn, child_thdn, &ch[best].pn, &ch[best].dn,
               &ch[best].zone);
        unplace(pv, ch[best].cell, mover);
        if (or_node && ch[best].dn == 0) {
            common = set_common(common, ch[best].zone);
            refute_outside(ch, count, common);
        }
    }
    if (dn == 0) {
        if (!or_node) {
            *out_zone = ch[best].zone;
            set_add(out_zone, ch[best].cell);
        } else if (!rule_cut) {
            cell_set zone = dead_cells;
            for (int32_t i = 0; i < count; i++)
                zone = set_union(zone, ch[i].zone);
            *out_zone = zone;
        }
    }
    table_store(pv, key, pn, dn, pv->nodes - start, zone_turned(pv, *out_zone, symmetry, 1));
    *out_pn = pn;
    *out_dn = dn;
}

/* Whether p's mark at cell would complete a window. */
static int completes(const prover *pv, int32_t cell, int p)
{
    for (int32_t i = pv->cell_first[cell]; i < pv->cell_first[cell + 1]; i++) {
        const uint8_t *m = pv->marks + 2 * pv->cell_windows[i];
        if (m[p] == pv->k - 1 && m[1 - p] == 0)
            return 1;
    }
    return 0;
}

/* A move for a root the rules settled before any move: the winning cell
 * if the mover completes a window, else the first empty cell (any move
 * keeps a draw proven before any move, and a loss is a loss). */
static int32_t settled_root_move(const prover *pv)
{
    int32_t first = -1;
    for (int32_t cell = 0; cell < pv->nn; cell++) {
        if (pv->cells[cell] != TTT_EMPTY)
            continue;
        if (completes(pv, cell, player_at(pv->ply)))
            return cell;
        if (first < 0)
            first = cell;
    }
    return first;
}

/* Drops every proof from the table: the first pass's were proofs against
 * a defender that did not try all its moves. */
static void forget_proofs(prover *pv)
{
    size_t entries = (pv->bucket_mask + 1) * PROOF_WAYS;
    for (size_t i = 0; i < entries; i++) {
        if (entry_pn(pv->table[i].data) == 0) /* an empty entry's too: harmless */
            pv->table[i].key = 0;
    }
}

/*
 * Whether attacker can force a win from the current position: 1 yes, 0
 * no, -1 stopped. pv->root_best receives the move that proves it (a win)
 * or that refutes it (the defender to move, no win), or the search's last
 * choice.
 *
 * Two passes. In the first the defender tries only its
 * PROOF_DEFENDER_MOVES best moves at a node no rule cut: a disproof needs
 * one refutation per defender's node, so one found among fewer moves is a
 * disproof of the whole game, and the narrower tree gets deeper, to the
 * pairings, sooner. A proof there is not one (the defender's other moves
 * went untried): its entries are dropped and the second pass searches
 * every move, keeping the first pass's disproofs.
 */
static int prove(prover *pv, int attacker)
{
    pv->attacker = attacker;
    uint32_t pn, dn;
    cell_set zone;
    pv->root_best = -1;
    pv->defender_limit = PROOF_DEFENDER_MOVES;
    search(pv, 0, PN_INF, PN_INF, &pn, &dn, &zone);
    pv->defender_limit = 0;
    if (dn == 0)
        return 0;
    if (pv->stopped)
        return -1;
    forget_proofs(pv);
    pv->root_best = -1;
    search(pv, 0, PN_INF, PN_INF, &pn, &dn, &zone);
    if (pn == 0)
        return 1;
    if (dn == 0)
        return 0;
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Set-up                                                                    */

int ttt__proof_wanted(const snapshot *snap, int all_moves)
{
    /* Its board, windows and symmetries are the square's, and its move
     * cutting lets a side take any empty cell: no rectangles, no gravity. */
    return !all_moves && !snap->misere && snap->limit_empty == 0 &&
           !snap->gravity && snap->width == snap->height &&
           snap->state == TTT_IN_PROGRESS && snap->k >= 4 && snap->nn > 25 &&
           snap->nn <= PROOF_MAX_CELLS && snap->k <= snap->n;
}

/* A fixed mixer (splitmix64): the same keys on every run and platform. */
static uint64_t mix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int32_t count_windows(int32_t n, int32_t k)
{
    int32_t along = n - k + 1;
    return 2 * n * along + 2 * along * along;
}

/* Carves (or, with base NULL, sizes) the prover's arrays. */
static void carve_prover(carver *c, prover *pv, size_t pair_bytes)
{
    size_t nn = (size_t)pv->nn;
    size_t wk = ttt__size_mul((size_t)pv->windows, (size_t)pv->k);
    pv->cells = carve(c, nn, 1);
    pv->window_cells = carve(c, wk, sizeof(int32_t));
    pv->cell_first = carve(c, ttt__size_add(nn, 1), sizeof(int32_t));
    pv->cell_windows = carve(c, wk, sizeof(int32_t));
    pv->marks = carve(c, ttt__size_mul(2, (size_t)pv->windows), 1);
    pv->zobrist = carve(c, ttt__size_mul(2, nn), sizeof(uint64_t));
    pv->symmetric = carve(c, ttt__size_mul(8, nn), sizeof(int32_t));
    pv->children = carve(c, ttt__size_mul(nn + 1, nn), sizeof(child));
    pv->moves = carve(c, ttt__size_mul(nn + 2, nn), sizeof(int32_t));
    pv->first_completion = carve(c, nn, sizeof(int32_t));
    pv->second_completion = carve(c, nn, sizeof(int32_t));
    pv->completions = carve(c, nn, sizeof(int32_t));
    pv->stops = carve(c, nn, sizeof(int32_t));
    pv->scores = carve(c, nn, sizeof(int32_t));
    pv->own_threat = carve(c, nn, 1);
    pv->pair_scratch = carve(c, pair_bytes, 1);
    pv->pairs = carve(c, (size_t)pv->windows, sizeof(pairing_pair));
    pv->covered = carve(c, (size_t)pv->windows, 1);
    pv->paired = carve(c, nn, 1);
    pv->free_cells = carve(c, (size_t)pv->windows, 1);
    pv->open_windows = carve(c, (size_t)pv->windows, sizeof(int32_t));
    pv->window_mask = carve(c, ttt__size_mul(2, (size_t)pv->windows), sizeof(uint64_t));
}

/* Lays out the windows and the cells' lists of them. */
static void build_windows(prover *pv)
{
    static const int32_t step_row[4] = {0, 1, 1, 1};
    static const int32_t step_col[4] = {1, 0, 1, -1};
    const int32_t n = pv->n, k = pv->k;
    int32_t w = 0;
    for (int d = 0; d < 4; d++) {
        for (int32_t row = 0; row < n; row++) {
            for (int32_t col = 0; col < n; col++) {
                int32_t end_row = row + step_row[d] * (k - 1);
                int32_t end_col = col + step_col[d] * (k - 1);
                if (end_row >= n || end_col < 0 || end_col >= n)
                    continue;
                for (int32_t i = 0; i < k; i++)
                    pv->window_cells[(size_t)w * (size_t)k + (size_t)i] =
                        (row + step_row[d] * i) * n + col + step_col[d] * i;
                w++;
            }
        }
    }
    memset(pv->window_mask, 0, 2 * (size_t)pv->windows * sizeof(uint64_t));
    memset(pv->cell_first, 0, ((size_t)pv->nn + 1) * sizeof(int32_t));
    for (int32_t i = 0; i < pv->windows * k; i++) {
        int32_t cell = pv->window_cells[i];
        pv->window_mask[2 * (i / k) + (cell >> 6)] |= UINT64_C(1) << (cell & 63);
        pv->cell_first[cell + 1]++;
    }
    for (int32_t cell = 0; cell < pv->nn; cell++)
        pv->cell_first[cell + 1] += pv->cell_first[cell];
    /* Fill each cell's list from its start, using stops as cursors. */
    for (int32_t cell = 0; cell < pv->nn; cell++)
        pv->stops[cell] = pv->cell_first[cell];
    for (int32_t i = 0; i < pv->windows * k; i++) {
        int32_t cell = pv->window_cells[i];
        pv->cell_windows[pv->stops[cell]++] = i / k;
    }
}

/* The table: the caller's bytes (or the default), at most what the budget
 * could fill, a power of two number of buckets. */
static size_t table_buckets(size_t table_bytes, uint64_t budget)
{
    size_t bytes = table_bytes ? table_bytes : PROOF_DEFAULT_TABLE_BYTES;
    size_t entries = bytes / sizeof(proof_entry);
    if (budget < (uint64_t)entries)
        entries = (size_t)budget;
    size_t buckets = 1;
    while (buckets * 2 * PROOF_WAYS <= entries)
        buckets *= 2;
    return buckets;
}

int ttt__proof_solve(const ttt_game *game, const snapshot *snap,
                     uint64_t budget, size_t table_bytes, solve_result *r,
                     ttt_solution *found)
{
    prover pv;
    memset(&pv, 0, sizeof pv);
    pv.game = game;
    pv.n = snap->n;
    pv.k = snap->k;
    pv.nn = snap->nn;
    pv.windows = count_windows(snap->n, snap->k);
    pv.budget = budget ? budget : UINT64_MAX;
    size_t pair_bytes = ttt__pairing_scratch_bytes((size_t)pv.windows, (size_t)pv.nn);
    carver sizes = {NULL, 0, 0};
    carve_prover(&sizes, &pv, pair_bytes);
    size_t buckets = table_buckets(table_bytes, pv.budget);
    size_t table_size = ttt__size_mul(ttt__size_mul(buckets, PROOF_WAYS),
                                      sizeof(proof_entry));
    if (sizes.overflow || pair_bytes == 0 || !ttt__size_ok(table_size))
        return TTT_E_NOMEM;
    void *block = engine_alloc(game, sizes.used);
    if (!block)
        return TTT_E_NOMEM;
    pv.table = engine_alloc(game, table_size);
    if (!pv.table) {
        engine_free(game, block);
        return TTT_E_NOMEM;
    }
    memset(pv.table, 0, table_size);
    pv.bucket_mask = buckets - 1;
    carver parts = {block, 0, 0};
    carve_prover(&parts, &pv, pair_bytes);

    build_windows(&pv);
    uint64_t seed = UINT64_C(0x5eed16);
    for (int32_t i = 0; i < 2 * pv.nn; i++)
        pv.zobrist[i] = mix64(&seed);
    for (int s = 0; s < 8; s++) {
        for (int32_t row = 0; row < pv.n; row++) {
            for (int32_t col = 0; col < pv.n; col++)
                pv.symmetric[s * pv.nn + row * pv.n + col] = symmetric_cell(pv.n, s, row, col);
        }
    }
    memset(pv.cells, TTT_EMPTY, (size_t)pv.nn);
    memset(pv.marks, 0, 2 * (size_t)pv.windows);
    memset(pv.covered, 0, (size_t)pv.windows);
    memset(pv.paired, 0, (size_t)pv.nn);
    for (int32_t cell = 0; cell < pv.nn; cell++) {
        if (snap->cells[cell] != TTT_EMPTY) {
            place(&pv, cell, ttt__player_of(snap->cells[cell]));
        }
    }
    pv.ply = snap->ply;
    pv.empty = snap->nn - snap->ply;

    const int mover = player_at(pv.ply);
    r->value_min = TTT_VALUE_LOSS;
    r->value_max = TTT_VALUE_WIN;
    r->plies = -1;
    r->best_count = 0;
    int32_t move = -1;
    int status = TTT_OK;
    int wins = prove(&pv, mover);
    move = pv.root_best;
    if (wins == 1) {
        r->value_min = TTT_VALUE_WIN;
    } else if (wins == 0) {
        r->value_max = TTT_VALUE_DRAW;
        int loses = prove(&pv, 1 - mover);
        move = pv.root_best;
        if (loses == 1)
            r->value_max = TTT_VALUE_LOSS;
        else if (loses == 0)
            r->value_min = TTT_VALUE_DRAW;
        else
            status = TTT_E_BUDGET;
    } else {
        status = TTT_E_BUDGET;
    }
    r->value = r->value_min;
    if (move < 0 && status == TTT_OK)
        move = settled_root_move(&pv);
    if (move >= 0) {
        r->best[0] = move;
        r->best_count = 1;
    }
    found->value = r->value;
    found->value_min = r->value_min;
    found->value_max = r->value_max;
    found->plies = -1;
    found->nodes += pv.nodes;
    engine_free(game, pv.table);
    engine_free(game, block);
    return status;
}
