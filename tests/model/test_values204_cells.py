"""The cell registry (lnrnn/model/cells.py) against its definitions: every row's initial parameters equal the
draws replayed here from the same seed (Glorot-uniform Wx, each gate block of Wh the QR of a Gaussian matrix
signed by diag(R), so orthogonal; b zero but for the LSTM's forget block at forget_bias and the normalized
cells' small candidate bias; gains and biases at their listed values, each as wide as its kind says);
parameter names and shapes written out by hand; which rows save a mode flag; the refusals word for word.

I = 2, H = 3 (I != H), forget_bias 0.7."""
import re

import numpy as np
import pytest

from lnrnn.config import BN_GAIN_INIT
from lnrnn.model import cells

I, H = 2, 3
G = 4 * H
FORGET = 0.7

# name -> (gate blocks, extra parameters by hand: name, shape, value)
ROWS = {
    "rnn": (1, []),
    "lstm": (4, []),
    "ln-rnn": (1, [("g", (H,), 1.0)]),
    "ln-lstm": (4, [("gx", (G,), 1.0), ("bx", (G,), 0.0), ("gh", (G,), 1.0), ("bh", (G,), 0.0),
                    ("gc", (H,), 1.0), ("bc", (H,), 0.0)]),
    "bn-rnn": (1, [("gx", (H,), BN_GAIN_INIT), ("gh", (H,), BN_GAIN_INIT)]),
    "bn-lstm": (4, [("gx", (G,), BN_GAIN_INIT), ("gh", (G,), BN_GAIN_INIT), ("gc", (H,), BN_GAIN_INIT),
                    ("bc", (H,), 0.0)]),
}


def replayed(name, seed):
    """The definition's draws from default_rng(seed), in the documented order."""
    blocks, extra = ROWS[name]
    rng = np.random.default_rng(seed)
    lim = np.sqrt(6.0 / (I + H))
    Wx = rng.uniform(-lim, lim, (I, blocks * H))
    qs = []
    for _ in range(blocks):
        q, r = np.linalg.qr(rng.standard_normal((H, H)))
        qs.append(q * np.sign(np.diag(r)))
    b = np.zeros(blocks * H)
    if blocks == 4:
        b[H:2 * H] = FORGET
    if name not in ("rnn", "lstm"):
        blk = slice(2 * H, 3 * H) if blocks == 4 else slice(0, H)
        b[blk] = rng.uniform(-0.1, 0.1, H)
    want = {"Wx": Wx, "Wh": np.concatenate(qs, axis=1), "b": b}
    want.update({n: np.full(shape, v) for n, shape, v in extra})
    return want


@pytest.mark.parametrize("name", sorted(ROWS))
def test_initial_parameters_are_the_definitions_draws(name):
    spec = cells.get(name)
    p = spec.init_params(np.random.default_rng(204), I, H, np.float64, FORGET)
    want = replayed(name, 204)
    assert list(p) == list(want)
    for n, e in want.items():
        assert p[n].shape == e.shape, n
        assert p[n].dtype == np.float64, n
        np.testing.assert_allclose(p[n], e, rtol=1e-12, atol=1e-14, err_msg=n)
    for k in range(ROWS[name][0]):                       # each gate block of Wh is orthogonal
        Q = p["Wh"][:, k * H:(k + 1) * H]
        np.testing.assert_allclose(Q.T @ Q, np.eye(H), atol=1e-12)


def test_float32_parameters_and_identity_blocks():
    spec = cells.get("ln-lstm")
    p = spec.init_params(np.random.default_rng(5), I, H, np.float32, FORGET, recurrent_init="identity")
    assert all(v.dtype == np.float32 for v in p.values())
    np.testing.assert_array_equal(p["Wh"], np.tile(np.eye(H), (1, 4)))
    want = replayed("ln-lstm", 5)                       # the same draws either way
    np.testing.assert_allclose(p["Wx"], want["Wx"], rtol=1e-6)
    np.testing.assert_allclose(p["b"], want["b"], rtol=1e-6)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_parameter_names_shapes_and_mode_flag_by_hand(name):
    spec = cells.get(name)
    blocks, extra = ROWS[name]
    names = ("Wx", "Wh", "b") + tuple(n for n, _, _ in extra)
    assert spec.param_names == names
    assert spec.grads == names
    assert spec.param_shapes(I, H) == [("Wx", (I, blocks * H)), ("Wh", (H, blocks * H)), ("b", (blocks * H,))] + \
        [(n, shape) for n, shape, _ in extra]
    assert spec.saved_flag == name.startswith("bn-")
    assert spec.state_names == (("h0", "c0") if blocks == 4 else ("h0",))
    assert spec.width(H, "G") == blocks * H and spec.width(H, "H") == H


def test_buffers_of_the_bn_lstm_by_hand():
    spec = cells.get("bn-lstm")
    assert spec.buffer_names == ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")
    bufs = spec.init_buffers(H, 5, np.float64)
    for n, w in (("x", G), ("h", G), ("c", H)):
        np.testing.assert_array_equal(bufs["rm" + n], np.zeros((5, w)))
        np.testing.assert_array_equal(bufs["rv" + n], np.ones((5, w)))


def test_refusals_word_for_word():
    with pytest.raises(ValueError, match=re.escape("unknown cell 'gru'; expected one of rnn, lstm")):
        cells.lookup("gru", "ln")
    with pytest.raises(ValueError, match=re.escape("unknown norm 'wn'; expected one of none, ln, bn")):
        cells.lookup("lstm", "wn")
    with pytest.raises(ValueError, match=re.escape(
            "recurrent_init must be one of orthogonal, identity, not 'Orthogonal'")):
        cells.get("lstm").init_params(np.random.default_rng(0), I, H, np.float64, 1.0, recurrent_init="Orthogonal")
    with pytest.raises(cells.UnknownCell, match=re.escape("unknown cell 'gru'; choose one of rnn, lstm, ln-rnn, "
                                                          "ln-lstm, bn-rnn, bn-lstm.")):
        cells.get("gru")
    assert cells.lookup("rnn", "bn") is cells.get("bn-rnn")
    assert cells.parse_cell("ln-lstm") == ("lstm", "ln")
