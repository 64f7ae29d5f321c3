"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) against its CPU twin (lnrnn/kernels/window.py) in
float64 under Numba's simulator, on the cases the earlier files leave out: a text as long as the row (U = 5
characters, longer than the batch B = 3), an empty text and one of two characters; a row that never runs (length
0), one that runs a single step and one that stops a step early; LayerNorm with K = 1 and BatchNorm in training
with K = 2 (each side holding its own number of running rows). Forward outputs, the saved c and kappa, the running
rows and every gradient to 1e-10 of the CPU twin's magnitude, and the LayerNorm gains' gradients judged apart from
each other (dgx, dgh and dgc are three different sums).

A second chunk (t0 = 2) started from the first chunk's h, c, kappa and w equals the tail of one run over all four
steps of the CPU twin: the carried kappa and window are the whole state the window needs.

The twin refuses, in one sentence, a chars array whose rows are not the batch's and an input without time steps.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_LN  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from test_cuda_kernels import close  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
# the problem (T = 4, B = 3, H = 5, U = 5, C = 3, running rows 2, 4, 3) and one run of a twin, forward and backward
from test_values152_window_cuda import (BWD_ARGS, EPS, FWD_OUT, GRADS, MOM, TOL, U, problem,  # noqa: E402
                                        run_twin)

# (norm, K, texts, lengths): a full-width text (U > B), an empty one, a row of length 0 or one stopping early
CASES = {"ln-K1": ("ln", 1, [U, 0, 2], [4, 0, 1]),
         "bn-K2": ("bn", 2, [2, U, 0], [3, 4, 1])}


def check_same_as_cpu(got, want):
    """run_twin's four groups (outputs, saved c and kappa, running rows, gradients) of the CUDA twin, got, against
    the CPU twin's, want: the same count and shapes, values to TOL (also used by test_values187_window_cuda)."""
    for group, names, g, e in zip(("output", "saved", "running row", "gradient"),
                                  (FWD_OUT, ("c", "kappa"), range(6), GRADS), got, want):
        assert len(g) == len(e), group
        for name, x, y in zip(names, g, e):
            assert x.shape == y.shape, f"{group} {name}"
            assert close(x, y) < TOL, f"{group} {name}: {close(x, y):.2e}"


@pytest.mark.parametrize("case", list(CASES))
def test_layer_equals_the_cpu_twin(case):
    norm, K, ulen, lengths = CASES[case]
    a, run, lengths, dy, dw = problem(175 + K, K, ulen, lengths)
    want = run_twin(cpu, a, run, lengths, dy, dw, norm, np.asarray)
    got = run_twin(window_cuda, a, run, lengths, dy, dw, norm, to_host)
    check_same_as_cpu(got, want)
    phi = got[0][6]
    full = ulen.index(U)
    assert (phi[:, full, U - 1] > 0).all(), "the full-width text's last character is weighed"
    g = dict(zip(GRADS, got[3]))
    assert np.abs(g["Wp"][:, -K:]).max() > 1e-8, "the kappa steps' projection carries a gradient"
    if norm == "ln":  # three different sums: none may stand in for another
        assert close(g["gh"], g["gx"]) > 1e-3 and close(g["gc"], g["bc"]) > 1e-3 and close(g["gx"], g["bx"]) > 1e-3
    else:
        assert close(g["gc"], g["bc"]) > 1e-3 and np.abs(g["gx"]).max() > 1e-6


def test_second_chunk_carrying_kappa_and_window_equals_one_run():
    """Chunks of 2 + 2 steps with LayerNorm and K = 1, every row running all four steps: the CUDA twin's second
    chunk, started from the CPU twin's first-chunk h, c, kappa and w, equals steps 2..3 of the CPU twin's run over
    all four, outputs and final state."""
    K = 1
    a, run, _, _, _ = problem(1751, K, [U, 0, 2], [4, 4, 4])
    full = np.full(3, 4, np.int64)
    none = [np.zeros((0, 0))] * 6
    y, w, hT, cT, kT, wT, phi, _ = cpu.window_lstm_forward(*a.values(), *none, NORM_LN, True, MOM, EPS, full, False)
    first = dict(a, x=a["x"][:2])
    _, _, h2, c2, k2, w2, _, _ = cpu.window_lstm_forward(*first.values(), *none, NORM_LN, True, MOM, EPS,
                                                          np.full(3, 2, np.int64), False)
    second = dict(a, x=a["x"][2:], h0=h2, c0=c2, kappa0=k2, w0=w2)
    *outs, _ = window_cuda.window_lstm_forward(*second.values(), *none, NORM_LN, True, MOM, EPS,
                                               np.full(3, 2, np.int64), False)
    want = (y[2:], w[2:], hT, cT, kT, wT, phi[2:])
    for name, g, e in zip(FWD_OUT, outs, want):
        g = to_host(g)
        assert g.shape == e.shape and close(g, e) < TOL, f"{name}: {close(g, e):.2e}"
    assert (to_host(outs[4]) > a["kappa0"]).all(), "kappa carried on from where the first chunk left it"


def test_refusals_name_the_bad_argument():
    K = 1
    a, run, lengths, _, _ = problem(1752, K, [1, 0, 2], [4, 4, 4])
    none = [np.zeros((0, 0))] * 6
    bad = dict(a, chars=np.concatenate([a["chars"], a["chars"][:1]]))  # B + 1 rows of text
    with pytest.raises(ValueError, match=r"^chars must be \(B,U\) and ulen \(B,\) with B = 3, got \(4, 5\)"):
        window_cuda.window_lstm_forward(*bad.values(), *none, NORM_LN, True, MOM, EPS, lengths, True)
    empty = dict(a, x=a["x"][:0])
    with pytest.raises(ValueError, match=r"needs at least one time step \(x has T = 0\)"):
        window_cuda.window_lstm_forward(*empty.values(), *none, NORM_LN, True, MOM, EPS, lengths, True)
    with pytest.raises(ValueError, match="saved tuple of a forward run with keep=True"):
        window_cuda.window_lstm_backward(np.zeros((4, 3, 5)), np.zeros((4, 3, 3)), None,
                                         *[a[k] for k in BWD_ARGS], NORM_LN, 0.0)
