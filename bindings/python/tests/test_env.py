"""test_env.py - ttt.VectorEnv (Gymnasium's vector API over the C batch) and ttt.Env (PettingZoo's AEC API) on the installed package."""

import subprocess
import sys

import numpy as np
import pytest

import ttt


def random_legal(mask, rng):
    """One legal action per row of mask, uniformly."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_import_ttt_needs_no_numpy():
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import ttt\n"
            "g = ttt.Game(); g.play(1, 1); assert g.ply == 1\n"
            "try:\n"
            "    ttt.VectorEnv\n"
            "except ImportError:\n"
            "    print('no numpy: ImportError on use')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout
    assert out == "no numpy: ImportError on use\n"


def test_shapes_and_dtypes():
    env = ttt.VectorEnv(1024, width=7, height=6, k=4, gravity=True)
    obs, infos = env.reset(seed=1)
    assert obs.shape == (1024, 2, 6, 7) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (1024, 7)
    assert infos["action_mask"].dtype == np.bool_
    assert infos["action_mask"].all()
    assert not obs.any()
    obs, rewards, terminated, truncated, infos = env.step(np.zeros(1024, dtype=np.int64))
    assert rewards.shape == (1024,) and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    assert infos["status"].dtype == np.int32 and infos["outcome"].dtype == np.int32
    # X dropped into column a: O to move sees it in the other side's plane.
    assert (obs[:, 1, 5, 0] == 1).all() and obs[:, 0].sum() == 0
    assert env.single_action_space.n == 7
    assert env.action_space.shape == (1024,)
    assert env.single_observation_space.shape == (2, 6, 7)
    assert env.observation_space.shape == (1024, 2, 6, 7)
    assert env.observation_space.contains(obs)
    small = ttt.VectorEnv(4, obs_dtype=np.uint8)
    obs, infos = small.reset()
    assert obs.shape == (4, 2, 3, 3) and obs.dtype == np.uint8
    assert infos["action_mask"].shape == (4, 9)
    env.close()
    small.close()


def test_presets():
    for game, shape, actions in (("tictactoe", (2, 3, 3), 9), ("connect4", (2, 6, 7), 7),
                                 ("gomoku", (2, 15, 15), 225)):
        env = ttt.VectorEnv(2, game=game)
        obs, infos = env.reset()
        assert obs.shape[1:] == shape
        assert infos["action_mask"].shape == (2, actions)
    with pytest.raises(ValueError):
        ttt.VectorEnv(2, game="chess")


def test_no_copy_per_step():
    env = ttt.VectorEnv(64, game="connect4")
    obs0, infos0 = env.reset(seed=3)
    rng = np.random.default_rng(0)
    address = obs0.ctypes.data
    changed = False
    for _ in range(30):
        before = obs0.copy()
        obs, rewards, terminated, truncated, infos = env.step(random_legal(infos0["action_mask"], rng))
        assert obs is obs0 and obs.ctypes.data == address
        assert infos["action_mask"] is infos0["action_mask"]
        assert np.shares_memory(terminated, env._terminated_u8)
        changed |= not np.array_equal(before, obs)
    assert changed


def test_observation_is_the_board_and_mask_the_legal_moves():
    env = ttt.VectorEnv(3, width=4, height=3, k=3)
    env.set_moves(1, [0, 5, 11])
    obs, _ = env.reset()  # reset empties every game again
    assert not obs.any()
    env.set_moves(1, [0, 5, 11])
    game = ttt.Game(width=4, height=3, k=3)
    for cell in (0, 5, 11):
        game.play(cell // 4, cell % 4)
    board = np.array(game.board())
    mover = int(game.to_move)
    assert (env._obs[1, 0] == (board == mover)).all()
    assert (env._obs[1, 1] == (board == -mover)).all()
    mask = np.zeros(12, dtype=bool)
    for row, col in game.legal_moves():
        mask[row * 4 + col] = True
    assert (env._mask[1] == mask).all()
    assert env._mask[0].all() and not env._obs[0].any()
    with pytest.raises(ttt.OccupiedError):
        env.set_moves(2, [0, 0])
    assert not env._obs[2].any()


def test_rewards_flags_and_autoreset():
    env = ttt.VectorEnv(2, autoreset_mode="same-step")
    env.reset()
    for x, o in ((0, 0), (3, 3), (1, 1), (4, 4)):
        env.step([x, o])
    obs, rewards, terminated, truncated, infos = env.step([2, 8])  # game 0: X completes the top row
    assert rewards.tolist() == [1.0, 0.0]
    assert terminated.tolist() == [True, False] and not truncated.any()
    assert infos["outcome"].tolist() == [int(ttt.X_WON), int(ttt.IN_PROGRESS)]
    assert not obs[0].any()  # reset at once
    assert obs[1].sum() == 5
    misere = ttt.VectorEnv(1, misere=True)
    for cell in (0, 3, 1, 4):
        misere.step([cell])
    _, rewards, terminated, _, infos = misere.step([2])
    assert rewards[0] == -1.0 and terminated[0] and infos["outcome"][0] == int(ttt.O_WON)
    limited = ttt.VectorEnv(1, ply_limit=4)
    for cell in (0, 1, 2):
        limited.step([cell])
    _, rewards, terminated, truncated, infos = limited.step([4])
    assert rewards[0] == 0 and truncated[0] and not terminated[0]
    assert infos["outcome"][0] == int(ttt.DRAW)


def test_illegal_actions():
    env = ttt.VectorEnv(2)
    env.step([4, 4])
    _, rewards, terminated, _, infos = env.step([4, 9])
    assert infos["status"].tolist() == [int(ttt.E_OCCUPIED), int(ttt.E_OFF_BOARD)]
    assert rewards.tolist() == [0, 0] and not terminated.any()
    assert env._obs[0].sum() == 1  # unchanged
    lose = ttt.VectorEnv(1, illegal="lose")
    lose.step([4])
    _, rewards, terminated, _, infos = lose.step([4])
    assert rewards[0] == -1 and terminated[0] and infos["outcome"][0] == int(ttt.X_WON)


def test_seeding_is_reproducible():
    def run(seed):
        env = ttt.VectorEnv(32, game="connect4", opponent="random", agent="alternate")
        _, infos = env.reset(seed=seed)
        rng = np.random.default_rng(7)
        history = []
        for _ in range(60):
            obs, rewards, _, _, infos = env.step(random_legal(infos["action_mask"], rng))
            history.append((obs.copy(), rewards.copy()))
        return history
    a, b, c = run(5), run(5), run(6)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, c))


def test_opponent_answers_inside_step():
    env = ttt.VectorEnv(8, opponent="perfect", seed=1, autoreset_mode="same-step")
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    wins = 0
    for _ in range(200):
        obs, rewards, terminated, _, infos = env.step(random_legal(infos["action_mask"], rng))
        # the agent (X) always has as many marks as the opponent
        assert (obs[:, 0].sum(axis=(1, 2)) == obs[:, 1].sum(axis=(1, 2))).all()
        wins += int((rewards > 0).sum())
    assert wins == 0  # a random agent never beats the perfect bot


def test_aec_cycle_with_last():
    env = ttt.Env()
    env.reset(seed=42)
    assert env.possible_agents == ["player_1", "player_2"]
    assert env.agents == env.possible_agents
    moves = iter([0, 3, 1, 4, 2])
    seen = []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        assert set(observation) == {"observation", "action_mask"}
        assert observation["observation"].shape == (3, 3, 2)
        assert observation["observation"].dtype == np.int8  # as connect_four_v3
        assert observation["action_mask"].dtype == np.int8
        seen.append((agent, reward, termination))
        env.step(None if termination or truncation else next(moves))
    assert env.agents == []
    assert seen[-2:] == [("player_2", -1, True), ("player_1", 1, True)]


def test_aec_observation_and_mask():
    env = ttt.Env(game="connect4")
    env.reset()
    assert env.possible_agents == ["player_0", "player_1"]
    env.step(3)
    obs = env.observe("player_1")
    assert obs["observation"][5, 3].tolist() == [0, 1]
    assert env.observe("player_0")["observation"][5, 3].tolist() == [1, 0]
    assert obs["action_mask"].tolist() == [1] * 7
    assert env.agent_selection == "player_1"
    assert env.action_space("player_0").n == 7
    assert env.observation_space("player_0")["observation"].shape == (6, 7, 2)
    assert "a b c d e f g" in env.render()


def test_aec_illegal_move_and_truncation():
    env = ttt.Env()
    env.reset()
    env.step(4)
    env.step(4)
    assert env.terminations == {"player_1": True, "player_2": True}
    assert env.rewards == {"player_1": 0, "player_2": -1}
    assert env.infos["player_2"]["illegal_move"]
    with pytest.raises(ValueError):
        env.step(0)
    limited = ttt.Env(ply_limit=2)
    limited.reset()
    limited.step(0)
    limited.step(1)
    assert limited.truncations == {"player_1": True, "player_2": True}
    assert not any(limited.terminations.values())


def test_aec_random_games_end():
    rng = np.random.default_rng(3)
    for game in ("tictactoe", "connect4"):
        env = ttt.Env(game=game)
        env.reset(seed=1)
        steps = 0
        for agent in env.agent_iter(max_iter=200):
            observation, reward, termination, truncation, _ = env.last()
            action = None
            if not (termination or truncation):
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
            steps += 1
        assert env.agents == [] and steps < 200
