"""Connectionist temporal classification: the NumPy spec (lnrnn.reference.ctc_*) against PyTorch's
ctc_loss and central differences, the CPU kernel (lnrnn/kernels/ctc.py) against the spec, the head,
decoding (lnrnn/model/decode.py) and the error rates (lnrnn/textmetrics.py)."""
import itertools

import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.gradcheck import TOLERANCE, numeric_grad, rel_error


def problem(rng, C=5, dtype=np.float64):
    """Ragged rows that reach every branch: repeated labels (a blank needed between them), an empty
    label, an input exactly long enough (3 3 3 needs 5 steps), an impossible row (3 labels, 2 steps),
    a row with a zero-length input and an empty label, and a row shorter than T.
    -> logits (T,B,C), labels (B,Lmax) padded with -1, input_lengths (B,), label_lengths (B,)."""
    T = 7
    labels = np.array([[1, 1, 2], [2, -1, -1], [1, 2, 3], [3, 3, 3], [1, 2, 1], [-1, -1, -1], [4, 2, -1]])
    ll = np.array([3, 0, 3, 3, 3, 0, 2])
    il = np.array([7, 4, 3, 5, 2, 0, 6])
    x = (2.0 * rng.standard_normal((T, len(ll), C))).astype(dtype)
    return x, labels, il, ll


def torch_ctc(x, labels, il, ll, g):
    """PyTorch's loss (reduction none, zero_infinity) and its gradient w.r.t. the logits of sum(g * loss)."""
    torch = pytest.importorskip("torch")
    xt = torch.tensor(x, requires_grad=True)
    lp = torch.log_softmax(xt, 2)
    tl = torch.nn.functional.ctc_loss(lp, torch.tensor(np.maximum(labels, 0)), torch.tensor(il), torch.tensor(ll),
                                      blank=0, reduction="none", zero_infinity=True)
    (tl * torch.tensor(g)).sum().backward()
    return tl.detach().numpy(), xt.grad.numpy()


def test_reference_equals_torch_ctc_loss():
    rng = np.random.default_rng(0)
    x, labels, il, ll = problem(rng)
    g = rng.standard_normal(len(ll))
    loss, cache = R.ctc_forward(x, labels, il, ll)
    d = R.ctc_backward(g, cache)
    tl, tg = torch_ctc(x, labels, il, ll, g)
    np.testing.assert_allclose(loss, tl, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d, tg, rtol=1e-10, atol=1e-12)
    assert loss[4] == 0 and not d[:, 4].any()          # impossible: zero_infinity
    assert loss[5] == 0 and not d[:, 5].any()          # empty label, empty input: p = 1
    assert not d[6:, 6].any() and d[:6, 6].any()       # nothing past the row's input length


def test_reference_gradient_by_central_differences():
    rng = np.random.default_rng(1)
    x, labels, il, ll = problem(rng)
    g = rng.standard_normal(len(ll))
    d = R.ctc_backward(g, R.ctc_forward(x, labels, il, ll)[1])
    n = numeric_grad(lambda: float(g @ R.ctc_forward(x, labels, il, ll)[0]), x)
    assert rel_error(d, n) < TOLERANCE


def test_reference_counts_paths_by_brute_force():
    """p(label | x) is the sum over every path of T symbols that collapses to the label."""
    rng = np.random.default_rng(2)
    T, C = 4, 3
    x = rng.standard_normal((T, 1, C))
    p = np.exp(R.ctc_forward(x, np.zeros((1, 1), int), [T], [0])[1][0][:, 0])   # softmax (T,C)
    total = {}
    for path in itertools.product(range(C), repeat=T):
        lab = tuple(k for i, k in enumerate(path) if k != 0 and (i == 0 or path[i - 1] != k))
        total[lab] = total.get(lab, 0.0) + np.prod(p[np.arange(T), path])
    for lab in [(), (1,), (1, 1), (1, 2), (2, 1, 2), (1, 1, 2)]:
        L = len(lab)
        loss, _ = R.ctc_forward(x, np.array([list(lab) or [0]]), [T], [L])
        np.testing.assert_allclose(np.exp(-loss[0]) if loss[0] else 0.0, total.get(lab, 0.0), rtol=1e-12)


# ------------------------------------------------------------------------------------------------
# CPU kernel (lnrnn/kernels/ctc.py)
# ------------------------------------------------------------------------------------------------
def random_problem(rng, T=12, B=9, C=4, Lmax=5, dtype=np.float64):
    """Random ragged rows: labels from few classes (so repeats are common), random label and input
    lengths (some impossible), padding of -1 past each label."""
    ll = rng.integers(0, Lmax + 1, B)
    il = rng.integers(0, T + 1, B)
    il[0], ll[0] = T, Lmax                      # the longest row fills both
    labels = np.full((B, Lmax), -1, np.int64)
    for b in range(B):
        labels[b, :ll[b]] = rng.integers(1, C, ll[b])
    return (2.0 * rng.standard_normal((T, B, C))).astype(dtype), labels, il, ll


def test_blank_is_class_zero_in_kernels_and_spec():
    from lnrnn.kernels.codes import CTC_BLANK
    assert CTC_BLANK == R.CTC_BLANK == 0


def test_kernel_equals_reference_and_torch():
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(3)
    for x, labels, il, ll in (problem(rng), random_problem(rng)):
        g = rng.standard_normal(len(ll))
        loss, saved = ctc_forward(x, labels, il, ll)
        d = ctc_backward(g, saved, labels, il, ll)
        ref_loss, cache = R.ctc_forward(x, labels, il, ll)
        np.testing.assert_allclose(loss, ref_loss, rtol=1e-12, atol=1e-12)
        steps = np.arange(x.shape[0])[:, None] < il[None, :]                # (T,B): logp written, 0 after
        np.testing.assert_allclose(saved[0], np.where(steps[:, :, None], cache[0], 0.0), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(d, R.ctc_backward(g, cache), rtol=1e-10, atol=1e-12)
        tl, tg = torch_ctc(x, labels, il, ll, g)
        np.testing.assert_allclose(loss, tl, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(d, tg, rtol=1e-10, atol=1e-12)


def test_kernel_gradient_by_central_differences():
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(4)
    x, labels, il, ll = problem(rng)
    g = rng.standard_normal(len(ll))
    d = ctc_backward(g, ctc_forward(x, labels, il, ll)[1], labels, il, ll)
    n = numeric_grad(lambda: float(g @ ctc_forward(x, labels, il, ll)[0]), x)
    assert rel_error(d, n) < TOLERANCE


def fallback_problem():
    """Three rows at the edges of the rescaled recursion (lnrnn/kernels/ctc.py) -> logits (T,B,C) float64,
    labels (B,10), input_lengths, label_lengths.
    row 0: blank 0, every label class -100: the paths ahead of the all-blank one fall below 1e-300 of the
           step's mass (dropped) while p (about e^-980) is far smaller still: the forward runs in log space;
    row 1: every label class and the blank -20 under class 5 (0), the last step's blank -1000: the forward
           drops the paths ending in the blank harmlessly, but beta's drop at its first step sits 780 nats
           above p: only the backward runs in log space;
    row 2: a confident spelled path (+30 on its class, repeats with a blank between): far positions drop
           below 1e-300, p is near 1: rescaled throughout."""
    rng = np.random.default_rng(16)
    T, C = 40, 6
    x = 0.1 * rng.standard_normal((T, 3, C))
    labels = np.full((3, 10), -1, np.int64)
    labels[0] = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2]
    x[:30, 0, 1:] -= 100.0
    labels[1, :2] = [1, 2]
    x[:, 1, :5] -= 20.0
    x[T - 1, 1, 0] -= 980.0
    labels[2, :3] = [1, 1, 2]
    path = [0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0]         # reads 1 1 2
    x[np.arange(20), 2, path] += 30.0
    return x, labels, np.array([30, 40, 20]), np.array([10, 2, 3])


def test_kernel_falls_back_to_log_space_where_paths_drop():
    """The rows of fallback_problem equal PyTorch (log space) in loss and gradient; only row 0's forward
    ran in log space (saved[3], logspace)."""
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    x, labels, il, ll = fallback_problem()
    g = np.array([0.5, -1.5, 2.0])
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    tl, tg = torch_ctc(x, labels, il, ll, g)
    assert loss[0] > 900 and loss[1] > 700 and loss[2] < 1e-6
    np.testing.assert_allclose(loss, tl, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d, tg, rtol=1e-9, atol=1e-12)
    assert saved[3].tolist() == [True, False, False]


def test_kernel_ignores_padding():
    """Label entries past label_lengths and logits past input_lengths change nothing."""
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(5)
    x, labels, il, ll = random_problem(rng)
    g = np.ones(len(ll))
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    x2, labels2 = x.copy(), labels.copy()
    for b in range(len(ll)):
        x2[il[b]:, b] = 50.0 * rng.standard_normal((x.shape[0] - il[b], x.shape[2]))
        labels2[b, ll[b]:] = rng.integers(1, x.shape[2], labels.shape[1] - ll[b])
    loss2, saved2 = ctc_forward(x2, labels2, il, ll)
    np.testing.assert_array_equal(loss2, loss)
    np.testing.assert_array_equal(ctc_backward(g, saved2, labels2, il, ll), d)


def test_kernel_rows_in_a_batch_equal_each_row_alone():
    """The kernel runs rows in chunks, one after another on the chunk's scratch (alpha, beta, the softmax): no
    row may read what the previous one left there, so each row of a batch (several a chunk) gives the bits it
    gives alone."""
    from lnrnn.config import CTC_ROW_CHUNKS
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(7)
    B = 3 * CTC_ROW_CHUNKS
    x, labels, il, ll = random_problem(rng, T=16, B=B, C=5, Lmax=6)
    order = np.argsort(-(il + 3 * ll), kind="stable")      # longer rows first: their scratch lies under shorter ones
    x, labels, il, ll = x[:, order], labels[order], il[order], ll[order]
    g = rng.standard_normal(B)
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    for b in range(B):
        one = slice(b, b + 1)
        lb, sb = ctc_forward(np.ascontiguousarray(x[:, one]), labels[one], il[one], ll[one])
        np.testing.assert_array_equal(lb, loss[one])
        np.testing.assert_array_equal(sb[0], saved[0][:, one])
        np.testing.assert_array_equal(ctc_backward(g[one], sb, labels[one], il[one], ll[one]), d[:, one])


def test_kernel_float32_stays_near_float64_on_long_rows():
    """At T 200, C 30, labels of 40 (the rescaled recursion divides alpha and beta by their sums many times)
    float64 equals PyTorch; float32 (float64 inside, outputs rounded) is within 1e-5 relative in the loss and
    1e-3 of the largest gradient element."""
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(6)
    x, labels, il, ll = random_problem(rng, T=200, B=3, C=30, Lmax=40)
    il[:], ll[:] = 200, 40
    labels = rng.integers(1, 30, (3, 40))                            # every row's label full (no -1 inside)
    g = np.ones(3)
    l64, s64 = ctc_forward(x, labels, il, ll)
    l32, s32 = ctc_forward(x.astype(np.float32), labels, il, ll)
    d64 = ctc_backward(g, s64, labels, il, ll)
    d32 = ctc_backward(g.astype(np.float32), s32, labels, il, ll)
    assert l32.dtype == d32.dtype == np.float32
    assert np.all(l64 > 100)                                          # long rows: large log values
    tl, tg = torch_ctc(x, labels, il, ll, g)                          # many rescaled steps, against log space
    np.testing.assert_allclose(l64, tl, rtol=1e-12)
    np.testing.assert_allclose(d64, tg, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(l32, l64, rtol=1e-5)
    assert np.abs(d32 - d64).max() < 1e-3 * np.abs(d64).max()


# ------------------------------------------------------------------------------------------------
# Decoding (lnrnn/model/decode.py)
# ------------------------------------------------------------------------------------------------
def label_probs(p):
    """Brute force: {label tuple: probability} summed over every path of p (T,C) probabilities."""
    T, C = p.shape
    out = {}
    for path in itertools.product(range(C), repeat=T):
        lab = tuple(k for i, k in enumerate(path) if k != 0 and (i == 0 or path[i - 1] != k))
        out[lab] = out.get(lab, 0.0) + np.prod(p[np.arange(T), path])
    return out


def test_collapse_and_best_path():
    from lnrnn.model.decode import best_path, collapse
    assert collapse([0, 1, 1, 0, 1, 2, 2, 0, 0, 3]) == [1, 1, 2, 3]
    assert collapse([0, 0]) == [] and collapse([2, 2, 2]) == [2]
    logp = np.log(np.full((4, 2, 3), 0.1))
    for t, (a, b) in enumerate([(1, 2), (1, 0), (0, 2), (1, 1)]):
        logp[t, 0, a] = logp[t, 1, b] = np.log(0.8)
    assert best_path(logp) == [[1, 1], [2, 2, 1]]
    assert best_path(logp, lengths=[2, 3]) == [[1], [2, 2]]
    rng = np.random.default_rng(13)
    logp = rng.standard_normal((9, 40, 3))
    lengths = rng.integers(0, 10, 40)
    arg = logp.argmax(axis=2)
    assert best_path(logp, lengths) == [collapse(arg[:lengths[b], b]) for b in range(40)]


def test_beam_probabilities_equal_brute_force_over_all_paths():
    """A width that keeps every prefix gives each label its exact probability (sum over all paths)."""
    from lnrnn.model.decode import prefix_beam_search
    rng = np.random.default_rng(7)
    for T, C in ((4, 3), (5, 3), (3, 4)):
        p = np.exp(R.ctc_forward(rng.standard_normal((T, 1, C)), np.zeros((1, 1), int), [T], [0])[1][0][:, 0])
        exact = label_probs(p)
        beams = prefix_beam_search(np.log(p), width=10 ** 6)
        assert {lab for lab, _ in beams} == {lab for lab, q in exact.items() if q > 0}
        for lab, lq in beams:
            np.testing.assert_allclose(np.exp(lq), exact[lab], rtol=1e-12)
        assert beams[0][0] == max(exact, key=exact.get)
        top = prefix_beam_search(np.log(p), width=3)[0]             # a narrow beam: one of its paths' sums
        assert np.exp(top[1]) <= exact[top[0]] * (1 + 1e-12)


def test_beam_beats_best_path_where_the_best_path_is_not_the_best_label():
    """p(blank) = 0.6, p(a) = 0.4 at both of 2 steps: the best path (blank, blank) reads "" (0.36);
    "a" has three paths (a a, a -, - a): 0.16 + 0.24 + 0.24 = 0.64."""
    from lnrnn.model.decode import beam_search, best_path, prefix_beam_search
    logp = np.log(np.array([[[0.6, 0.4]], [[0.6, 0.4]]]))                # (T=2, B=1, C=2)
    assert best_path(logp) == [[]]
    assert beam_search(logp, width=2) == [[1]]
    (lab, lq), (lab2, lq2) = prefix_beam_search(logp[:, 0], 2)
    assert lab == (1,) and lab2 == () and np.isclose(np.exp(lq), 0.64) and np.isclose(np.exp(lq2), 0.36)


def test_width_one_equals_best_path_on_confident_steps_and_can_differ():
    """Each step's argmax at least 0.9: the one kept prefix is the best path's. Otherwise width 1 keeps
    the prefix with the most mass: after "a" (0.7), p = (blank .34, a .30, b .36) gives "a" 0.448
    against the best path's "ab" 0.252."""
    from lnrnn.model.decode import beam_search, best_path
    rng = np.random.default_rng(8)
    T, B, C = 12, 20, 5
    p = rng.uniform(0, 1, (T, B, C))
    k = rng.integers(0, C, (T, B))
    p[np.arange(T)[:, None], np.arange(B)[None, :], k] = 0
    p = 0.1 * p / p.sum(axis=2, keepdims=True)
    p[np.arange(T)[:, None], np.arange(B)[None, :], k] = 0.9
    lengths = rng.integers(0, T + 1, B)
    assert beam_search(np.log(p), 1, lengths) == best_path(np.log(p), lengths)
    q = np.log(np.array([[[0.2, 0.7, 0.1]], [[0.34, 0.30, 0.36]]]))
    assert best_path(q) == [[1, 2]] and beam_search(q, 1) == [[1]]


def test_beam_width_must_be_positive():
    from lnrnn.model.decode import prefix_beam_search
    with pytest.raises(ValueError, match="at least 1"):
        prefix_beam_search(np.zeros((2, 3)), 0)


# ------------------------------------------------------------------------------------------------
# Error rates (lnrnn/textmetrics.py)
# ------------------------------------------------------------------------------------------------
def slow_edit_distance(a, b):
    """The recursive definition, memoized: an independent judge of the dynamic programme."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def d(i, j):
        if i == 0 or j == 0:
            return i + j
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return d(len(a), len(b))


def test_edit_distance_by_hand_and_against_the_recursion():
    from lnrnn.textmetrics import edit_distance
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("flaw", "lawn") == 2
    assert edit_distance("", "abc") == 3 and edit_distance("abc", "") == 3 and edit_distance("", "") == 0
    assert edit_distance("ab", "ba") == 2 and edit_distance("abc", "axc") == 1
    assert edit_distance([1, 2, 3], [1, 3]) == 1
    rng = np.random.default_rng(9)
    for _ in range(200):
        a = "".join(rng.choice(list("abc"), rng.integers(0, 7)))
        b = "".join(rng.choice(list("abc"), rng.integers(0, 7)))
        assert edit_distance(a, b) == slow_edit_distance(a, b) == edit_distance(b, a)


def test_character_and_word_error_rates():
    from lnrnn.textmetrics import cer, error_rates, wer
    assert cer("kitten", "sitting") == 3 / 6
    assert wer("the cat sat", "the cat sat down") == 1 / 3
    assert wer("the cat sat", "the bat sat") == 1 / 3 and cer("the cat sat", "the bat sat") == 1 / 11
    assert wer("a  b", " a b ") == 0
    with pytest.raises(ValueError, match="empty reference"):
        cer("", "x")
    r = error_rates(["kitten", "the cat sat", ""], ["sitting", "the bat sat", ""])
    assert r == {"cer": 4 / 17, "wer": 2 / 4}
    assert error_rates([""], ["ab"])["cer"] == float("inf") and error_rates([""], [""])["cer"] == 0.0


# ------------------------------------------------------------------------------------------------
# The head (lnrnn.model.heads.CTCHead)
# ------------------------------------------------------------------------------------------------
def head_problem(rng, T=7, B=5, H=3, C=4):
    """h (T,B,H), labels (B,3) padded with -1, valid (T,B): rows of 7, 4, 0 (unscored), 2 and 5 steps;
    row 3's label needs 3 steps (impossible), row 0 repeats a label."""
    h = rng.standard_normal((T, B, H))
    labels = np.array([[1, 1, 2], [3, -1, -1], [2, -1, -1], [1, 2, 3], [-1, -1, -1]])
    il = np.array([7, 4, 0, 2, 5])
    valid = np.arange(T)[:, None] < il[None, :]
    return h, labels, valid


def test_head_gradient_by_central_differences():
    from lnrnn.model.heads import make_head
    rng = np.random.default_rng(10)
    h, labels, valid = head_problem(rng)
    head = make_head({"kind": "ctc", "outputs": 4}, 3, dtype="float64", seed=1)
    head.params["b"][:] = rng.standard_normal(4)
    scale = 0.7

    def f():
        return scale * head.forward(h, labels, valid)[0]["loss"]

    sums, count, cache = head.forward(h, labels, valid)
    head.zero_grad()
    dh = head.backward(cache, scale)
    assert count == 4 and sums["chars"] == 3 + 1 + 3 + 0
    assert rel_error(dh, numeric_grad(f, h)) < TOLERANCE
    for k in ("W", "b"):
        assert rel_error(head.grads[k], numeric_grad(f, head.params[k])) < TOLERANCE
    assert not dh[:, 2].any() and not dh[:, 3].any()      # no steps; impossible label
    assert not dh[4:, 1].any()                            # past the row's input length


def test_head_loss_and_error_rate_by_hand():
    """Logits that put 0.9 on one class per step: the best path reads each row's transcription, and the
    head's loss equals the kernel's -log p summed over rows with steps."""
    from lnrnn.model.heads import CTCHead
    head = CTCHead(4, outputs=4, dtype="float64")
    head.params["W"][:] = 10.0 * np.eye(4)               # logits = 10 * h: one-hot h picks the class
    paths = np.array([[1, 0, 1, 2, 2, 0, 0], [3, 3, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], [1, 2, 0, 0, 0, 0, 0],
                      [0, 1, 0, 0, 0, 0, 0]]).T             # (T,B): reads 1 1 2 | 3 | - | 1 2 | 1
    h = np.eye(4)[paths]                                   # (T,B,4)
    _, labels, valid = head_problem(np.random.default_rng(0), H=4)
    sums, count, _ = head.forward(h, labels, valid)
    # edits: row 0 "1 1 2" vs "1 1 2" 0; row 1 "3" vs "3" 0; row 3 "1 2 3" vs "1 2" 1; row 4 "" vs "1" 1
    assert count == 4 and sums["cer"] == 2 and sums["chars"] == 7
    assert head.mean(sums, count) == {"loss": sums["loss"] / 4, "cer": 2 / 7}
    logp = R.ctc_forward(h @ head.params["W"], labels, valid.sum(0), (labels >= 0).sum(1))[0]
    np.testing.assert_allclose(sums["loss"], logp.sum(), rtol=1e-12)


def test_head_refuses_bad_labels_and_settings():
    from lnrnn.model.heads import CTCHead, make_head
    head = make_head({"kind": "ctc", "outputs": 4}, 3)
    assert isinstance(head, CTCHead) and head.steps == "all" and head.config()["kind"] == "ctc"
    h, _, valid = head_problem(np.random.default_rng(0))
    ok = np.array([[1, -1], [2, 3], [1, -1], [1, 1], [-1, -1]])
    head.forward(h.astype(np.float32), ok, valid)
    for bad, what in ((np.array([[1, -1, 2]] + [[1, -1, -1]] * 4), "padded at their end"),
                      (np.array([[0, -1]] + [[1, -1]] * 4), "classes 1..3"),
                      (np.array([[4, -1]] + [[1, -1]] * 4), "classes 1..3")):
        with pytest.raises(ValueError, match=what):
            head.forward(h.astype(np.float32), bad, valid)
    holey = valid.copy()
    holey[0, 0] = False
    with pytest.raises(ValueError, match="right padding only"):
        head.forward(h.astype(np.float32), ok, holey)
    with pytest.raises(ValueError, match="per_step=True"):
        CTCHead(3, outputs=4, per_step=False)
    with pytest.raises(ValueError, match="at least one label"):
        CTCHead(3, outputs=1)


def test_compiled_label_edit_distances_equal_edit_distance():
    from lnrnn.textmetrics import edit_distance, label_edit_distances
    rng = np.random.default_rng(12)
    B = 50
    rl, hl = rng.integers(0, 8, B), rng.integers(0, 10, B)
    ref, hyp = rng.integers(1, 4, (B, 8)), rng.integers(1, 4, (B, 10))
    got = label_edit_distances(ref, rl, hyp, hl)
    assert got.tolist() == [edit_distance(ref[b, :rl[b]].tolist(), hyp[b, :hl[b]].tolist()) for b in range(B)]


def test_head_in_a_model_by_central_differences():
    """A padded batch through an LN-LSTM and the CTC head (SequenceModel, whole sequences): every
    parameter's gradient of the mean loss per sequence against central differences (float64)."""
    from lnrnn.model.models import build_model
    rng = np.random.default_rng(14)
    T, B, I, H = 6, 4, 2, 3
    model = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                             forget_bias=1.0, head={"kind": "ctc", "outputs": 4}), seed=0, max_steps=T)
    flat = model.flat[0].data
    flat += 0.3 * rng.standard_normal(flat.size)
    x = rng.standard_normal((T, B, I))
    labels = np.array([[1, 1], [2, -1], [3, 2], [-1, -1]])
    lengths = np.array([6, 3, 5, 2])

    def loss():
        return model.loss_and_grad(x, labels, lengths)["loss"]

    loss()
    analytic = model.flat[1].data.copy()
    for name, shape, off in model.flat[0].layout:
        view = flat[off:off + int(np.prod(shape))]
        idx = np.arange(min(view.size, 12))
        assert rel_error(analytic[off:off + view.size][idx], numeric_grad(loss, view, idx=idx)) < TOLERANCE, name


def test_kernel_same_bits_on_one_thread_and_two():
    """Rows are independent and each is one thread's work: the thread count changes no bit."""
    import numba

    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(15)
    x, labels, il, ll = random_problem(rng, B=16, dtype=np.float32)
    g = rng.standard_normal(16).astype(np.float32)
    old = numba.get_num_threads()
    out = []
    try:
        for n in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(n)
            loss, saved = ctc_forward(x, labels, il, ll)
            out.append((loss, ctc_backward(g, saved, labels, il, ll)))
    finally:
        numba.set_num_threads(old)
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_array_equal(out[0][1], out[1][1])


def test_every_layout_and_flag_meets_one_compiled_loop():
    """ctc_forward and ctc_backward hand their loops contiguous, read-only arrays: a strided view of the
    logits, a read-only or a writable caller all reach one compiled loop per dtype and give the same bits
    (a strided view compiled a loop of its own, whose softmax sums differed in the last bit on AVX-512)."""
    from lnrnn.kernels import ctc
    rng = np.random.default_rng(11)
    x, labels, il, ll = random_problem(rng, T=9, B=7, C=4, Lmax=3)
    wide = np.zeros((9, 7, 2, 4))
    wide[:, :, 1] = x
    strided = wide[:, :, 1]                                     # (T,B,C), not contiguous
    frozen = x.copy()
    frozen.flags.writeable = False
    g = rng.standard_normal(7)
    loss, saved = ctc.ctc_forward(x, labels, il, ll)
    d = ctc.ctc_backward(g, saved, labels, il, ll)
    before = (len(ctc._forward.signatures), len(ctc._backward.signatures))
    for logits in (strided, frozen):
        l2, s2 = ctc.ctc_forward(logits, labels, il, ll)
        np.testing.assert_array_equal(l2, loss)
        np.testing.assert_array_equal(ctc.ctc_backward(g[::-1].copy()[::-1], s2, labels, il, ll), d)
    assert (len(ctc._forward.signatures), len(ctc._backward.signatures)) == before
