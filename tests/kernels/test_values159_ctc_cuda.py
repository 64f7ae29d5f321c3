"""CTC's CUDA twin (lnrnn/kernels/ctc_cuda.py) on rows of their own input and label lengths, against the
definition (p(l | x) summed here over every one of the C^Tb paths of a row, each collapsed by hand: repeats
merged, then blanks dropped; loss -log p; dlogits = dloss (softmax - the paths' posterior counts)) and against
the CPU twin (lnrnn/kernels/ctc.py), under Numba's simulator (or on a GPU).

T = 5, C = 3, blocks of 4 threads (S = 5 positions: two strides, idle threads). The rows: an empty label over 3
steps; a repeated label [1 1] over 2L+1 = 5 steps; [2] over a single step; [1 2] over exactly L = 2 steps;
[2 1] and [1] with every logit shifted by -800 and +800 (a softmax shifted by its first logit or a max from 0
underflows or overflows there; the definition is shift-free). dloss is not 1 and differs per row. float64."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import ctc, ctc_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from test_values75_ctc_cuda import by_definition as paths_by_definition  # noqa: E402

T, C = 5, 3
LABELS = [[], [1, 1], [2], [1, 2], [2, 1], [1]]
INPUT_LENGTHS = [3, 5, 1, 2, 5, 4]
SHIFTS = [0.0, 0.0, 0.0, 0.0, -800.0, 800.0]
TOL = 1e-10


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def problem():
    rng = np.random.default_rng(159)
    B = len(LABELS)
    base = rng.standard_normal((T, B, C))
    logits = base + np.array(SHIFTS)[None, :, None]
    labels = np.full((B, 2), 2, np.int64)  # padding with a class: a read past a label finds a valid code
    for b, lab in enumerate(LABELS):
        labels[b, :len(lab)] = lab
    il = np.array(INPUT_LENGTHS, np.int64)
    ll = np.array([len(lab) for lab in LABELS], np.int64)
    g = np.array([1.5, -0.7, 2.0, 0.4, 1.1, -1.3])
    return base, logits, labels, il, ll, g


def by_definition(base, g):
    """loss (B,), dlogits (T,B,C) from the sum over all paths of each row, on the unshifted logits."""
    return paths_by_definition(base, g, LABELS, INPUT_LENGTHS)


def test_rows_of_unequal_lengths_equal_the_sum_over_paths():
    base, logits, labels, il, ll, g = problem()
    want_loss, want_d = by_definition(base, g)
    loss, saved = ctc_cuda.ctc_forward(logits, labels, il, ll)
    d = to_host(ctc_cuda.ctc_backward(g, saved, labels, il, ll))
    np.testing.assert_allclose(to_host(loss), want_loss, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(d, want_d, rtol=0, atol=TOL)


def test_one_step_row_is_its_class_probability():
    """[2] over one step: the only path is the class itself, p = softmax(step 0)[2], by hand."""
    base, logits, labels, il, ll, g = problem()
    x = base[0, 2]
    want = -(x[2] - np.log(np.exp(x).sum()))
    loss, _ = ctc_cuda.ctc_forward(logits, labels, il, ll)
    assert to_host(loss)[2] == pytest.approx(want, rel=1e-12)


def test_equals_the_cpu_twin():
    _, logits, labels, il, ll, g = problem()
    loss_c, saved_c = ctc.ctc_forward(logits, labels, il, ll)
    d_c = ctc.ctc_backward(g, saved_c, labels, il, ll)
    loss_g, saved_g = ctc_cuda.ctc_forward(logits, labels, il, ll)
    d_g = to_host(ctc_cuda.ctc_backward(g, saved_g, labels, il, ll))
    np.testing.assert_allclose(to_host(loss_g), loss_c, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(d_g, d_c, rtol=0, atol=TOL)
    logp_g = to_host(saved_g[0])
    for b, Tb in enumerate(INPUT_LENGTHS):  # the log-softmax over the row's own steps
        np.testing.assert_allclose(logp_g[:Tb, b], saved_c[0][:Tb, b], rtol=0, atol=TOL)
