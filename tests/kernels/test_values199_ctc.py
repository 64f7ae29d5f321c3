"""The CTC kernel (lnrnn/kernels/ctc.py) against the sum over every alignment path, written here in float64 logs:
each of the C^T paths of a row's own steps is collapsed (repeats merged, blanks dropped), log p is the
log-sum-exp of the log-probabilities of the paths that read the label, and dloss/dlogits[t, c] is the softmax
minus the share of those paths that emit c at t. Rows: labels with a repeat, an empty label, a label as long
as the row's steps allow, rows of no step (p = 1 for the empty label, 0 for any other), rows shorter than the
batch's longest (logp 0 past their end), logits tens of nats apart (the float64 exp polynomial), and rows that
fit their label only through a class 800 nats down (the log-space path), whose gradient is also checked by
central differences (lnrnn.gradcheck.numeric_grad)."""
import itertools

import numpy as np

from lnrnn.gradcheck import numeric_grad
from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from test_values48_ctc import packed  # label rows -> labels padded with -1, their lengths
from test_values88_decode import collapse  # a path -> its labelling (a tuple)


def log_softmax(x):
    m = x.max(axis=-1, keepdims=True)
    return (x - m) - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def by_paths(x, label):
    """x (T, C) one row's logits over its own steps -> (log p, dloss/dx (T, C)) from every path."""
    T, C = x.shape
    lp = log_softmax(x.astype(np.float64))
    logs, paths = [], []
    for path in itertools.product(range(C), repeat=T):
        if collapse(path) == tuple(label):
            logs.append(sum(lp[t, k] for t, k in enumerate(path)))
            paths.append(path)
    if not logs:
        return -np.inf, np.zeros((T, C))
    logs = np.array(logs)
    logz = logs.max() + np.log(np.exp(logs - logs.max()).sum())
    share = np.zeros((T, C))
    for w, path in zip(np.exp(logs - logz), paths):
        for t, k in enumerate(path):
            share[t, k] += w
    return logz, np.exp(lp) - share


def run(x, rows, il, dloss):
    labels, ll = packed(rows)
    il = np.asarray(il, np.int64)
    loss, saved = ctc_forward(x, labels, il, ll)
    return loss, saved, ctc_backward(np.asarray(dloss, x.dtype), saved, labels, il, ll)


def check_rows(x, rows, il, dloss, loss, saved, d, atol_loss=1e-12, atol_grad=1e-12):
    for b, r in enumerate(rows):
        logz, grad = by_paths(x[:il[b], b], r)
        if logz == -np.inf:
            assert saved[2][b] == -np.inf and loss[b] == 0.0
        else:
            np.testing.assert_allclose(saved[2][b], logz, rtol=1e-13, atol=atol_loss, err_msg=f"row {b} {r} logz")
            np.testing.assert_allclose(loss[b], -logz, rtol=1e-13, atol=atol_loss, err_msg=f"row {b} {r} loss")
        np.testing.assert_allclose(d[:il[b], b], dloss[b] * grad, rtol=1e-11, atol=atol_grad,
                                   err_msg=f"row {b} {r} gradient")
        assert not d[il[b]:, b].any()


def test_repeats_empty_and_longest_labels_over_rows_of_their_own_lengths():
    """T 4, C 3: 'a a' (a repeat needs a blank between), the empty label, 'b a' on a row of two steps (as long
    as it can be there), 'a b' on three, and a row of no step; logp is 0 past each row's end."""
    rng = np.random.default_rng(19900)
    T, C = 4, 3
    rows = [[1, 1], [], [2, 1], [1, 2], [2]]
    il = [4, 4, 2, 3, 0]
    x = 1.3 * rng.standard_normal((T, len(rows), C))
    dloss = rng.uniform(0.5, 2.0, len(rows))
    loss, saved, d = run(x, rows, il, dloss)
    check_rows(x, rows, il, dloss, loss, saved, d)
    logp = saved[0]
    for b, n in enumerate(il):
        np.testing.assert_allclose(logp[:n, b], log_softmax(x[:n, b]), rtol=0, atol=1e-14)
        assert not logp[n:, b].any(), f"row {b}: logp past its {n} steps"
    assert not saved[3].any()


def test_rows_without_steps_have_p_one_for_the_empty_label_only():
    """No step: the empty label is read by the empty path (p = 1, logz 0); any other label by none (logz -inf,
    loss 0 and no gradient, as zero_infinity)."""
    x = np.random.default_rng(19901).standard_normal((3, 4, 3))
    rows = [[], [1], [2, 2], [1]]
    il = [0, 0, 0, 3]
    loss, saved, d = run(x, rows, il, np.ones(4))
    assert saved[2][0] == 0.0 and loss[0] == 0.0
    assert saved[2][1] == -np.inf and saved[2][2] == -np.inf
    assert not loss[1:3].any() and not d[:, :3].any()
    check_rows(x, rows, il, np.ones(4), loss, saved, d)


def test_logits_tens_of_nats_apart_keep_float64_exactness():
    """The label's classes sit 25 and 38 nats below the blank: its probability is e^-70-ish, which the float64
    softmax (a polynomial exp) must give to 1e-13 relative, and log p to 1e-12."""
    rng = np.random.default_rng(19902)
    T, C = 4, 4
    x = 0.2 * rng.standard_normal((T, 2, C))
    x[:, :, 1] -= 25.0
    x[:, :, 2] -= 38.0
    x[:, :, 3] -= 11.0
    rows = [[1, 2], [3, 1, 3]]
    il = [4, 4]
    loss, saved, d = run(x, rows, il, np.ones(2))
    for b in range(2):
        y = np.exp(log_softmax(x[:, b]))
        np.testing.assert_allclose(np.exp(saved[0][:, b]), y, rtol=1e-13, atol=0)
    check_rows(x, rows, il, np.ones(2), loss, saved, d)


def far_down_batch():
    """Labels readable only through class 1, 800 nats below the others (blank and class 2 tied): log space."""
    rng = np.random.default_rng(19903)
    T, C = 4, 3
    x = 0.05 * rng.standard_normal((T, 3, C))
    x[:, :, 1] -= 800.0
    return x, [[1, 1], [1], [2, 1]], [4, 4, 3]


def test_rows_far_down_in_log_space_against_every_path():
    x, rows, il = far_down_batch()
    dloss = np.array([1.0, 0.7, 1.6])
    loss, saved, d = run(x, rows, il, dloss)
    assert saved[3].all(), "these rows run in log space"
    assert loss.min() > 700.0
    check_rows(x, rows, il, dloss, loss, saved, d, atol_loss=2e-11, atol_grad=1e-11)


def test_log_space_gradient_by_central_differences():
    """The log-space row's summed loss, differentiated numerically over every logit of the batch."""
    x, rows, il = far_down_batch()
    labels, ll = packed(rows)
    il = np.asarray(il, np.int64)
    x = np.ascontiguousarray(x)

    def f():
        return ctc_forward(x, labels, il, ll)[0].sum()

    _, saved = ctc_forward(x, labels, il, ll)
    assert saved[3].all()
    d = ctc_backward(np.ones(3), saved, labels, il, ll)
    np.testing.assert_allclose(d, numeric_grad(f, x, eps=1e-3), rtol=0, atol=1e-7)
