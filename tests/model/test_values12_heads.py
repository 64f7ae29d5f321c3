"""The heads' figures against their definitions where a bound or a denominator shows: a regression prediction
counts as correct when every error is strictly within the tolerance (errors of exactly the tolerance, both
signs, are not), and the CTC head's character error rate is all edits over all the labels' characters, not
over the sequences."""
import numpy as np

from lnrnn.model.heads import CTCHead, RegressionHead


def test_regression_within_is_strictly_inside_the_tolerance():
    head = RegressionHead(3, tolerance=0.25)
    head.params["W"][...] = 0.0
    head.params["b"][...] = 0.5                                   # every prediction 0.5
    targets = np.array([0.5, 0.25, 0.4375, 0.75, 0.3125], np.float32)   # errors 0, 0.25, 0.0625, -0.25, 0.1875
    valid = np.ones(5, bool)
    sums, count, _ = head.forward(np.zeros((5, 3), np.float32), targets, valid)
    err = 0.5 - targets.astype(np.float64)
    assert sums["acc"] == np.count_nonzero(np.abs(err) < 0.25) == 3
    assert count == 5 and np.isclose(sums["loss"], np.sum(err ** 2))


def test_ctc_cer_is_edits_over_characters():
    head = CTCHead(3, 4)
    sums = {"loss": 6.0, "cer": 3.0, "chars": 12.0, "seqs": 2.0}
    m = head.mean(sums, 2)
    assert m == {"loss": 3.0, "cer": 0.25}
