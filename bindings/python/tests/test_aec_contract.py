"""test_aec_contract.py - ttt.Env against PettingZoo's AEC contract and ttt.env's spaces against Gymnasium's, written from their documented APIs (CI has neither package; with them importable the same tests check the real classes)."""

import contextlib
import importlib.util
import io

import numpy as np
import pytest

import ttt
from ttt import env as ttt_env

HAVE_PETTINGZOO = importlib.util.find_spec("pettingzoo") is not None
HAVE_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None
GAMES = ["connect4", "tictactoe", "gomoku"]


def masked_action(env, observation, rng):
    legal = np.flatnonzero(observation["action_mask"])
    return rng.choice(legal)


# -- the classes: PettingZoo's and Gymnasium's when they are there ---------


def test_env_is_an_aec_env_when_pettingzoo_is_importable():
    if HAVE_PETTINGZOO:
        import pettingzoo
        assert isinstance(ttt.Env(), pettingzoo.AECEnv)
    else:
        assert ttt.Env.__mro__[1:] == (object,)


def test_spaces_are_gymnasiums_when_it_is_importable():
    if HAVE_GYMNASIUM:
        import gymnasium
        assert ttt_env.Discrete is gymnasium.spaces.Discrete
        assert ttt_env.Dict is gymnasium.spaces.Dict
    else:
        assert ttt_env.Discrete is ttt_env._Discrete
        assert ttt_env.Box is ttt_env._Box


# -- the environment ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_attributes_after_reset(game):
    env = ttt.Env(game=game)
    env.reset(seed=0, options={"anything": 1})
    assert env.agents == env.possible_agents and len(env.agents) == 2
    assert env.num_agents == 2 and isinstance(env.num_agents, int)
    assert env.max_num_agents == 2
    assert env.agent_selection == env.agents[0]
    for table in (env.rewards, env.terminations, env.truncations, env.infos,
                  env._cumulative_rewards):
        assert isinstance(table, dict) and set(table) == set(env.agents)
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.unwrapped is env
    assert env.metadata["name"] == "ttt_v0"
    assert set(env.metadata["render_modes"]) == {"human", "ansi"}
    assert set(env.observation_spaces) == set(env.action_spaces) == set(env.possible_agents)
    for agent in env.possible_agents:
        # The same space object on every call, and the one in the dicts.
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.observation_space(agent) is env.observation_spaces[agent]
        assert env.action_space(agent) is env.action_spaces[agent]
        space = env.observation_space(agent)
        assert space["observation"].shape == (env.height, env.width, 2)
        assert space["observation"].dtype == np.int8
        assert space["action_mask"].shape == (env.num_actions,)
        assert space["action_mask"].dtype == np.int8
        assert env.action_space(agent).n == env.num_actions
    observation, *_ = env.last(observe=False)
    assert observation is None


@pytest.mark.parametrize("game", GAMES)
def test_play_through_keeps_the_contract(game):
    """The checks of a full cycle: last() returns the accumulated reward,
    the dicts follow the agents, observations lie in their space, agents
    leave once they are done and never come back."""
    env = ttt.Env(game=game)
    rng = np.random.default_rng(7)
    for episode in range(6 if game != "gomoku" else 2):
        env.reset(seed=episode)
        summed = {a: 0 for a in env.agents}
        finished, total = set(), {a: 0 for a in env.agents}
        for agent in env.agent_iter(10000):
            assert agent not in finished
            observation, reward, termination, truncation, info = env.last()
            assert isinstance(termination, bool) and isinstance(truncation, bool)
            assert info is env.infos[agent] and isinstance(info, dict)
            assert reward == summed[agent]
            summed[agent] = 0
            space = env.observation_space(agent)
            assert space.contains(observation)
            assert observation["observation"].dtype == space["observation"].dtype
            if termination or truncation:
                action = None
                finished.add(agent)
            else:
                action = masked_action(env, observation, rng)
            assert env.step(action) is None
            for a, r in env.rewards.items():
                summed[a] += r
                total[a] += r
            for table in (env.rewards, env.terminations, env.truncations, env.infos):
                assert set(table) == set(env.agents)
            assert env.num_agents == len(env.agents)
        assert not env.agents and finished == set(env.possible_agents)
        # Each reward counted once: a win is +1 and -1, a draw 0 and 0.
        assert sorted(total.values()) in ([-1, 1], [0, 0])


def test_the_dead_step_clears_the_rewards():
    # The finished agent's step(None) left the winner's +1 in rewards:
    # code that sums env.rewards after each step counted the win twice.
    env = ttt.Env(game="tictactoe")
    for action in (0, 3, 1, 4, 2):  # X takes the top row
        env.step(action)
    assert env.rewards == {"player_1": 1, "player_2": -1}
    env.step(None)  # player_2 is done
    assert env.agents == ["player_1"]
    assert env.rewards == {"player_1": 0}
    assert env.last()[1] == 1  # the cumulative reward stays until it acts
    env.step(None)
    assert env.agents == [] and env.rewards == {}


def test_observe_gives_a_zero_mask_to_the_agent_not_to_move():
    env = ttt.Env(game="connect4")
    env.step(3)
    mover, waiter = env.agent_selection, "player_0"
    assert mover == "player_1"
    assert env.observe(mover)["action_mask"].tolist() == [1] * 7
    assert env.observe(waiter)["action_mask"].tolist() == [0] * 7
    # The board is still the agent's own view.
    assert env.observe(waiter)["observation"][5, 3].tolist() == [1, 0]
    assert env.observe(mover)["observation"][5, 3].tolist() == [0, 1]


def test_numpy_integer_actions_are_accepted():
    for action in (np.int32(4), np.int64(4), np.uint8(4), 4):
        env = ttt.Env()
        env.reset(seed=0)
        env.step(action)
        assert env.observe("player_1")["observation"][1, 1, 0] == 1


def test_seeded_runs_repeat():
    def run(seed):
        env = ttt.Env(game="connect4")
        env.reset(seed=seed)
        for i, agent in enumerate(env.agents):
            env.observation_space(agent).seed(42 + i)
        seen = []
        for agent in env.agent_iter(200):
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = env.action_space(agent).sample(observation["action_mask"])
            seen.append(int(action))
            env.step(action)
        return seen
    assert run(42) == run(42)
    assert run(42) != run(43)


def test_render_modes():
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        ttt.Env(render_mode="rgb_array")
    text = ttt.Env(render_mode="ansi")
    text.step(4)
    assert text.render().splitlines()[2] == "2  . X ."
    assert ttt.Env().render() == ttt.Env(render_mode="ansi").render()
    human = ttt.Env(render_mode="human")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        human.step(4)
        assert human.render() is None
    assert out.getvalue().count("2  . X .") == 2


# -- the stand-in spaces (Gymnasium's when it is importable) --------------


def test_discrete_sample_with_a_mask():
    space = ttt_env.Discrete(7, seed=1)
    mask = np.array([0, 0, 1, 0, 1, 0, 0], dtype=np.int8)
    draws = {int(space.sample(mask)) for _ in range(200)}
    assert draws == {2, 4}
    assert int(space.sample(np.zeros(7, dtype=np.int8))) == 0  # none legal: start
    assert {int(space.sample()) for _ in range(500)} == set(range(7))
    assert isinstance(space.sample(), np.integer)


def test_discrete_seed_contains_and_equality():
    a, b = ttt_env.Discrete(9), ttt_env.Discrete(9)
    assert a.seed(3) == 3 and b.seed(3) == 3  # the seed used, as in Gymnasium 1.x
    assert [a.sample() for _ in range(20)] == [b.sample() for _ in range(20)]
    assert isinstance(a.np_random, np.random.Generator)
    assert isinstance(a.seed(), int)  # None: a seed of its own, returned
    for x in (0, 8, np.int64(3), np.int8(8), np.array(4)):
        assert a.contains(x) and x in a
    for x in (-1, 9, 2.0, "1", None, np.array([1]), np.float32(1)):
        assert not a.contains(x)
    assert a == ttt_env.Discrete(9) and a != ttt_env.Discrete(8)
    assert (a.n, a.shape, a.dtype) == (9, (), np.int64)


def test_box_contains_and_sample():
    space = ttt_env.Box(0, 1, (2, 3), np.int8, seed=5)
    assert space.contains(np.zeros((2, 3), dtype=np.int8))
    assert space.contains(np.ones((2, 3), dtype=np.uint8).astype(np.int8))
    assert not space.contains(np.full((2, 3), 2, dtype=np.int8))
    assert not space.contains(np.zeros((3, 2), dtype=np.int8))
    assert not space.contains(np.zeros((2, 3), dtype=np.float64))  # cannot cast
    sample = space.sample()
    assert sample.shape == (2, 3) and sample.dtype == np.int8 and space.contains(sample)
    assert (space.low == 0).all() and (space.high == 1).all()
    assert space.seed(9) == 9
    assert space == ttt_env.Box(0, 1, (2, 3), np.int8)


def test_dict_subscripting_seed_sample_contains():
    space = ttt.Env(game="connect4").observation_space("player_0")
    assert list(space.keys()) == ["action_mask", "observation"]  # sorted
    assert space["action_mask"].shape == (7,)
    assert set(space.seed(11)) == {"action_mask", "observation"}
    first = space.sample()
    space.seed(11)
    second = space.sample()
    assert set(first) == {"observation", "action_mask"}
    assert all(np.array_equal(first[k], second[k]) for k in first)
    assert space.contains(first)
    assert not space.contains({"observation": first["observation"]})
    assert not space.contains(first["observation"])


def test_multidiscrete():
    env = ttt.VectorEnv(5)
    space = env.action_space
    space.seed(2)
    sample = space.sample()
    assert sample.shape == (5,) and space.contains(sample)
    assert not space.contains(np.full(5, 9)) and not space.contains(np.zeros(4, dtype=np.int64))
    assert env.single_action_space.n == 9 and env.single_action_space.contains(8)
