"""lnrnn/model/models.py's training in truncated-BPTT chunks over rows of different lengths: a row that has ended
before a chunk takes no step in it, so what its padding holds changes nothing, not even the BatchNorm statistics
of the rows still running (every cell x norm, a per-step and a last-step head, the chunks' boundaries on and off a
row's end)."""
import numpy as np
import pytest

from lnrnn.model.models import build_model

I, H, T, B, C = 2, 4, 6, 3, 3


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("per_step, lengths", [(True, [6, 2, 5]), (False, [6, 1, 3])])
def test_the_padding_of_a_row_that_has_ended_changes_nothing(cell, norm, per_step, lengths):
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64", forget_bias=1.0,
               head={"kind": "classifier", "outputs": C, "per_step": per_step})
    rng = np.random.default_rng(5)
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, (B, T) if per_step else (B,))
    L = np.array(lengths)
    runs = []
    for pad in (0.0, 3.0):
        xp = x.copy()
        for b, n in enumerate(L):
            xp[n:, b] = pad  # the padding only
        model = build_model(cfg, seed=6)
        m = model.loss_and_grad(xp, labels, lengths=L, tbptt=2)
        runs.append((m, {k: v.copy() for k, v in model.grads.items()},
                     {k: v.copy() for k, v in model.buffers.items()}))
    (m0, g0, b0), (m1, g1, b1) = runs
    assert m0["loss"] == m1["loss"] and m0["acc"] == m1["acc"]
    for k in g0:
        np.testing.assert_array_equal(g0[k], g1[k], err_msg=k)
    for k in b0:
        np.testing.assert_array_equal(b0[k], b1[k], err_msg=k)
