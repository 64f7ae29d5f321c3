"""Stacks and sequence models against a plain NumPy RNN written here, h_t = tanh(x_t Wx + h_{t-1} Wh + b),
run row by row over each row's own valid steps (float64, ragged lengths): a two-layer bidirectional
stack (with and without skip connections: the backward direction reads each row's valid steps reversed,
nothing of its padding), every parameter's and the input's gradient by central differences, each row's
output at its own last step (``last_outputs``, unidirectional and bidirectional), the mean loss of a
last-step classifier over ragged rows, and the count of scored units."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentStack
from lnrnn.model.models import build_model

from gradcheck_util import numeric_grad, rel_error

T, B, I, H = 4, 3, 2, 3
LENGTHS = np.array([4, 1, 3])                   # one full row, one of a single step, one in between


def rnn_row(x, h0, p):
    """One row's outputs over its own steps: x (n,I), h0 (H,) -> (n,H)."""
    h, out = h0, []
    for t in range(x.shape[0]):
        h = np.tanh(x[t] @ p["Wx"] + h @ p["Wh"] + p["b"])
        out.append(h)
    return np.array(out).reshape(x.shape[0], -1)


def bidirectional_ref(stack, x, lengths, skip):
    """The stack's output at each row's valid steps, from the layers' parameters: a list over rows of (n,W)."""
    L = len(stack.layers) // 2
    rows = []
    for b, n in enumerate(lengths):
        inp, xs, ys = x[:n, b], x[:n, b], []
        for k in range(L):
            pf, pb = stack.layers[2 * k].params, stack.layers[2 * k + 1].params
            hf = rnn_row(inp, np.zeros(H), pf)
            hb = rnn_row(inp[::-1], np.zeros(H), pb)[::-1]
            h = np.concatenate([hf, hb], axis=1)
            ys.append(h)
            inp = np.concatenate([xs, h], axis=1) if skip else h
        rows.append(np.concatenate(ys, axis=1) if skip else ys[-1])
    return rows


def _stack(skip, seed=3):
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=seed, skip=skip,
                           bidirectional=True)
    rng = np.random.default_rng(seed + 10)
    stack.flat[0].data[...] += 0.3 * rng.standard_normal(stack.flat[0].data.size)
    return stack


@pytest.mark.parametrize("skip", [False, True])
def test_bidirectional_two_layers_equal_numpy_rows_over_their_own_steps(skip):
    stack = _stack(skip)
    assert stack.output_size == (2 * 2 * H if skip else 2 * H)
    assert [stack._name(j) for j in range(4)] == ["l0.", "l0_reverse.", "l1.", "l1_reverse."]
    x = np.random.default_rng(0).standard_normal((T, B, I))
    x_padded = x.copy()
    x_padded[np.arange(T)[:, None] >= LENGTHS[None, :]] = 50.0    # padding the backward direction must never read
    y, _ = stack.forward(x_padded, lengths=LENGTHS)
    assert y.shape == (T, B, stack.output_size)
    for b, want in enumerate(bidirectional_ref(stack, x, LENGTHS, skip)):
        np.testing.assert_allclose(y[:LENGTHS[b], b], want, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("skip", [False, True])
def test_bidirectional_gradients_of_every_parameter_and_the_input(skip):
    """dL/d(every flat parameter) and dL/dx for L = sum over valid steps of R * y, by central differences."""
    stack = _stack(skip, seed=5)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((T, B, I))
    run = (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]
    R = rng.standard_normal((T, B, stack.output_size)) * run

    def loss():
        y, _ = stack.forward(x, lengths=LENGTHS)
        return float(np.sum(R * y))

    loss()
    stack.zero_grad()
    dx = stack.backward(R)
    flat_p, flat_g = stack.flat
    num = numeric_grad(loss, flat_p.data, eps=1e-5, order=2)
    assert rel_error(flat_g.data, num) < 1e-6
    num_x = numeric_grad(loss, x, eps=1e-5, order=2)
    assert rel_error(dx, num_x) < 1e-6


def _model(bidirectional=False, per_step=False, seed=2):
    cfg = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": per_step})
    if bidirectional:
        cfg["bidirectional"] = True
    m = build_model(cfg, seed=seed)
    m.flat[0].data[...] += 0.3 * np.random.default_rng(seed).standard_normal(m.flat[0].data.size)
    return m


def test_last_outputs_read_each_rows_own_last_step():
    m = _model()
    x = np.random.default_rng(4).standard_normal((T, B, I))
    h = m.last_outputs(x, lengths=LENGTHS)
    p = m.stack.layers[0].params
    for b, n in enumerate(LENGTHS):
        np.testing.assert_allclose(h[b], rnn_row(x[:n, b], np.zeros(H), p)[-1], rtol=1e-12, atol=1e-13)
    full = m.last_outputs(x)
    for b in range(B):
        np.testing.assert_allclose(full[b], rnn_row(x[:, b], np.zeros(H), p)[-1], rtol=1e-12, atol=1e-13)


def test_bidirectional_last_outputs_forward_at_the_last_step_backward_at_step_0():
    m = _model(bidirectional=True)
    x = np.random.default_rng(6).standard_normal((T, B, I))
    h = m.last_outputs(x, lengths=LENGTHS)
    pf, pb = m.stack.layers[0].params, m.stack.layers[1].params
    for b, n in enumerate(LENGTHS):
        hf = rnn_row(x[:n, b], np.zeros(H), pf)[-1]
        hb = rnn_row(x[:n, b][::-1], np.zeros(H), pb)[-1]      # the backward direction's output at step 0
        np.testing.assert_allclose(h[b], np.concatenate([hf, hb]), rtol=1e-12, atol=1e-13)


def test_last_step_classifier_mean_loss_over_ragged_rows_and_an_empty_one():
    m = _model()
    x = np.random.default_rng(8).standard_normal((T, B + 1, I))
    lengths = np.append(LENGTHS, 0)
    labels = np.array([2, 0, 1, 1])
    p, W, bias = m.stack.layers[0].params, m.head.params["W"], m.head.params["b"]
    nll = []
    for b, n in enumerate(lengths[:B]):
        z = rnn_row(x[:n, b], np.zeros(H), p)[-1] @ W + bias
        nll.append(-(z[labels[b]] - np.log(np.sum(np.exp(z)))))
    got = m.loss_and_grad(x, labels, lengths=lengths)
    assert m.last_count == B
    np.testing.assert_allclose(got["loss"], np.mean(nll), rtol=1e-12)
    sums, count = m.loss_sums(x, labels, lengths=lengths)
    assert count == B
    np.testing.assert_allclose(sums["loss"], np.sum(nll), rtol=1e-12)


def test_scored_count_of_last_step_and_per_step_heads():
    lengths = np.array([3, 0, 4, 1])
    last = _model()
    assert last.scored_count(np.array([0, 1, 2, 0]), lengths, T, 4) == 3       # the empty row scores nothing
    assert last.scored_count(np.array([0, 1, 2, 0]), None, T, 4) == 4
    assert last.scored_count(np.array([0, 1, -1, 0]), lengths, T, 4) == 2      # an unlabelled row neither
    every = _model(per_step=True)
    labels = np.zeros((4, T), np.int64)
    assert every.scored_count(labels, lengths, T, 4) == 8
    labels[2, 3] = -1
    assert every.scored_count(labels, lengths, T, 4) == 7
