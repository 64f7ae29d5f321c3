"""lnrnn/model/heads.py, the CTC head on a batch with a row of no step: its sums from their definition (loss from
lnrnn.reference's recursion, the best path's edit distances and the label count over the rows with a step,
written out here with a plain Levenshtein), the device path's host_sums equal to the forward's label count, and
log_probs equal to the log-softmax of the logits over each row's own steps and 0 past them."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.heads import CTCHead

T, B, H, C = 5, 4, 3, 4
LENGTHS = np.array([5, 0, 3, 2])                    # a full row, an empty one, two short ones
LABELS = np.array([[1, 2, 1], [3, 3, 2], [2, -1, -1], [1, 3, -1]])   # the empty row has labels too


def levenshtein(a, b):
    d = np.arange(len(b) + 1)
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
    return int(d[-1])


def best_path_by_hand(logits, L):
    """The row's per-step argmax over its L steps, repeats merged, blanks (class 0) dropped."""
    out, last = [], None
    for c in np.argmax(logits[:L], axis=-1):
        if c != last and c != 0:
            out.append(int(c))
        last = c
    return out


def problem(seed=0):
    head = CTCHead(H, C, dtype="float64", seed=seed)
    rng = np.random.default_rng(seed)
    head.params["W"][...] = rng.normal(0, 2, (H, C))   # confident, varied best paths
    h = rng.normal(0, 1, (T, B, H))
    valid = np.arange(T)[:, None] < LENGTHS[None, :]  # (T,B)
    return head, h, valid


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ctc_sums_count_only_the_rows_with_a_step(seed):
    head, h, valid = problem(seed)
    sums, count, _ = head.forward(h, LABELS, valid)
    logits = h @ head.params["W"] + head.params["b"]                                # (T,B,C)
    rows = np.flatnonzero(LENGTHS > 0)
    ll = (LABELS >= 0).sum(1)
    losses, edits = [], []
    for b in rows:
        lab = LABELS[b, :ll[b]]
        loss, _ = ref.ctc_forward(logits[:, b:b + 1], lab[None, :], LENGTHS[b:b + 1], ll[b:b + 1])
        losses.append(float(np.asarray(loss).reshape(-1)[0]))
        edits.append(levenshtein(best_path_by_hand(logits[:, b], LENGTHS[b]), list(lab)))
    assert count == len(rows) == 3
    assert sums["loss"] == pytest.approx(sum(losses), rel=1e-10)
    assert sums["cer"] == sum(edits)
    assert sums["chars"] == ll[rows].sum() == 6           # not the empty row's 3 labels
    assert head.mean({**sums, "seqs": 3.0}, count)["cer"] == pytest.approx(sum(edits) / 6)
    # the device update takes the label count from host_sums: the same number
    assert head.host_sums(LABELS, valid) == {"chars": sums["chars"]}


def test_ctc_log_probs_are_the_log_softmax_over_each_rows_steps_and_zero_past_them():
    head, h, _ = problem(3)
    got = head.log_probs(h, LENGTHS)                                                # (T,B,C)
    z = h @ head.params["W"] + head.params["b"]
    z = z - z.max(-1, keepdims=True)
    want = z - np.log(np.exp(z).sum(-1, keepdims=True))
    run = np.arange(T)[:, None] < LENGTHS[None, :]
    np.testing.assert_allclose(got[run], want[run], rtol=0, atol=1e-12)
    assert np.all(got[~run] == 0)
    # a row's values do not depend on the other rows' lengths
    full = head.log_probs(h, np.full(B, T))
    np.testing.assert_allclose(full, want, rtol=0, atol=1e-12)
