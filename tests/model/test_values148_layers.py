"""RecurrentLayer and RecurrentStack (lnrnn/model/layers.py) with the cell registry's adapters and init
(lnrnn/model/cells.py) against lnrnn.reference, written out here step by step: an LN-LSTM layer in float64 and
float32 with its default eps; BN-LSTM and BN-RNN training forwards over rows of their own lengths (a full row, a
one-step row, an empty row) for y at the valid steps, each row's own final (h, c) and the running statistics;
a BN-RNN trained over two chunks carrying state (t0=1) equal to one pass over all steps, statistics included; a
two-layer LSTM stack stepped T times (inference, keep=False) equal to the stack over T steps and to the
reference; a bidirectional two-layer RNN stack with skip connections, its dx and Wx gradients against central
differences of the masked loss in float64; each cell's initial bias by its definition (the candidate block of
the normalized cells in [-0.1, 0.1] and not all zero, the forget block at forget_bias, the rest zero)."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import BN_MOMENTUM, EPS
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from gradcheck_util import numeric_grad

I, H, T, B = 3, 2, 4, 3
LENGTHS = np.array([4, 1, 0])


def randomize(params, seed, scale=0.5):
    rng = np.random.default_rng(seed)
    for n, v in params.items():
        v[...] = (1.0 if n.startswith("g") else 0.0) + scale * rng.standard_normal(v.shape)


def valid(lengths):
    return np.arange(T)[:, None] < lengths[None, :]                          # (T,B)


def own_final(seq, first, lengths):
    """seq (T,B,H) -> (B,H): the entry at each row's last valid step, ``first`` (B,H) for an empty row."""
    return np.stack([seq[L - 1, b] if L > 0 else first[b] for b, L in enumerate(lengths)])


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 2e-5)])
def test_ln_lstm_layer_against_the_reference_with_the_default_eps(dtype, tol):
    layer = RecurrentLayer("lstm", "ln", I, H, dtype=dtype)
    randomize(layer.params, 1, scale=0.3)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    h0, c0 = (0.5 * rng.standard_normal((B, H)).astype(dtype) for _ in range(2))
    y, (hT, cT) = layer.forward(x, (h0, c0))
    p = {n: v.astype(np.float64) for n, v in layer.params.items()}
    wy, wh, wc, _ = ref.lstm_forward(x.astype(np.float64), h0.astype(np.float64), c0.astype(np.float64),
                                     p["Wx"], p["Wh"], p["b"], p["gx"], p["bx"], p["gh"], p["bh"], p["gc"], p["bc"],
                                     "ln", EPS)
    assert y.dtype == dtype
    np.testing.assert_allclose(y, wy, rtol=tol, atol=tol)
    np.testing.assert_allclose(hT, wh, rtol=tol, atol=tol)
    np.testing.assert_allclose(cT, wc, rtol=tol, atol=tol)


def bn_buffers(layer):
    return {n: v.copy() for n, v in layer.buffers.items()}


def test_bn_lstm_training_forward_with_own_lengths_against_the_reference():
    layer = RecurrentLayer("lstm", "bn", I, H, dtype=np.float64, max_steps=T)
    randomize(layer.params, 3)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((T, B, I))
    h0, c0 = (0.5 * rng.standard_normal((B, H)) for _ in range(2))
    bufs = bn_buffers(layer)
    p = layer.params
    y, (hN, cN) = layer.forward(x, (h0, c0), training=True, lengths=LENGTHS)
    wy, _, _, saved = ref.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                          bufs["rmx"], bufs["rvx"], bufs["rmh"], bufs["rvh"], bufs["rmc"],
                                          bufs["rvc"], True, BN_MOMENTUM, EPS, lengths=LENGTHS)
    v = valid(LENGTHS)
    np.testing.assert_allclose(y[v], wy[v], rtol=1e-10, atol=1e-12)
    c_seq = np.stack([s["c"] for s in saved["steps"]])                      # (T,B,H)
    np.testing.assert_allclose(hN, own_final(wy, h0, LENGTHS), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cN, own_final(c_seq, c0, LENGTHS), rtol=1e-10, atol=1e-12)
    for n in bufs:
        np.testing.assert_allclose(layer.buffers[n][:T], bufs[n], rtol=1e-10, atol=1e-12, err_msg=n)
        assert not np.allclose(layer.buffers[n][:T], RecurrentLayer("lstm", "bn", I, H, max_steps=T).buffers[n])


def test_bn_rnn_training_forward_with_own_lengths_against_the_reference():
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, max_steps=T)
    randomize(layer.params, 5)
    rng = np.random.default_rng(6)
    x = rng.standard_normal((T, B, I))
    x[:, LENGTHS < T] += 3.0                  # padded entries far from the running rows: they must not count
    h0 = 0.5 * rng.standard_normal((B, H))
    bufs = bn_buffers(layer)
    p = layer.params
    y, (hN,) = layer.forward(x, (h0,), training=True, lengths=LENGTHS)
    wy, _, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], bufs["rmx"], bufs["rvx"],
                                  bufs["rmh"], bufs["rvh"], True, BN_MOMENTUM, EPS, lengths=LENGTHS)
    v = valid(LENGTHS)
    np.testing.assert_allclose(y[v], wy[v], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hN, own_final(wy, h0, LENGTHS), rtol=1e-10, atol=1e-12)
    for n in bufs:
        np.testing.assert_allclose(layer.buffers[n][:T], bufs[n], rtol=1e-10, atol=1e-12, err_msg=n)


def test_bn_rnn_training_in_two_chunks_carrying_state_equals_one_pass():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((T, B, I))
    h0 = 0.5 * rng.standard_normal((B, H))
    whole = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, max_steps=T, seed=3)
    chunks = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, max_steps=T, seed=3)
    randomize(whole.params, 8)
    randomize(chunks.params, 8)
    bufs = bn_buffers(whole)
    y, (hT,) = whole.forward(x, (h0,), training=True)
    y1, s1 = chunks.forward(x[:1], (h0,), training=True, t0=0)
    y2, (h2,) = chunks.forward(x[1:], s1, training=True, t0=1)
    np.testing.assert_allclose(np.concatenate([y1, y2]), y, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(h2, hT, rtol=1e-12, atol=1e-13)
    p = whole.params
    wy, _, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], bufs["rmx"], bufs["rvx"],
                                  bufs["rmh"], bufs["rvh"], True, BN_MOMENTUM, EPS)
    np.testing.assert_allclose(y, wy, rtol=1e-10, atol=1e-12)
    for n in bufs:  # each step's statistics updated once, in its own row
        np.testing.assert_allclose(chunks.buffers[n][:T], bufs[n], rtol=1e-10, atol=1e-12, err_msg=n)
        np.testing.assert_allclose(whole.buffers[n][:T], bufs[n], rtol=1e-10, atol=1e-12, err_msg=n)


def test_lstm_stack_stepped_t_times_equals_the_stack_over_t_steps_and_the_reference():
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64)
    randomize(stack.params, 9)
    rng = np.random.default_rng(10)
    x = rng.standard_normal((T, B, I))
    states = [tuple(0.5 * rng.standard_normal((B, H)) for _ in range(2)) for _ in range(2)]
    y, finals = stack.forward(x, states, training=False)
    st, ys = states, []
    for t in range(T):
        yt, st = stack.step(x[t], st, t=t)
        ys.append(yt)
    np.testing.assert_allclose(np.stack(ys), y, rtol=1e-12, atol=1e-13)
    for got, want in zip(st, finals):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-13)
    inp, p = x, stack.params
    G = 4 * H
    for k in range(2):
        q = {n[len(f"l{k}."):]: v for n, v in p.items() if n.startswith(f"l{k}.")}
        one, zero, oneH, zeroH = np.ones(G), np.zeros(G), np.ones(H), np.zeros(H)
        inp, hT, cT, _ = ref.lstm_forward(inp, *states[k], q["Wx"], q["Wh"], q["b"], one, zero, one, zero, oneH,
                                          zeroH, "none")
        np.testing.assert_allclose(st[k][0], hT, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(st[k][1], cT, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(y, inp, rtol=1e-10, atol=1e-12)


def ref_bi_rnn_skip(x, lengths, p, states, layers=2):
    """A bidirectional plain-RNN stack with skip connections, one row at a time over its own steps:
    y (T,B,layers*2H), zeros past each row's end."""
    Y = np.zeros((x.shape[0], x.shape[1], layers * 2 * H))
    for b, L in enumerate(lengths):
        if L == 0:
            continue
        xb, inp, ys = x[:L, b:b + 1], x[:L, b:b + 1], []
        for k in range(layers):
            hs = []
            for d, name in enumerate((f"l{k}.", f"l{k}_reverse.")):
                seq = inp if d == 0 else inp[::-1]
                y, _, _ = ref.rnn_forward(seq, states[2 * k + d][0][b:b + 1], p[name + "Wx"], p[name + "Wh"],
                                          p[name + "b"], np.ones(H), "none")
                hs.append(y if d == 0 else y[::-1])
            h = np.concatenate(hs, axis=2)
            ys.append(h)
            inp = np.concatenate([xb, h], axis=2)
        Y[:L, b:b + 1] = np.concatenate(ys, axis=2)
    return Y


def test_bidirectional_skip_rnn_stack_backward_against_central_differences():
    lengths = np.array([4, 1, 3])
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, bidirectional=True, skip=True)
    p = stack.params
    randomize(p, 11)
    rng = np.random.default_rng(12)
    x = rng.standard_normal((T, B, I))
    states = [(0.5 * rng.standard_normal((B, H)),) for _ in range(4)]
    mask = valid(lengths)[:, :, None]
    y, _ = stack.forward(x, states, lengths=lengths)
    np.testing.assert_allclose(y * mask, ref_bi_rnn_skip(x, lengths, p, states), rtol=1e-10, atol=1e-12)
    w = rng.standard_normal(y.shape) * mask
    dx = stack.backward(w.copy())

    def loss():
        return float(np.sum(w * ref_bi_rnn_skip(x, lengths, p, states)))

    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
    g = stack.grads
    for n in ("l0.Wx", "l0_reverse.Wx", "l1.Wh"):
        np.testing.assert_allclose(g[n], numeric_grad(loss, p[n]), rtol=1e-6, atol=1e-8, err_msg=n)


@pytest.mark.parametrize("cell, norm", [("rnn", "none"), ("lstm", "none"), ("rnn", "ln"), ("lstm", "ln"),
                                        ("rnn", "bn"), ("lstm", "bn")])
def test_initial_bias_by_its_definition(cell, norm):
    Hb = 8
    layer = RecurrentLayer(cell, norm, I, Hb, dtype=np.float64, forget_bias=0.75, seed=13)
    b = layer.params["b"]
    want_zero = np.ones(b.shape, bool)
    if cell == "lstm":
        np.testing.assert_array_equal(b[Hb:2 * Hb], 0.75)                     # [i|f|g|o]: the forget block
        want_zero[Hb:2 * Hb] = False
    if norm != "none":
        kick = slice(2 * Hb, 3 * Hb) if cell == "lstm" else slice(0, Hb)      # the candidate, or the RNN's sum
        assert np.all(np.abs(b[kick]) <= 0.1)
        assert np.count_nonzero(b[kick]) == Hb
        want_zero[kick] = False
    np.testing.assert_array_equal(b[want_zero], 0.0)
