"""Recurrent stacks and a per-step model (lnrnn/model/layers.py, models.py), fourteenth pass, in float64 at tiny
sizes (I 2, H 3, tanh RNN cells): a two-layer BatchNorm skip stack in evaluation run as two chunks (steps 0-2, then
3-4 from the carried states, t0 = 3) against lnrnn/reference.py's bn_rnn_forward over all five steps composed
by hand (layer 1 reads [x | h_0], y = [h_0 | h_1]) with population statistics that differ at every step; a
bidirectional stack over T 5, B 3 (lengths 5, 2, 4: T and B differ) against the reference composed row by row;
the input gradients of a bidirectional skip stack and of a three-layer skip stack against central differences of
a weighted sum of y; a per-step classifier's scored count over lengths 4, 1, 3 (the valid steps, 8)."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn import reference
from lnrnn.model.layers import RecurrentStack
from lnrnn.model.models import SequenceClassifier
from test_values257_layers_stacks import bidirectional_by_hand, randomized, skip_by_hand, valid_mask

I, H = 2, 3


def test_a_bn_skip_stack_in_two_chunks_reads_the_statistics_of_its_absolute_steps():
    T, B = 5, 2
    stack = randomized(RecurrentStack("rnn", "bn", I, H, num_layers=2, dtype=np.float64, seed=3, skip=True,
                                      max_steps=T), 29501)
    rng = np.random.default_rng(29502)
    for layer in stack.layers:
        for n, v in layer.buffers.items():
            v[...] = rng.uniform(0.5, 2.0, v.shape) if n.startswith("rv") else rng.normal(0.0, 0.7, v.shape)
    p = {k: np.array(v) for k, v in stack.params.items()}
    bufs = [{n: np.array(v) for n, v in layer.buffers.items()} for layer in stack.layers]
    x = rng.standard_normal((T, B, I))
    y1, s1 = stack.forward(np.ascontiguousarray(x[:3]), training=False, keep=False)
    y2, _ = stack.forward(np.ascontiguousarray(x[3:]), s1, training=False, keep=False, t0=3)
    inp, ys = x, []
    for k in range(2):
        q, b = (lambda n: p[f"l{k}.{n}"]), bufs[k]
        h, _, _ = reference.bn_rnn_forward(inp, np.zeros((B, H)), q("Wx"), q("Wh"), q("b"), q("gx"), q("gh"),
                                           b["rmx"].copy(), b["rvx"].copy(), b["rmh"].copy(), b["rvh"].copy(),
                                           False)
        ys.append(h)
        inp = np.concatenate([x, h], axis=2)
    want = np.concatenate(ys, axis=2)
    np.testing.assert_allclose(np.concatenate([y1, y2]), want, rtol=1e-11, atol=1e-13)


def test_a_bidirectional_stack_over_more_steps_than_rows():
    T, B = 5, 3
    lengths = np.array([5, 2, 4])
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=4,
                                      bidirectional=True), 29503)
    p = {k: np.array(v) for k, v in stack.params.items()}
    x = np.random.default_rng(29504).standard_normal((T, B, I))
    y, _ = stack.forward(x, lengths=lengths)
    np.testing.assert_allclose(y * valid_mask(lengths, T), bidirectional_by_hand(p, x, lengths, False),
                               rtol=1e-12, atol=1e-14)


def test_a_bidirectional_skip_stacks_input_gradient_collects_every_layer():
    T, B = 3, 2
    lengths = np.array([3, 2])
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=5, skip=True,
                                      bidirectional=True), 29505)
    p = {k: np.array(v) for k, v in stack.params.items()}
    rng = np.random.default_rng(29506)
    x = rng.standard_normal((T, B, I))
    w = rng.standard_normal((T, B, 4 * H)) * valid_mask(lengths, T)
    stack.forward(x, lengths=lengths)
    dx = stack.backward(w.copy())
    want = numeric_grad(lambda: float((bidirectional_by_hand(p, x, lengths, True) * w).sum()), x)
    np.testing.assert_allclose(dx, want, rtol=1e-7, atol=1e-10)


def test_a_three_layer_skip_stacks_input_gradient_through_the_layers_above():
    T, B = 3, 2
    stack = randomized(RecurrentStack("rnn", "none", I, H, num_layers=3, dtype=np.float64, seed=6, skip=True),
                       29507)
    p = {k: np.array(v) for k, v in stack.params.items()}
    rng = np.random.default_rng(29508)
    x = rng.standard_normal((T, B, I))
    w = np.zeros((T, B, 3 * H))
    w[:, :, 2 * H:] = rng.standard_normal((T, B, H))   # only the top layer is scored: all of dx comes from above
    stack.forward(x)
    dx = stack.backward(w.copy())
    want = numeric_grad(lambda: float((skip_by_hand(p, x) * w).sum()), x)
    assert np.abs(want).max() > 1e-3
    np.testing.assert_allclose(dx, want, rtol=1e-7, atol=1e-10)


def test_a_per_step_classifiers_count_is_its_valid_steps():
    T, B = 4, 3
    model = SequenceClassifier("rnn", "none", I, H, num_classes=3, per_step=True, dtype="float64", seed=2)
    rng = np.random.default_rng(29509)
    x = rng.standard_normal((T, B, I))
    targets = rng.integers(0, 3, (B, T))
    model.loss_and_grad(x, targets, lengths=np.array([4, 1, 3]))
    assert model.last_count == 4 + 1 + 3
