"""BatchNorm's population statistics on the paths around training, against their definitions (README,
Conventions; lnrnn.model.layers): inference at steps t >= Ts (the longest training sequence) reads row
Ts-1; a training forward over T > Ts first grows the buffers by repeating row Ts-1, then updates every
row from its step's batch; ``export`` writes each statistic under the name of what it holds. Rows of
the statistics differ from step to step, so a wrong row shows. The statistics exist for the two BN
cells only; export's names are checked for all six."""
import numpy as np
import pytest

from lnrnn.interop.export import exported_tensors
from lnrnn.model.layers import RecurrentLayer
from lnrnn.model.models import build_model, head_config

BN = [("lstm", "bn"), ("rnn", "bn")]
BN_IDS = ["bn-lstm", "bn-rnn"]
I, H, B = 3, 4, 5


def bn_layer(cell, Ts, seed=0):
    layer = RecurrentLayer(cell, "bn", I, H, dtype=np.float64, seed=seed, max_steps=Ts)
    rng = np.random.default_rng(seed + 1)
    for k, v in layer.buffers.items():
        layer.buffers[k] = rng.uniform(0.3, 3.0, v.shape) if k.startswith("rv") else rng.normal(0, 1.0, v.shape)
    return layer


def extended(layer, T):
    """A copy of layer whose buffers hold T rows: rows Ts.. repeat row Ts-1 (the definition)."""
    other = RecurrentLayer(layer.cell, "bn", I, H, dtype=np.float64, seed=0, max_steps=T)
    for k, v in layer.params.items():
        other.params[k][...] = v
    for k, v in layer.buffers.items():
        other.buffers[k] = np.concatenate([v, np.repeat(v[-1:], T - len(v), axis=0)])
    return other


@pytest.mark.parametrize("cell,norm", BN, ids=BN_IDS)
def test_inference_beyond_the_statistics_reuses_the_last_row(cell, norm):
    """Ts = 3, T = 7, with masks: the same y and final state as a layer whose statistics were written out
    to 7 rows by hand, whole or in chunks from a carried state (t0 = 2, 5)."""
    layer = bn_layer(cell, 3)
    ref = extended(layer, 7)
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (7, B, I))
    lengths = np.array([7, 2, 5, 0, 6])
    want_y, want_s = ref.forward(x, training=False, lengths=lengths, keep=False)
    y, s = layer.forward(x, training=False, lengths=lengths, keep=False)
    np.testing.assert_allclose(y, want_y, rtol=1e-12, atol=1e-14)
    for a, b in zip(s, want_s):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    state, parts = None, []
    for t0, t1 in ((0, 2), (2, 5), (5, 7)):
        lc = np.clip(lengths - t0, 0, t1 - t0)
        yc, state = layer.forward(np.ascontiguousarray(x[t0:t1]), state, training=False, lengths=lc, t0=t0,
                                  keep=False)
        parts.append(yc)
    run = (np.arange(7)[:, None] < lengths[None, :])[..., None]
    np.testing.assert_allclose(np.concatenate(parts) * run, want_y * run, rtol=1e-12, atol=1e-14)
    assert len(layer.buffers["rmh"]) == 3  # inference does not grow them


@pytest.mark.parametrize("cell,norm", BN, ids=BN_IDS)
def test_grown_statistics_start_from_the_last_row(cell, norm):
    """A training forward of T = 6 > Ts = 3 steps: the buffers become 6 rows, equal to those of a layer
    given rows 3..5 = row 2 beforehand and run on the same batch (each row then moves toward its step's
    batch statistics)."""
    layer = bn_layer(cell, 3)
    ref = extended(layer, 6)
    x = np.random.default_rng(5).normal(0, 1, (6, B, I))
    before = {k: v.copy() for k, v in ref.buffers.items()}
    ref.forward(x, training=True)
    layer.forward(x, training=True)
    for k, v in ref.buffers.items():
        assert layer.buffers[k].shape == (6,) + v.shape[1:]
        np.testing.assert_allclose(layer.buffers[k], v, rtol=1e-12, atol=1e-14, err_msg=k)
        assert not np.allclose(v, before[k])  # the update moved them: the check has something to see


CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]
IDS = ["lstm", "ln-lstm", "bn-lstm", "rnn", "ln-rnn", "bn-rnn"]
# lnrnn/interop/export.py's documented names (its module docstring), written out here
NAMES = {"Wx": "weight_ih", "Wh": "weight_hh", "b": "bias_ih", "gx": "norm_ih_weight", "bx": "norm_ih_bias",
         "gh": "norm_hh_weight", "bh": "norm_hh_bias", "gc": "norm_cell_weight", "bc": "norm_cell_bias",
         "g": "norm_weight", "rmx": "norm_ih_running_mean", "rvx": "norm_ih_running_var",
         "rmh": "norm_hh_running_mean", "rvh": "norm_hh_running_var", "rmc": "norm_cell_running_mean",
         "rvc": "norm_cell_running_var"}


@pytest.mark.parametrize("cell,norm", CELLS, ids=IDS)
def test_export_names_every_statistic_by_what_it_holds(cell, norm):
    """Every parameter and BN statistic of a two-layer model (distinct values everywhere) is exported
    under its documented name, weights transposed to PyTorch's (G,I), nothing else besides bias_hh
    (zeros) and the head."""
    m = build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, head=head_config("ce", 3)), seed=0, max_steps=4)
    rng = np.random.default_rng(6)
    for layer in m.stack.layers:
        for k, v in layer.buffers.items():
            layer.buffers[k] = rng.uniform(0.3, 3.0, v.shape)
    m.flat[0].data[:] = rng.normal(0, 1, m.flat[0].data.shape)
    out = exported_tensors(m)
    want = {}
    for key, arr in {**m.params, **m.buffers}.items():
        part, _, rest = key.partition(".")
        if part == "head":
            continue
        layer, _, name = rest.partition(".")
        want[f"rnn.{NAMES[name]}_{layer}"] = arr.T if name in ("Wx", "Wh") else arr
        if name == "b":
            want[f"rnn.bias_hh_{layer}"] = np.zeros_like(arr)
    assert set(out) - {"head.weight", "head.bias"} == set(want)
    for k, v in want.items():
        np.testing.assert_array_equal(out[k], v, err_msg=k)
    np.testing.assert_array_equal(out["head.weight"], m.params["head.W"].T)
    if norm == "bn":
        assert any("running_var" in k for k in want)
