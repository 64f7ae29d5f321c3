"""The judge's replay (``lnrnn.judge.replay_kappa``) against the sampler it replays, on a model with
initial-state noise: the replay starts from the sampler's initial states (its noise key), so the window's
weights phi of the replay are the ones the sampler recorded at every written point (``Written.phi``). The
noise is checked to matter (another seed's states give other weights), so a replay from another draw shows."""
import numpy as np

from lnrnn.judge import replay_kappa
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes
from test_sample_text import ALPHABET, CONFIG, codes, window_op  # noqa: F401  (the fixture binds the op)


def test_the_replay_of_a_noisy_model_sees_the_samplers_window():
    m = build_model(dict(CONFIG, state_noise=0.8), seed=3)
    rows = sample_strokes(m, 12, 2, 0.5, 7, text=codes("abc", "de"), alphabet=ALPHABET)
    _, phi = replay_kappa(m, rows, seed=7)
    for b, r in enumerate(rows):
        assert phi[b].shape == r.phi.shape
        np.testing.assert_allclose(phi[b], r.phi, rtol=1e-4, atol=1e-6)
    _, other = replay_kappa(m, rows, seed=8)
    assert max(np.abs(o - r.phi).max() for o, r in zip(other, rows)) > 1e-3
