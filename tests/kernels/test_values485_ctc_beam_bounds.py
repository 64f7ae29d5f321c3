"""The CTC loss (lnrnn/kernels/ctc.py) and the prefix beam search (lnrnn/model/beam.py) stay inside their buffers:
their compiled loops check no index, so a scratch array one place short or a loop one place long reads or writes
past it, silently or as a crash some time later. A child process compiles both with Numba's bounds checks on
(NUMBA_BOUNDSCHECK=1, its own cache) and runs them where that shows: labels as long as their padded array, rows of
every input length from 0 to T, rows with no path, a beam wider than the classes allow and one of width 1. The
child's losses, gradients and beams equal the NumPy specs (lnrnn/reference.py's CTC, decode.prefix_beam_search);
this process never runs the compiled kernels, so a write past a buffer cannot take the test run down with it.
Numba checks no index in a prange loop's own body (ctc._forward's row loop): the helpers it calls are checked."""
import os
import subprocess
import sys

import numpy as np

from lnrnn import reference
from lnrnn.model.decode import prefix_beam_search

CHILD = """
import sys
import numpy as np
from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from lnrnn.model.beam import beam_search_array
a = np.load(sys.argv[1])
loss, saved = ctc_forward(a["logits"], a["labels"], a["il"], a["ll"])
out = dict(loss=loss, grad=ctc_backward(a["dloss"], saved, a["labels"], a["il"], a["ll"]))
for w in a["widths"]:
    out[f"labels{w}"], out[f"lengths{w}"], out[f"logq{w}"] = beam_search_array(a["logp"], int(w), a["il"])
np.savez(sys.argv[2], **out)
"""


def inputs():
    """Logits (T,B,C) of 8 rows whose labels (B,Lmax) fill their array (Lmax 3, repeats included), are shorter
    or empty, with input lengths from 0 to T; two rows have no path (too few steps), and the empty label
over no steps has probability 1."""
    rng = np.random.default_rng(485)
    T, C = 7, 4
    labels = np.array([[1, 2, 3], [1, 1, 1], [2, 2, 0], [3, 0, 0], [0, 0, 0], [1, 2, 1], [3, 3, 3], [2, 1, 0]])
    ll = np.array([3, 3, 2, 1, 0, 3, 3, 2])
    il = np.array([7, 5, 4, 1, 0, 2, 4, 7])  # row 1: 1 1 1 needs 5 steps; rows 5 and 6 have too few
    logits = rng.normal(size=(T, len(ll), C))
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    return dict(logits=logits, labels=labels, il=il, ll=ll, dloss=rng.uniform(0.5, 2.0, len(ll)), logp=logp,
                widths=np.array([1, 3, 64]))


def test_ctc_and_beam_compiled_with_bounds_checks_equal_the_library(tmp_path):
    a = inputs()
    np.savez(tmp_path / "in.npz", **a)
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "in.npz"), str(tmp_path / "out.npz")],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]  # an index outside a buffer: IndexError in the child
    got = np.load(tmp_path / "out.npz")
    loss, cache = reference.ctc_forward(a["logits"], a["labels"], a["il"], a["ll"])
    assert (loss[[4, 5, 6]] == 0).all() and (loss[[0, 1, 2, 3, 7]] > 0).all()
    np.testing.assert_allclose(got["loss"], loss, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got["grad"], reference.ctc_backward(a["dloss"], cache), rtol=1e-10, atol=1e-12)
    for w in a["widths"]:
        best = [prefix_beam_search(a["logp"][:n, b], int(w))[0] for b, n in enumerate(a["il"])]
        assert got[f"lengths{w}"].tolist() == [len(p) for p, _ in best]
        assert [r[:len(p)].tolist() for r, (p, _) in zip(got[f"labels{w}"], best)] == [list(p) for p, _ in best]
        assert all((r[len(p):] == -1).all() for r, (p, _) in zip(got[f"labels{w}"], best))
        np.testing.assert_allclose(got[f"logq{w}"], [q for _, q in best], rtol=1e-10, atol=1e-12)
