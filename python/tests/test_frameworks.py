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
        """The engine's own short search as MCTS's leaf value (faster than random rollouts); a
        Phutball ball move under way is valued as if it stopped where the ball stands."""

        def evaluate(self, state):
            s = state.tetrad
            if s.pending():
                s = s.copy()
                s.play(s.pending_move())
            if s.is_over():
                w = s.winner()
                return [0.0, 0.0] if w is None else [1.0, -1.0] if w == 0 else [-1.0, 1.0]
            r = s.search(depth=1)
            v = 1.0 if r.mate and r.mate > 0 else -1.0 if r.mate else math.tanh(r.score / 400)
            return [v, -v] if s.to_move() == 0 else [-v, v]

        def prior(self, state):
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    for name in names:
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        # Seeded, so each run plays the same games.
        bot = mcts.MCTSBot(
            game, 1.4, 12, Engine(), random_state=np.random.RandomState(1), solve=False
        )
        plies = 0  # decisions: a Phutball ball move takes one per jump and one to stop
        while not state.is_terminal() and plies < 1000:
            state.apply_action(bot.step(state))
            plies += 1
        assert state.is_terminal(), f"{name}: {plies} plies"
        assert sum(state.returns()) == 0
        history = state.history()
        if name == "tetrad_phutball":  # ball moves were taken hop by hop, the player unchanged
            assert any(a >= 315 for a in history)
        assert len(state.observation_tensor(0)) == math.prod(state.tetrad.observation().shape)


def test_pettingzoo_api():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import tetrad.pettingzoo

    for name in tetrad.games():
        api_test(tetrad.pettingzoo.env(name), num_cycles=40)
