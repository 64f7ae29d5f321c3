"""lnrnn.diagnostics.per_step against the model itself: its loss is the batch's mean per scored unit (what an
update reports), with lengths too and with a per-step head; and the model is left as it was, gradients that
were not zero before included (the head's, its parameters' and the stack's)."""
import numpy as np
import pytest

from lnrnn.diagnostics import per_step
from lnrnn.model.models import build_model


def _model(per_step_head, seed=2):
    head = {"kind": "classifier", "outputs": 3, "per_step": per_step_head}
    return build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=4, num_layers=2, dtype="float64",
                            forget_bias=1.0, head=head), seed=seed)


@pytest.mark.parametrize("per_step_head", [False, True])
@pytest.mark.parametrize("lengths", [None, np.array([7, 3, 1, 6, 7])])
def test_the_loss_is_the_batch_mean_per_scored_unit(per_step_head, lengths):
    m = _model(per_step_head)
    rng = np.random.default_rng(3)
    T, B = 7, 5
    x = rng.standard_normal((T, B, 2))
    y = rng.integers(0, 3, (B, T) if per_step_head else B)
    d = per_step(m, x, y, lengths)
    want = m.loss_and_grad(x, y, lengths)["loss"]
    assert m.last_count > 1
    assert d["loss"] == pytest.approx(want, rel=1e-9)


def test_gradients_that_were_not_zero_are_left_as_they_were():
    m = _model(False)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((6, 4, 2))
    y = rng.integers(0, 3, 4)
    m.loss_and_grad(x, y)                       # an update's gradients, then a diagnosis
    grads = {k: np.array(v) for k, v in m.grads.items()}
    params = {k: np.array(v) for k, v in m.params.items()}
    assert all(np.any(v != 0) for v in grads.values())
    for _ in range(2):
        per_step(m, x, y)
        for k, v in m.grads.items():
            np.testing.assert_array_equal(v, grads[k], err_msg=k)
        for k, v in m.params.items():
            np.testing.assert_array_equal(v, params[k], err_msg=k)
