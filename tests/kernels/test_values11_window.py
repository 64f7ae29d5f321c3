"""The window LSTM (lnrnn/kernels/window.py) with BatchNorm in training on a batch whose last steps have no
active row (every length shorter than T, one of them 0): such a step has no batch statistics, so its running
rows stay as they were (batchnorm.py's rule), and every output and running row equals the NumPy reference's."""
import numpy as np

from test_window import FORWARD_OUT, assert_close, kernel_forward, problem, ref_forward

# T = 4 steps, lengths 2, 0, 1: steps 2 and 3 have no active row; Ts = T + 1 running rows (all updated or not)
EMPTY = dict(T=4, B=3, I=2, H=3, K=2, C=5, U=4, lengths=[2, 0, 1], ulen=[4, 2, 3])


def test_steps_without_an_active_row_leave_the_running_rows_alone():
    a, run, lengths, _, _ = problem(**EMPTY, seed=7)
    run_ref, run_ker = [v.copy() for v in run], [v.copy() for v in run]
    want = ref_forward(a, run_ref, "bn", True, lengths)
    got = kernel_forward(a, run_ker, "bn", True, lengths)
    for name, g, w in zip(FORWARD_OUT, got[:7], want[:7]):
        assert_close(name, g, w, 1e-12)
    for k, (g, r0) in enumerate(zip(run_ker, run)):
        np.testing.assert_array_equal(g[2:], r0[2:], err_msg=f"running statistics {k}: steps 2.. changed")
        assert not np.array_equal(g[:2], r0[:2]), f"running statistics {k}: steps 0, 1 not updated"
    for k, (g, w) in enumerate(zip(run_ker, run_ref)):
        assert_close(f"running statistics {k}", g, w, 1e-12)
