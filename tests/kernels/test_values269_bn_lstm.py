"""The BN-LSTM's CPU kernels in float64 against lnrnn.reference (the NumPy spec) at B = 5 over four row blocks
(rows 1, 1, 1, 2: B not a multiple of the blocks) with lengths 4, 0, 1, 2, 3 over T = 4 (active rows 4, 3, 2, 1:
the last step has a single row, a middle row none): the fused kernel (lnrnn/kernels/bn_lstm.py, its parts'
moments and sums in lnrnn/kernels/bn_parts.py) on one and on two parts, at I = FOLD_MAX_I (the fold path,
lnrnn/kernels/bn_cell_x.py) and one wider, training and inference with running rows of fewer steps than the
sequence (x 4, h 2, cell 3: the last row reused); the fold path against the wide path on the same numbers; every
gradient against central differences of the spec's loss; the synchronized twin (lnrnn/kernels/bn_sync.py) in a
group of one against the spec, running rows included."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm, bn_sync
from gradcheck_util import numeric_grad
from test_values100_bn_lstm import err, split
from test_values100_bn_lstm import problem as problem100

T, B, H = 4, 5, 3
G = 4 * H
ROWS = (4, 2, 3)  # running rows of the x side, the h side, the cell
LENGTHS = np.array([4, 0, 1, 2, 3], np.int64)
MOM, EPS = 0.3, 1e-3
KEYS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")
BKEYS = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
NAMES = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")  # bn_lstm_backward's order


def problem(seed, I):
    """test_values100_bn_lstm's problem at this file's T and B, x drawn about 0.5, weights 0.6 x N(0, 1)."""
    return problem100(seed, I, T=T, B=B, x_shift=0.5, w_scale=0.6)


def spec(p, run, training, dy):
    """-> y, c (T,B,H), the spec's gradients; run updated in place when training."""
    y, _, _, saved = ref.bn_lstm_forward(*[p[k] for k in KEYS], *run, training, MOM, EPS, LENGTHS)
    c = np.stack([s["c"] for s in saved["steps"]])
    return y, c, ref.bn_lstm_backward(dy, saved, *[p[k] for k in BKEYS])


def fused(p, run, training, dy, parts):
    with split(parts):
        y, hT, cT, saved = bn_lstm.bn_lstm_forward(*[p[k] for k in KEYS], *run, training, MOM, EPS, 0,
                                                   lengths=LENGTHS)
        grads = bn_lstm.bn_lstm_backward(dy, saved, *[p[k] for k in BKEYS], 0)
    return y, saved[7], grads


def check(got, want, run_got, run_want, what):
    y, c, grads = got
    assert err(y, want[0]) < 1e-10, f"y, {what}"
    assert err(c, want[1]) < 1e-10, f"c, {what}"
    for k, (a, b) in enumerate(zip(run_got, run_want)):
        assert err(a, b) < 1e-12, f"running array {k}, {what}"
    for name, a, b in zip(NAMES, grads, want[2]):
        assert err(a, b) < 1e-9, f"d{name}, {what}: {err(a, b):.3g}"


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [FOLD_MAX_I, FOLD_MAX_I + 1], ids=["fold", "wide"])
def test_fused_kernel_against_the_spec(I, training):
    assert (np.arange(T)[:, None] < LENGTHS).sum(1).tolist() == [4, 3, 2, 1]
    p, run, dy = problem(26900 + I + 10 * training, I)
    run_s = [r.copy() for r in run]
    want = spec(p, run_s, training, dy)
    for parts in (1, 2):
        run_k = [r.copy() for r in run]
        check(fused(p, run_k, training, dy, parts), want, run_k, run_s, f"{parts} parts")
    if training:
        assert all(not np.allclose(a, b) for a, b in zip(run, run_s))


def test_fold_path_against_the_wide_path(monkeypatch):
    p, run, dy = problem(26920, FOLD_MAX_I)
    run_f = [r.copy() for r in run]
    fold = fused(p, run_f, True, dy, 1)
    monkeypatch.setattr(bn_lstm, "FOLD_MAX_I", 0)  # the same numbers through x Wx formed whole
    run_w = [r.copy() for r in run]
    wide = fused(p, run_w, True, dy, 1)
    check(wide, (fold[0], fold[1], fold[2]), run_w, run_f, "wide against fold")


def test_gradients_against_central_differences_of_the_spec():
    p, run, dy = problem(26930, FOLD_MAX_I)
    active = np.arange(T)[:, None] < LENGTHS[None, :]
    _, _, grads = fused(p, [r.copy() for r in run], True, dy, 2)
    q = {k: v.copy() for k, v in p.items()}

    def loss():
        y = ref.bn_lstm_forward(*[q[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS, LENGTHS)[0]
        return float((dy * y)[active].sum())

    for name, g in zip(NAMES, grads):
        num = numeric_grad(loss, q[name], eps=1e-5, order=2)
        assert np.abs(num).max() > 1e-4, name
        assert err(g, num) < 1e-6, f"d{name}: {err(g, num):.3g}"


def test_synced_twin_in_a_group_of_one_against_the_spec():
    p, run, dy = problem(26940, FOLD_MAX_I + 1)
    run_s = [r.copy() for r in run]
    want = spec(p, run_s, True, dy)
    run_k = [r.copy() for r in run]
    calls = []

    def reduce(buf):  # one process: the identity
        calls.append(buf.size)

    y, hT, cT, saved = bn_sync.bn_lstm_forward(reduce, *[p[k] for k in KEYS], *run_k, True, MOM, EPS,
                                               lengths=LENGTHS)
    assert saved[-1].tolist() == [4, 3, 2, 1]
    grads = bn_sync.bn_lstm_backward(reduce, dy, saved, *[p[k] for k in BKEYS])
    check((y, saved[7], grads), want, run_k, run_s, "synced")
    assert calls[0] == T * (2 * G + 1)
