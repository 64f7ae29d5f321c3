"""Layouts against their definitions: every cell's parameter shapes (Wx (I,G), Wh (H,G), b (G,), its
gains and biases (G,) or (H,), G = blocks * H) as ``init_params`` makes them and as the model's flat
buffer counts them; the BN cells' running statistics (means 0, variances 1, one row per step); the
residuals ``layer_forward`` returns against ``residual_layout`` and the LSTM's saved state widths; and
dL/dh0 of a row without steps (its h_n is h0) by central differences in a batch of ragged rows."""
import numpy as np
import pytest

from lnrnn.model import functional as F
from lnrnn.model.cells import CELLS
from lnrnn.model.layers import RecurrentLayer
from lnrnn.model.models import build_model

from gradcheck_util import numeric_grad, rel_error

I, H = 2, 3
EXTRA = {"rnn": {}, "lstm": {}, "ln-rnn": {"g": "H"},
         "ln-lstm": {"gx": "G", "bx": "G", "gh": "G", "bh": "G", "gc": "H", "bc": "H"},
         "bn-rnn": {"gx": "H", "gh": "H"}, "bn-lstm": {"gx": "G", "gh": "G", "gc": "H", "bc": "H"}}


def _shapes(name, I, H):
    G = (4 if "lstm" in name else 1) * H
    out = {"Wx": (I, G), "Wh": (H, G), "b": (G,)}
    out.update({n: ((G,) if w == "G" else (H,)) for n, w in EXTRA[name].items()})
    return out


@pytest.mark.parametrize("name", sorted(CELLS))
def test_param_shapes_and_init_params_by_definition(name):
    spec = CELLS[name]
    want = _shapes(name, I, H)
    assert dict(spec.param_shapes(I, H)) == want
    p = spec.init_params(np.random.default_rng(0), I, H, np.float64, 1.0)
    assert {n: v.shape for n, v in p.items()} == want


@pytest.mark.parametrize("name", ["ln-lstm", "bn-rnn"])
def test_model_parameter_count_is_the_sum_of_the_definitions(name):
    norm, cell = name.split("-")
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64", forget_bias=1.0,
               head={"kind": "classifier", "outputs": 5, "per_step": False}, bidirectional=True)
    m = build_model(cfg)
    layer_inputs = [I, I, 2 * H, 2 * H]                     # two directions per layer; layer 1 reads [fwd | bwd]
    want = sum(int(np.prod(s)) for i in layer_inputs for s in _shapes(name, i, H).values()) + 2 * H * 5 + 5
    assert m.num_params() == want


@pytest.mark.parametrize("name", ["bn-lstm", "bn-rnn"])
def test_bn_running_statistics_start_at_mean_0_variance_1(name):
    spec = CELLS[name]
    bufs = spec.init_buffers(H, 4, np.float64)
    widths = {"x": 4 * H if "lstm" in name else H, "h": 4 * H if "lstm" in name else H, "c": H}
    want = [s for s in ("x", "h", "c") if s != "c" or "lstm" in name]
    assert sorted(bufs) == sorted([p + s for s in want for p in ("rm", "rv")])
    for s in want:
        assert np.array_equal(bufs["rm" + s], np.zeros((4, widths[s])))
        assert np.array_equal(bufs["rv" + s], np.ones((4, widths[s])))


@pytest.mark.parametrize("name", ["lstm", "rnn", "ln-rnn"])
def test_residuals_have_the_layout_residual_layout_gives(name):
    T, B = 3, 2
    norm, cell = (name.split("-") if "-" in name else ("none", name))
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float64)
    x = np.random.default_rng(1).standard_normal((T, B, I))
    _, _, res = F.layer_forward(name, x, layer.zero_state(B), layer.params)
    layout = F.residual_layout(name, T, B, I, H, np.float64)
    assert [(tuple(np.shape(r)), np.asarray(r).dtype) for r in res] == [(tuple(s), d) for s, d in layout]
    if cell == "lstm":   # gates (T,B,4H), then the cell states c and tanh(c), (T,B,H) each
        assert [tuple(s) for s, _ in layout[:3]] == [(T, B, 4 * H), (T, B, H), (T, B, H)]


def test_dh_n_of_a_row_without_steps_reaches_its_h0():
    """L = sum(Rn * h_n): h_n is h0 for the empty row, the state at its last step for the others."""
    T, B = 3, 3
    rng = np.random.default_rng(2)
    layer = RecurrentLayer("rnn", "none", I, H, dtype=np.float64, seed=3)
    x = rng.standard_normal((T, B, I))
    h0 = rng.standard_normal((B, H))
    lengths = np.array([0, 3, 2])
    Rn = rng.standard_normal((B, H))

    def loss():
        _, (hn,), _ = F.layer_forward("rnn", x, (h0,), layer.params, lengths=lengths)
        return float(np.sum(Rn * hn))

    y, _, res = F.layer_forward("rnn", x, (h0,), layer.params, lengths=lengths)
    dx, (dh0,), dp = F.layer_backward("rnn", res, x, (h0,), layer.params, y, None, dfinal=(Rn,), lengths=lengths)
    np.testing.assert_allclose(dh0[0], Rn[0], rtol=1e-12)
    assert rel_error(dh0, numeric_grad(loss, h0, eps=1e-5, order=2)) < 1e-6
    assert rel_error(dp["Wh"], numeric_grad(loss, layer.params["Wh"], eps=1e-5, order=2)) < 1e-6
