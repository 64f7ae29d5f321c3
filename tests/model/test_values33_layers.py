"""lnrnn/model/layers.py: a stack's ``dstate0`` holds each layer's initial-state gradient in the order of
``stack.layers`` (bottom up; a bidirectional layer's forward direction first), checked entry by entry against
central differences of sum(y * R) in the initial state of that very layer, for a plain stack, Graves's skip
stack and bidirectional stacks (with and without skip), three layers deep, LN-LSTM and plain RNN, on a
ragged batch (with a row of length 0, whose initial state reaches no output: its gradient is 0)."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentStack

T, B, I, H, L = 4, 3, 2, 3, 3
LENGTHS = np.array([4, 0, 2])
EPS = 1e-6


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "none")])
@pytest.mark.parametrize("kind", ["plain", "skip", "bidirectional", "bidirectional-skip"])
def test_dstate0_is_each_layers_own_initial_state_gradient(kind, cell, norm):
    stack = RecurrentStack(cell, norm, I, H, num_layers=L, dtype=np.float64, seed=3, skip="skip" in kind,
                           bidirectional=kind.startswith("bi"))
    rng = np.random.default_rng(7)
    for v in stack.params.values():
        v += 0.3 * rng.standard_normal(v.shape)
    x = rng.standard_normal((T, B, I))
    state = [tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate)) for layer in stack.layers]
    R = rng.standard_normal((T, B, stack.output_size)) * (np.arange(T)[:, None] < LENGTHS)[:, :, None]

    def loss():
        y, _ = stack.forward(x, state, training=True, lengths=LENGTHS)
        return float(np.sum(y * R))

    loss()
    stack.backward(R.copy())
    got = stack.dstate0
    assert len(got) == len(stack.layers)
    checked = 0
    for j, layer_state in enumerate(state):
        for s, ds in zip(layer_state, got[j]):
            assert ds.shape == (B, H)
            for b in range(B):
                for i in (0, H - 1):
                    keep = s[b, i]
                    s[b, i] = keep + EPS
                    up = loss()
                    s[b, i] = keep - EPS
                    down = loss()
                    s[b, i] = keep
                    num = (up - down) / (2 * EPS)
                    assert ds[b, i] == pytest.approx(num, rel=1e-6, abs=1e-8), (j, b, i)
                    checked += abs(num) > 1e-6
    assert checked > len(stack.layers)   # most entries matter (the empty row's do not)
