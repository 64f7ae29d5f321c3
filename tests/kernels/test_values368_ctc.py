"""lnrnn/kernels/ctc.py against the definition: the loss is -log of the sum, over every alignment of T_b
steps that collapses to the label (repeats merged, then blanks dropped), of the product of the softmax's
emissions, counted here by brute force on tiny rows (T 4, C 3: repeats needing a blank, ragged input and
label lengths); the gradient against central differences of that brute-force loss; and a row whose label
classes sit 800 nats under the blank (the rescaled recursion underflows and the log-space path runs) against
the same brute-force sum taken in log space."""
import itertools

import numpy as np

from lnrnn.kernels.ctc import ctc_backward, ctc_forward


def log_softmax(x):
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def collapse(path):
    return tuple(k for i, k in enumerate(path) if k != 0 and (i == 0 or path[i - 1] != k))


def brute_loss(x, label):
    """-log of the sum over every path of x's (T,C) steps that collapses to label, in log space."""
    T, C = x.shape
    lp = log_softmax(x)
    terms = [lp[np.arange(T), list(path)].sum() for path in itertools.product(range(C), repeat=T)
             if collapse(path) == tuple(label)]
    m = max(terms)
    return -(m + np.log(np.sum(np.exp(np.array(terms) - m))))


def tiny_problem():
    """Three rows, T 4, C 3: label (1, 1) over 4 steps (the repeat needs a blank between), (2,) over 3 steps
    (its 4th step padding), (1, 2) over 4 steps."""
    x = 1.5 * np.random.default_rng(368).standard_normal((4, 3, 3))
    labels = np.array([[1, 1], [2, -1], [1, 2]])
    return x, labels, np.array([4, 3, 4]), np.array([2, 1, 2])


def row_losses(x, labels, il, ll):
    return np.array([brute_loss(x[:il[b], b], labels[b, :ll[b]]) for b in range(x.shape[1])])


def test_loss_equals_the_sum_over_every_alignment():
    x, labels, il, ll = tiny_problem()
    loss, saved = ctc_forward(x, labels, il, ll)
    np.testing.assert_allclose(loss, row_losses(x, labels, il, ll), rtol=1e-12)
    assert not saved[3].any()                        # rescaled throughout


def test_gradient_equals_central_differences_of_the_brute_force_loss():
    """d(sum g loss)/dlogits by central differences (h 1e-5) of the brute-force losses; steps past a row's
    length get 0."""
    x, labels, il, ll = tiny_problem()
    g = np.array([1.0, -0.5, 2.0])
    _, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    num = np.zeros_like(x)
    h = 1e-5
    for idx in np.ndindex(*x.shape):
        xp, xm = x.copy(), x.copy()
        xp[idx] += h
        xm[idx] -= h
        num[idx] = (g @ row_losses(xp, labels, il, ll) - g @ row_losses(xm, labels, il, ll)) / (2 * h)
    np.testing.assert_allclose(d, num, rtol=1e-6, atol=1e-8)
    assert np.all(d[3, 1] == 0.0)


def test_a_row_far_below_the_blank_runs_in_log_space_and_equals_the_sum():
    """Label (1, 2) over 3 steps, C 3, every label class 800 nats under the blank: each alignment's
    probability is about e^-1600, far under float64's range; -log p (about 1600) against the brute-force sum
    in log space, and the row flagged as run in log space."""
    x = 0.3 * np.random.default_rng(5).standard_normal((3, 1, 3))
    x[:, 0, 1:] -= 800.0
    labels = np.array([[1, 2]])
    il, ll = np.array([3]), np.array([2])
    loss, saved = ctc_forward(x, labels, il, ll)
    want = brute_loss(x[:, 0], (1, 2))
    assert want > 1500
    np.testing.assert_allclose(loss, [want], rtol=1e-13)
    assert saved[3].tolist() == [True]
