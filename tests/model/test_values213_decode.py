"""lnrnn/model/decode.py's best path against a hand collapse: each row's argmax over its own steps, repeats
merged, then blanks (class 0) dropped, for rows of different lengths in one batch (T=6, B=3, C=4), as lists
(best_path) and as rows padded with -1 (best_path_array)."""
import numpy as np

from lnrnn.model.decode import best_path, best_path_array
from test_values87_ctc import collapse  # repeats merged, then blanks dropped


def scores(rows, T, C=4):
    """logp (T,B,C) whose argmax at row b, step t is rows[b][t] (steps past a row's list: the blank)."""
    rng = np.random.default_rng(213)
    logp = rng.normal(0.0, 0.1, (T, len(rows), C))
    for b, row in enumerate(rows):
        for t in range(T):
            logp[t, b, row[t] if t < len(row) else 0] += 3.0
    return logp


def test_each_row_is_its_own_steps_collapsed_collapse():
    rows = [[1, 1, 0, 1, 2, 3], [3, 0, 0, 2, 2, 1], [2, 2, 2, 0, 3, 3]]
    lengths = [6, 4, 5]
    logp = scores(rows, 6)
    want = [collapse(r[:n]) for r, n in zip(rows, lengths)]
    assert want == [[1, 1, 2, 3], [3, 2], [2, 3]]
    assert best_path(logp, lengths) == want
    assert best_path(logp) == [collapse(r) for r in rows]
    labels, n = best_path_array(logp, lengths)
    assert n.tolist() == [len(w) for w in want]
    for b, w in enumerate(want):
        assert labels[b].tolist() == w + [-1] * (6 - len(w))


def test_rows_with_no_labels_and_a_single_step():
    logp = scores([[0, 0, 0], [2, 1, 1]], 3)
    assert best_path(logp, [3, 1]) == [[], [2]]
    assert best_path(logp, [0, 3]) == [[], [2, 1]]
