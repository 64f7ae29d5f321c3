"""RecurrentStack.step (lnrnn/model/layers.py) is an inference step unless told otherwise: on a two-layer BN stack
(LSTM and RNN, float64) with population statistics set to values of their own at every step, each step from a
carried state equals the forward of a one-step chunk at that step in inference mode (its row of the population
statistics, not the batch's), and leaves those statistics as they were; asked for training=True, the batch's
statistics (another output), as the forward in training mode."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentStack

T, B, I, H = 4, 5, 3, 4


def bn_stack(cell):
    rng = np.random.default_rng(449)
    stack = RecurrentStack(cell, "bn", I, H, num_layers=2, dtype=np.float64, seed=3, max_steps=T)
    for layer in stack.layers:
        for n, v in layer.buffers.items():
            v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else 0.3 * rng.standard_normal(v.shape)
    return stack, rng.standard_normal((T, B, I))


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_a_step_uses_the_population_statistics_of_its_step(cell):
    stack, x = bn_stack(cell)
    saved = {k: v.copy() for k, v in stack.buffers.items()}
    state = want_state = None
    for t in range(T):
        y, state = stack.step(x[t], state, t=t)
        want, want_state = stack.forward(x[t][None], want_state, training=False, t0=t, keep=False)
        np.testing.assert_array_equal(y, want[0])
        assert all(np.array_equal(a, b) for s, w in zip(state, want_state) for a, b in zip(s, w))
    assert all(np.array_equal(v, saved[k]) for k, v in stack.buffers.items())


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_a_training_step_uses_the_batchs_statistics(cell):
    stack, x = bn_stack(cell)
    y_inf, _ = stack.step(x[1], None, t=1)
    y, _ = stack.step(x[1], None, t=1, training=True)
    stack2, _ = bn_stack(cell)
    want, _ = stack2.forward(x[1][None], None, training=True, t0=1, keep=False)
    np.testing.assert_array_equal(y, want[0])
    assert not np.allclose(y, y_inf)
