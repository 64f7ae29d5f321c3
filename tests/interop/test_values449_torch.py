"""lnrnn.torch's loader of exported tensors (lnrnn/interop/torch.py: _from_tensors, what load_exported and from_run
build from) takes BN running statistics of any number of steps from one, each table kept row for row, and refuses a
table of no step, of one or three dimensions, or of another width, in its one sentence; a BN-LSTM of one layer,
float64."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from lnrnn.interop.export import exported_tensors  # noqa: E402
from lnrnn.interop.torch import _from_tensors  # noqa: E402
from lnrnn.model.models import build_model, head_config  # noqa: E402

G = 12  # 4 H, H 3
MEAN = "rnn.norm_ih_running_mean_l0"


def bn_model():
    return build_model(dict(cell="lstm", norm="bn", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=head_config("ce", 2)), seed=1, max_steps=4)


def with_table(rows):
    """The model's tensors, every running table cut or grown to ``rows`` steps (values of their own)."""
    model = bn_model()
    rng = np.random.default_rng(449)
    tensors = exported_tensors(model)
    for k in [k for k in tensors if "_running_" in k]:
        tensors[k] = rng.uniform(0.5, 1.5, (rows, tensors[k].shape[1]))
    return model.config, tensors


@pytest.mark.parametrize("rows", [1, 2, 4, 7])
def test_statistics_of_any_number_of_steps_are_taken_row_for_row(rows):
    config, tensors = with_table(rows)
    stack, _ = _from_tensors(config, tensors)
    got = dict(stack.state_dict())
    for k, v in tensors.items():
        if "_running_" in k:
            kept = got[k[len("rnn."):]]
            assert tuple(kept.shape) == (rows, v.shape[1])
            np.testing.assert_array_equal(kept.numpy(), v)


@pytest.mark.parametrize("shape", [(0, G), (G,), (3, G + 1), (3, G, 1)])
def test_a_table_of_no_step_or_another_shape_is_refused(shape):
    config, tensors = with_table(3)
    tensors[MEAN] = np.ones(shape)
    said = (r"^the tensors do not fit the bn-lstm stack the model config describes "
            r"\(rnn\.norm_ih_running_mean_l0 missing, unexpected or of another shape\)\.$")
    with pytest.raises(ValueError, match=said):
        _from_tensors(config, tensors)
