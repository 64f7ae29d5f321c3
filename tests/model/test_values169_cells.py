"""The cell registry (lnrnn/model/cells.py) against its definitions: every cell's initial parameters by
name, order and shape (Wx (I,G), Wh (H,G), b (G,), then the row's gains and biases at their widths and
initial values), each H x H block of Wh orthogonal (Q of a QR, signs fixed by R's diagonal) or the identity,
BatchNorm buffers named each mean beside its variance in init_buffers' order, and the refusals of an unknown
cell name and an unknown norm sentence for sentence."""
import numpy as np
import pytest

from lnrnn.model import cells

I, H = 2, 3


def widths(spec):
    """What each parameter's width is by the row's definition: G = blocks * H for 'G', H for 'H'."""
    return {"G": spec.blocks * H, "H": H}


@pytest.mark.parametrize("name", sorted(cells.CELLS))
def test_initial_parameters_by_name_order_and_shape(name):
    spec = cells.CELLS[name]
    G = spec.blocks * H
    p = spec.init_params(np.random.default_rng(0), I, H, np.float64, forget_bias=1.0)
    want = [("Wx", (I, G)), ("Wh", (H, G)), ("b", (G,))] + [(n, (widths(spec)[w],)) for n, w, _ in spec.extra]
    assert [(n, v.shape) for n, v in p.items()] == want
    assert list(spec.param_names) == [n for n, _ in want] == list(spec.grads)
    assert [(n, tuple(s)) for n, s in spec.param_shapes(I, H)] == want
    for n, _, v in spec.extra:
        np.testing.assert_array_equal(p[n], np.full(p[n].shape, v))
    assert all(v.dtype == np.float64 for v in p.values())
    lim = np.sqrt(6.0 / (I + H))
    assert np.all(np.abs(p["Wx"]) <= lim)


@pytest.mark.parametrize("name", ["lstm", "ln-rnn"])
def test_each_recurrent_block_is_orthogonal_or_the_identity(name):
    spec = cells.CELLS[name]
    p = spec.init_params(np.random.default_rng(5), I, H, np.float64, forget_bias=0.0)
    for k in range(spec.blocks):
        w = p["Wh"][:, k * H:(k + 1) * H]
        np.testing.assert_allclose(w.T @ w, np.eye(H), rtol=0, atol=1e-12)
        np.testing.assert_allclose(w @ w.T, np.eye(H), rtol=0, atol=1e-12)
    q = spec.init_params(np.random.default_rng(5), I, H, np.float64, forget_bias=0.0, recurrent_init="identity")
    np.testing.assert_array_equal(q["Wh"], np.hstack([np.eye(H)] * spec.blocks))


def test_orthogonal_is_q_with_the_signs_of_r():
    rng = np.random.default_rng(11)
    a = np.random.default_rng(11).standard_normal((H, H))
    q, r = np.linalg.qr(a)
    want = q * np.sign(np.diag(r))
    np.testing.assert_allclose(cells._orthogonal(rng, H, np.float64), want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["bn-lstm", "bn-rnn"])
def test_buffer_names_pair_each_mean_with_its_variance(name):
    spec = cells.CELLS[name]
    want = tuple(n for s, _ in spec.buffers for n in ("rm" + s, "rv" + s))
    assert spec.buffer_names == want
    assert tuple(spec.init_buffers(H, 5, np.float64)) == want
    assert want[:4] == ("rmx", "rvx", "rmh", "rvh")


def test_unknown_cell_and_norm_refusals():
    with pytest.raises(cells.UnknownCell) as e:
        cells.get("gru")
    assert str(e.value) == ("unknown cell 'gru'; choose one of rnn, lstm, ln-rnn, ln-lstm, bn-rnn, bn-lstm.")
    with pytest.raises(ValueError) as e:
        cells.lookup("lstm", "wn")
    assert str(e.value) == "unknown norm 'wn'; expected one of none, ln, bn"
    with pytest.raises(ValueError) as e:
        cells.lookup("gru", "ln")
    assert str(e.value) == "unknown cell 'gru'; expected one of rnn, lstm"
    assert cells.lookup("lstm", "bn") is cells.CELLS["bn-lstm"]
    assert cells.parse_cell("ln-rnn") == ("rnn", "ln")
