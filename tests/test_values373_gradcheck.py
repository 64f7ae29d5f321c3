"""Round 373 value tests of the gradcheck utility's verdicts: check_stack on a correct float64 stack must judge
every array (parameters, input, initial states) within TOLERANCE, with arrays larger than max_elems sampled, so
the analytic elements compared must be the sampled ones and the loss must be the documented sum(y * R)."""
import numpy as np

from lnrnn.gradcheck import TOLERANCE, check_stack


def test_check_stack_sampled_verdicts_within_tolerance():
    res = dict(check_stack("rnn", "none", T=3, B=2, I=2, H=3, num_layers=1, max_elems=4, seed=5))
    assert "x" in res and len(res) >= 4
    bad = {k: v for k, v in res.items() if not v < TOLERANCE}
    assert not bad, bad
    assert all(np.isfinite(v) for v in res.values())
