"""The games as OpenSpiel Python games (``pip install ./python[openspiel]``).

``register()`` registers every game of ``tetrad.games()`` with ``pyspiel`` under
``tetrad_`` + the name with ``-`` as ``_`` (``pyspiel.load_game("tetrad_pods_standard")``).
Actions are the game's own (``Game.num_actions``): a Phutball ball move is several actions by
the same player (``current_player`` stays), one per jump and one to stop. The observation
tensor is ``State.observation()``. Rules, notation and results all come from the engine library.
"""

import numpy as np
import pyspiel

import tetrad

_registered = {}


def spiel_name(game):
    return "tetrad_" + game.replace("-", "_")


def _game_type(name):
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name="tetrad " + name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


class _Observer:
    """The observation tensor (``State.observation()``) and string (the position)."""

    def __init__(self, shape):
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        self.tensor[:] = state.tetrad.observation().ravel()

    def string_from(self, state, player):
        return str(state)


def _make_classes(name):
    probe = tetrad.Game(name)
    game_type = _game_type(name)
    game_info = pyspiel.GameInfo(
        num_distinct_actions=probe.num_actions,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=100_000,
    )

    class TetradState(pyspiel.State):
        def __init__(self, game, state=None):
            super().__init__(game)
            self.tetrad = state if state is not None else game.tetrad.new_state()

        def current_player(self):
            if self.tetrad.is_over():
                return pyspiel.PlayerId.TERMINAL
            return self.tetrad.to_move()

        def _legal_actions(self, player):
            return self.tetrad.legal_actions()

        def _apply_action(self, action):
            self.tetrad.play_action(action)

        def _action_to_string(self, player, action):
            try:
                return self.tetrad.move(action)
            except ValueError:
                return f"action {action}"

        def is_terminal(self):
            return self.tetrad.is_over()

        def returns(self):
            if not self.tetrad.is_over():
                return [0.0, 0.0]
            winner = self.tetrad.winner()
            if winner is None:
                return [0.0, 0.0]
            return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

        def __str__(self):
            # The position, and mid-move the move under way (a Phutball ball move's jumps).
            so_far = self.tetrad.pending_move()
            return self.tetrad.position() + ("" if so_far is None else " " + so_far)

    class TetradGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or dict())
            self.tetrad = tetrad.Game(name)

        def new_initial_state(self):
            return TetradState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(self.tetrad.observation_shape)

    return game_type, TetradGame


def register():
    """Registers every game with pyspiel (once); returns the registered names."""
    for name in tetrad.games():
        if name not in _registered:
            game_type, cls = _make_classes(name)
            pyspiel.register_game(game_type, cls)
            _registered[name] = cls
    return [spiel_name(n) for n in tetrad.games()]
