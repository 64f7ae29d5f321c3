"""CUDA twins against the CPU away from the easy middle (Numba's simulator in CI, a GPU where there is
one): the mixture density kernels with log-sigmas below, inside and above the clip, correlations near
+-1, end-of-stroke logits of +-40 and padded rows; and whole models of all six cells with saturating
inputs, initial-state noise, padded rows and (LSTM cells) a gate clip that binds, training and
inference. Small blocks so that several run."""
import numpy as np
import pytest

from lnrnn import backend, config
from lnrnn.kernels.codes import MDN_SMAX as SMAX
from lnrnn.kernels.mdn import mdn_backward, mdn_forward
from lnrnn.model.models import build_model, head_config

CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]
IDS = ["lstm", "ln-lstm", "bn-lstm", "rnn", "ln-rnn", "bn-rnn"]


@pytest.fixture
def cuda(monkeypatch):
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 6)


def bounded_problem(M=3, N=30, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.normal(0, 1, (N, 6 * M + 1))
    sides = np.array([-SMAX - 4, -SMAX + 0.5, 0.3, SMAX - 0.5, SMAX + 4])
    y[:, 1 + 3 * M:1 + 4 * M] = rng.choice(sides, (N, M))                  # log sigma1 on every side
    y[:, 1 + 4 * M:1 + 5 * M] = rng.choice(sides, (N, M))                  # log sigma2
    y[:, 1 + 5 * M:1 + 6 * M] = rng.choice([-9.0, -0.5, 0.5, 9.0], (N, M))  # rho near -1 and +1
    y[:, 0] = rng.choice([-40.0, 0.2, 40.0], N)
    t = np.column_stack([y[:, 1 + M] + rng.normal(0, 1e-4, N), y[:, 1 + 2 * M] + rng.normal(0, 1e-4, N),
                         rng.integers(0, 2, N)])
    v = np.ones(N)
    v[::7] = 0
    return y, t, v, M


def test_mdn_twins_agree_beyond_every_bound(cuda):
    from lnrnn.kernels import mdn_cuda
    y, t, v, M = bounded_problem()
    g = np.random.default_rng(1).normal(0, 1, len(y))
    n_cpu, s_cpu = mdn_forward(y, t, v, M)
    d_cpu = mdn_backward(g, s_cpu, y, t, M)
    assert np.isfinite(n_cpu).all() and np.isfinite(d_cpu).all()
    n_gpu, s_gpu = mdn_cuda.mdn_forward(y, t, v, M)
    d_gpu = mdn_cuda.mdn_backward(g, s_gpu, y, t, M).copy_to_host()
    np.testing.assert_allclose(n_gpu.copy_to_host(), n_cpu, rtol=1e-10, atol=1e-12)
    for a, b in zip(s_gpu[:5], s_cpu[:5]):  # gamma, z1, z2, e, pi
        np.testing.assert_allclose(a.copy_to_host(), b, rtol=1e-10, atol=1e-12)
    scale = np.abs(d_cpu).max(axis=0) + 1e-300                              # per column: sigmas span e^+-10
    np.testing.assert_allclose(d_gpu / scale, d_cpu / scale, rtol=0, atol=1e-8)  # C = 1/(1-rho^2) ~ 5e3
    np.testing.assert_array_equal(d_gpu == 0, d_cpu == 0)                   # the clips' zero gradients
    assert not d_gpu[v == 0].any()


@pytest.mark.parametrize("cell,norm", CELLS, ids=IDS)
def test_models_agree_with_noise_masks_and_saturated_inputs(cell, norm, cuda):
    """The same model on 'cpu' and 'cuda': training metrics and every gradient, the BN statistics it
    updates, and a noisy padded evaluation; inputs of +-30 saturate the gates."""
    T, B, I, H = 2, 2, 2, 2
    rng = np.random.default_rng(2)
    x = rng.choice([-30.0, -0.3, 0.4, 30.0], (T, B, I))
    labels = rng.integers(0, 3, B)  # tiny: the simulator runs a thread at a time
    lengths = np.array([2, 1])
    clip = 1e-3 if cell == "lstm" else 0.0
    got = {}
    for device in ("cpu", "cuda"):
        m = build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                             forget_bias=1.0, state_noise=0.3, head=head_config("ce", 3)), seed=7,
                        device=device, max_steps=T, clip_gates=clip)
        metrics = m.loss_and_grad(x, labels, lengths, noise_key=2)
        sums = m.loss_sums(x, labels, lengths, noise_key=1)
        got[device] = (metrics, m.flat[1].data.copy(), {k: np.array(v) for k, v in m.buffers.items()}, sums)
    (m0, g0, b0, s0), (m1, g1, b1, s1) = got["cpu"], got["cuda"]
    for k in m0:
        assert m1[k] == pytest.approx(m0[k], rel=1e-10), k
    np.testing.assert_allclose(g1, g0, rtol=1e-9, atol=1e-12 * np.abs(g0).max())
    for k in b0:
        np.testing.assert_allclose(b1[k], b0[k], rtol=1e-10, atol=1e-12, err_msg=k)
    assert s1[1] == s0[1] and all(s1[0][k] == pytest.approx(s0[0][k], rel=1e-10) for k in s0[0])
