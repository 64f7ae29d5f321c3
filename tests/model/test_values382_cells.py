"""The cell registry's facts (lnrnn/model/cells.py) against their definitions: each row's ``activations`` (a, c), the
elements its forward keeps per (step, row) as a * H + c, counted from the arrays of the saved tuple the CPU kernels
return, plus x Wx over all steps where that tuple does not hold it (the plain LSTM and the plain and LN RNN: the CUDA
twins keep it from their one GEMM over T*B rows, and the rows count the larger of the two); ``saved_y`` pointing at
the saved array equal to the y returned; the BatchNorm buffers' widths (x and h over the gates, c over H); the initial
gains of the BN cells (Cooijmans et al. 2016: 0.1, config.BN_GAIN_INIT) and LayerNorm's (1 and 0), the order and
shapes of Wx, Wh, b and b's initial blocks; the identity recurrent initialization accepted. Float64, I 5 (wider than
config.FOLD_MAX_I, so the BN cells keep their x Wx), T 3, B 2, H 4.
"""
import numpy as np
import pytest

from lnrnn import config
from lnrnn.model import cells, functional

I, T, B, H = 5, 3, 2, 4
NAMES = ("rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm")


def run_forward(name, seed=0):
    """-> (y, the saved tuple) of one training forward of the CPU kernels through the row's adapter."""
    spec = cells.get(name)
    rng = np.random.default_rng(seed)
    p = spec.init_params(rng, I, H, np.float64, forget_bias=1.0)
    x = rng.standard_normal((T, B, I))
    state = tuple(rng.normal(0.0, 0.5, (B, H)) for _ in range(spec.nstate))
    bufs = spec.init_buffers(H, T, np.float64)
    s = functional.setup(spec, H, np.float64)
    y, _, saved = functional.forward(s, x, state, p, bufs, training=True)
    return y, saved


def per_step_row_elements(saved):
    """Elements per (step, row) of the saved arrays laid out (T, B, ...)."""
    n = 0
    for a in saved:
        if not isinstance(a, np.ndarray) or a.size == 0:
            continue
        if a.ndim >= 2 and a.shape[:2] == (T, B):        # (T,B,...)
            n += int(np.prod(a.shape[2:], dtype=np.int64))
        elif a.ndim == 3 and a.shape[1:] == (T, B):      # the LN-LSTM's rstd (3,T,B)
            n += a.shape[0]
    return n


@pytest.mark.parametrize("name", NAMES)
def test_activations_count_the_saved_elements_per_step_and_row(name):
    spec = cells.get(name)
    _, saved = run_forward(name)
    held = per_step_row_elements(saved)
    if name in ("rnn", "ln-rnn"):
        held += H      # x Wx over all steps: kept by the CUDA twin's one GEMM, not in the CPU tuple
    elif name == "lstm":
        held += 4 * H  # likewise the plain LSTM's x Wx (T,B,G) (lstm_cuda.py: xp)
    a, c = spec.activations
    assert a * H + c == held, (spec.activations, held)


@pytest.mark.parametrize("name", NAMES)
def test_saved_y_points_at_the_y_returned(name):
    y, saved = run_forward(name, seed=1)
    np.testing.assert_array_equal(saved[cells.get(name).saved_y], y)


@pytest.mark.parametrize("name", ["bn-rnn", "bn-lstm"])
def test_bn_buffers_are_gate_wide_for_x_and_h_and_hidden_wide_for_c(name):
    spec = cells.get(name)
    bufs = spec.init_buffers(H, 7, np.float32)
    G = spec.blocks * H
    want = {"x": G, "h": G, "c": H} if spec.cell == "lstm" else {"x": H, "h": H}
    assert set(bufs) == {p + s for s in want for p in ("rm", "rv")}
    for s, width in want.items():
        assert bufs["rm" + s].shape == (7, width) and np.all(bufs["rm" + s] == 0)
        assert bufs["rv" + s].shape == (7, width) and np.all(bufs["rv" + s] == 1)


@pytest.mark.parametrize("name", NAMES)
def test_initial_gains_and_biases_of_the_norms(name):
    spec = cells.get(name)
    p = spec.init_params(np.random.default_rng(2), I, H, np.float64, forget_bias=1.0)
    assert config.BN_GAIN_INIT == 0.1  # Cooijmans et al. 2016, sec. 4: gains initialized to 0.1
    G = spec.blocks * H
    assert spec.param_names[:3] == ("Wx", "Wh", "b")
    assert [(n, a.shape) for n, a in p.items() if n in ("Wx", "Wh", "b")] == [("Wx", (I, G)), ("Wh", (H, G)),
                                                                              ("b", (G,))]
    # the bias: zero, the LSTM's forget block at forget_bias, a normalized cell's candidate (LSTM) or whole
    # sum (RNN) drawn in [-0.1, 0.1] (cells.Cell.init_params)
    b, fixed = p["b"], np.ones(G, bool)
    if spec.cell == "lstm":
        assert np.all(b[H:2 * H] == 1.0)
        fixed[H:2 * H] = False
    if spec.norm != "none":
        drawn = slice(2 * H, 3 * H) if spec.cell == "lstm" else slice(0, H)
        assert np.all(np.abs(b[drawn]) <= 0.1) and np.any(b[drawn] != 0)
        fixed[drawn] = False
    assert np.all(b[fixed] == 0)
    for n in spec.param_names[3:]:
        if spec.norm == "bn":
            want = 0.0 if n == "bc" else 0.1
        else:
            want = 1.0 if n.startswith("g") else 0.0
        assert np.all(p[n] == want), n


@pytest.mark.parametrize("name", ["rnn", "lstm", "bn-lstm"])
def test_the_identity_recurrent_init_gives_identity_blocks(name):
    spec = cells.get(name)
    assert "identity" in cells.RECURRENT_INITS
    p = spec.init_params(np.random.default_rng(3), I, H, np.float64, forget_bias=1.0, recurrent_init="identity")
    for k in range(spec.blocks):
        np.testing.assert_array_equal(p["Wh"][:, k * H:(k + 1) * H], np.eye(H))
