"""The games as PettingZoo AEC environments (``pip install ./python[pettingzoo]``).

``env(game)`` is an AEC environment with agents ``player_0`` (first mover) and ``player_1``;
observations are dicts ``{"observation": State.observation(), "action_mask": uint8 mask}``,
actions the game's own (``Game.num_actions``; a Phutball ball move is several actions, the same
agent acting again after each jump until it stops); rewards +1/-1/0 at the end.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import tetrad


class TetradEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "tetrad_v0", "is_parallelizable": False}

    def __init__(self, game, render_mode=None, **options):
        super().__init__()
        self.game = tetrad.Game(game, **options)
        self.metadata = dict(self.metadata, name=f"tetrad_{game.replace('-', '_')}_v0")
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        shape = self.game.observation_shape
        n = self.game.num_actions
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def observe(self, agent):
        mask = self.state.legal_mask().astype(np.int8)
        if agent != self.agent_selection:
            mask[:] = 0
        return {"observation": self.state.observation(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.state = self.game.new_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state.to_move()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.state.play_action(int(action))
        if self.state.is_over():
            winner = self.state.winner()
            for i, a in enumerate(self.agents):
                self.rewards[a] = 0 if winner is None else (1 if i == winner else -1)
                self.terminations[a] = True
        else:
            self.agent_selection = self.agents[self.state.to_move()]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        return str(self.state)

    def close(self):
        pass


def env(game, **kwargs):
    """An AEC environment of `game` (a name of ``tetrad.games()``)."""
    return TetradEnv(game, **kwargs)
