"""Layer stacks composed by hand from lnrnn/reference.py (the NumPy spec): a two-layer bidirectional stack over
rows of lengths 0, 1 and T in one batch (the backward direction reversing only each row's active steps), its
gradient against central finite differences, a plain two-layer stack run in two chunks from carried states,
initial parameters drawn by hand from the seed's generator, parameter names and widths written out."""
import numpy as np

from lnrnn import reference as ref
from lnrnn.model.layers import RecurrentStack


def _rnn_rows(x, lengths, p, reverse):
    """A plain tanh RNN direction over each row's active steps by the spec: (T,B,H) outputs (zero where padded)
    and (B,H) final states (zero for a row of length 0)."""
    T, B, _ = x.shape
    H = p["Wh"].shape[0]
    y, hT = np.zeros((T, B, H)), np.zeros((B, H))
    for b, L in enumerate(lengths):
        if L == 0:
            continue
        xb = x[:L, b:b + 1]
        yb, hb, _ = ref.rnn_forward(xb[::-1] if reverse else xb, np.zeros((1, H)), p["Wx"], p["Wh"], p["b"],
                                    None, "none")
        y[:L, b] = (yb[::-1] if reverse else yb)[:, 0]
        hT[b] = hb[0]
    return y, hT


def _bi_by_hand(P, x, lengths, layers):
    """A plain-RNN bidirectional stack of ``layers`` layers from the spec: each layer's input is the one below's
    [forward | backward] -> (y, final states in the stack's order: l0, l0 backward, l1, ...)."""
    inp, finals = x, []
    for k in range(layers):
        pf = {n: P[f"l{k}.{n}"] for n in ("Wx", "Wh", "b")}
        pb = {n: P[f"l{k}_reverse.{n}"] for n in ("Wx", "Wh", "b")}
        yf, hf = _rnn_rows(inp, lengths, pf, False)
        yb, hb = _rnn_rows(inp, lengths, pb, True)
        inp = np.concatenate([yf, yb], axis=2)
        finals += [hf, hb]
    return inp, finals


def _active(a, lengths):
    T = a.shape[0]
    return a * (np.arange(T)[:, None] < np.asarray(lengths)[None, :])[:, :, None]


def test_bidirectional_two_layers_over_lengths_0_1_and_T_by_hand():
    T, lengths = 4, [0, 1, 4, 3]
    stack = RecurrentStack("rnn", "none", 2, 3, num_layers=2, dtype=np.float64, seed=5, bidirectional=True)
    x = np.random.default_rng(11).standard_normal((T, 4, 2))
    y, states = stack.forward(x, lengths=lengths, training=False)
    want_y, finals = _bi_by_hand(stack.params, x, lengths, 2)
    assert y.shape == (T, 4, 6)
    np.testing.assert_allclose(_active(y, lengths), want_y, rtol=0, atol=1e-12)
    assert len(states) == 4
    for s, h in zip(states, finals):
        np.testing.assert_allclose(s[0], h, rtol=0, atol=1e-12)


def test_bidirectional_two_layers_gradient_against_finite_differences():
    T, lengths = 3, [3, 1, 0]
    stack = RecurrentStack("rnn", "none", 2, 3, num_layers=2, dtype=np.float64, seed=2, bidirectional=True)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((T, 3, 2))
    dy = _active(rng.standard_normal((T, 3, 6)), lengths)

    def loss(xx):
        return float(np.sum(_bi_by_hand(stack.params, xx, lengths, 2)[0] * dy))

    stack.forward(x, lengths=lengths, training=True)
    dx = stack.backward(dy)
    want = np.zeros_like(x)
    eps = 1e-6
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        want[i] = (loss(x + e) - loss(x - e)) / (2 * eps)
    np.testing.assert_allclose(dx, want, rtol=1e-6, atol=1e-8)
    assert np.all(dx[:, 2] == 0) and np.all(dx[1:, 1] == 0)   # padded steps and the empty row send nothing


def test_plain_stack_chunks_from_carried_states_equal_the_spec_layer_by_layer():
    stack = RecurrentStack("lstm", "ln", 2, 3, num_layers=2, dtype=np.float64, seed=9)
    x = np.random.default_rng(3).standard_normal((5, 2, 2))
    P = stack.params
    names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
    z = np.zeros((2, 3))
    y0, h0, c0, _ = ref.lstm_forward(x, z, z, *[P["l0." + n] for n in names], "ln")
    y1, h1, c1, _ = ref.lstm_forward(y0, z, z, *[P["l1." + n] for n in names], "ln")
    ya, sa = stack.forward(x[:2], training=False)
    yb, sb = stack.forward(x[2:], sa, training=False, t0=2)
    np.testing.assert_allclose(np.concatenate([ya, yb]), y1, rtol=0, atol=1e-12)
    for s, (h, c) in zip(sb, [(h0, c0), (h1, c1)]):
        np.testing.assert_allclose(s[0], h, rtol=0, atol=1e-12)
        np.testing.assert_allclose(s[1], c, rtol=0, atol=1e-12)


def test_stack_seed_draws_the_first_layers_weights_from_its_generator():
    I, H = 3, 5
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=7)
    lim = np.sqrt(6.0 / (I + H))
    want = np.random.default_rng(7).uniform(-lim, lim, (I, H))
    np.testing.assert_array_equal(stack.params["l0.Wx"], want)


def test_forget_bias_and_identity_init_reach_every_layer_and_direction():
    H = 3
    stack = RecurrentStack("lstm", "none", 2, H, num_layers=2, dtype=np.float64, forget_bias=2.5,
                           recurrent_init="identity", bidirectional=True)
    want_b = np.array([0.0] * H + [2.5] * H + [0.0] * 2 * H)
    want_wh = np.hstack([np.eye(H)] * 4)
    for pre in ("l0.", "l0_reverse.", "l1.", "l1_reverse."):
        np.testing.assert_array_equal(stack.params[pre + "b"], want_b)
        np.testing.assert_array_equal(stack.params[pre + "Wh"], want_wh)


def test_bidirectional_widths_names_and_reversed_columns_by_hand():
    bi = RecurrentStack("rnn", "none", 2, 3, num_layers=2, dtype=np.float64, bidirectional=True)
    assert bi.output_size == 6
    assert bi.reverse_columns.tolist() == [False] * 3 + [True] * 3
    assert [n for n, _ in bi.param_leaves("enc.")] == ["enc.l0.", "enc.l0_reverse.", "enc.l1.", "enc.l1_reverse."]
    assert bi.params["l1.Wx"].shape == (6, 3) and bi.params["l1_reverse.Wx"].shape == (6, 3)
    assert sum(v.size for v in bi.params.values()) == 2 * (2 * 3 + 9 + 3) + 2 * (6 * 3 + 9 + 3)
    sk = RecurrentStack("rnn", "none", 2, 3, num_layers=2, dtype=np.float64, bidirectional=True, skip=True)
    assert sk.output_size == 12
    assert sk.reverse_columns.tolist() == ([False] * 3 + [True] * 3) * 2
    assert sk.params["l1.Wx"].shape == (8, 3)
    y, _ = sk.forward(np.zeros((2, 1, 2)), training=False)
    assert y.shape == (2, 1, 12)
