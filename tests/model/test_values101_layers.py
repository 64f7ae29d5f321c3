"""RecurrentLayer and RecurrentStack (lnrnn/model/layers.py) and the layer functions (lnrnn/model/functional.py)
against a stack written here from lnrnn.reference, in float64 at tiny sizes: a two-layer bidirectional LN-LSTM
stack (with and without skip connections) over rows of their own lengths, its y at each row's valid steps, its
final states in the stack's order ([l0 forward, l0 backward, l1 forward, l1 backward], each (h, c); the backward
direction's after the row's first step), dx, dstate0 and every parameter gradient against central differences of
the masked loss (the reverse direction reads each row from its own last valid step); a plain RNN and an LN-RNN
inference forward (keep=False) over rows of their own lengths against the reference's state at each row's last
step; layer_backward's dstate0 with a zero-length row and dL/dc_n against central differences; reverse_valid
against its definition by loops; parameter names and counts by hand; zero states' layout; the refusals (float16,
a short state list, a 3-D x_t for step, clip_gates on an RNN) and gate_clip's off values."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import cells, functional
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from gradcheck_util import numeric_grad

I, H, T, B = 2, 2, 4, 3
G = 4 * H
LENGTHS = np.array([4, 2, 3])


def randomize(params, seed):
    rng = np.random.default_rng(seed)
    for n, v in params.items():
        v[...] = (1.0 if n.startswith("g") else 0.0) + 0.5 * rng.standard_normal(v.shape)  # in place: flat views


def ref_lstm(x, h0, c0, p, norm):
    """x (L,1,I) -> y (L,1,H), hT, cT by lnrnn.reference (norm 'ln' or 'none')."""
    z = np.zeros(G)
    g = lambda n, d: p.get(n, d)  # noqa: E731
    y, h, c, _ = ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], g("gx", z + 1), g("bx", z), g("gh", z + 1),
                                  g("bh", z), g("gc", np.ones(H)), g("bc", np.zeros(H)), norm)
    return y, h, c


def ref_bi_stack(x, lengths, params, states, skip, norm="ln", layers=2):
    """y (T,B,out) at valid steps (zeros elsewhere) and final states [(h, c)] per (layer, direction), one row at a
    time over its own first L_b steps: the backward direction reads them reversed. params: the stack's names."""
    W = 2 * H
    out = (layers * W) if skip else W
    Y = np.zeros((x.shape[0], x.shape[1], out))
    finals = [[np.zeros((x.shape[1], H)), np.zeros((x.shape[1], H))] for _ in range(2 * layers)]
    for b, L in enumerate(lengths):
        xb = x[:L, b:b + 1]
        inp, ys = xb, []
        for k in range(layers):
            hs = []
            for d, name in enumerate((f"l{k}.", f"l{k}_reverse.")):
                p = {n[len(name):]: v for n, v in params.items() if n.startswith(name)}
                h0, c0 = (s[b:b + 1] for s in states[2 * k + d])
                seq = inp if d == 0 else inp[::-1]
                y, hT, cT = ref_lstm(seq, h0, c0, p, norm)
                hs.append(y if d == 0 else y[::-1])
                finals[2 * k + d][0][b], finals[2 * k + d][1][b] = hT[0], cT[0]
            h = np.concatenate(hs, axis=2)                                   # (L,1,2H)
            ys.append(h)
            inp = np.concatenate([xb, h], axis=2) if skip else h
        Y[:L, b:b + 1] = np.concatenate(ys, axis=2) if skip else ys[-1]
    return Y, finals


def masked(y, lengths):
    return y * (np.arange(y.shape[0])[:, None] < lengths[None, :])[:, :, None]


@pytest.mark.parametrize("skip", [False, True])
def test_bidirectional_two_layer_ln_lstm_stack_against_the_reference_with_masks(skip):
    stack = RecurrentStack("lstm", "ln", I, H, num_layers=2, dtype=np.float64, bidirectional=True, skip=skip)
    params = stack.params
    randomize(params, 1)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((T, B, I))
    states = [tuple(0.5 * rng.standard_normal((B, H)) for _ in range(2)) for _ in range(4)]
    y, finals = stack.forward(x, states, lengths=LENGTHS)
    want_y, want_finals = ref_bi_stack(x, LENGTHS, params, states, skip)
    assert y.shape == (T, B, (4 if skip else 2) * H)
    np.testing.assert_allclose(masked(y, LENGTHS), want_y, rtol=1e-10, atol=1e-12)
    assert len(finals) == 4
    for got, want in zip(finals, want_finals):
        np.testing.assert_allclose(got[0], want[0], rtol=1e-10, atol=1e-12)   # h_n
        np.testing.assert_allclose(got[1], want[1], rtol=1e-10, atol=1e-12)   # c_n

    w = masked(rng.standard_normal(y.shape), LENGTHS)
    dx = stack.backward(w.copy())

    def loss():
        return float(np.sum(w * ref_bi_stack(x, LENGTHS, params, states, skip)[0]))

    def fd(a):
        return numeric_grad(loss, a, eps=1e-6, order=2)

    np.testing.assert_allclose(dx * (np.arange(T)[:, None] < LENGTHS)[:, :, None], fd(x), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(dx[3, 1:], 0.0, atol=1e-12)                    # padded inputs add nothing
    assert len(stack.dstate0) == 4
    for j, (got, st) in enumerate(zip(stack.dstate0, states)):
        for d in range(2):
            np.testing.assert_allclose(got[d], fd(st[d]), rtol=1e-5, atol=1e-7, err_msg=f"{j},{d}")
    grads = stack.grads
    for n in ("l0.Wx", "l0_reverse.b", "l1.gc", "l1_reverse.bx"):
        np.testing.assert_allclose(grads[n], fd(params[n]), rtol=1e-5, atol=1e-7, err_msg=n)


@pytest.mark.parametrize("cell, norm", [("rnn", "none"), ("rnn", "ln"), ("lstm", "none")])
def test_an_inference_forward_of_rows_of_their_own_lengths_ends_each_at_its_last_step(cell, norm):
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float64)
    randomize(layer.params, 3)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((T, B, I))
    lengths = np.array([4, 0, 2])
    state = tuple(0.5 * rng.standard_normal((B, H)) for _ in range(layer.nstate))
    p = layer.params
    for keep in (False, True):
        y, final = layer.forward(x, state, training=False, lengths=lengths, keep=keep)
        for b, L in enumerate(lengths):
            if L == 0:
                want = tuple(s[b] for s in state)
            elif cell == "rnn":
                g = p.get("g", np.ones(H))
                _, hT, _ = ref.rnn_forward(x[:L, b:b + 1], state[0][b:b + 1], p["Wx"], p["Wh"], p["b"], g, norm)
                want = (hT[0],)
            else:
                _, hT, cT = ref_lstm(x[:L, b:b + 1], state[0][b:b + 1], state[1][b:b + 1], p, norm)
                want = (hT[0], cT[0])
            assert len(final) == len(want)
            for got, w in zip(final, want):
                np.testing.assert_allclose(got[b], w, rtol=1e-10, atol=1e-12, err_msg=f"row {b} keep {keep}")


def test_layer_backward_with_a_zero_length_row_and_dc_n_against_central_differences():
    layer = RecurrentLayer("lstm", "ln", I, H, dtype=np.float64)
    p = layer.params
    randomize(p, 5)
    rng = np.random.default_rng(6)
    x = rng.standard_normal((T, B, I))
    lengths = np.array([4, 0, 2])
    h0, c0 = (0.5 * rng.standard_normal((B, H)) for _ in range(2))
    dy = masked(rng.standard_normal((T, B, H)), lengths)
    dh_n = rng.standard_normal((B, H))
    dc_n = rng.standard_normal((B, H))
    dc_n[2] = 0.0                                       # a row that ends inside the sequence takes no dc_n
    y, final, res = functional.layer_forward("ln-lstm", x, (h0, c0), p, lengths=lengths)
    dx, (dh0, dc0), dp = functional.layer_backward("ln-lstm", res, x, (h0, c0), p, y, dy, (dh_n, dc_n),
                                                   lengths=lengths)

    def loss():
        total = 0.0
        for b, L in enumerate(lengths):
            if L == 0:
                hT, cT = h0[b], c0[b]
            else:
                yb, hT, cT = ref_lstm(x[:L, b:b + 1], h0[b:b + 1], c0[b:b + 1], p, "ln")
                total += np.sum(dy[:L, b:b + 1] * yb)
                hT, cT = hT[0], cT[0]
            total += np.sum(dh_n[b] * hT) + np.sum(dc_n[b] * cT)
        return total

    np.testing.assert_allclose(dc0, numeric_grad(loss, c0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dh0, numeric_grad(loss, h0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dp["Wh"], numeric_grad(loss, p["Wh"], eps=1e-6, order=2), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape, lengths", [((3, 3, 2), [3, 1, 0]), ((4, 2, 1), [2, 4]), ((3, 2, 2), None)])
def test_reverse_valid_against_its_definition(shape, lengths):
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    T_, B_ = shape[:2]
    L = [T_] * B_ if lengths is None else lengths
    want = a.copy()
    for b in range(B_):
        for t in range(L[b]):
            want[t, b] = a[L[b] - 1 - t, b]
    got = functional.reverse_valid(a, None if lengths is None else np.array(lengths))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(functional.reverse_valid(got, None if lengths is None else np.array(lengths)), a)


def test_parameter_names_and_counts_by_hand():
    stack = RecurrentStack("lstm", "ln", I, H, num_layers=2, bidirectional=True, skip=True, dtype=np.float64)
    per = {"Wx": None, "Wh": (H, G), "b": (G,), "gx": (G,), "bx": (G,), "gh": (G,), "bh": (G,), "gc": (H,),
           "bc": (H,)}
    want = {}
    for prefix, i in (("l0.", I), ("l0_reverse.", I), ("l1.", I + 2 * H), ("l1_reverse.", I + 2 * H)):
        for n, s in per.items():
            want[prefix + n] = (i, G) if n == "Wx" else s
    assert {n: v.shape for n, v in stack.params.items()} == want
    assert {n: v.shape for n, v in stack.grads.items()} == want
    count = sum(int(np.prod(s)) for s in want.values())
    assert count == 2 * (I * G + H * G + 5 * G + 2 * H) + 2 * ((I + 2 * H) * G + H * G + 5 * G + 2 * H)
    assert stack.flat[0].data.size == count and stack.output_size == 4 * H
    bn = RecurrentStack("rnn", "bn", I, H, num_layers=2, max_steps=3)
    assert {n: v.shape for n, v in bn.buffers.items()} == {
        f"l{k}.{n}": (3, H) for k in range(2) for n in ("rmx", "rvx", "rmh", "rvh")}
    assert sorted(bn.params) == sorted(f"l{k}.{n}" for k in range(2) for n in ("Wx", "Wh", "b", "gx", "gh"))


def test_zero_states_are_batch_by_hidden_and_a_stateless_forward_starts_from_them():
    layer = RecurrentLayer("lstm", "none", I, 5, dtype=np.float64)
    zs = layer.zero_state(3)
    assert len(zs) == 2 and all(s.shape == (3, 5) and s.dtype == np.float64 and not s.any() for s in zs)
    x = np.random.default_rng(7).standard_normal((T, 3, I))
    y, (hT, cT) = layer.forward(x, training=False)
    want, wh, wc = ref_lstm(x, np.zeros((3, 5)), np.zeros((3, 5)), layer.params, "none")
    np.testing.assert_allclose(y, want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cT, wc, rtol=1e-10, atol=1e-12)
    stack = RecurrentStack("rnn", "none", I, 4, num_layers=2, bidirectional=True)
    assert [tuple(s.shape for s in st) for st in stack.zero_state(3)] == [((3, 4),)] * 4


def test_refusals_at_the_boundary():
    with pytest.raises(TypeError, match="dtype must be float32 or float64, got float16"):
        RecurrentLayer("lstm", "ln", I, H, dtype=np.float16)
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64)
    x = np.zeros((T, B, I))
    with pytest.raises(ValueError, match=r"state must hold one entry per layer \(2\), got 1"):
        stack.forward(x, [stack.layers[0].zero_state(B)])
    with pytest.raises(ValueError, match=r"x_t must be a \(B,I\) array, got \(1, 3, 2\)"):
        stack.step(np.zeros((1, B, I)))
    with pytest.raises(ValueError, match="has no gates"):
        RecurrentLayer("rnn", "ln", I, H, clip_gates=2.0)


def test_gate_clip_off_values_pass_for_every_cell():
    rnn, lstm = cells.get("ln-rnn"), cells.get("ln-lstm")
    assert functional.gate_clip(float("inf"), rnn) == 0.0 and functional.gate_clip(0, rnn) == 0.0
    assert functional.gate_clip(float("inf"), lstm) == 0.0 and functional.gate_clip(2.5, lstm) == 2.5
    assert RecurrentLayer("rnn", "ln", I, H, clip_gates=float("inf")).clip_gates == 0.0
    with pytest.raises(ValueError, match="clip_gates must be 0"):
        functional.gate_clip(-1.0, lstm)
