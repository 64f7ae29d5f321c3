"""lnrnn/diagnostics.py's per_step from a given initial state: its loss, computed on the NumPy reference forward of
every layer, is the model's own training loss (``loss_and_grad``, the kernels, BatchNorm on batch statistics) from
the same state, for every cell x norm, two layers, with h0 and c0 drawn apart (a forward that took one for the other
would start elsewhere); and it leaves the model's running statistics as they were."""
import numpy as np
import pytest

from lnrnn.diagnostics import per_step
from lnrnn.model.models import build_model

T, B, I, H = 6, 5, 2, 3


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_the_loss_from_a_given_state_is_the_models_own(cell, norm):
    model = build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                             forget_bias=1.0, head={"kind": "classifier", "outputs": 4, "per_step": False}), seed=2)
    rng = np.random.default_rng(9)
    x, y = rng.standard_normal((T, B, I)), rng.integers(0, 4, B)
    state = [tuple(rng.normal(0, 0.8, z.shape) for z in st) for st in model.stack.zero_state(B)]  # h0 (, c0) a layer
    before = {k: v.copy() for k, v in model.buffers.items()}
    d = per_step(model, x, y, state=state)
    for k, v in model.buffers.items():
        np.testing.assert_array_equal(v, before[k])    # the diagnostics leave the running statistics alone
    want = model.loss_and_grad(x, y, state=state)["loss"]
    assert d["loss"] == pytest.approx(want, rel=1e-12)
    zero = per_step(model, x, y, state=model.stack.zero_state(B))
    assert abs(zero["loss"] - want) > 1e-6           # the given state matters at these sizes
