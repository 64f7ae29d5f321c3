"""lnrnn/model/layers.py's stack-wide calls reach every layer: ``RecurrentStack.zero_grad`` clears the gradients
of each layer (both directions, every depth) after a backward has filled them, the stack's flat gradient buffer
included; ``RecurrentStack.set_batch_reduce`` makes each BN layer's forward sum its statistics through the group's
callback (counted per layer), and None takes it off again."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentStack

I, H, B, T = 3, 5, 4, 6


@pytest.mark.parametrize("bidirectional", [False, True])
def test_zero_grad_clears_every_layer_of_a_stack(bidirectional):
    stack = RecurrentStack("lstm", "ln", I, H, num_layers=2, dtype=np.float64, seed=1, bidirectional=bidirectional)
    rng = np.random.default_rng(0)
    y, _ = stack.forward(rng.standard_normal((T, B, I)))
    stack.backward(rng.standard_normal(y.shape))
    assert len(stack.layers) == 2 * (2 if bidirectional else 1)
    for j, layer in enumerate(stack.layers):          # the backward reached every layer
        assert all(np.any(g != 0) for g in layer.grads.values()), j
    stack.zero_grad()
    for j, layer in enumerate(stack.layers):
        for n, g in layer.grads.items():
            assert not np.any(g), (j, n)
    for n, g in stack.grads.items():
        assert not np.any(g), n
    assert not np.any(stack.flat[1].data)                # the optimizer's flat view of them


def test_set_batch_reduce_reaches_every_bn_layer_and_none_removes_it():
    stack = RecurrentStack("rnn", "bn", H, H, num_layers=3, dtype=np.float64, seed=2, max_steps=T)
    calls = []

    def reduce(buf):                                  # a group of one: the sums stay as they are
        calls.append(buf.size)

    rng = np.random.default_rng(1)
    x = rng.standard_normal((T, B, H))
    per_layer = []
    for layer in stack.layers:                        # count the calls each layer's forward makes
        fwd = layer.forward

        def counted(*a, _fwd=fwd, **k):
            before = len(calls)
            out = _fwd(*a, **k)
            per_layer.append(len(calls) - before)
            return out
        layer.forward = counted
    stack.set_batch_reduce(reduce)
    y_sync, _ = stack.forward(x)
    assert len(per_layer) == 3 and all(n > 0 for n in per_layer), per_layer
    per_layer.clear()
    calls.clear()
    stack.set_batch_reduce(None)
    y_alone, _ = stack.forward(x)
    assert calls == [] and per_layer == [0, 0, 0]
    np.testing.assert_allclose(y_sync, y_alone, rtol=1e-12, atol=1e-13)  # a group of one: the same statistics
