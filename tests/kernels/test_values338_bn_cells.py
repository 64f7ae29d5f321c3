"""The fused BatchNorm cells on the CPU (lnrnn/kernels/bn_rnn.py, bn_lstm.py and their input side
bn_cell_x.py) against lnrnn.reference in float64, every option at once: T = 4 steps over fewer running rows
(x 3, h 2, c 3: steps past Ts read and leave the last row), lengths 0, 1 and T in one batch, training and
inference, the running rows after one and after two calls, awkward sizes (B 3, 5, 7; H 5, 9), a narrow input
I = 1 and 3 (the fold path: BN_t(x_t Wx) from the mean and covariance of x_t), I = FOLD_MAX_I (the widest
fold) and a wide one I = 6 (x Wx as one product), one part of the batch and two (PART_THREADS 2 with
par_min 1: two threads' rows meet at every step), the LSTM's gate clip 0 and 0.05 (binding: the clipped
reference differs from the unclipped one). Outputs, final states and running rows against
reference.bn_*_forward; every gradient against reference.bn_*_backward (the NumPy spec, clip included) and,
for clip 0, against central differences of the reference's loss over the active (row, step)s."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm, bn_rnn
from lnrnn.kernels.cpu import threads
from gradcheck_util import numeric_grad
from test_values296_bn_sync import KEYS

T = 4
MOM, EPS = 0.2, 0.03
TS = (3, 2, 3)   # running rows of x, h and c: fewer than T steps
# (B, H) and the lengths of each input width: 0, 1 and T in every batch
SHAPES = {1: (3, 5, [4, 0, 1]), 3: (7, 9, [4, 0, 1, 4, 2, 3, 1]), FOLD_MAX_I: (5, 9, [1, 4, 0, 3, 4]),
          6: (5, 5, [2, 4, 0, 1, 4])}
WIDTHS = sorted(SHAPES)
assert FOLD_MAX_I not in (1, 3, 6)


def problem(cell, I, seed):
    """Parameters (dict), running rows [rmx, rvx, rmh, rvh(, rmc, rvc)], dy and lengths for SHAPES[I]."""
    B, H, lengths = SHAPES[I]
    rng = np.random.default_rng(seed)
    G = 4 * H if cell == "lstm" else H
    # inputs far from zero mean with correlated columns: the covariance's off-diagonal terms count
    x = rng.standard_normal((T, B, I)) + np.linspace(-1.5, 2.0, I)
    x[..., 1:] += 0.7 * x[..., :1]
    p = dict(x=x, h0=0.7 * rng.standard_normal((B, H)), Wx=0.6 * rng.standard_normal((I, G)),
             Wh=0.5 * rng.standard_normal((H, G)), b=0.3 * rng.standard_normal(G),
             gx=rng.uniform(0.6, 1.1, G), gh=rng.uniform(1.2, 1.7, G))
    run = [rng.uniform(-2.0, 2.0, (TS[0], G)), rng.uniform(0.4, 2.5, (TS[0], G)),
           rng.uniform(-1.0, 1.0, (TS[1], G)), rng.uniform(0.4, 2.0, (TS[1], G))]
    if cell == "lstm":
        p.update(c0=0.8 * rng.standard_normal((B, H)), gc=rng.uniform(0.6, 1.4, H), bc=0.3 * rng.standard_normal(H))
        run += [rng.uniform(-0.5, 0.5, (TS[2], H)), rng.uniform(0.2, 0.9, (TS[2], H))]
    return p, run, rng.standard_normal((T, B, H)), np.array(lengths, np.int64)


@pytest.fixture(params=[1, 2], ids=["one-part", "two-parts"])
def parts(request, monkeypatch):
    """1: the default par_min keeps these small batches in one part; 2: two parts, each its rows."""
    monkeypatch.setattr(threads, "PART_THREADS", request.param)
    return {} if request.param == 1 else {"par_min": 1}


def kernel_forward(cell, p, run, training, lengths, parts):
    f = bn_lstm.bn_lstm_forward if cell == "lstm" else bn_rnn.bn_rnn_forward
    return f(*[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=lengths, **parts)


def reference_forward(cell, p, run, training, lengths):
    f = ref.bn_lstm_forward if cell == "lstm" else ref.bn_rnn_forward
    return f(*[p[k] for k in KEYS[cell]], *run, training, MOM, EPS, lengths=lengths)


def grad_keys(cell):
    return [k for k in KEYS[cell] if k not in ("b", "bc")]


def kernel_backward(cell, dy, saved, p, parts, clip):
    if cell == "lstm":
        return bn_lstm.bn_lstm_backward(dy, saved, *[p[k] for k in grad_keys(cell)], clip=clip, **parts)
    return bn_rnn.bn_rnn_backward(dy, saved, *[p[k] for k in grad_keys(cell)], **parts)


def reference_backward(cell, dy, saved, p, clip):
    if cell == "lstm":
        return ref.bn_lstm_backward(dy, saved, *[p[k] for k in grad_keys(cell)], clip=clip)
    return ref.bn_rnn_backward(dy, saved, *[p[k] for k in grad_keys(cell)])


# the names of the backward's results, in its order
GRADS = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"),
         "rnn": ("x", "h0", "Wx", "Wh", "b", "gx", "gh")}


def close(a, b, what):
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11, err_msg=what)


@pytest.mark.parametrize("mode", ["training", "inference"])
@pytest.mark.parametrize("I", WIDTHS)
@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_forward_and_running_rows_after_one_and_two_calls(cell, I, mode, parts):
    training = mode == "training"
    p, run, _, lengths = problem(cell, I, 300 + I)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    nout = 3 if cell == "lstm" else 2
    for call in (1, 2):
        x = p["x"] if call == 1 else p["x"][::-1].copy()   # the second call sees other statistics
        q = dict(p, x=x)
        out = kernel_forward(cell, q, run_k, training, lengths, parts)
        want = reference_forward(cell, q, run_r, training, lengths)
        for name, a, b_ in zip(("y", "hT", "cT"), out[:nout], want[:nout]):
            close(a, b_, f"{name} after call {call}")
        for k, (a, b_) in enumerate(zip(run_k, run_r)):
            close(a, b_, f"running row set {k} after call {call}")
    for k, (a, r0) in enumerate(zip(run_k, run)):
        if training:   # every running row moved (each step has an active row), none past Ts was added
            assert a.shape == r0.shape and np.all(a != r0), k
        else:
            np.testing.assert_array_equal(a, r0)


@pytest.mark.parametrize("mode", ["training", "inference"])
@pytest.mark.parametrize("I", WIDTHS)
@pytest.mark.parametrize("cell_clip", ["rnn", "lstm-0", "lstm-0.05"])
def test_backward_against_the_reference_backward(cell_clip, I, mode, parts):
    cell, clip = cell_clip.split("-")[0], float(cell_clip.split("-")[1]) if "-" in cell_clip else 0.0
    training = mode == "training"
    p, run, dy, lengths = problem(cell, I, 400 + I)
    out = kernel_forward(cell, p, [r.copy() for r in run], training, lengths, parts)
    got = kernel_backward(cell, dy, out[-1], p, parts, clip)
    want_saved = reference_forward(cell, p, [r.copy() for r in run], training, lengths)[-1]
    want = reference_backward(cell, dy, want_saved, p, clip)
    for name, a, b_ in zip(GRADS[cell], got, want):
        close(a, b_, f"d{name}")
    if clip:   # the clip binds: the unclipped spec gives other gradients
        free = reference_backward(cell, dy, want_saved, p, 0.0)
        assert np.abs(free[GRADS[cell].index("Wh")] - want[GRADS[cell].index("Wh")]).max() > 1e-3


@pytest.mark.parametrize("mode", ["training", "inference"])
@pytest.mark.parametrize("I", [1, 6])
@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_backward_against_central_differences(cell, I, mode, monkeypatch):
    """Two parts, H = 5: the fold path at I = 1 and the wide one at I = 6."""
    monkeypatch.setattr(threads, "PART_THREADS", 2)
    training, parts = mode == "training", {"par_min": 1}
    p, run, dy, lengths = problem(cell, I, 500 + I)
    q = {k: v.copy() for k, v in p.items()}
    out = kernel_forward(cell, q, [r.copy() for r in run], training, lengths, parts)
    got = kernel_backward(cell, dy, out[-1], q, parts, 0.0)
    active = np.arange(T)[:, None] < lengths[None, :]

    def loss():
        y = reference_forward(cell, q, [r.copy() for r in run], training, lengths)[0]
        return float((dy * y)[active].sum())

    for name, g in zip(GRADS[cell], got):
        num = numeric_grad(loss, q[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")
