"""Recurrent layers and stacks (lnrnn/model/layers.py) in float64 at tiny sizes: a BatchNorm RNN layer's
inference over more steps than its statistics hold (max_steps 2, T 4 and 2; H 3 so that rows and width
differ) against lnrnn.reference.bn_rnn_forward with the population statistics (steps past the last row
reuse it), its statistics untouched; the size refusal's sentence with each value's repr (a string '3', 2.5,
True); a bidirectional stack refusing a chunk from t0 = 1 and 2 word for word and running t0 = 0; step's
refusal of an input of the wrong rank (its shape) and of a list (its type), word for word."""
import re

import numpy as np
import pytest

from lnrnn import reference
from lnrnn.model.layers import RecurrentLayer, RecurrentStack

I, H = 2, 3


def bn_layer(max_steps):
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, seed=1, max_steps=max_steps)
    rng = np.random.default_rng(2)
    for v in layer.params.values():
        v[...] = rng.normal(0.0, 0.8, v.shape)
    for n, v in layer.buffers.items():                    # distinct statistics on every row
        v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else rng.normal(0.0, 0.5, v.shape)
    return layer


@pytest.mark.parametrize("T", [4, 2])
def test_batchnorm_inference_past_max_steps_reads_the_population_rows(T):
    layer = bn_layer(max_steps=2)
    B = 3
    rng = np.random.default_rng(3)
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    stats = {n: np.array(v) for n, v in layer.buffers.items()}
    p = layer.params
    want, want_h, _ = reference.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"],
                                               *(np.array(stats[n]) for n in ("rmx", "rvx", "rmh", "rvh")),
                                               training=False, eps=layer.eps)
    for keep in (False, True):
        y, (hT,) = layer.forward(x, (h0,), training=False, keep=keep)
        np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(hT, want_h, rtol=1e-12, atol=1e-14)
    for n, v in layer.buffers.items():
        np.testing.assert_array_equal(v, stats[n], err_msg=n)


@pytest.mark.parametrize("size, shown", [("3", "'3'"), (2.5, "2.5"), (True, "True")])
def test_a_size_refusal_shows_the_value_as_python_writes_it(size, shown):
    with pytest.raises(ValueError, match="^" + re.escape(
            f"RecurrentLayer: input_size must be a positive integer, not {shown}.") + "$"):
        RecurrentLayer("rnn", "none", size, H)


def test_a_bidirectional_stack_refuses_every_chunk_after_the_first_step():
    stack = RecurrentStack("rnn", "none", I, H, dtype=np.float64, bidirectional=True)
    x = np.random.default_rng(4).standard_normal((3, 2, I))
    for t0 in (1, 2):
        with pytest.raises(ValueError, match="^" + re.escape(
                "a bidirectional stack reads whole sequences; it cannot run a chunk from a carried state "
                f"(t0={t0})") + "$"):
            stack.forward(x, t0=t0)
    y, states = stack.forward(x, t0=0)
    assert y.shape == (3, 2, 2 * H) and len(states) == 2


def test_step_refuses_an_input_of_the_wrong_rank_by_its_shape_and_a_list_by_its_type():
    stack = RecurrentStack("rnn", "none", I, H, dtype=np.float64)
    with pytest.raises(ValueError, match="^" + re.escape("x_t must be a (B,I) array, got (2,)") + "$"):
        stack.step(np.zeros(2))
    with pytest.raises(ValueError, match="^" + re.escape("x_t must be a (B,I) array, got (1, 1, 2)") + "$"):
        stack.step(np.zeros((1, 1, 2)))
    with pytest.raises(ValueError, match="^" + re.escape("x_t must be a (B,I) array, got list") + "$"):
        stack.step([[0.0, 0.0]])
