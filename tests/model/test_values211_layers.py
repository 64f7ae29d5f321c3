"""Recurrent layers and stacks (lnrnn/model/layers.py) in float64 at tiny sizes: a BatchNorm layer's running
statistics, named and shaped from the cell's definition (rm/rv for x and h, (max_steps,H), means 0 and
variances 1 before any update); a two-layer bidirectional model over ragged rows with a last-step head and
T != B, every gradient against central differences of its loss; the refusals' sentences word for word (a
wrong input width, a state of the wrong count, a backward before any forward)."""
import re

import numpy as np
import pytest

from lnrnn.model.layers import RecurrentLayer
from lnrnn.model.models import build_model, head_config
from gradcheck_util import numeric_grad

I, H, C = 2, 3, 3


def test_batchnorm_layer_statistics_span_max_steps():
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, max_steps=4)
    assert {k: v.shape for k, v in layer.buffers.items()} == {n: (4, H) for n in ("rmx", "rvx", "rmh", "rvh")}
    for s in ("x", "h"):
        np.testing.assert_array_equal(layer.buffers["rm" + s], np.zeros((4, H)))
        np.testing.assert_array_equal(layer.buffers["rv" + s], np.ones((4, H)))


def test_two_layer_bidirectional_last_step_gradients_over_ragged_rows():
    T, B = 4, 3
    model = build_model(dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                             forget_bias=1.0, bidirectional=True, state_noise=0.0, head=head_config("ce", C)),
                        seed=2)
    rng = np.random.default_rng(3)
    for v in model.params.values():
        v[...] = rng.normal(0.0, 0.6, v.shape)
    x, labels, lengths = rng.standard_normal((T, B, I)), rng.integers(0, C, B), np.array([2, 4, 1])

    def loss():
        return model.loss_and_grad(x, labels, lengths)["loss"]
    loss()
    grads = {k: np.array(v) for k, v in model.grads.items()}
    for k, p in model.params.items():
        np.testing.assert_allclose(grads[k], numeric_grad(loss, p, order=2, eps=1e-5), rtol=1e-5, atol=1e-8,
                                   err_msg=k)


def test_refusals_word_for_word():
    layer = RecurrentLayer("rnn", "none", 3, H, dtype=np.float64)
    with pytest.raises(ValueError, match="^" + re.escape("x must have shape (?,?,3), got (2, 1, 4)") + "$"):
        layer.forward(np.zeros((2, 1, 4)))
    with pytest.raises(RuntimeError, match="^" + re.escape(
            "backward called before forward, or after an inference forward (keep=False), which keeps nothing "
            "for it") + "$"):
        layer.backward(np.zeros((2, 1, H)))
    lstm = RecurrentLayer("lstm", "none", 3, H, dtype=np.float64)
    with pytest.raises(ValueError, match="^" + re.escape("a lstm layer's state is a tuple of 2 arrays, got 1") + "$"):
        lstm.forward(np.zeros((2, 1, 3)), state=(np.zeros((1, H)),))
