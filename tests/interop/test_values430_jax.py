"""The BatchNorm statistics lnrnn.jax makes for a stack (lnrnn/interop/jax.py: init_stats), against those it reads
from an lnrnn stack of the same shape (params_from_stack): the same names (per layer, and per direction when
bidirectional), shapes (max_steps rows) and values (means 0, variances 1), for one layer and three, one
direction and two; a cell without BatchNorm has none."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") != "1":  # CI requires the extras: a missing jax fails there
    pytest.importorskip("jax")

from lnrnn.interop.jax import init_stats, params_from_stack  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

H, T = 3, 4


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("layers", [1, 3])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_init_stats_are_a_fresh_stacks_statistics(cell, layers, bidirectional):
    stack = RecurrentStack(cell, "bn", 2, H, num_layers=layers, dtype=np.float32, max_steps=T,
                           bidirectional=bidirectional)
    want = params_from_stack(stack)[1]
    got = init_stats(cell, "bn", H, num_layers=layers, max_steps=T, bidirectional=bidirectional)
    assert sorted(got) == sorted(want)
    assert len(got) == len(want) > 0
    for name in want:
        assert got[name].shape == want[name].shape and got[name].shape[0] == T, name
        np.testing.assert_array_equal(np.asarray(got[name]), np.asarray(want[name]), err_msg=name)


def test_a_cell_without_batchnorm_has_no_statistics():
    assert init_stats("lstm", "ln", H, num_layers=2, max_steps=T, bidirectional=True) == {}
