"""lnrnn.jax's params_from_stack (lnrnn/interop/jax.py) at its door: a stand-in with a stack's attributes is refused
with a ValueError naming its type before its layers are read; the synthesis network's WindowStack (a RecurrentStack
with Graves's skip connections, and no JAX twin of its window) is refused as a skip stack; RecurrentStacks one way
and both ways give one set of weights per layer and direction, named as torch.nn.LSTM names them."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax  # noqa: F401
else:
    pytest.importorskip("jax")

import lnrnn.jax as lj  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402
from lnrnn.model.window import WindowStack  # noqa: E402


def test_a_window_stack_is_refused_as_a_skip_stack():
    st = WindowStack("lstm", "ln", 3, 4, num_layers=2, alphabet_size=5, window=2, dtype=np.float64)
    with pytest.raises(ValueError, match="without skip connections; this stack has them"):
        lj.params_from_stack(st)


def test_a_stand_in_with_a_stacks_attributes_is_refused_before_its_layers_are_read():
    class Unread:
        def __iter__(self):
            raise AssertionError("the layers of a refused stack were read")
    fake = SimpleNamespace(skip=False, bidirectional=False, directions=1, layers=Unread())
    with pytest.raises(ValueError, match="not of a SimpleNamespace"):
        lj.params_from_stack(fake)


@pytest.mark.parametrize("bidirectional, layers", [(False, 2), (True, 2), (True, 1)])
def test_recurrent_stacks_give_one_weight_per_layer_and_direction(bidirectional, layers):
    st = RecurrentStack("lstm", "ln", 3, 4, num_layers=layers, dtype=np.float64, bidirectional=bidirectional)
    params, _ = lj.params_from_stack(st)
    ih = sorted(n for n in params if n.startswith("weight_ih_"))
    want = [f"weight_ih_l{j}{s}" for j in range(layers) for s in ("", "_reverse")[:1 + bidirectional]]
    assert ih == sorted(want)
