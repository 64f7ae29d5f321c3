"""lnrnn/model/layers.py's stacks under options rarely combined, by value: a padded row of a bidirectional
stack (given initial states) and of a skip stack equals that row run alone over its own steps; a bidirectional
skip stack's dL/dx against central differences in float64; a 2-layer BatchNorm stack evaluated in chunks from
carried states equals the whole sequence (every layer reads its statistics at the chunk's time); and the
columns a head reads at step 0 are the backward directions', by their definition."""
import numpy as np

from lnrnn.gradcheck import numeric_grad
from lnrnn.model.layers import RecurrentStack

T, B, I, H = 4, 2, 2, 3


def _rng_stack(cell, norm, seed=0, **kw):
    s = RecurrentStack(cell, norm, I, H, num_layers=2, dtype=np.float64, seed=seed, max_steps=T, **kw)
    rng = np.random.default_rng(seed + 7)
    for v in s.params.values():
        v += 0.3 * rng.standard_normal(v.shape)
    return s, rng


def _states(stack, rng, B):
    return [tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate)) for layer in stack.layers]


def _row(states, b):
    return [tuple(s[b:b + 1].copy() for s in st) for st in states]


def test_a_padded_row_of_a_bidirectional_stack_is_that_row_alone():
    stack, rng = _rng_stack("lstm", "ln", bidirectional=True)
    x = rng.standard_normal((T, B, I))
    state = _states(stack, rng, B)
    lengths = np.array([T, 2])
    y, final = stack.forward(x, state, training=False, lengths=lengths, keep=False)
    for b, L in enumerate(lengths):
        y1, f1 = stack.forward(np.ascontiguousarray(x[:L, b:b + 1]), _row(state, b), training=False, keep=False)
        np.testing.assert_allclose(y[:L, b:b + 1], y1, rtol=1e-10, atol=1e-12)
        for s, s1 in zip(final, f1):
            for a, a1 in zip(s, s1):
                np.testing.assert_allclose(a[b:b + 1], a1, rtol=1e-10, atol=1e-12)


def test_a_padded_row_of_a_skip_stack_is_that_row_alone():
    stack, rng = _rng_stack("lstm", "ln", skip=True)
    x = rng.standard_normal((T, B, I))
    state = _states(stack, rng, B)
    lengths = np.array([1, T])
    y, final = stack.forward(x, state, training=False, lengths=lengths)
    for b, L in enumerate(lengths):
        y1, f1 = stack.forward(np.ascontiguousarray(x[:L, b:b + 1]), _row(state, b), training=False)
        np.testing.assert_allclose(y[:L, b:b + 1], y1, rtol=1e-10, atol=1e-12)
        for s, s1 in zip(final, f1):
            for a, a1 in zip(s, s1):
                np.testing.assert_allclose(a[b:b + 1], a1, rtol=1e-10, atol=1e-12)


def test_bidirectional_skip_stack_dx_by_central_differences():
    stack, rng = _rng_stack("rnn", "ln", bidirectional=True, skip=True)
    x = rng.standard_normal((T, B, I))
    lengths = np.array([T, 3])
    R = rng.standard_normal((T, B, stack.output_size)) * (np.arange(T)[:, None] < lengths)[:, :, None]

    def loss():
        return float(np.sum(stack.forward(x, None, training=True, lengths=lengths)[0] * R))

    loss()
    dx = stack.backward(R.copy())
    np.testing.assert_allclose(dx, numeric_grad(loss, x), rtol=1e-6, atol=1e-9)


def test_bn_stack_in_chunks_from_carried_states_is_the_whole_sequence():
    stack, rng = _rng_stack("rnn", "bn")
    for layer in stack.layers:  # distinct statistics at every step and layer
        for n, v in layer.buffers.items():
            v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else rng.standard_normal(v.shape)
    x = rng.standard_normal((T, B, I))
    whole, _ = stack.forward(x, None, training=False, keep=False)
    y0, s0 = stack.forward(np.ascontiguousarray(x[:2]), None, training=False, keep=False)
    y1, _ = stack.forward(np.ascontiguousarray(x[2:]), s0, training=False, t0=2, keep=False)
    np.testing.assert_allclose(np.concatenate([y0, y1]), whole, rtol=1e-12, atol=1e-12)


def test_the_columns_read_at_step_zero_are_the_backward_directions():
    for skip in (False, True):
        stack = RecurrentStack("rnn", "none", I, H, num_layers=2, bidirectional=True, skip=skip)
        c = np.arange(stack.output_size)
        np.testing.assert_array_equal(stack.reverse_columns, (c % (2 * H)) >= H)
