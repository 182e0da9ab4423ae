"""env.py - Env: one game with PettingZoo's AEC API; ttt.env also names VectorEnv (vector.py) and the spaces (_spaces.py), as it did when it held them."""

from __future__ import annotations

import copy
from typing import Any, Iterator, List, Optional

import numpy as np

from . import DRAW, O_WON, X_WON, Game, IllegalMoveError
from ._errors import _index, _unsigned
from ._spaces import (  # noqa: F401 - ttt.env has named these since 1.4
    PRESETS, _Box, _Dict, _Discrete, _MultiDiscrete, _ply_limit, _render, _shape,
    Box, Dict, Discrete, MultiDiscrete)
from .vector import (  # noqa: F401
    AGENTS, ILLEGAL_MODES, OPPONENTS, SELF_PLAY, _AutoresetMode, AutoresetMode, VectorEnv)

__all__ = ["VectorEnv", "Env", "Discrete", "MultiDiscrete", "Box", "Dict",
           "AutoresetMode", "PRESETS"]

try:
    from pettingzoo import AECEnv as _AECEnv
except ImportError:
    _AECEnv = object


# ---------------------------------------------------------------------------
# One game as PettingZoo's AEC environment


class Env(_AECEnv):  # type: ignore[misc, valid-type]
    """One game with PettingZoo's AEC interface, as tictactoe_v3 and
    connect_four_v3 have it:

        env = ttt.Env(game="connect4")        # or width=, height=, k=, gravity=
        env.reset(seed=42)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            action = None if termination or truncation else policy(observation)
            env.step(action)

    With pettingzoo importable it is a pettingzoo.AECEnv, and its spaces
    are gymnasium's (see the spaces above). Agents are "player_0" and
    "player_1" for connect4 (as connect_four_v3) and "player_1" and
    "player_2" otherwise (as tictactoe_v3); the first plays X.
    observe(agent) gives {"observation": int8 (height, width, 2): channel 0
    the agent's marks, channel 1 the other's; "action_mask": int8
    (actions,), all zeros for an agent whose turn it is not}, an element of
    observation_space(agent), a Dict of those two Boxes. A win gives +1 to
    the winner and -1 to the loser, a draw 0; an illegal action ends the game
    with -1 for its player and 0 for the other (as PettingZoo's
    TerminateIllegalWrapper), infos[agent]["illegal_move"] True. A ply-limit
    draw sets truncations instead of terminations. A finished agent's
    step(None) removes it and clears every reward, so summing env.rewards
    after each step counts each reward once.

    Differences from PettingZoo's games: actions number cells row-major
    (row * width + col; tictactoe_v3 numbers them column-major), or columns
    under gravity as connect_four_v3 does; there is no randomness, so reset's
    seed only seeds the action spaces; render_mode is None, "human" (step
    prints the board) or "ansi", and render() returns the board as text
    ("rgb_array" is refused: there are no images).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "ttt_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: Optional[str] = None, width: int = 3,
                 height: int = 3, k: int = 3, gravity: bool = False, *,
                 misere: bool = False, early_draw: bool = False,
                 ply_limit: int = 0, render_mode: Optional[str] = None,
                 lib_path: Optional[str] = None):
        if _AECEnv is not object:
            super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None, 'human' or 'ansi', not "
                             "%r (the board is drawn as text)" % (render_mode,))
        width, height, k, gravity = _shape(game, width, height, k, gravity)
        ply_limit = _ply_limit(ply_limit)
        self.render_mode = render_mode
        self._game = Game(width=width, height=height, k=k, misere=misere,
                          early_draw=early_draw, gravity=gravity, lib_path=lib_path)
        if ply_limit:
            from . import RULE_PLY_LIMIT
            self._game.set_rule(RULE_PLY_LIMIT, ply_limit)
        self.width, self.height, self.gravity = width, height, bool(gravity)
        self._ply_limit = ply_limit
        self.num_actions = width if gravity else width * height
        first = 0 if game in ("connect4", "connect_four") else 1
        self.possible_agents = ["player_%d" % first, "player_%d" % (first + 1)]
        self._marks = {self.possible_agents[0]: 1, self.possible_agents[1]: -1}
        # One space object per agent, the same one on every call.
        self.action_spaces = {a: Discrete(self.num_actions)
                              for a in self.possible_agents}
        self.observation_spaces = {
            a: Dict({"observation": Box(0, 1, (height, width, 2), np.int8),
                     "action_mask": Box(0, 1, (self.num_actions,), np.int8)})
            for a in self.possible_agents}
        self.reset()

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    @property
    def unwrapped(self) -> "Env":
        return self

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def reset(self, seed: Optional[int] = None,
              options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            seed = _unsigned(seed, 63, "seed")
        self._game.reset()
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.agents: List[str] = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        board = np.array(self._game.board(), dtype=np.int8)
        mark = self._marks[agent]
        observation = np.stack([board == mark, board == -mark], axis=2).astype(np.int8)
        # Only the agent to move has legal moves (as PettingZoo's games).
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if agent == self.agent_selection and agent in self.agents:
            for row, col in self._game.legal_moves():
                mask[col if self.gravity else row * self.width + col] = 1
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True):
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2 ** 63) -> Iterator[str]:
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def _other(self, agent: str) -> str:
        return self.possible_agents[1 - self.possible_agents.index(agent)]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("when an agent is done, the only valid action is None")
            # The dead step: the agent leaves, the next one plays, and the
            # rewards are spent (each was counted after the step that gave it).
            self.agents.remove(agent)
            del self.rewards[agent], self._cumulative_rewards[agent]
            del self.terminations[agent], self.truncations[agent], self.infos[agent]
            for a in self.agents:
                self.rewards[a] = 0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        # An action is an int (operator.index: numpy's integers too), never
        # a bool, a float or a str (TypeError, nothing changed); an int off
        # the board is an illegal move.
        action = _index(action, "an action")
        self._cumulative_rewards[agent] = 0
        other = self._other(agent)
        self.rewards = {a: 0 for a in self.agents}
        try:
            if self.gravity:
                self._game.drop(action)
            elif 0 <= action < self.num_actions:
                self._game.play(action // self.width, action % self.width)
            else:
                raise IllegalMoveError(-5, "the action is off the board")
            state = self._game.state
        except IllegalMoveError:
            self.rewards[agent], self.rewards[other] = -1, 0
            self.infos[agent]["illegal_move"] = True
            for a in self.agents:
                self.terminations[a] = True
            state = None
        if state in (X_WON, O_WON):
            winner = 1 if state == X_WON else -1
            for a in self.agents:
                self.rewards[a] = 1 if self._marks[a] == winner else -1
                self.terminations[a] = True
        elif state == DRAW:
            by_limit = (self._ply_limit and self._game.ply == self._ply_limit
                        and self._game.ending.name == "PLY_LIMIT")
            for a in self.agents:
                if by_limit:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        self.agent_selection = other
        for a, reward in self.rewards.items():
            self._cumulative_rewards[a] += reward
        if self.render_mode == "human":
            self.render()

    # A copy owns its own Game (Game's copies are clones): copy.copy is
    # deepcopy, so two environments never share one C game.
    def __copy__(self) -> "Env":
        return copy.deepcopy(self)

    def render(self) -> Optional[str]:
        """The board as text (render_mode None or "ansi"); printed, and None
        returned, in "human" mode."""
        board = np.array(self._game.board(), dtype=np.int8)
        text = _render(board, self.width)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game.close()

    def __repr__(self) -> str:
        return "<ttt.Env %dx%d%s>" % (self.width, self.height,
                                      " gravity" if self.gravity else "")
