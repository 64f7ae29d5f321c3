"""The CTC kernel (lnrnn/kernels/ctc.py) where the band is tight and where the row leaves float64's range,
against computations made here: for tiny rows, the sum over every one of the C^T paths
(test_values26_ctc.brute_force: each path collapsed, its log-probability summed); for long rows, a plain
NumPy log-space alpha-beta over the extended label written out from the definition (Graves 2006 eqs. 5-16:
alpha and beta both including the step's emission, the posterior of position s at step t
alpha beta / (y p)). Labels with a repeat need a blank between its two labels, so the rows are run at
T = 2L+1 steps, at one step less (the tightest a repeat allows here) and at the least T the label fits in,
rescaled and in log space (label classes 800 nats under the blank: every path under 1e-300)."""
import numpy as np
import pytest

from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from test_values26_ctc import brute_force  # the sum over every path
from test_values48_ctc import packed


def least_steps(label):
    """The fewest steps a label fits in: one per label and one blank between each equal pair."""
    return len(label) + sum(a == b for a, b in zip(label, label[1:]))


def run(x, rows, il, g):
    labels, ll = packed(rows)
    il = np.asarray(il, np.int64)
    loss, saved = ctc_forward(x, labels, il, ll)
    return loss, ctc_backward(g, saved, labels, il, ll), saved


def logsumexp(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):                              # log 0 = -inf: no path
        out = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return np.squeeze(out, axis=axis) if axis is not None else out.item()


def alpha_beta(logits, label):
    """logits (T,C), label -> (loss, dloss/dlogits (T,C), log of alpha's sum per step (T,)) from the
    definition, in log space: ext = blank, l1, blank, l2, ..., blank."""
    T, C = logits.shape
    lp = logits - logsumexp(logits, axis=1)[:, None]
    ext = [0]
    for c in label:
        ext += [c, 0]
    S = len(ext)
    la = np.full((T, S), -np.inf)
    la[0, 0] = lp[0, ext[0]]
    if S > 1:
        la[0, 1] = lp[0, ext[1]]
    for t in range(1, T):
        for s in range(S):
            terms = [la[t - 1, s]]
            if s >= 1:
                terms.append(la[t - 1, s - 1])
            if s >= 2 and ext[s] != 0 and ext[s] != ext[s - 2]:
                terms.append(la[t - 1, s - 2])
            la[t, s] = logsumexp(np.array(terms)) + lp[t, ext[s]]
    lb = np.full((T, S), -np.inf)
    lb[T - 1, S - 1] = lp[T - 1, ext[S - 1]]
    if S > 1:
        lb[T - 1, S - 2] = lp[T - 1, ext[S - 2]]
    for t in range(T - 2, -1, -1):
        for s in range(S):
            terms = [lb[t + 1, s]]
            if s + 1 < S:
                terms.append(lb[t + 1, s + 1])
            if s + 2 < S and ext[s + 2] != 0 and ext[s + 2] != ext[s]:
                terms.append(lb[t + 1, s + 2])
            lb[t, s] = logsumexp(np.array(terms)) + lp[t, ext[s]]
    logz = logsumexp(la[T - 1, S - 2:])
    post = np.zeros((T, C))
    for s in range(S):
        post[:, ext[s]] += np.exp(la[:, s] + lb[:, s] - lp[:, ext[s]] - logz)
    return -logz, np.exp(lp) - post, logsumexp(la, axis=1)


# labels with repeats (a blank needed between them), distinct labels, a repeat at either end
LABELS = [[1, 1], [1, 2], [2, 1, 1], [1, 2, 1], [2, 2, 1], [1, 1, 2]]


@pytest.mark.parametrize("extra", [0, 1, 2])
def test_rows_at_their_least_steps_and_one_and_two_more_equal_every_path_summed(extra):
    """Each label at T = its least steps + extra: for 'a a' that is T = 2L-1, 2L and 2L+1, the band as tight as it
    gets (one path at the least steps); every row's loss and gradient (times its own dloss) equal the brute-force
    sum over all paths, and one step fewer than the least makes the row impossible: loss 0, gradient 0."""
    rng = np.random.default_rng(620 + extra)
    C = 3
    T = max(least_steps(r) for r in LABELS) + extra
    x = 1.3 * rng.standard_normal((T, len(LABELS), C))
    il = np.array([least_steps(r) + extra for r in LABELS])
    g = rng.uniform(0.5, 2.0, len(LABELS))
    loss, d, saved = run(x, LABELS, il, g)
    for b, r in enumerate(LABELS):
        want_loss, want_grad = brute_force(x[:il[b], b], r)
        assert want_loss > 0
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-10, err_msg=f"{r} at T {il[b]}")
        np.testing.assert_allclose(d[:il[b], b], g[b] * want_grad, rtol=1e-9, atol=1e-12, err_msg=f"{r} at T {il[b]}")
        assert not d[il[b]:, b].any()
    assert not saved[3].any()                                       # ordinary logits: rescaled throughout
    if extra == 0:                                                  # one step short: no path reads the label
        loss, d, saved = run(x, LABELS, il - 1, g)
        assert not loss.any() and not d.any() and np.all(saved[2] == -np.inf)


@pytest.mark.parametrize("extra", [0, 1, 2])
def test_rows_in_log_space_at_their_least_steps_and_more_equal_every_path_summed(extra):
    """The label classes 800 nats under the blank (class 3, never a label, takes the rest): each path reading
    a label is under 1e-300, so the rows run in log space; loss and gradient still equal the brute-force sum,
    at the least steps (T = 2L-1 for a repeat) and one and two more, and one step short is impossible."""
    rng = np.random.default_rng(6200 + extra)
    C = 4
    T = max(least_steps(r) for r in LABELS) + extra
    x = 0.7 * rng.standard_normal((T, len(LABELS), C))
    x[:, :, 1:3] -= 800.0
    il = np.array([least_steps(r) + extra for r in LABELS])
    g = rng.uniform(0.5, 2.0, len(LABELS))
    loss, d, saved = run(x, LABELS, il, g)
    assert saved[3].all()                                           # every row in log space
    for b, r in enumerate(LABELS):
        want_loss, want_grad = brute_force(x[:il[b], b], r)
        assert want_loss > 790 * len(r)
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-11, err_msg=f"{r} at T {il[b]}")
        np.testing.assert_allclose(d[:il[b], b], g[b] * want_grad, rtol=1e-9, atol=1e-12, err_msg=f"{r} at T {il[b]}")
    if extra == 0:
        loss, d, saved = run(x, LABELS, il - 1, g)
        assert not loss.any() and not d.any() and np.all(saved[2] == -np.inf)


def test_one_step_per_label_distinct_labels_need_no_blank():
    """'1 2' in two steps (T = 2L-2, one path: 1 then 2) by hand: p = y0[1] y1[2]; its gradient at step 0 is
    y0 - onehot(1), at step 1 y1 - onehot(2); '1 1' in two steps has no path."""
    x = np.array([[[0.2, -0.3, 0.9]], [[1.1, 0.4, -0.6]]])          # (T 2, B 1, C 3)
    y = np.exp(x[:, 0]) / np.exp(x[:, 0]).sum(axis=1, keepdims=True)
    loss, d, _ = run(x, [[1, 2]], [2], np.array([1.0]))
    np.testing.assert_allclose(loss[0], -np.log(y[0, 1] * y[1, 2]), rtol=1e-12)
    np.testing.assert_allclose(d[:, 0], y - np.eye(3)[[1, 2]], rtol=1e-10, atol=1e-14)
    loss, d, saved = run(x, [[1, 1]], [2], np.array([1.0]))
    assert loss[0] == 0 and not d.any() and saved[2][0] == -np.inf


def test_long_rows_that_rescale_equal_a_log_space_alpha_beta():
    """Rows of 60 steps over 12 classes whose labels use three of them: alpha's sum falls by about a factor 4
    a step, past 2^-100 within the row (checked here), so the kernel rescales it; loss and gradient equal the
    plain log-space recursion written above, for a repeat and for distinct labels, at the row's full length
    and a shorter one."""
    rng = np.random.default_rng(621)
    T, C = 60, 12
    rows = [[3, 3, 5, 3], [5, 7, 7], [3, 5, 7, 5, 3]]
    il = np.array([T, T - 7, T - 1])
    x = 0.8 * rng.standard_normal((T, len(rows), C))
    g = rng.uniform(0.5, 2.0, len(rows))
    loss, d, saved = run(x, rows, il, g)
    assert not saved[3].any()                                       # rescaled, not log space
    for b, r in enumerate(rows):
        want_loss, want_grad, sums = alpha_beta(x[:il[b], b], r)
        assert sums.min() < -100 * np.log(2.0)                      # the kernel had to rescale this row
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-11, err_msg=f"row {b}")
        np.testing.assert_allclose(d[:il[b], b], g[b] * want_grad, rtol=1e-8, atol=1e-12, err_msg=f"row {b}")
        assert not d[il[b]:, b].any()


def test_the_log_space_alpha_beta_here_equals_every_path_summed():
    """The reference above is itself checked against the sum over every path on a tiny row."""
    rng = np.random.default_rng(622)
    x = rng.standard_normal((5, 3))
    for r in ([1, 1], [1, 2, 1], [2]):
        want_loss, want_grad = brute_force(x, r)
        loss, grad, _ = alpha_beta(x, r)
        np.testing.assert_allclose(loss, want_loss, rtol=1e-12)
        np.testing.assert_allclose(grad, want_grad, rtol=1e-10, atol=1e-14)
