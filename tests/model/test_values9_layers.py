"""lnrnn/model/layers.py with truncated BPTT and BatchNorm: a BN layer made with room for one step and trained
on a sequence in chunks (each from its own step t0, the state carried) gives the outputs and state of the
whole sequence, grows its statistics to every step it saw (new rows start from the last row, as
``functional.grown`` says), and each chunk updates its own steps' rows and no earlier ones; float64."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentLayer


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_chunks_grow_the_statistics_to_every_step_seen(cell):
    rng = np.random.default_rng(3)
    T, B, I, H = 7, 4, 3, 5
    x = rng.standard_normal((T, B, I))
    whole = RecurrentLayer(cell, "bn", I, H, dtype=np.float64, max_steps=1, seed=2)
    parts = RecurrentLayer(cell, "bn", I, H, dtype=np.float64, max_steps=1, seed=2)
    y_whole, s_whole = whole.forward(x)
    ys, state = [], None
    for t0, t1 in ((0, 2), (2, 5), (5, 7)):
        before = {n: v.copy() for n, v in parts.buffers.items()}
        y, state = parts.forward(np.ascontiguousarray(x[t0:t1]), state, t0=t0)
        ys.append(y)
        for n, v in parts.buffers.items():
            assert v.shape[0] == t1, (n, t0)
            np.testing.assert_array_equal(v[:t0], before[n][:t0])      # earlier steps' rows untouched
            start = before[n][-1]                                      # new rows start from the last one
            for t in range(max(t0, 1), t1):                            # (step 0's h side reads the zero state)
                assert not np.allclose(v[t], start), (n, t)            # ... and this chunk updated them
    np.testing.assert_allclose(np.concatenate(ys), y_whole, rtol=1e-12, atol=1e-12)
    for a, b in zip(state, s_whole):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
