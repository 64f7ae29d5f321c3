"""The CTC kernel (lnrnn/kernels/ctc.py), twelfth pass, against the sum over every path enumerated by brute force
(test_values199_ctc's by_paths: each of the C^T paths of a row's own steps collapsed, log p their log-sum-exp,
dloss/dlogits the softmax less each step's share of the label's paths). Rows of 0, 1 and T = 5 steps, labels of
0 to 3 characters; rows a label cannot fit in (no path: loss 0, log p -inf, no gradient, for a repeat one step
short and for a label longer than its row); and a batch whose label classes sit 800 nats down with a different
noise at every step, so that the float64 products underflow and the rows run the log-space recursion, where
the first step's emissions, each step's own log-probabilities and the log of the three-way sums are read."""
import numpy as np

from test_values199_ctc import check_rows, run


def test_rows_of_zero_one_and_five_steps_against_every_path():
    rng = np.random.default_rng(26100)
    T, C = 5, 3
    rows = [[1, 2, 1], [1], [], [2, 2], [1, 1], [2], [1, 2]]
    il = [5, 1, 0, 3, 2, 5, 4]
    x = 1.2 * rng.standard_normal((T, len(rows), C))
    dloss = np.array([1.0, 0.7, 1.4, 0.9, 1.1, 0.6, 1.3])
    loss, saved, d = run(x, rows, il, dloss)
    check_rows(x, rows, il, dloss, loss, saved, d)
    assert not saved[3].any(), "these rows run rescaled"


def test_a_label_that_does_not_fit_has_no_loss_and_no_gradient():
    """'a a' needs three steps (a blank between): on two there is no path; 'a b' on one step, 'b' on none."""
    rng = np.random.default_rng(26101)
    x = rng.standard_normal((3, 4, 3))
    rows = [[1, 1], [1, 2], [2], [1, 1]]
    il = [2, 1, 0, 3]
    loss, saved, d = run(x, rows, il, np.array([1.0, 2.0, 0.5, 1.5]))
    for b in range(3):
        assert saved[2][b] == -np.inf and loss[b] == 0.0, b
        assert not d[:, b].any(), b
    lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
    np.testing.assert_allclose(loss[3], -(lp[0, 3, 1] + lp[1, 3, 0] + lp[2, 3, 1]), rtol=1e-12)  # the one path
    check_rows(x, rows, il, np.array([1.0, 2.0, 0.5, 1.5]), loss, saved, d)


def test_underflowing_rows_in_log_space_against_every_path():
    """Classes 1 and 2 sit 800 nats below blank and class 3 (their float64 softmax is 0) with noise that
    differs at every step: log p and every gradient from the enumeration, to 1e-12 relative of ~2400 nats."""
    rng = np.random.default_rng(26102)
    T, C = 5, 4
    rows = [[1, 2], [2], [1, 2, 1], [2, 2], [1]]
    il = [5, 5, 5, 4, 1]
    x = rng.standard_normal((T, len(rows), C))
    x[:, :, 1:3] -= 800.0
    dloss = np.array([1.0, 0.8, 1.2, 0.5, 1.6])
    loss, saved, d = run(x, rows, il, dloss)
    assert saved[3].all(), "every row runs in log space"
    check_rows(x, rows, il, dloss, loss, saved, d, atol_loss=1e-9, atol_grad=1e-9)
