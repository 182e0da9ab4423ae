"""test_env_misuse.py - the learning environments under misuse: copies and pickles, threads, and arguments of the wrong type or range."""

import copy
import pickle
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import ttt


def run_python(code, **env):
    """Runs code in a fresh interpreter: a crash there fails the test
    without taking the suite with it."""
    import os
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, **env))


# -- copies and pickles: never two owners of one C object -----------------


@pytest.mark.parametrize("make", [copy.copy, copy.deepcopy, pickle.dumps])
def test_vector_env_copies_and_pickles_are_refused(make):
    env = ttt.VectorEnv(4, game="tictactoe")
    env.reset(seed=1)
    with pytest.raises(TypeError, match="VectorEnv cannot be"):
        make(env)
    # The refused copy changed nothing: the original still steps.
    obs, rewards, terminated, truncated, infos = env.step([4, 4, 4, 4])
    assert (infos["status"] == 0).all() and obs[:, 1, 1, 1].all()
    env.close()


def test_a_copied_vector_env_cannot_free_the_original():
    # The shared C batch was freed twice, and stepped after it was freed.
    result = run_python("""
        import copy, numpy as np, ttt
        env = ttt.VectorEnv(4)
        try:
            twin = copy.copy(env)
        except TypeError as e:
            print("refused")
        else:
            env.close()
            twin.step(np.zeros(4, dtype=np.int64))
        env.close()
        """)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "refused\n" and result.stderr == ""


def test_seed_copies_are_independent():
    seed = ttt.Seed(7)
    for twin in (copy.copy(seed), copy.deepcopy(seed),
                 pickle.loads(pickle.dumps(seed))):
        assert twin.value == 7
        ttt.Game(3).random_move(twin)
        assert twin.value != 7 and seed.value == 7


def test_env_copies_own_their_game():
    env = ttt.Env(game="connect4")
    env.step(3)
    for twin in (copy.copy(env), copy.deepcopy(env),
                 pickle.loads(pickle.dumps(env))):
        assert twin.render() == env.render()
        env.close()  # a twin lives on after the original closes
        twin.step(3)
        assert twin.observe(twin.agent_selection)["observation"].sum() == 2
        env = ttt.Env(game="connect4")
        env.step(3)


# -- threads: one thread at a time, close waits ---------------------------


def test_close_while_another_thread_steps_waits_for_the_step():
    # close() freed the batch under the running step (a use after free);
    # with every allocation its own mapping and freed memory poisoned, the
    # stepping thread crashed. Now close waits, and the next step raises.
    result = run_python("""
        import threading, ttt
        env = ttt.VectorEnv(512, width=9, height=9, k=5, opponent="strong",
                            opponent_budget=500, seed=1)
        started, result = threading.Event(), []
        def worker():
            try:
                while True:
                    actions = env._mask.argmax(axis=1)
                    started.set()  # the next release of the GIL is the step
                    env.step(actions)
            except ValueError as e:
                result.append(str(e))
        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        env.close()
        thread.join()
        print(result)
        """, MALLOC_PERTURB_="85", MALLOC_MMAP_THRESHOLD_="4096")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "['operation on a closed VectorEnv']\n"


def test_a_call_while_another_runs_raises_and_close_waits():
    env = ttt.VectorEnv(2)
    env._lock.acquire()  # as a step running in another thread holds it
    try:
        with pytest.raises(RuntimeError, match="one thread at a time"):
            env.step([0, 0])
        with pytest.raises(RuntimeError, match="one thread at a time"):
            env.reset()
        closer = threading.Thread(target=env.close)
        closer.start()
        closer.join(0.2)
        assert closer.is_alive()  # waiting for the call to end
    finally:
        env._lock.release()
    closer.join()
    assert env.closed
    with pytest.raises(ValueError, match="closed"):
        env.step([0, 0])
    env.close()  # again: nothing


def test_a_half_built_vector_env_is_collected_quietly():
    result = run_python("""
        import ttt
        try:
            ttt.VectorEnv(0)
        except ValueError as e:
            print(e)
        env = ttt.VectorEnv.__new__(ttt.VectorEnv)
        del env
        import gc; gc.collect()
        """)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout == "num_envs must be at least 1, not 0\n"


# -- arguments: the package's rule (operator.index, range-checked) --------


def test_vector_env_actions_never_wrap():
    env = ttt.VectorEnv(3)
    env.reset()
    obs, rewards, terminated, truncated, infos = env.step(
        np.array([2 ** 32 + 3, -2 ** 40, 4], dtype=np.int64))
    assert infos["status"].tolist() == [ttt.E_OFF_BOARD, ttt.E_OFF_BOARD, 0]
    assert obs[:2].sum() == 0  # the two games unchanged
    env.step(np.array([2 ** 64 - 1, 0, 0], dtype=np.uint64))
    assert infos["status"][0] == ttt.E_OFF_BOARD
    env.step(np.array([3, 3, 3], dtype=np.uint8))
    assert (infos["status"] == 0).all()
    env.step(np.array([-2 ** 31, 1, 1], dtype=np.int32))
    assert infos["status"].tolist() == [ttt.E_OFF_BOARD, 0, 0]


@pytest.mark.parametrize("actions", [
    [0.0, 1.0], np.array([0.5, 1.5]), ["0", "1"], [True, False],
    np.array([1, 0], dtype=np.bool_), [None, None]])
def test_vector_env_refuses_actions_that_are_not_integers(actions):
    env = ttt.VectorEnv(2)
    with pytest.raises(TypeError, match="actions must be integers"):
        env.step(actions)
    assert not env._obs.any()  # nothing played
    with pytest.raises(TypeError):
        env.set_moves(0, actions[:1])


def test_vector_env_checks_its_arguments():
    checks = [
        (dict(num_envs=True), TypeError), (dict(num_envs=2.0), TypeError),
        (dict(num_envs=-1), ValueError), (dict(num_envs=0), ValueError),
        (dict(num_envs=2 ** 64), OverflowError),
        (dict(num_envs=2, ply_limit=2 ** 32 + 1), OverflowError),
        (dict(num_envs=2, ply_limit=-1), ValueError),
        (dict(num_envs=2, ply_limit=1.5), TypeError),
        (dict(num_envs=2, opponent="strong", opponent_budget=-1), ValueError),
        (dict(num_envs=2, opponent="strong", opponent_budget=2 ** 64), OverflowError),
        (dict(num_envs=2, seed=-1), ValueError),
        (dict(num_envs=2, seed=1.0), TypeError),
        (dict(num_envs=2, width=True), TypeError),
        (dict(num_envs=2, width=3.0), TypeError),
        (dict(num_envs=2, width=2 ** 32 + 3), ttt.SizeError),
        (dict(num_envs=2, opponent=True), ValueError),
        (dict(num_envs=2, agent=True), ValueError),
    ]
    for kwargs, error in checks:
        with pytest.raises(error):
            ttt.VectorEnv(**kwargs)
    env = ttt.VectorEnv(np.int64(2), seed=np.uint64(5))
    assert env.num_envs == 2
    for index, error in ((2, IndexError), (-1, IndexError), (True, TypeError),
                         (1.0, TypeError)):
        with pytest.raises(error):
            env.set_moves(index, [0])
        with pytest.raises(error):
            env.render(index)
    with pytest.raises(ValueError):
        env.reset(seed=-1)


def test_env_actions_follow_the_package_rule():
    env = ttt.Env()
    for action in (True, np.bool_(True), 1.0, np.float64(1), "1"):
        with pytest.raises(TypeError, match="an action must be an int"):
            env.step(action)
    assert env.observe("player_1")["observation"].sum() == 0  # nothing played
    assert env.agent_selection == "player_1"
    env.step(np.int32(4))
    assert env.observe("player_1")["observation"][1, 1, 0] == 1
    # A huge int is an illegal move (never wrapped onto the board).
    env.step(2 ** 32 + 3)
    assert env.terminations["player_2"] and env.rewards["player_2"] == -1
    assert env.infos["player_2"]["illegal_move"]
    with pytest.raises(OverflowError):
        ttt.Env(ply_limit=2 ** 32 + 1)
