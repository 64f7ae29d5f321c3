"""Sampling handwriting, checked against the distributions it draws from and against one whole-sequence
forward: a mixture of two components with different weights, spreads and correlations of both signs
(counts of seeded draws within stated tolerances), the sampling bias on both sides of the log-sigma
clip, and sample_strokes for all six cells (BatchNorm's statistics per step, beyond the last step the
statistics hold, and the initial-state noise of the model's seed)."""
import numpy as np
import pytest

from lnrnn.kernels.codes import MDN_RHO as RHO, MDN_SMAX as SMAX
from lnrnn.kernels.mdn import mdn_sample, mdn_split
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes

CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]
IDS = ["lstm", "ln-lstm", "bn-lstm", "rnn", "ln-rnn", "bn-rnn"]


def mixture_row(pi, mu1, mu2, s1, s2, rho, e):
    """The head output (K,) whose transforms give these parameters (M = len(pi))."""
    return np.concatenate([[np.log(e / (1 - e))], np.log(pi), mu1, mu2, np.log(s1), np.log(s2),
                           np.arctanh(np.asarray(rho) / RHO)])


def test_draws_follow_a_two_component_mixture():
    """40000 seeded draws of a 0.3/0.7 mixture whose modes lie 12 sigmas apart: each draw is assigned to
    the mode it falls near (a misassignment has probability < 1e-9). Tolerances are 5 standard errors:
    frequency sqrt(p(1-p)/N), a standard deviation s/sqrt(2n), a correlation (1-rho^2)/sqrt(n), the pen
    rate sqrt(e(1-e)/N)."""
    pi, mu1, mu2 = [0.3, 0.7], [-6.0, 6.0], [1.0, -2.0]
    s1, s2, rho, e = [0.5, 1.0], [1.5, 0.4], [0.6, -0.5], 0.2
    N = 40000
    y = np.tile(mixture_row(pi, mu1, mu2, s1, s2, rho, e), (N, 1))
    d = mdn_sample(y, 2, np.random.default_rng(11))
    comp = (d[:, 0] > 0).astype(int)
    f1 = comp.mean()
    assert abs(f1 - pi[1]) < 5 * np.sqrt(pi[1] * pi[0] / N), f1
    for k in range(2):
        a, b = d[comp == k, 0], d[comp == k, 1]
        n = len(a)
        assert abs(a.mean() - mu1[k]) < 5 * s1[k] / np.sqrt(n)
        assert abs(b.mean() - mu2[k]) < 5 * s2[k] / np.sqrt(n)
        assert abs(a.std() - s1[k]) < 5 * s1[k] / np.sqrt(2 * n), (k, a.std())
        assert abs(b.std() - s2[k]) < 5 * s2[k] / np.sqrt(2 * n), (k, b.std())
        r = np.corrcoef(a, b)[0, 1]
        assert abs(r - rho[k]) < 5 * (1 - rho[k] ** 2) / np.sqrt(n), (k, r)
    assert abs(d[:, 2].mean() - e) < 5 * np.sqrt(e * (1 - e) / N)


def test_split_follows_its_definition_on_both_sides_of_the_clip():
    """mdn_split with Graves's bias b: pi = softmax((1 + b) pi_hat), s = exp(clip(s_hat) - b) (the clip
    first: a log-sigma beyond it is narrowed from the bound), rho = RHO tanh(rho_hat), e = sigmoid(e_hat);
    log-sigmas below, inside and above [-SMAX, SMAX] in both columns."""
    M, b = 3, 0.7
    rng = np.random.default_rng(4)
    y = rng.normal(0, 2, (5, 6 * M + 1))
    sh = np.array([-SMAX - 3, -SMAX + 0.5, 0.4, SMAX - 0.5, SMAX + 3])
    y[:, 1 + 3 * M] = sh
    y[:, 1 + 4 * M] = sh[::-1]
    y[:, 1 + 5 * M] = [-9, -0.3, 0, 0.4, 9]
    e, pi, mu1, mu2, s1, s2, rho = mdn_split(y, M, bias=b)
    z = (1 + b) * y[:, 1:1 + M]
    want_pi = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    np.testing.assert_allclose(pi, want_pi, rtol=1e-12)
    np.testing.assert_allclose(s1, np.exp(np.clip(y[:, 1 + 3 * M:1 + 4 * M], -SMAX, SMAX) - b), rtol=1e-12)
    np.testing.assert_allclose(s2, np.exp(np.clip(y[:, 1 + 4 * M:1 + 5 * M], -SMAX, SMAX) - b), rtol=1e-12)
    assert s1[0, 0] == pytest.approx(np.exp(-SMAX - b)) and s2[0, 0] == pytest.approx(np.exp(SMAX - b))
    np.testing.assert_allclose(rho, RHO * np.tanh(y[:, 1 + 5 * M:]), rtol=1e-12)
    assert np.all(np.abs(rho) < 1)
    np.testing.assert_allclose(e, 1 / (1 + np.exp(-y[:, 0])), rtol=1e-12)
    np.testing.assert_array_equal(mu1, y[:, 1 + M:1 + 2 * M])
    np.testing.assert_array_equal(mu2, y[:, 1 + 2 * M:1 + 3 * M])


def mdn_model(cell, norm, Ts, scale, noise=0.3, seed=3):
    m = build_model(dict(cell=cell, norm=norm, input_size=3, hidden_size=5, num_layers=2, dtype="float64",
                         forget_bias=1.0, state_noise=noise,
                         head={"kind": "mdn", "components": 2, "scale": scale}), seed=seed, max_steps=Ts)
    rng = np.random.default_rng(seed + 10)
    for layer in m.stack.layers:  # BN population statistics whose rows differ from step to step
        for k, v in layer.buffers.items():
            layer.buffers[k] = rng.uniform(0.3, 3.0, v.shape) if k.startswith("rv") else rng.normal(0, 1.0, v.shape)
    return m


@pytest.mark.parametrize("cell,norm", CELLS, ids=IDS)
def test_sampler_replays_as_one_forward(cell, norm):
    """sample_strokes' points, divided by the data scale, fed as one sequence through the stack's
    inference forward from the initial states noise_state(count, (3, seed)) draw, give head outputs
    from which the same generator draws the same points: the sampler runs step t at BatchNorm's
    statistics of step t (the last row past the Ts = 3 steps it holds) from the seed's noisy states."""
    scale = [2.0, 0.5]
    m = mdn_model(cell, norm, Ts=3, scale=scale)
    steps, count, seed, bias = 7, 3, 5, 0.4
    lines = np.stack(sample_strokes(m, steps, count, bias=bias, seed=seed))        # (count, steps, 3)
    pts = lines / np.array([scale[0], scale[1], 1.0])                               # normalized units
    x = np.zeros((steps, count, 3))
    x[1:] = np.transpose(pts[:, :-1], (1, 0, 2))                                    # the point fed at t
    state = m.noise_state(count, (3, seed))
    assert state is not None
    y, _ = m.stack.forward(x, state, training=False, keep=False)
    out = m.head.linear(y)                                                          # (steps, count, K)
    rng = np.random.default_rng(seed)
    for t in range(steps):
        np.testing.assert_allclose(pts[:, t], m.head.sample(out[t], rng, bias), rtol=1e-9, atol=1e-12)
