"""OpenSpiel and PettingZoo."""

import math

import numpy as np

import pytest

import tetrad

pyspiel = pytest.importorskip("pyspiel")


def test_openspiel_mcts_plays_whole_games():
    from open_spiel.python.algorithms import mcts

    import tetrad.openspiel

    names = tetrad.openspiel.register()
    assert "tetrad_pods_standard" in names

    class Engine(mcts.Evaluator):
        """The engine's own short search as MCTS's leaf value (random rollouts on a crowded
        Phutball board would meet millions of moves)."""

        def evaluate(self, state):
            if state.is_terminal():
                return state.returns()
            r = state.tetrad.search(depth=1)
            v = 1.0 if r.mate and r.mate > 0 else -1.0 if r.mate else math.tanh(r.score / 400)
            me = state.current_player()
            return [v, -v] if me == 0 else [-v, v]

        def prior(self, state):
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    for name in names:
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        # Seeded: an unseeded search once wandered into a Phutball board crowded enough that its
        # move list took all memory.
        bot = mcts.MCTSBot(
            game, 1.4, 12, Engine(), random_state=np.random.RandomState(1), solve=False
        )
        plies = 0
        while not state.is_terminal() and plies < 400:
            state.apply_action(bot.step(state))
            plies += 1
        assert state.is_terminal(), f"{name}: {plies} plies"
        assert sum(state.returns()) == 0
        assert len(state.observation_tensor(0)) == math.prod(state.tetrad.observation().shape)


def test_pettingzoo_api():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import tetrad.pettingzoo

    for name in tetrad.games():
        api_test(tetrad.pettingzoo.env(name), num_cycles=40)
