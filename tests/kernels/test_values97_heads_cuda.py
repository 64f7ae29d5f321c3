"""The heads' CUDA twins under the simulator, float64: the classifier's and CTC head's per-row sums
(losses_cuda), the mixture density objective (mdn_cuda) and CTC (ctc_cuda), against definitions written here in
NumPy and against the CPU twins (mdn, ctc).

softmax_xent: -log softmax at the label, the gradient scale (softmax - onehot), correct where the first argmax is
the label, on B = 3 rows and C = 4 classes whose labels include the last class, a masked row and a row labelled
-1. ctc_rows: the edit distance of the best path to each row's labels by the Levenshtein recursion, on label
lengths 2 and 3 over T = 3 steps. mdn: pen-up and pen-down points, log-sigmas of both coordinates that differ,
a padded row. CTC: every one of the C^Tb paths of each row collapsed by hand, labels as long as T (one path
left), a repeat that needs a blank between, two different labels with T = 2 (the skip over the blank), an empty
label; dloss not 1.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import ctc, ctc_cuda, losses_cuda, mdn, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import empty, to_device  # noqa: E402
from lnrnn.reference import mdn_nll  # noqa: E402
from test_cuda_kernels import close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from test_values75_ctc_cuda import by_definition  # noqa: E402

TOL = 1e-12


def log_softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def test_softmax_xent_rows_and_gradient_by_definition():
    """Row 0: label 3 (the last class) holds the largest logit (correct); row 1: label 1, largest logit 3
    (wrong); row 2: masked (nothing scored); row 3: label -1 (nothing scored)."""
    hw = np.array([[0.1, -0.4, 0.3, 2.0], [0.2, 0.5, -1.0, 1.5], [3.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
    b = np.array([0.05, -0.1, 0.2, 0.0])
    labels = np.array([3, 1, 0, -1], np.int64)
    mask = np.array([1.0, 1.0, 0.0, 1.0])
    scale = 0.25
    d, rows = empty(hw.shape, np.float64), empty((4, 2), np.float64)
    losses_cuda.softmax_xent(to_device(hw), to_device(b), to_device(labels), to_device(mask), scale, d, rows)
    lp = log_softmax(hw + b)
    on = np.array([True, True, False, False])
    want_rows = np.zeros((4, 2))
    want_d = np.zeros_like(hw)
    for r in np.flatnonzero(on):
        want_rows[r] = -lp[r, labels[r]], float(np.argmax(hw[r] + b) == labels[r])
        want_d[r] = scale * (np.exp(lp[r]) - np.eye(4)[labels[r]])
    np.testing.assert_allclose(host(rows), want_rows, rtol=0, atol=TOL)
    np.testing.assert_allclose(host(d), want_d, rtol=0, atol=TOL)
    assert host(rows)[:, 1].tolist() == [1.0, 0.0, 0.0, 0.0]


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def test_ctc_rows_edit_distance_by_definition():
    """Best paths (by construction): row 0 emits 1 against labels 1 2 (distance 1), row 1 emits 2 1 against 2 1 2
    (1), row 2 emits 1 2 against 1 2 (0)."""
    T, B, C = 3, 3, 3
    best = np.array([[1, 0, 0], [2, 1, 1], [1, 0, 2]]).T            # (T,B) the most probable class at each step
    scores = np.where(np.eye(C)[best] > 0, 2.0, 0.0)                 # (T,B,C)
    labels = np.array([[1, 2, 0], [2, 1, 2], [1, 2, 0]], np.int64)
    label_lengths = np.array([2, 3, 2], np.int64)
    input_lengths = np.array([3, 3, 3], np.int64)
    loss, saved = ctc_cuda.ctc_forward(scores, labels, input_lengths, label_lengths)
    rows = empty((B, 2), np.float64)
    losses_cuda.ctc_rows(loss, saved[0], to_device(labels), to_device(input_lengths), to_device(label_lengths), rows)
    hyps = []
    for b in range(B):
        seq, prev = [], None
        for c in best[:, b]:
            if c != 0 and c != prev:
                seq.append(int(c))
            prev = c
        hyps.append(seq)
    assert hyps == [[1], [2, 1], [1, 2]]
    want = [levenshtein(labels[b, :label_lengths[b]].tolist(), hyps[b]) for b in range(B)]
    assert want == [1, 1, 0]
    got = host(rows)
    np.testing.assert_array_equal(got[:, 1], want)
    np.testing.assert_allclose(got[:, 0], host(loss), rtol=0, atol=0)


def test_mdn_twin_equals_cpu_twin_and_spec():
    M = 2
    rng = np.random.default_rng(9720)
    N = 5
    y = 0.6 * rng.standard_normal((N, 6 * M + 1))
    y[:, 1 + 4 * M:1 + 5 * M] += 0.8                                 # log-sigma 2 unlike log-sigma 1
    t = np.zeros((N, 3))
    t[:, :2] = 0.5 * rng.standard_normal((N, 2))
    t[:, 2] = [1, 0, 1, 0, 1]
    v = np.array([1.0, 1.0, 1.0, 1.0, 0.0])
    nll_g, saved_g = mdn_cuda.mdn_forward(y, t, v, M)
    nll_c, saved_c = mdn.mdn_forward(y, t, v, M)
    spec = mdn_nll(y, t, v, M, smax=mdn.SMAX)
    np.testing.assert_allclose(host(nll_g), spec, rtol=1e-12, atol=1e-12)
    assert close(host(nll_g), nll_c) < TOL
    g = np.array([0.7, -1.3, 0.4, 2.0, 1.0])
    d_g = host(mdn_cuda.mdn_backward(g, saved_g, y, t, M))
    d_c = mdn.mdn_backward(g, saved_c, y, t, M)
    assert close(d_g, d_c) < TOL, f"dyhat: {close(d_g, d_c):.2e}"
    assert np.all(d_g[4] == 0.0)


CT = 3
LABELS = [[1, 2, 1], [1, 1], [2, 1], [], [1, 2]]
INPUT_LENGTHS = [3, 3, 2, 3, 3]


def ctc_by_definition(logits, g):
    """loss (B,), dlogits (T,B,CT) from the sum over every path of each row (test_values75_ctc_cuda's)."""
    return by_definition(logits, g, LABELS, INPUT_LENGTHS)


def test_ctc_twin_equals_definition_and_cpu_twin():
    T, B = 3, len(LABELS)
    rng = np.random.default_rng(9730)
    logits = rng.standard_normal((T, B, CT))
    labels = np.full((B, 3), 2, np.int64)
    for b, lab in enumerate(LABELS):
        labels[b, :len(lab)] = lab
    input_lengths = np.array(INPUT_LENGTHS, np.int64)
    label_lengths = np.array([len(lab) for lab in LABELS], np.int64)
    dloss = np.array([0.5, 1.5, -0.7, 2.0, 1.2])
    loss_g, saved_g = ctc_cuda.ctc_forward(logits, labels, input_lengths, label_lengths)
    d_g = host(ctc_cuda.ctc_backward(dloss, saved_g, labels, input_lengths, label_lengths))
    loss_c, saved_c = ctc.ctc_forward(logits, labels, input_lengths, label_lengths)
    d_c = ctc.ctc_backward(dloss, saved_c, labels, input_lengths, label_lengths)
    want_loss, want_d = ctc_by_definition(logits, dloss)
    np.testing.assert_allclose(host(loss_g), want_loss, rtol=0, atol=TOL)
    np.testing.assert_allclose(d_g, want_d, rtol=0, atol=TOL)
    assert close(host(loss_g), loss_c) < TOL and close(d_g, d_c) < 1e-10
