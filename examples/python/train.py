"""train.py - an agent learned from scratch by self-play on ttt.VectorEnv: a table of action values on 3x3, a linear value of four-cell windows with a shallow search on Connect Four; prints a learning curve and saves a plot.

Usage:
    python3 examples/python/train.py --game tictactoe [--steps N] [--plot curve.png]
    python3 examples/python/train.py --game connect4 [--steps N] [--minutes M] [--depth D]
                                     [--plot curve.png] [--save w.npy]
    python3 examples/python/train.py --game connect4 --eval-only [--load w.npy] [--depth D]
    python3 examples/python/train.py --ci      # 3x3, a few thousand steps: the win rate must go up

3x3: Q-learning on the table of every position (3^9 keys x 9 cells) by
self-play, the value of a move being minus the best value of the position it
leaves to the other side (negamax); every game of the batch is one learner.

Connect Four: the value of a position for the side that has just moved is
a sum of one weight per (window of four cells, contents of the window),
learned by TD(0) on afterstates in self-play (greedy over the 7 drops, 10%
random moves), from zero weights. The agent plays by a negamax search of
--depth plies (default 4, every drop at every node, all games of the batch
at once in numpy), scoring a completed line as a win and the leaves by the
learned value: the search is part of the agent. --eval-only with no --load
plays the same search on zero weights (a win or a loss within reach is all
it sees), which shows what the search does without the learning.

Both are evaluated against the library's bots through a VectorEnv with an
opponent after every chunk of training: win, draw and loss rates over 1,000
games against random and the perfect bot (3x3, from the empty board, agent
alternating X and O), and 200 games against the strong bot at each of
--budgets (Connect Four; node budgets, default 10 and 100) from 100 random
openings of four drops, each played once from either side: the bot and the
search are deterministic, so from the empty board they would play the same
two games over and over. Connect Four keeps the checkpoint that won most
against the first bot, and tests it at the end on --test-games fresh games
(other seeds) against random and each bot: that is the agent's result.
Needs numpy; matplotlib for --plot.
"""

import argparse
import sys
import time

import numpy as np

import ttt


def legal_argmax(values, mask):
    """Per row, the legal action of highest value."""
    return np.where(mask, values, -np.inf).argmax(axis=1)


def random_legal(mask, rng):
    return (rng.random(mask.shape) * mask).argmax(axis=1)


# ---------------------------------------------------------------------------
# 3x3: a table of action values


class TableAgent:
    def __init__(self, cells):
        self.powers = 3 ** np.arange(cells, dtype=np.int64)
        self.q = np.zeros((3 ** cells, cells), dtype=np.float32)

    def keys(self, obs):
        n = obs.shape[0]
        codes = obs[:, 0].reshape(n, -1).astype(np.int64) + 2 * obs[:, 1].reshape(n, -1)
        return codes @ self.powers

    def act(self, obs, mask):
        return legal_argmax(self.q[self.keys(obs)], mask)

    def train(self, env, steps, rng, epsilon=0.3, rate=0.2):
        obs, infos = env.reset()
        mask = infos["action_mask"]
        for _ in range(max(1, steps // env.num_envs)):
            keys = self.keys(obs)
            greedy = legal_argmax(self.q[keys], mask)
            explore = rng.random(env.num_envs) < epsilon
            actions = np.where(explore, random_legal(mask, rng), greedy)
            obs, rewards, terminated, truncated, infos = env.step(actions)
            mask = infos["action_mask"]
            best_next = np.where(mask, self.q[self.keys(obs)], -np.inf).max(axis=1)
            done = terminated | truncated
            target = np.where(done, rewards, -best_next)
            now = self.q[keys, actions]
            self.q[keys, actions] = now + rate * (target - now)


# ---------------------------------------------------------------------------
# Connect Four: a linear value of four-cell windows, on afterstates


def windows(width, height, k):
    out = []
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < height and 0 <= cc < width for rr, cc in cells):
                    out.append([rr * width + cc for rr, cc in cells])
    return np.array(out, dtype=np.int64)


# A pattern's digits are the cells of a window, 0 empty, 1 the mover's, 2
# the other side's; SWAP exchanges the sides of a cell code.
SWAP = np.array([0, 2, 1], dtype=np.int8)
WIN = 1000.0  # a won line, above any sum of window weights


class WindowAgent:
    """The value of a position for the side that has just moved: one
    weight per (window, contents), summed. It acts by a negamax search of
    `depth` plies over every drop (1: greedy on afterstates), the learned
    value scoring the leaves and a completed line scoring WIN (sooner wins
    higher); ties are broken at random."""

    def __init__(self, width=7, height=6, k=4, depth=1, rng=None):
        self.width, self.height = width, height
        self.windows = windows(width, height, k)
        self.powers = 3 ** np.arange(k, dtype=np.int64)
        self.w = np.zeros((len(self.windows), 3 ** k), dtype=np.float32)
        self.rows = np.arange(len(self.windows))
        self.depth = depth
        self.rng = rng or np.random.default_rng(0)
        self.line = int(self.powers.sum())  # a window of 1s; of 2s is twice that
        digits = (np.arange(3 ** k)[:, None] // self.powers) % 3
        # swapped[p]: pattern p with the sides exchanged
        self.swapped = (SWAP[digits] @ self.powers).astype(np.int64)
        # cell codes @ spread = the windows' patterns (a float product, exact)
        self.spread = np.zeros((width * height, len(self.windows)), dtype=np.float32)
        for i, power in enumerate(self.powers):
            self.spread[self.windows[:, i], self.rows] = power
        self.spread_int = self.spread.astype(np.int32)
        self.offsets = (self.rows * 3 ** k).astype(np.int32)

    def afterstates(self, obs, mask):
        """Each drop's board from the dropping side's view, as window
        pattern indices: (games, width, windows)."""
        n = obs.shape[0]
        mine = obs[:, 0].reshape(n, -1).astype(np.int64)
        theirs = obs[:, 1].reshape(n, -1).astype(np.int64)
        filled = (mine + theirs).reshape(n, self.height, self.width).sum(axis=1)
        landing = np.clip(self.height - 1 - filled, 0, self.height - 1)
        codes = np.repeat((mine + 2 * theirs)[:, None, :], self.width, axis=1)
        cols = np.arange(self.width)
        cells = landing * self.width + cols[None, :]
        g, c = np.nonzero(mask)
        codes[g, c, cells[g, c]] = 1
        return codes[:, :, self.windows] @ self.powers

    def values(self, patterns):
        return self.w[self.rows, patterns].sum(axis=-1)

    def act(self, obs, mask):
        if self.depth <= 1:
            values = self.values(self.afterstates(obs, mask))
        else:
            n = obs.shape[0]
            codes = (obs[:, 0].reshape(n, -1) + 2 * obs[:, 1].reshape(n, -1)).astype(np.float32)
            patterns = (codes @ self.spread).astype(np.int32)
            heights = (codes.reshape(n, self.height, self.width) > 0).sum(axis=1)
            # the weights of each pattern for the side that has just moved,
            # patterns being seen by the side to move at the root (1)
            self.leaf_tables = {1: self.w.ravel(), 2: self.w[:, self.swapped].ravel()}
            values = self.search(patterns, heights, 1, self.depth)
        values = values + self.rng.random(values.shape) * 1e-6
        return legal_argmax(values, mask)

    def search(self, patterns, heights, side, depth, chunk=4096):
        """Negamax: (games, width) values of each drop for `side` (1 the
        root's mover, 2 the other), searched `depth` plies, from the
        positions' window patterns (digits 1 and 2 for the two sides) and
        column heights; -inf for a full column."""
        if len(patterns) > chunk:
            return np.concatenate([
                self.search(patterns[i:i + chunk], heights[i:i + chunk], side, depth)
                for i in range(0, len(patterns), chunk)])
        width, height = self.width, self.height
        g, c = np.nonzero(heights < height)
        cells = (height - 1 - heights[g, c]) * width + c
        child = patterns[g] + side * self.spread_int[cells]
        child_heights = heights[g]
        child_heights[np.arange(len(g)), c] += 1
        won = (child == side * self.line).any(axis=1)
        full = child_heights.sum(axis=1) == width * height
        if depth == 1:
            value = np.take(self.leaf_tables[side], child + self.offsets).sum(axis=1)
        else:
            value = np.zeros(len(g), dtype=np.float32)
            going = ~won & ~full
            if going.any():
                value[going] = -self.search(child[going], child_heights[going], 3 - side,
                                            depth - 1).max(axis=1)
        value[full] = 0.0
        value[won] = WIN + depth
        out = np.full(heights.shape, -np.inf, dtype=np.float32)
        out[g, c] = value
        return out

    def train(self, env, steps, rng, epsilon=0.1, rate=0.005):
        obs, infos = env.reset()
        mask = infos["action_mask"]
        n = env.num_envs
        previous = None  # the afterstate patterns each game's last move made
        open_games = np.ones(n, dtype=bool)  # games that last move left open
        games = np.arange(n)
        for _ in range(max(1, steps // n)):
            patterns = self.afterstates(obs, mask)
            values = np.where(mask, self.values(patterns), -np.inf)
            greedy = values.argmax(axis=1)
            if previous is not None:
                # the side to move now answers the last move: negamax
                self.update(previous[open_games], -values.max(axis=1)[open_games], rate)
            explore = rng.random(n) < epsilon
            actions = np.where(explore, random_legal(mask, rng), greedy)
            chosen = patterns[games, actions]
            obs, rewards, terminated, truncated, infos = env.step(actions)
            mask = infos["action_mask"]
            done = terminated | truncated
            if done.any():
                self.update(chosen[done], rewards[done], rate)
            previous, open_games = chosen, ~done

    def update(self, patterns, targets, rate):
        """Moves each weight by rate times the mean error of the games that
        use it this step (a sum would grow with the batch and diverge)."""
        error = targets - self.values(patterns)
        flat = (self.rows[None, :] * self.w.shape[1] + patterns).ravel()
        errors = np.repeat(error, len(self.rows))
        sums = np.bincount(flat, weights=errors, minlength=self.w.size)
        counts = np.bincount(flat, minlength=self.w.size)
        used = counts > 0
        self.w.ravel()[used] += (rate * sums[used] / counts[used]).astype(np.float32)


# ---------------------------------------------------------------------------


def evaluate(agent, env_args, opponent, games, seed, budget=0):
    """(win, draw, loss) rates of the greedy agent over `games` games from
    the empty board, colours alternating."""
    env = ttt.VectorEnv(min(games, 250), opponent=opponent, agent="alternate",
                        opponent_budget=budget, obs_dtype=np.uint8,
                        autoreset_mode="same-step", **env_args)
    obs, infos = env.reset(seed=seed)
    counts = np.zeros(3, dtype=np.int64)
    finished = 0
    for _ in range(1000):
        obs, rewards, terminated, truncated, infos = env.step(agent.act(obs, infos["action_mask"]))
        done = terminated | truncated
        for r in rewards[done][: games - finished]:
            counts[0 if r > 0 else 1 if r == 0 else 2] += 1
        finished = int(counts.sum())
        if finished >= games:
            break
    env.close()
    return counts / max(finished, 1)


def evaluate_openings(agent, env_args, budget, pairs, plies, seed):
    """(win, draw, loss) rates of the greedy agent against the strong bot
    over `pairs` random openings of `plies` drops, each played twice: once
    with the agent to move after it, once with the bot (its move is asked
    of ttt.Game.best_move, as the environment's bot would choose it). The
    agent and the bot search deterministically from a position, so games
    from the empty board would repeat one game per colour; the openings
    make every pair a different game, and playing each from both sides
    cancels the openings' own advantage."""
    rng = np.random.default_rng(seed)
    lines = []
    while len(lines) < 2 * pairs:
        game = ttt.Game(width=env_args["width"], height=env_args["height"],
                        k=env_args["k"], gravity=True)
        moves = []
        for _ in range(plies):  # a column of `plies` drops or fewer has room
            col = int(rng.integers(env_args["width"]))
            game.drop(col)
            moves.append(col)
        if game.state != ttt.IN_PROGRESS:
            game.close()
            continue  # a line inside the opening: draw another
        _, col = game.best_move(ttt.BOT_STRONG, budget, ttt.Seed(int(rng.integers(2 ** 63))))
        game.close()
        lines += [moves, moves + [col]]
    env = ttt.VectorEnv(len(lines), opponent="strong", opponent_budget=budget,
                        obs_dtype=np.uint8, autoreset_mode="same-step",
                        **env_args)
    # set_moves rewrites the arrays that reset returned, in place
    obs, infos = env.reset(seed=seed)
    for index, moves in enumerate(lines):
        env.set_moves(index, moves)
    result = np.full(len(lines), np.nan)
    for _ in range(env_args["width"] * env_args["height"]):
        obs, rewards, terminated, truncated, infos = env.step(agent.act(obs, infos["action_mask"]))
        done = (terminated | truncated) & np.isnan(result)
        result[done] = rewards[done]
        if not np.isnan(result).any():
            break
    env.close()
    return np.array([(result > 0).mean(), (result == 0).mean(), (result < 0).mean()])


def test(agent, env_args, bots, best, games):
    """Plays the chosen checkpoint's weights (agent keeps them) on games
    none of the checkpoints was judged by: other seeds, more games.
    Returns (steps, [(win, draw, loss) against each bot])."""
    (_, steps, weights) = best
    agent.w[:] = weights
    line = "chosen: the checkpoint at %d steps; on %d fresh games: random: %.3f %.3f %.3f" % (
        steps, games, *evaluate(agent, env_args, "random", games, TEST_SEED))
    results = [vs_bot(agent, env_args, bot, games, TEST_SEED + 1) for bot in bots]
    for bot, result in zip(bots, results):
        line += "   %s: %.3f %.3f %.3f" % (bot[0], *result)
    print(line, flush=True)
    return steps, results


def vs_bot(agent, env_args, bot, games, seed):
    """(win, draw, loss) rates against one of run()'s bots: from random
    openings of `plies` drops if it has them, else from the empty board."""
    _, opponent, budget, plies = bot
    if plies:
        return evaluate_openings(agent, env_args, budget, games // 2, plies, seed)
    return evaluate(agent, env_args, opponent, games, seed, budget)


# The random drops that open each game against the strong bot.
OPENING_PLIES = 4

# The seeds of the final test's games, unlike any checkpoint's (those use
# 7 and 1000..1996).
TEST_SEED = 20261202


def run(args, game, ci=False):
    """Trains and evaluates one agent; returns its learning curve, a list
    of (steps, win rate vs random, [(win, draw, loss) vs each bot]), the
    bots' labels and the chosen checkpoint's test (see test), or None."""
    rng = np.random.default_rng(args.seed)
    depth, budgets = args.depth, args.budgets.split(",")
    envs, eval_games = args.envs, args.eval_games
    if game == "tictactoe":
        env_args = dict(width=3, height=3, k=3)
        agent = TableAgent(9)
        steps, chunk = args.steps or 3_000_000, 200_000
        if ci:
            steps, chunk, envs, eval_games = 6000, 2000, 64, 300
        bots = [("perfect", "perfect", 0, 0)]  # (label, opponent, budget, opening plies)
    else:
        env_args = dict(width=7, height=6, k=4, gravity=True)
        steps, chunk = args.steps or 50_000_000, 2_000_000
        if ci:
            steps, chunk, envs, eval_games, depth, budgets = 400_000, 200_000, 1024, 100, 2, ["10"]
        agent = WindowAgent(depth=depth, rng=np.random.default_rng(args.seed + 1))
        bots = [("strong(%s)" % b, "strong", int(b), OPENING_PLIES) for b in budgets]
    if args.load:
        if game == "tictactoe":
            agent.q[:] = np.load(args.load)
        else:
            agent.w[:] = np.load(args.load)
    # Same-step autoreset: the observation after an ending is the next
    # game's start, and a step's transition is always a real move.
    env = ttt.VectorEnv(envs, obs_dtype=np.uint8, seed=args.seed,
                        autoreset_mode="same-step", **env_args)
    curve = []
    start = time.time()
    trained = 0

    best = None  # (validation key, steps, weights) of the best checkpoint

    def report():
        nonlocal best
        vs_random = evaluate(agent, env_args, "random", eval_games, 1000 + trained % 997)
        results = []
        line = "%11d steps %6.0fs  random: %.3f %.3f %.3f" % (
            trained, time.time() - start, *vs_random)
        for bot in bots:
            result = vs_bot(agent, env_args, bot, min(eval_games, 200) if bot[3] else eval_games,
                            7)
            results.append(result)
            line += "   %s: %.3f %.3f %.3f" % (bot[0], *result)
        curve.append((trained, vs_random[0], results))
        print(line + "  (%.0fs)" % (time.time() - start), flush=True)
        # Checkpoints are chosen on these games (the validation set): the
        # first bot's win rate, then the win rate against random.
        key = (results[0][0], vs_random[0])
        if game == "connect4" and (best is None or key > best[0]):
            best = (key, trained, agent.w.copy())
        return vs_random, results

    print("%s: win, draw and loss rates of the agent%s against random (%d games) and %s "
          "(%d games%s)" % (game, "" if game == "tictactoe" else
                            " (a %d-ply search on the learned value)" % depth,
                            eval_games, ", ".join(b[0] for b in bots),
                            eval_games if game == "tictactoe" else min(eval_games, 200),
                            "" if game == "tictactoe" else
                            ", from %d-drop random openings, each played from both sides"
                            % OPENING_PLIES), flush=True)
    report()
    while not args.eval_only and trained < steps and time.time() - start < args.minutes * 60:
        agent.train(env, chunk, rng)
        trained += chunk
        last, vs_bots = report()
        if game == "tictactoe" and not ci and vs_bots[0][2] == 0 and last[2] == 0:
            print("no loss to the perfect bot in %d games: done" % eval_games)
            break
    env.close()
    tested = None
    if best is not None and not args.eval_only:
        tested = test(agent, env_args, bots, best, eval_games if ci else args.test_games)
    if args.save:
        np.save(args.save, agent.q if game == "tictactoe" else agent.w)
        print("saved:", args.save)
    return curve, [b[0] for b in bots], tested


def plot(path, runs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(1, len(runs), figsize=(10 * len(runs), 4), squeeze=False)
    for ax, (game, (curve, labels, tested)) in zip(axes[0], runs.items()):
        xs = [c[0] for c in curve]
        ax.plot(xs, [c[1] for c in curve], label="win rate vs random")
        for i, label in enumerate(labels):
            ax.plot(xs, [c[2][i][0] for c in curve], label="win rate vs %s" % label)
            ax.plot(xs, [c[2][i][2] for c in curve], ":", label="loss rate vs %s" % label)
        ax.set_xlabel("training steps (moves)")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title("%s, self-play on ttt.VectorEnv" % game)
        if tested:
            steps, results = tested
            ax.plot([steps], [results[0][0]], "k*", markersize=12,
                    label="win rate vs %s, chosen checkpoint, fresh games" % labels[0])
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    figure.savefig(path)
    print("plot:", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["tictactoe", "connect4"], default="tictactoe")
    parser.add_argument("--steps", type=int, default=0, help="training steps (moves)")
    parser.add_argument("--minutes", type=float, default=25.0, help="time limit")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--budgets", default="10,100",
                        help="the strong bot's node budgets, comma-separated (Connect Four)")
    parser.add_argument("--depth", type=int, default=4,
                        help="plies the Connect Four agent searches when it plays (1: greedy)")
    parser.add_argument("--load", help="start from weights saved by --save (.npy)")
    parser.add_argument("--eval-only", action="store_true",
                        help="evaluate the agent (loaded, or untrained: zero weights) and stop")
    parser.add_argument("--test-games", type=int, default=1000,
                        help="games of the final test of the chosen Connect Four checkpoint, "
                             "against random and each bot")
    parser.add_argument("--plot", help="save the learning curve here (PNG)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="save the learned table or weights here (.npy)")
    parser.add_argument("--ci", action="store_true",
                        help="short runs of both games; fails unless learning moves the "
                             "win rate up")
    args = parser.parse_args()
    if args.ci and (args.load or args.save or args.eval_only):
        parser.error("--ci trains from scratch: no --load, --save or --eval-only")
    games = ["tictactoe", "connect4"] if args.ci else [args.game]
    runs = {game: run(args, game, args.ci) for game in games}
    if args.plot:
        plot(args.plot, runs)
    if args.ci:
        # 3x3: the win rate against random; Connect Four: against the strong
        # bot (its 2-ply search beats random on zero weights already)
        checks = [("tictactoe", "random", lambda c: c[1]),
                  ("connect4", "strong(10)", lambda c: c[2][0][0])]
        for game, opponent, rate in checks:
            curve = runs[game][0]
            before, after = rate(curve[0]), rate(curve[-1])
            if not after > before:
                sys.exit("train.py --ci: %s, the win rate against %s did not go up "
                         "(%.3f -> %.3f)" % (game, opponent, before, after))
            print("train.py --ci: %s, win rate against %s %.3f -> %.3f"
                  % (game, opponent, before, after))


if __name__ == "__main__":
    main()
