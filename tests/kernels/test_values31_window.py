"""The window LSTM (lnrnn/kernels/window.py) with BatchNorm when the sequence is longer than the running rows
(T > Ts, as at evaluation on lines longer than any seen in training): inference reads row min(t, Ts-1), so the
steps past Ts all use the last row, and training records steps t < Ts only. Against the NumPy reference,
float64: outputs, running rows and (training and inference) every gradient."""
import numpy as np
import pytest

from test_window import FORWARD_OUT, GRADS, SHAPE, assert_close, kernel_backward, kernel_forward, problem, \
    ref_backward, ref_forward

TS = 3  # SHAPE has T = 7 steps


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_steps_past_the_running_rows(training):
    a, run, lengths, dy, dw = problem(**SHAPE, seed=31)
    run = [np.ascontiguousarray(v[:TS]) for v in run]
    run_ref, run_ker = [v.copy() for v in run], [v.copy() for v in run]
    want = ref_forward(a, run_ref, "bn", training, lengths)
    got = kernel_forward(a, run_ker, "bn", training, lengths)
    for name, g, w in zip(FORWARD_OUT, got[:7], want[:7]):
        assert_close(name, g, w, 1e-12)
    for k, (g, w, r0) in enumerate(zip(run_ker, run_ref, run)):
        assert_close(f"running statistics {k}", g, w, 1e-12)
        assert np.array_equal(g, r0) != training, f"running statistics {k}"
    for name, g, w in zip(GRADS, kernel_backward(dy, dw, got[-1], a, "bn"), ref_backward(dy, dw, want[-1], a)):
        assert_close(name, g, w, 1e-10)
