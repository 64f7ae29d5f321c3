"""RecurrentStack.step (lnrnn/model/layers.py) is an inference step: on two-layer stacks of every cell and norm,
a step runs each layer's infer kernel once (the plain and LN cells; the BN cells, which have none, their
forward), saves nothing for a backward (which then raises), and equals the one-step forward in inference mode
that keeps its activations, to the bit. Kernels counted with test_infer_path's wrappers."""
import numpy as np
import pytest

from test_infer_path import ALL, count_kernels, stack_and_data


@pytest.mark.parametrize("cell,norm", ALL)
def test_a_step_runs_the_infer_kernels_and_saves_nothing(cell, norm, monkeypatch):
    s, x, state = stack_and_data(cell, norm)
    want, want_state = s.forward(x[2][None], state, training=False, t0=2)        # keeps its activations
    calls = count_kernels(monkeypatch)
    y, got_state = s.step(x[2], state, t=2)
    assert calls == ({f"bn_{cell}_forward": 2} if norm == "bn" else {f"{cell}_infer": 2})
    np.testing.assert_array_equal(y, want[0])
    assert all(np.array_equal(a, b) for s_, w in zip(got_state, want_state) for a, b in zip(s_, w))
    assert all(layer._saved is None for layer in s.layers)
    with pytest.raises(RuntimeError, match=r"inference forward \(keep=False\)"):
        s.backward(np.zeros_like(want))
