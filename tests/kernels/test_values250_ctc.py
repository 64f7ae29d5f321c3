"""The CTC kernel (lnrnn/kernels/ctc.py) on tiny steps and alphabets against every path, enumerated (the
helpers of test_values199_ctc: each of the C^T paths of a row's own steps collapsed by hand, log p their
log-sum-exp, dloss/dlogits the softmax minus each step's share of the label's paths). The rows hold the cases
whose count of paths is decided at the edges of the recursion: a repeat that needs a blank between its two
labels (on exactly the three steps it needs, and on one step too few: no path, loss 0, no gradient), an empty label,
a label as long as the row's steps allow (every step a label: one path), and labels on rows shorter than the
batch. A second batch puts two classes 800 nats down, so that the float64 products underflow and the rows
run the exact log-space recursion (saved[3]); there the skip over a blank is allowed between two different
labels and barred between equal ones, and the last step's share and the gradient of every step are checked."""
import numpy as np

from test_values199_ctc import by_paths, check_rows, run


def test_repeats_empty_and_full_length_labels_against_every_path():
    """T 3, C 3. 'a a' on 3 steps (one path: a blank a), 'a a' on 2 steps (none), the empty label on 3, 'b a'
    on 2 steps and 'a b a' on 3 (every step a label: one path each), 'b' on 1 step, 'a b' on 3."""
    rng = np.random.default_rng(25000)
    T, C = 3, 3
    rows = [[1, 1], [1, 1], [], [2, 1], [1, 2, 1], [2], [1, 2]]
    il = [3, 2, 3, 2, 3, 1, 3]
    x = 1.1 * rng.standard_normal((T, len(rows), C))
    dloss = np.array([1.0, 0.8, 1.3, 0.6, 1.7, 0.9, 1.2])
    loss, saved, d = run(x, rows, il, dloss)
    check_rows(x, rows, il, dloss, loss, saved, d)
    assert not saved[3].any(), "these rows run rescaled"
    # The one-path rows by hand: 'a a' on 3 steps reads a, blank, a; 'a b a' reads a, b, a; 'b a' reads b, a.
    lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
    np.testing.assert_allclose(loss[0], -(lp[0, 0, 1] + lp[1, 0, 0] + lp[2, 0, 1]), rtol=1e-12)
    np.testing.assert_allclose(loss[4], -(lp[0, 4, 1] + lp[1, 4, 2] + lp[2, 4, 1]), rtol=1e-12)
    np.testing.assert_allclose(loss[3], -(lp[0, 3, 2] + lp[1, 3, 1]), rtol=1e-12)
    assert loss[1] == 0.0 and saved[2][1] == -np.inf and not d[:, 1].any()
    # The empty label: blanks only; a label on one step: that step's class.
    np.testing.assert_allclose(loss[2], -lp[:, 2, 0].sum(), rtol=1e-12)
    np.testing.assert_allclose(loss[5], -lp[0, 5, 2], rtol=1e-12)


def far_down():
    """Classes 1 and 3 sit 800 nats below blank and class 2: a label through them underflows float64."""
    rng = np.random.default_rng(25001)
    T, C = 3, 4
    x = 0.4 * rng.standard_normal((T, 5, C))
    x[:, :, 1] -= 800.0
    x[:, :, 3] -= 800.0
    rows = [[1, 3], [3, 3], [2, 1, 2], [1], [2, 3]]
    il = [3, 3, 3, 2, 3]
    return x, rows, il


def test_rows_far_down_run_in_log_space_and_equal_every_path():
    x, rows, il = far_down()
    dloss = np.array([1.0, 0.5, 1.4, 0.9, 1.1])
    loss, saved, d = run(x, rows, il, dloss)
    assert saved[3].all(), "every row runs in log space"
    assert loss.min() > 700.0
    check_rows(x, rows, il, dloss, loss, saved, d, atol_loss=2e-11, atol_grad=1e-11)


def test_log_space_repeat_on_three_steps_is_its_one_path():
    """'c c' (class 3 twice, 800 nats down) on 3 steps: the only path is c, blank, c."""
    x, rows, il = far_down()
    loss, saved, d = run(x, rows, il, np.ones(5))
    lp = x[:, 1] - np.log(np.exp(x[:, 1] - x[:, 1].max(-1, keepdims=True)).sum(-1, keepdims=True)) \
        - x[:, 1].max(-1, keepdims=True)
    np.testing.assert_allclose(loss[1], -(lp[0, 3] + lp[1, 0] + lp[2, 3]), rtol=1e-13)
    # its gradient: the softmax, less 1 on the path's class at each step
    want = np.exp(lp)
    want[0, 3] -= 1.0
    want[1, 0] -= 1.0
    want[2, 3] -= 1.0
    np.testing.assert_allclose(d[:, 1], want, rtol=0, atol=1e-12)
    logz, grad = by_paths(x[:, 1], [3, 3])
    np.testing.assert_allclose(grad, want, rtol=0, atol=1e-12)
