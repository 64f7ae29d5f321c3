"""The CTC kernel's own elementary functions (lnrnn/kernels/ctc.py) against NumPy's, to the accuracy their
docstrings state: ``_exp`` (a degree-13 Taylor polynomial on |r| <= log(2)/2 and 2^k from its bits) within 2 ulp
(relative) for |y| <= 1 and within 16 ulp down to -60, exactly 0 below -708 and at -inf; ``_log13`` (2 atanh of
(u - 1)/(u + 1)) within 2 ulp on [1, 3], both branches of its split at sqrt(2) included. A wrong coefficient of
either series moves a result by tens of ulp: the CTC loss stays close (well within the loose tolerances of a loss
test), so only a direct check sees it."""
import numpy as np

from lnrnn.kernels import ctc

EPS = np.finfo(np.float64).eps


def _ulp_rel(got, want):
    return np.max(np.abs(got - want) / np.abs(want)) / EPS


def test_exp_against_numpy():
    near = np.linspace(-1.0, 1.0, 4001)
    far = np.concatenate([np.linspace(-60.0, 1.0, 12001), -np.log(2.0) * np.arange(1, 80) / 2])
    assert _ulp_rel(np.array([ctc._exp(y) for y in near]), np.exp(near)) <= 2.0
    assert _ulp_rel(np.array([ctc._exp(y) for y in far]), np.exp(far)) <= 16.0
    assert ctc._exp(-709.0) == 0.0 and ctc._exp(-np.inf) == 0.0
    assert ctc._exp(0.0) == 1.0


def test_log13_against_numpy():
    z = np.concatenate([np.linspace(1.0, 3.0, 8001), [np.sqrt(2.0) * (1 - 1e-15), np.sqrt(2.0) * (1 + 1e-15)]])
    got = np.array([ctc._log13(v) for v in z])
    assert np.max(np.abs(got - np.log(z))) / EPS <= 2.0
    assert ctc._log13(1.0) == 0.0
