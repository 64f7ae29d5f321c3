"""CTC's CUDA twin (lnrnn/kernels/ctc_cuda.py) against the definition, under Numba's simulator (or on a GPU):
p(l | x) summed here over every one of the C^Tb paths of a row, each collapsed by hand (repeats merged, then
blanks dropped), loss -log p; the gradient with respect to the logits g (softmax - the paths' posterior counts
of each class at each step), 0 past the row's steps. And the CPU twin (lnrnn/kernels/ctc.py) on the same rows.

T = 5, C = 3 (3^5 = 243 paths), blocks of 4 threads (S = 7 positions for 3 labels: two strides, idle threads):
labels with repeats (1 1, and 1 2 2, where beta may skip the blank between 1 and 2 but not between 2 and 2), a
row of 3 steps under a padded width (its label padded with codes that must never be read), an empty label.
dloss is not 1, so the gradient's scaling shows. float64 to 1e-12."""
import itertools

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import ctc, ctc_cuda  # noqa: E402

T, C = 5, 3
BLANK = 0
LABELS = [[1, 1], [1, 2, 2], [2], []]
INPUT_LENGTHS = [5, 5, 3, 4]
TOL = 1e-12


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def collapse(path):
    out, prev = [], None
    for c in path:
        if c != prev and c != BLANK:
            out.append(c)
        prev = c
    return out


def by_definition(logits, g, labels=LABELS, input_lengths=INPUT_LENGTHS):
    """loss (B,), dlogits (T,B,C) from the sum over all paths of each row (row b: labels[b] over its first
    input_lengths[b] steps)."""
    B, C = logits.shape[1:]
    loss, d = np.zeros(B), np.zeros_like(logits)
    for b, (lab, Tb) in enumerate(zip(labels, input_lengths)):
        x = logits[:Tb, b]
        logp = x - np.log(np.exp(x).sum(axis=1, keepdims=True))
        p, counts = 0.0, np.zeros((Tb, C))
        for path in itertools.product(range(C), repeat=Tb):
            if collapse(path) == lab:
                q = np.exp(sum(logp[t, c] for t, c in enumerate(path)))
                p += q
                counts[np.arange(Tb), list(path)] += q
        loss[b] = -np.log(p)
        d[:Tb, b] = g[b] * (np.exp(logp) - counts / p)
    return loss, d


def test_loss_and_gradient_equal_the_sum_over_paths():
    rng = np.random.default_rng(75)
    B = len(LABELS)
    logits = rng.standard_normal((T, B, C))
    Lmax = max(map(len, LABELS))
    labels = np.full((B, Lmax), 2, np.int64)  # padding of valid codes: a read past a label finds a class
    for b, lab in enumerate(LABELS):
        labels[b, :len(lab)] = lab
    il = np.array(INPUT_LENGTHS, np.int64)
    ll = np.array([len(lab) for lab in LABELS], np.int64)
    g = np.array([1.5, -0.7, 2.0, 0.4])
    want_loss, want_d = by_definition(logits, g)

    loss, saved = ctc_cuda.ctc_forward(logits, labels, il, ll)
    d = ctc_cuda.ctc_backward(g, saved, labels, il, ll).copy_to_host()
    np.testing.assert_allclose(loss.copy_to_host(), want_loss, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(d, want_d, rtol=0, atol=TOL)

    cpu_loss, cpu_saved = ctc.ctc_forward(logits, labels, il, ll)
    np.testing.assert_allclose(cpu_loss, want_loss, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(ctc.ctc_backward(g, cpu_saved, labels, il, ll), want_d, rtol=0, atol=TOL)
