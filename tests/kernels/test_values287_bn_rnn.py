"""The BN-RNN's CPU kernel (lnrnn/kernels/bn_rnn.py, its x side in lnrnn/kernels/bn_cell_x.py) over a sequence
cut into two chunks, the second started from the first's final state and running rows, against lnrnn.reference's
bn_rnn_forward: B = 7 rows in four row blocks (1, 2, 2, 2), lengths with 0, 1 and every step in one batch, fewer
running rows than steps on both sides (x 2, h 2 of 3), momentum 0.3, eps 0.05, a narrow input (the fold path,
I = 2, correlated columns) and a wide one (I = 6), training and inference. Forward: y, hT and the running rows
after each chunk. Backward of the second chunk in float64: every gradient against central differences of the
reference's loss over the active (row, step)s. float32 against the float64 reference within 2e-4 (y) and 2e-3
(gradients), relative to 1 + |value|."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_rnn
from gradcheck_util import numeric_grad
from test_values100_bn_lstm import split  # the time loop over 1 or 2 parts and four row blocks of B = 7

B, H, TC = 7, 3, 3
LENGTHS = (np.array([3, 0, 1, 3, 2, 3, 1], np.int64), np.array([2, 0, 3, 1, 3, 0, 2], np.int64))
ROWS = (2, 2)  # running rows of the x side and of the h side, both fewer than the chunk's 3 steps
MOM, EPS = 0.3, 0.05
KEYS = ("x", "h0", "Wx", "Wh", "b", "gx", "gh")
assert 2 <= FOLD_MAX_I < 6


def problem(seed, I):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2 * TC, B, I))
    x[..., 1] = 0.8 * x[..., 0] + 0.6 * x[..., 1] + 1.5   # correlated columns, a mean away from 0
    p = dict(x=x, h0=0.6 * rng.standard_normal((B, H)), Wx=0.7 * rng.standard_normal((I, H)),
             Wh=0.6 * rng.standard_normal((H, H)), b=0.3 * rng.standard_normal(H),
             gx=rng.uniform(0.5, 0.9, H), gh=rng.uniform(1.2, 1.8, H))
    run = []
    for rows in ROWS:
        run += [rng.uniform(-1.5, 1.5, (rows, H)), rng.uniform(0.4, 2.5, (rows, H))]
    return p, run, rng.standard_normal((TC, B, H))


def chunk(p, c, h0):
    q = dict(p, x=p["x"][c * TC:(c + 1) * TC], h0=h0)
    return q


def kernel_forward(q, run, training, lengths, dtype=np.float64):
    args = [np.asarray(q[k], dtype) for k in KEYS]
    with split(1):
        return bn_rnn.bn_rnn_forward(*args, *run, training, MOM, EPS, 0, lengths=lengths)


def reference_loss(q, run, training, lengths, dy):
    y, _, _ = ref.bn_rnn_forward(*[q[k] for k in KEYS], *[r.copy() for r in run], training, MOM, EPS,
                                 lengths=lengths)
    active = np.arange(TC)[:, None] < lengths[None, :]
    return float((dy * y)[active].sum())


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want))))


@pytest.mark.parametrize("I", [2, 6], ids=["fold", "wide"])
@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_two_chunks_forward_and_running_rows_against_the_reference(I, training):
    p, run, _ = problem(1 + I, I)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    hk = hr = p["h0"]
    for c in range(2):
        yk, hk, _ = kernel_forward(chunk(p, c, hk), run_k, training, LENGTHS[c])
        yr, hr, _ = ref.bn_rnn_forward(*[chunk(p, c, hr)[k] for k in KEYS], *run_r, training, MOM, EPS,
                                       lengths=LENGTHS[c])
        assert err(yk, yr) < 1e-12, c
        assert err(hk, hr) < 1e-12, c
        for name, a, b_ in zip(("rmx", "rvx", "rmh", "rvh"), run_k, run_r):
            assert err(a, b_) < 1e-12, (c, name)
    for a, b_ in zip(run_k, run):
        assert (a != b_).any() == training   # inference leaves the running rows alone


@pytest.mark.parametrize("I", [2, 6], ids=["fold", "wide"])
@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_second_chunk_gradients_against_central_differences(I, training):
    p, run, dy = problem(7 + I, I)
    run = [r.copy() for r in run]
    _, h1, _ = kernel_forward(chunk(p, 0, p["h0"]), run, True, LENGTHS[0])  # chunk 1 moves the state on
    q = {k: v.copy() for k, v in chunk(p, 1, h1).items()}
    lengths = LENGTHS[1]
    _, _, saved = kernel_forward(q, [r.copy() for r in run], training, lengths)
    with split(1):
        grads = bn_rnn.bn_rnn_backward(dy, saved, q["x"], q["h0"], q["Wx"], q["Wh"], q["gx"], q["gh"], 0)
    for name, g in zip(KEYS, grads):
        num = numeric_grad(lambda: reference_loss(q, run, training, lengths, dy), q[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")


@pytest.mark.parametrize("I", [2, 6], ids=["fold", "wide"])
def test_float32_against_the_float64_reference(I):
    p, run, dy = problem(30 + I, I)
    lengths = LENGTHS[0]
    q = chunk(p, 0, p["h0"])
    y64, _, saved64 = ref.bn_rnn_forward(*[q[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS,
                                         lengths=lengths)
    g64 = ref.bn_rnn_backward(dy, saved64, *[q[k] for k in ("x", "h0", "Wx", "Wh", "gx", "gh")])
    y32, _, saved = kernel_forward(q, [r.astype(np.float32) for r in run], True, lengths, np.float32)
    assert y32.dtype == np.float32
    assert err(y32, y64) < 2e-4
    with split(1):
        g32 = bn_rnn.bn_rnn_backward(dy.astype(np.float32), saved, *[np.asarray(q[k], np.float32) for k in
                                                                      ("x", "h0", "Wx", "Wh", "gx", "gh")], 0)
    for name, a, b_ in zip(("x", "h0", "Wx", "Wh", "b", "gx", "gh"), g32, g64):
        assert a.dtype == np.float32, name
        assert err(a, b_) < 2e-3, name
