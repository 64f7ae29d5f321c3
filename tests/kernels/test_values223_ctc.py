"""The CTC kernel (lnrnn/kernels/ctc.py) against the sum over every path (test_values26_ctc.brute_force, through
test_values48_ctc.check): one batch of rows with a repeat ('a a', where no skip is allowed), an empty label,
'a b a' (two skips) and one label, of their own lengths, in linear space; then the same labels with every
label class (or, for the empty label, the blank) 800 nats down, so that each row runs in log space: loss and
gradient (the softmax minus each class's share of the label's paths, the blank's included) still by paths."""
import numpy as np

from test_values48_ctc import check

ROWS = [[1, 1], [], [1, 2, 1], [2]]
LENGTHS = [5, 3, 5, 2]


def test_repeats_empty_labels_and_skips_by_every_path():
    rng = np.random.default_rng(22320)
    T, C = 5, 3
    x = 1.5 * rng.standard_normal((T, len(ROWS), C))
    loss, saved = check(x, ROWS, LENGTHS, rng.uniform(0.5, 2.0, len(ROWS)))
    assert not saved[3].any()                                  # every row in linear space


def test_far_down_logits_run_in_log_space_and_still_sum_every_path():
    rng = np.random.default_rng(22321)
    T, C = 5, 3
    x = 0.5 * rng.standard_normal((T, len(ROWS), C))
    for b, r in enumerate(ROWS):
        if r:
            x[:, b, 1:] -= 800.0                               # the labels' classes far down
        else:
            x[:, b, 0] -= 800.0                                # the empty label's blank far down
    loss, saved = check(x, ROWS, LENGTHS, rng.uniform(0.5, 2.0, len(ROWS)))
    assert saved[3].all()
    assert np.all(loss > 790)
