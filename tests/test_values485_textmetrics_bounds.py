"""label_edit_distances (lnrnn/textmetrics.py) stays inside its buffers: the compiled function checks no index,
so a loop one place too long writes or reads past a row (silently, or a crash some time later). Its own source is
compiled here again with Numba's bounds checks on and run on the rows where that shows: a hypothesis or a
reference as long as its padded array, empty ones, and batches that mix them; every row equals the Levenshtein
recursion (test_values87_textmetrics.lev), and the checked and the library's compiled function agree."""
import itertools

import numpy as np
from numba import njit

from lnrnn.textmetrics import label_edit_distances
from test_values87_textmetrics import lev

checked = njit(boundscheck=True, cache=False)(label_edit_distances.py_func)


def rows(refs, hyps, Lr, Lh, pad=7):
    """Padded (B,Lr) and (B,Lh) int64 arrays of the label lists, the padding an unused label, and their lengths."""
    ref = np.full((len(refs), Lr), pad, np.int64)
    hyp = np.full((len(hyps), Lh), pad, np.int64)
    for b, (r, h) in enumerate(zip(refs, hyps)):
        ref[b, :len(r)] = r
        hyp[b, :len(h)] = h
    return ref, np.array([len(r) for r in refs], np.int64), hyp, np.array([len(h) for h in hyps], np.int64)


def test_rows_as_long_as_their_arrays_stay_inside_them():
    labels = [[], [1], [2, 1], [1, 2, 3], [3, 3, 1, 2]]
    pairs = [(r, h) for r, h in itertools.product(labels, repeat=2) if len(r) == 4 or len(h) == 4]
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    args = rows(refs, hyps, 4, 4)
    got = checked(*args)  # an index outside a buffer raises IndexError here
    assert got.tolist() == [lev(r, h) for r, h in pairs]
    assert label_edit_distances(*args).tolist() == got.tolist()


def test_every_row_full_or_empty_one_by_one_and_mixed():
    cases = [([1, 2, 3], [1, 2, 3]), ([1, 2, 3], []), ([], [3, 2, 1]), ([], []), ([2], [1, 2, 3, 1])]
    for r, h in cases:  # each alone: the arrays exactly as wide as the row's labels (width 1 when empty)
        args = rows([r], [h], max(len(r), 1), max(len(h), 1))
        assert checked(*args).tolist() == [lev(r, h)], (r, h)
    args = rows([r for r, _ in cases], [h for _, h in cases], 3, 4)
    assert checked(*args).tolist() == [lev(r, h) for r, h in cases]
    assert label_edit_distances(*args).tolist() == [lev(r, h) for r, h in cases]
