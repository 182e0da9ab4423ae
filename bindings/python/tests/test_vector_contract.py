"""test_vector_contract.py - ttt.VectorEnv against Gymnasium 1.x's vector contract (written from its documented API): the autoreset modes, final observations, and the attributes training code reads."""

import importlib.util

import numpy as np
import pytest

import ttt
from ttt import env as ttt_env

HAVE_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None
TOP_ROW = [(0, 3), (1, 4), (2, 8)]  # X: a, b, c of row 1; O elsewhere


def has_line(plane, k=3):
    """Whether a (rows, cols) plane holds k in a row on a 3x3 board."""
    lines = list(plane) + list(plane.T) + [plane.diagonal(), np.fliplr(plane).diagonal()]
    return any(line.sum() == k for line in lines)


def test_the_classes_are_gymnasiums_when_it_is_importable():
    env = ttt.VectorEnv(2)
    if HAVE_GYMNASIUM:
        import gymnasium
        assert isinstance(env, gymnasium.vector.VectorEnv)
        assert ttt_env.AutoresetMode is gymnasium.vector.AutoresetMode
    else:
        assert ttt.VectorEnv.__mro__[1:] == (object,)
        assert ttt_env.AutoresetMode is ttt_env._AutoresetMode
    assert [m.value for m in ttt_env.AutoresetMode] == ["NextStep", "SameStep", "Disabled"]


def test_attributes():
    env = ttt.VectorEnv(4, game="connect4")
    assert env.metadata["autoreset_mode"] is ttt_env.AutoresetMode.NEXT_STEP
    same = ttt.VectorEnv(4, autoreset_mode="same-step")
    assert same.metadata["autoreset_mode"] is ttt_env.AutoresetMode.SAME_STEP
    assert env.metadata["autoreset_mode"] is ttt_env.AutoresetMode.NEXT_STEP  # its own
    assert ttt.VectorEnv(1, autoreset_mode=ttt_env.AutoresetMode.SAME_STEP).metadata[
        "autoreset_mode"] is ttt_env.AutoresetMode.SAME_STEP
    for bad in ("disabled", ttt_env.AutoresetMode.DISABLED, "NextStep", None, 1):
        with pytest.raises(ValueError, match="autoreset_mode must be"):
            ttt.VectorEnv(1, autoreset_mode=bad)
    assert env.num_envs == 4 and env.spec is None and env.render_mode is None
    assert env.unwrapped is env
    assert env.single_action_space.n == 7
    assert env.single_observation_space.shape == (2, 6, 7)
    assert env.action_space.shape == (4,) and env.observation_space.shape == (4, 2, 6, 7)
    assert ttt.VectorEnv(1, render_mode="ansi").render_mode == "ansi"
    for mode in ("human", "rgb_array"):
        with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
            ttt.VectorEnv(1, render_mode=mode)
    assert not env.closed
    env.close()
    assert env.closed


def test_np_random_is_seeded_by_reset():
    a, b = ttt.VectorEnv(2), ttt.VectorEnv(2)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.np_random_seed == 5
    assert a.np_random.integers(10 ** 9) == b.np_random.integers(10 ** 9)
    assert isinstance(ttt.VectorEnv(1).np_random, np.random.Generator)
    c = ttt.VectorEnv(1)
    c.np_random = np.random.default_rng(1)
    assert c.np_random_seed == -1


def test_next_step_shows_the_last_position_then_resets_ignoring_the_action():
    env = ttt.VectorEnv(2)  # next-step, Gymnasium's default
    obs, infos = env.reset(seed=1)
    for x, o in TOP_ROW[:2]:
        env.step([x, x])
        env.step([o, o])
    obs, rewards, terminated, truncated, infos = env.step([2, 5])
    assert rewards.tolist() == [1, 0] and terminated.tolist() == [True, False]
    # The last position, seen by the side to move next (O): X's row in plane 1.
    assert obs[0, 1, 0].tolist() == [1, 1, 1] and obs[0, 1].sum() == 3
    assert obs[0, 0].sum() == 2
    assert not infos["action_mask"][0].any()
    assert "final_obs" not in infos
    # The next step resets game 0 and ignores its action, even an illegal one.
    obs, rewards, terminated, truncated, infos = env.step([99, 6])
    assert rewards.tolist() == [0, 0] and not terminated.any() and not truncated.any()
    assert infos["status"].tolist() == [0, 0] and infos["outcome"].tolist() == [0, 0]
    assert not obs[0].any() and infos["action_mask"][0].all()
    assert obs[1].sum() == 6  # game 1 played on
    obs, rewards, terminated, truncated, infos = env.step([4, 7])
    assert obs[0, 1, 1, 1] == 1  # game 0 plays again


def test_a_gymnasium_next_step_loop():
    """The loop Gymnasium documents for next-step autoreset: a step after
    an ending is a reset step, whose transition is not learned from."""
    env = ttt.VectorEnv(64, game="connect4", opponent="random", agent="alternate")
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(3)
    autoreset = np.zeros(64, dtype=bool)
    ended = 0
    for _ in range(300):
        mask = infos["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        before = obs.copy()
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert (rewards[autoreset] == 0).all()
        assert not terminated[autoreset].any() and not truncated[autoreset].any()
        assert (infos["status"][~autoreset] == 0).all()  # every masked action legal
        done = terminated | truncated
        # A game that ended shows its last position: the agent's marks,
        # then the opponent's, at least those it had before.
        assert (obs[done] >= before[done]).all()
        assert not infos["action_mask"][done].any()
        ended += int(done.sum())
        autoreset = done.copy()
    assert ended > 100


def test_same_step_final_obs_and_final_info():
    env = ttt.VectorEnv(2, autoreset_mode="same-step")
    env.reset()
    for x, o in TOP_ROW[:2]:
        env.step([x, x])
        obs, rewards, terminated, truncated, infos = env.step([o, o])
        assert "final_obs" not in infos
    obs, rewards, terminated, truncated, infos = env.step([2, 5])
    assert not obs[0].any()  # the new game, in the same step
    assert infos["_final_obs"].tolist() == [True, False]
    final = infos["final_obs"][0]
    assert final.shape == (2, 3, 3) and final.dtype == np.uint8
    assert env.single_observation_space.contains(final)  # float32 space
    assert final[1, 0].tolist() == [1, 1, 1] and final[0].sum() == 2
    assert infos["final_info"]["outcome"][0] == ttt.X_WON
    assert infos["final_info"]["_outcome"].tolist() == [True, False]
    assert infos["_final_info"].tolist() == [True, False]


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_a_ply_limit_truncation_keeps_its_final_observation(mode):
    env = ttt.VectorEnv(1, ply_limit=4, autoreset_mode=mode, obs_dtype=np.uint8)
    env.reset()
    for cell in (0, 1, 2):
        env.step([cell])
    obs, rewards, terminated, truncated, infos = env.step([4])
    assert truncated[0] and not terminated[0] and rewards[0] == 0
    last = infos["final_obs"][0] if mode == "same-step" else obs[0]
    # X on a1, c1; O on b1, b2; X to move next.
    assert last[0].reshape(-1).tolist() == [1, 0, 1, 0, 0, 0, 0, 0, 0]
    assert last[1].reshape(-1).tolist() == [0, 1, 0, 0, 1, 0, 0, 0, 0]


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_an_opponents_winning_reply_is_in_the_final_observation(mode):
    # The perfect opponent beats random moves; the last position, seen by
    # the agent, holds the opponent's completed line (its reply, played
    # inside the step).
    env = ttt.VectorEnv(16, opponent="perfect", autoreset_mode=mode)
    obs, infos = env.reset(seed=2)
    rng = np.random.default_rng(2)
    losses = 0
    for _ in range(60):
        mask = infos["action_mask"]
        obs, rewards, terminated, truncated, infos = env.step(
            (rng.random(mask.shape) * mask).argmax(axis=1))
        for i in np.flatnonzero(rewards < 0):
            last = infos["final_obs"][i] if mode == "same-step" else obs[i]
            assert has_line(last[1]) and not has_line(last[0])
            assert last[0].sum() == last[1].sum()  # the agent is X: O moved last
            losses += 1
    assert losses > 10


def test_next_step_with_set_moves_and_reset():
    env = ttt.VectorEnv(2)
    env.set_moves(0, [0, 3, 1, 4])
    obs, rewards, terminated, _, infos = env.step([2, 4])
    assert terminated[0] and obs[0].sum() == 5
    env.set_moves(0, [8])  # a pending game set anew plays its next step
    assert obs[0].sum() == 1 and obs[1].sum() == 1
    obs, rewards, _, _, infos = env.step([0, 0])
    assert infos["status"].tolist() == [0, 0] and obs[0].sum() == 2
    env.set_moves(1, [0, 3, 1, 4])
    _, _, terminated, _, _ = env.step([5, 2])
    assert terminated[1]
    obs, infos = env.reset()
    assert not obs.any() and infos["action_mask"].all()
    _, _, _, _, infos = env.step([4, 4])
    assert infos["status"].tolist() == [0, 0]  # reset cleared the pending game


def test_each_call_returns_a_new_infos_dict():
    # Gymnasium's wrappers add keys ("episode", ...) to the infos they get;
    # one dict shared by every step made RecordEpisodeStatistics refuse the
    # second step. The arrays inside stay the environment's buffers.
    env = ttt.VectorEnv(2)
    _, first = env.reset()
    first["episode"] = "added by a wrapper"
    _, _, _, _, second = env.step([0, 0])
    assert "episode" not in second
    second["episode"] = 1
    _, _, _, _, third = env.step([1, 1])
    assert "episode" not in third and third["action_mask"] is second["action_mask"]
