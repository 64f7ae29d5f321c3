"""The CTC spec (lnrnn/reference.py, Graves et al. 2006) against its definition: p(label | x) is the sum, over
every one of the C^T paths, of the product of the softmax at each step, kept when the path collapses
(repeats merged, then blanks dropped) to the label; loss = -log p. Rows of their own input and label lengths
in one batch, repeated labels, a label as long as its input allows and one that cannot fit (loss and
gradient 0). The gradient, weighted by dloss, against central differences of the spec's forward."""
import itertools

import numpy as np

from gradcheck_util import TOLERANCE, numeric_grad, rel_error
from lnrnn import reference as ref


def collapse(path):
    out, prev = [], None
    for c in path:
        if c != prev and c != ref.CTC_BLANK:
            out.append(c)
        prev = c
    return out


def brute_loss(logits, label):
    """logits (Tb,C) of one row -> -log p(label), or 0 when no path gives it (p = 0)."""
    Tb, C = logits.shape
    y = np.exp(logits - logits.max(1, keepdims=True))
    y /= y.sum(1, keepdims=True)
    p = 0.0
    for path in itertools.product(range(C), repeat=Tb):
        if collapse(path) == list(label):
            p += np.prod([y[t, c] for t, c in enumerate(path)])
    return -np.log(p) if p > 0 else 0.0


def problem(rng):
    T, C = 5, 3
    labels = np.array([[1, 2, 0], [2, 2, 0], [1, 0, 0], [1, 2, 1], [2, 1, 1]])
    label_lengths = np.array([2, 2, 1, 3, 3])
    input_lengths = np.array([5, 4, 1, 5, 2])   # row 4: three labels cannot fit in two steps
    logits = 1.5 * rng.standard_normal((T, len(labels), C))
    return logits, labels, input_lengths, label_lengths


def test_ctc_loss_is_the_sum_over_every_alignment():
    rng = np.random.default_rng(850)
    logits, labels, il, ll = problem(rng)
    loss, _ = ref.ctc_forward(logits, labels, il, ll)
    for b in range(len(labels)):
        want = brute_loss(logits[:il[b], b], labels[b, :ll[b]])
        np.testing.assert_allclose(loss[b], want, rtol=1e-12)
    assert loss[4] == 0.0


def test_ctc_gradient_is_the_central_difference_of_the_weighted_loss():
    rng = np.random.default_rng(851)
    logits, labels, il, ll = problem(rng)
    dloss = rng.uniform(0.5, 2.0, len(labels))
    _, cache = ref.ctc_forward(logits, labels, il, ll)
    d = ref.ctc_backward(dloss, cache)

    def weighted():
        return float(np.sum(dloss * ref.ctc_forward(logits, labels, il, ll)[0]))

    assert rel_error(d, numeric_grad(weighted, logits, eps=1e-6, order=2)) < TOLERANCE
    for b in range(len(labels)):
        assert not np.any(d[il[b]:, b])
    assert not np.any(d[:, 4])
