"""A last-step head under truncated BPTT against its definition: each row is scored once, at its own last
step, whichever chunk holds it, so the loss and the accuracy of a chunked update are those of the whole
sequence run at once (the forward carries the states across chunks; only the gradient is truncated), and
equal the per-row losses of each sequence run alone."""
import numpy as np
import pytest

from lnrnn.model.models import build_model

T, B, I, H, C = 6, 5, 2, 3, 3
LENGTHS = np.array([6, 2, 5, 0, 3])        # rows ending in the first, second and third chunk of 2, and empty


def model():
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, dtype="float64", forget_bias=1.0,
               head={"kind": "classifier", "outputs": C, "per_step": False})
    return build_model(cfg, seed=2)


@pytest.mark.parametrize("tbptt", [1, 2, 4])
def test_each_row_is_scored_once_at_its_last_step_under_truncated_bptt(tbptt):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, C, B)
    whole = model().loss_and_grad(x, y, LENGTHS)
    m = model()
    chunked = m.loss_and_grad(x, y, LENGTHS, tbptt=tbptt)
    assert m.last_count == 4
    assert chunked["loss"] == pytest.approx(whole["loss"], rel=1e-12)
    assert chunked["acc"] == pytest.approx(whole["acc"], rel=1e-12)
    alone = []
    for b in range(B):
        if LENGTHS[b]:
            one = model()
            alone.append(one.loss_and_grad(np.ascontiguousarray(x[:LENGTHS[b], b:b + 1]), y[b:b + 1])["loss"])
    assert chunked["loss"] == pytest.approx(np.mean(alone), rel=1e-10)
