"""The CTC head's sums (lnrnn/model/heads.py, CTCHead.forward) by hand on a batch with a row of no step: the
logits are h W + b computed here, each scored row's best path is its per-step argmax over its own steps
collapsed here (repeats merged, blanks dropped), and 'cer' is the sum of the Levenshtein distances
(written here) of those transcriptions to the labels over the rows with at least one step; 'chars' their
labels' length. A row without steps is not scored: neither its label's length nor its edits count."""
import numpy as np

from lnrnn.model.heads import CTCHead


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i]
        for j in range(1, len(b) + 1):
            row.append(min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])))
        prev = row
    return prev[-1]


def best_path_by_hand(logits):
    out, prev = [], None
    for k in logits.argmax(axis=1).tolist():
        if k != prev and k != 0:
            out.append(k)
        prev = k
    return out


def test_cer_sums_the_edits_of_scored_rows_only():
    rng = np.random.default_rng(4870)
    T, B, H, C = 6, 4, 5, 4
    head = CTCHead(H, C, dtype="float64", seed=3)
    head.params["W"][...] = 2.0 * rng.standard_normal((H, C))
    head.params["b"][...] = rng.standard_normal(C)
    h = rng.standard_normal((T, B, H))
    lengths = [6, 0, 3, 5]                              # row 1: no step
    valid = np.arange(T)[:, None] < np.array(lengths)[None, :]
    rows = [[1, 2, 3], [2, 2, 1, 3], [3], [1, 1]]
    targets = np.full((B, 4), -1, np.int64)
    for b, r in enumerate(rows):
        targets[b, :len(r)] = r
    sums, count, _ = head.forward(h, targets, valid)
    logits = np.einsum("tbh,hc->tbc", h, head.params["W"]) + head.params["b"]
    edits = [levenshtein(rows[b], best_path_by_hand(logits[:lengths[b], b])) for b in range(B) if lengths[b]]
    assert count == 3
    assert sums["chars"] == 3 + 1 + 2
    assert sums["cer"] == sum(edits)
    assert levenshtein(rows[1], []) == 4                # the row without steps would add 4 edits
