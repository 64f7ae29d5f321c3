"""lnrnn/model/functional.py: grown(v, T) is v itself when v has T rows or more, and a new array of T rows
repeating v's last row only when it has fewer (its docstring's promise; every caller grows BatchNorm statistics
through it). Watched on NumPy arrays and torch tensors of 3 rows for T 1 to 6, and where it matters: a BN layer
trained on exactly as many steps as its statistics have rows updates them in place, the same arrays before and
after the forward, as the chunks of truncated BPTT and the device's views need (a copy at every update would leave
the arrays the kernels wrote behind)."""
import numpy as np
import pytest

from lnrnn.model.functional import grow_buffers, grown
from lnrnn.model.layers import RecurrentLayer

ROWS = 3


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("T", range(1, 7))
def test_grown_is_the_array_itself_unless_it_is_short(kind, T):
    v = np.arange(ROWS * 2, dtype=np.float64).reshape(ROWS, 2)          # (3, 2)
    if kind == "torch":
        v = pytest.importorskip("torch").from_numpy(v)
    g = grown(v, T)
    if T <= ROWS:
        assert g is v
    else:
        assert g is not v and tuple(g.shape) == (T, 2)
        want = np.concatenate([np.asarray(v), np.repeat(np.asarray(v)[-1:], T - ROWS, axis=0)])
        np.testing.assert_array_equal(np.asarray(g), want)
    assert all(b is v for b in grow_buffers({"a": v, "b": v}, min(T, ROWS)).values())


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_a_bn_layer_trained_on_as_many_steps_as_its_statistics_updates_them_in_place(cell):
    layer = RecurrentLayer(cell, "bn", 3, 4, dtype=np.float64, max_steps=ROWS, seed=1)
    before = dict(layer.buffers)
    copies = {n: v.copy() for n, v in before.items()}
    assert all(v.shape[0] == ROWS for v in before.values())
    x = np.random.default_rng(2).normal(size=(ROWS, 5, 3))                 # (T, B, I), T = the statistics' rows
    layer.forward(x, training=True)
    assert all(layer.buffers[n] is before[n] for n in before)
    assert any(not np.array_equal(before[n], copies[n]) for n in before)   # written, in place
