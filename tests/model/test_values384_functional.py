"""The functional layer (lnrnn/model/functional.py) where its bookkeeping meets the kernels: ``residual_layout``
against the shapes and dtypes of the residuals ``layer_forward`` really returns, for every cell, a narrow and a wide
input (I 2 and 5 around config.FOLD_MAX_I) and both dtypes; the residuals handed back to ``layer_backward`` giving the
gradients of the whole-sequence spec run (lnrnn/reference.py, float64) with ragged lengths and T != B; the caller's
dy left as it was; ``reverse_valid`` against its definition written out, T 4 and B 3.
"""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import cells, functional

T, B, H = 4, 3, 5
NAMES = ("rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm")


def case(name, I, dtype, seed=0):
    spec = cells.get(name)
    rng = np.random.default_rng(seed)
    p = {n: np.ascontiguousarray(v.astype(dtype)) for n, v in
         spec.init_params(rng, I, H, np.float64, forget_bias=1.0).items()}
    x = rng.standard_normal((T, B, I)).astype(dtype)
    state = tuple(rng.normal(0.0, 0.5, (B, H)).astype(dtype) for _ in range(spec.nstate))
    bufs = {n: v.astype(dtype) for n, v in spec.init_buffers(H, T, np.float64).items()}
    return spec, p, x, state, bufs


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("I", [2, 5])
@pytest.mark.parametrize("name", NAMES)
def test_the_residual_layout_is_what_layer_forward_returns(name, I, dtype):
    spec, p, x, state, bufs = case(name, I, dtype)
    _, _, res = functional.layer_forward(name, x, state, p, lengths=np.array([4, 2, 3]), buffers=bufs)
    layout = functional.residual_layout(name, T, B, I, H, dtype)
    assert len(res) == len(layout)
    for k, (r, (shape, dt)) in enumerate(zip(res, layout)):
        assert (r.shape, r.dtype) == (tuple(shape), np.dtype(dt)), (k, r.shape, r.dtype, shape, dt)


@pytest.mark.parametrize("name", ["rnn", "ln-rnn", "lstm", "ln-lstm"])
def test_residuals_handed_back_give_the_spec_gradients_with_ragged_lengths(name):
    spec, p, x, state, _ = case(name, 2, np.float64, seed=1)
    lengths = np.array([4, 1, 3])
    rng = np.random.default_rng(2)
    dy = rng.standard_normal((T, B, H))
    dy_before = dy.copy()
    y, _, res = functional.layer_forward(name, x, state, p, lengths=lengths)
    dx, dstate, dp = functional.layer_backward(name, res, x, state, p, y, dy, lengths=lengths)
    np.testing.assert_array_equal(dy, dy_before)  # the caller's dy is not written
    # the spec: every row run alone over its own steps, the loss sum(dy * y) over running steps
    norm = spec.norm
    want_dx = np.zeros_like(x)
    want = {n: np.zeros_like(v) for n, v in p.items()}
    for b in range(B):
        L = lengths[b]
        xb = x[:L, b:b + 1]
        sb = tuple(s[b:b + 1] for s in state)
        dyb = dy[:L, b:b + 1]
        if spec.cell == "lstm":
            G = 4 * H
            ln = (p["gx"], p["bx"], p["gh"], p["bh"], p["gc"], p["bc"]) if norm == "ln" else \
                (np.ones(G), np.zeros(G), np.ones(G), np.zeros(G), np.ones(H), np.zeros(H))
            _, _, _, cache = ref.lstm_forward(xb, *sb, p["Wx"], p["Wh"], p["b"], *ln, norm)
            out = ref.lstm_backward(dyb, cache, p["Wx"], p["Wh"], ln[0], ln[2], ln[4], norm)
            g = dict(zip(("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"), out))
        else:
            gain = p.get("g", np.ones(H))
            _, _, cache = ref.rnn_forward(xb, *sb, p["Wx"], p["Wh"], p["b"], gain, norm)
            out = ref.rnn_backward(dyb, cache, p["Wx"], p["Wh"], gain, norm)
            g = dict(zip(("x", "h0", "Wx", "Wh", "b", "g"), out))
        want_dx[:L, b:b + 1] = g["x"]
        for n in want:
            want[n] += g[n]
    np.testing.assert_allclose(dx, want_dx, rtol=1e-9, atol=1e-11)
    for n in want:
        np.testing.assert_allclose(dp[n], want[n], rtol=1e-9, atol=1e-11, err_msg=n)


def test_reverse_valid_against_its_definition():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((T, B, 2))
    lengths = np.array([4, 0, 2])
    got = functional.reverse_valid(a, lengths)
    want = a.copy()
    for b in range(B):
        for t in range(lengths[b]):
            want[t, b] = a[lengths[b] - 1 - t, b]
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(functional.reverse_valid(got, lengths), a)  # its own inverse
    np.testing.assert_array_equal(functional.reverse_valid(a, None), a[::-1])
