"""lnrnn/model/functional.py by value: the running mask by hand; a row that ends one step before T takes its
state after its own last step (the row run alone); dL/dh_n adds into dL/dy at each row's last step (the
other path: the same gradient given in dy); dL/dc_n of a row of length 0 goes into dc0 alone (its c_n is c0:
no parameter gradient); the residual layout at the widest folded input and one past it against what
layer_forward returns; and the bindings' momentum and gate clip against a RecurrentLayer given the same."""
import numpy as np
import pytest

from lnrnn.config import FOLD_MAX_I
from lnrnn.model import functional as F
from lnrnn.model.layers import RecurrentLayer

T, B, I, H = 4, 3, 2, 3


def _layer(cell, norm, I=I, seed=0, **kw):
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float64, seed=seed, max_steps=T, **kw)
    rng = np.random.default_rng(seed + 3)
    for v in layer.params.values():
        v += 0.3 * rng.standard_normal(v.shape)
    return layer, rng


def test_running_mask_by_hand():
    np.testing.assert_array_equal(F.running_mask(np.array([0, 2, 3]), 3),
                                  [[0, 1, 1], [0, 1, 1], [0, 0, 1]])


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_a_row_one_step_short_ends_at_its_own_last_step(cell):
    layer, rng = _layer(cell, "ln")
    x = rng.standard_normal((T, B, I))
    state = tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate))
    lengths = np.array([T - 1, T, 1])
    _, final, _ = F.layer_forward(layer.spec.name, x, state, layer.params, lengths=lengths, keep=False)
    for b, L in enumerate(lengths):
        _, f1, _ = F.layer_forward(layer.spec.name, np.ascontiguousarray(x[:L, b:b + 1]),
                                   tuple(s[b:b + 1].copy() for s in state), layer.params, keep=False)
        for a, a1 in zip(final, f1):
            np.testing.assert_allclose(a[b:b + 1], a1, rtol=1e-12, atol=1e-14)


def test_dh_n_adds_into_dy_at_each_rows_last_step():
    layer, rng = _layer("lstm", "ln")
    x = rng.standard_normal((T, B, I))
    state = tuple(rng.standard_normal((B, H)) for _ in range(2))
    lengths = np.array([T, 2, 3])
    y, _, res = F.layer_forward("ln-lstm", x, state, layer.params, lengths=lengths)
    dy, dh_n = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    got = F.layer_backward("ln-lstm", res, x, state, layer.params, y, dy, dfinal=(dh_n, None), lengths=lengths)
    dy2 = dy.copy()
    dy2[lengths - 1, np.arange(B)] += dh_n
    want = F.layer_backward("ln-lstm", res, x, state, layer.params, y, dy2, lengths=lengths)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-14)
    for n in want[2]:
        np.testing.assert_allclose(got[2][n], want[2][n], rtol=1e-12, atol=1e-14)


def test_dc_n_of_an_empty_row_goes_into_dc0_alone():
    layer, rng = _layer("lstm", "ln")
    x = rng.standard_normal((T, 2, I))
    state = tuple(rng.standard_normal((2, H)) for _ in range(2))
    lengths = np.array([0, T])
    y, _, res = F.layer_forward("ln-lstm", x, state, layer.params, lengths=lengths)
    dy = rng.standard_normal((T, 2, H))
    dc_n = rng.standard_normal((2, H))
    only_full = dc_n * np.array([[0.0], [1.0]])
    got = F.layer_backward("ln-lstm", res, x, state, layer.params, y, dy, dfinal=(None, dc_n), lengths=lengths)
    want = F.layer_backward("ln-lstm", res, x, state, layer.params, y, dy, dfinal=(None, only_full),
                            lengths=lengths)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-14)
    for n in want[2]:
        np.testing.assert_allclose(got[2][n], want[2][n], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got[1][1][0], want[1][1][0] + dc_n[0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got[1][1][1], want[1][1][1], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("I", [FOLD_MAX_I, FOLD_MAX_I + 1])
@pytest.mark.parametrize("name", ["bn-lstm", "ln-lstm"])
def test_residual_layout_at_the_widest_folded_input(name, I):
    norm, cell = name.split("-")
    layer, rng = _layer(cell, norm, I=I)
    x = rng.standard_normal((T, B, I))
    state = layer.zero_state(B)
    _, _, res = F.layer_forward(name, x, state, layer.params, buffers=dict(layer.buffers))
    layout = F.residual_layout(name, T, B, I, H, np.float64)
    assert [(tuple(np.shape(r)), np.asarray(r).dtype) for r in res] == [(tuple(s), d) for s, d in layout]


def test_layer_forward_updates_bn_statistics_at_its_momentum():
    layer, rng = _layer("rnn", "bn", momentum=0.5)
    x = rng.standard_normal((T, B, I))
    bufs = {n: v.copy() for n, v in layer.buffers.items()}
    layer.forward(x, training=True, keep=False)
    F.layer_forward("bn-rnn", x, layer.zero_state(B), layer.params, training=True, buffers=bufs, momentum=0.5,
                    keep=False)
    for n, v in layer.buffers.items():
        np.testing.assert_allclose(bufs[n], v, rtol=1e-12, atol=1e-14)


def test_layer_backward_clips_the_gates_as_a_layer_does():
    layer, rng = _layer("lstm", "none", clip_gates=1e-3)
    x = 3 * rng.standard_normal((T, B, I))
    state = layer.zero_state(B)
    dy = 10 * rng.standard_normal((T, B, H))
    layer.forward(x, state)
    dx_layer, _ = layer.backward(dy)
    y, _, res = F.layer_forward("lstm", x, state, layer.params)
    dx, _, grads = F.layer_backward("lstm", res, x, state, layer.params, y, dy, clip_gates=1e-3)
    np.testing.assert_allclose(dx, dx_layer, rtol=1e-12, atol=1e-14)
    for n, g in grads.items():
        np.testing.assert_allclose(g, layer.grads[n], rtol=1e-12, atol=1e-14)
    # one step's dx is the clipped dL/d(preactivations) times Wx^T: bounded by the clip
    bound = 1e-3 * np.abs(layer.params["Wx"]).sum(axis=1)
    assert np.all(np.abs(dx[0]) <= bound + 1e-12)
