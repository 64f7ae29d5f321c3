"""Padded steps add nothing to a cell's backward (lnrnn/model/functional.py: backward; the registry's
``masked_kernel`` in lnrnn/model/cells.py says which kernels drop them themselves): for each of the six cells, the
gradients of a padded batch whose dL/dy is nonzero at the padded steps equal those with dL/dy zeroed there, and
the padded steps' dL/dy is not a no-op when the row runs (the same dL/dy on a full batch moves the gradients).
Float64, test_values282_cells' problem (T 4, B 3, I 7, H 5), lengths (4, 2, 1)."""
import numpy as np
import pytest

from lnrnn.model import functional
from test_values282_cells import B, H, T, setup_of

LENGTHS = np.array([4, 2, 1], np.int64)
NAMES = ("rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm")


def grads(name, dy, lengths):
    spec, p, x, state, _ = setup_of(name, 1)
    s = functional.setup(spec, H, np.float64)
    bufs = spec.init_buffers(H, T, np.float64)
    _, _, saved = functional.forward(s, x, state, p, bufs, training=True, lengths=lengths)
    dx, d0, dp = functional.backward(s, dy.copy(), saved, x, state, p, lengths=lengths)
    return [np.asarray(dx)] + [np.asarray(d) for d in d0] + [np.asarray(g) for g in dp]


@pytest.mark.parametrize("name", NAMES)
def test_padded_steps_add_nothing_to_the_gradients(name):
    dy = np.random.default_rng(2).standard_normal((T, B, H))
    running = (np.arange(T)[:, None] < LENGTHS)[:, :, None]
    spread = grads(name, dy, LENGTHS)
    dropped = grads(name, dy * running, LENGTHS)
    for a, b in zip(spread, dropped):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)
    full = grads(name, dy, None)
    assert any(not np.allclose(a, b) for a, b in zip(spread, full))
