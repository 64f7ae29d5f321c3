"""The BN op of lnrnn/kernels/batchnorm.py over (T,B,F) = (4,5,3) in float64 against the formula written out
here with masks: at step t the n_t active rows (t < lengths[b]) give mean and biased variance (n_t = 0: 0 and
0), every row is normalized with them, y = (x - mean) / sqrt(var + eps) * gain + bias. Lengths [4, 1, 2, 3, 4]
(step 0 every row, then runs of active rows broken by rows at their last step), [4, 0, 1, 4, 2] (lengths 0, 1
and T) and None. Running rows Ts = 3 < T far from the batch means, after one and two calls against
(1 - m) r + m s with the variance's n/(n - 1), the row of step 3 not recorded; inference with Ts = 2 reading
row min(t, 1); the training backward against central differences of the masked loss in float64."""
import numpy as np
import pytest

from lnrnn.kernels import batchnorm as bn
from gradcheck_util import numeric_grad

T, B, F = 4, 5, 3
MOM, EPS = 0.3, 0.05
CASES = {"runs": np.array([4, 1, 2, 3, 4], np.int64), "zero-one-T": np.array([4, 0, 1, 4, 2], np.int64),
         "none": None}


def data(seed, Ts=3):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, F)) * np.array([1.5, 0.7, 2.0]) + np.array([-1.0, 2.0, 0.5])
    gain, bias = rng.uniform(0.5, 1.5, F), 0.3 * rng.standard_normal(F)
    rm, rv = rng.uniform(4.0, 6.0, (Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    return x, gain, bias, rm, rv, rng.standard_normal((T, B, F))


def active(lengths):
    """(T,B) bool: row b active at step t."""
    if lengths is None:
        return np.ones((T, B), bool)
    return np.arange(T)[:, None] < lengths[None, :]


def formula(x, gain, bias, act):
    """y, mean, biased var written out with masks."""
    y = np.empty_like(x)
    mean, var = np.zeros((T, F)), np.zeros((T, F))
    for t in range(T):
        rows = x[t][act[t]]
        n = rows.shape[0]
        if n:
            mean[t] = rows.sum(0) / n
            var[t] = ((rows - mean[t]) ** 2).sum(0) / n
        y[t] = (x[t] - mean[t]) / np.sqrt(var[t] + EPS) * gain + bias
    return y, mean, var


@pytest.mark.parametrize("which", sorted(CASES))
def test_training_forward_and_running_rows_after_one_and_two_calls(which):
    lengths = CASES[which]
    act = active(lengths)
    x, gain, bias, rm, rv, _ = data(3171)
    want_m, want_v = rm.copy(), rv.copy()
    rng = np.random.default_rng(3178)
    for call in range(2):
        if call == 1:
            x = rng.standard_normal((T, B, F)) * 1.3 - 0.8
        y, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm, rv, MOM, EPS,
                                                   None if lengths is None else lengths.copy())
        wy, wmean, wvar = formula(x, gain, bias, act)
        np.testing.assert_allclose(y, wy, rtol=1e-12, atol=1e-12, err_msg=f"y, call {call + 1}")
        np.testing.assert_allclose(mean, wmean, rtol=1e-12, atol=1e-12, err_msg=f"mean, call {call + 1}")
        np.testing.assert_allclose(rstd, 1 / np.sqrt(wvar + EPS), rtol=1e-12, err_msg=f"rstd, call {call + 1}")
        for t in range(3):   # Ts = 3: step 3 is not recorded
            n = act[t].sum()
            if n:
                want_m[t] = (1 - MOM) * want_m[t] + MOM * wmean[t]
                want_v[t] = (1 - MOM) * want_v[t] + MOM * wvar[t] * n / max(n - 1, 1)
        np.testing.assert_allclose(rm, want_m, rtol=1e-12, atol=1e-12, err_msg=f"running mean, call {call + 1}")
        np.testing.assert_allclose(rv, want_v, rtol=1e-12, atol=1e-12, err_msg=f"running var, call {call + 1}")


@pytest.mark.parametrize("which", sorted(CASES))
def test_inference_reads_row_min_t_and_last_running_row_past_ts(which):
    x, gain, bias, rm, rv, _ = data(3173, Ts=2)
    keep_m, keep_v = rm.copy(), rv.copy()
    y = bn.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)
    y2, mean, rstd = bn.bn_forward(x, gain, bias, rm, rv, False, MOM, EPS, CASES[which])
    for t in range(T):
        r = min(t, 1)
        want = (x[t] - rm[r]) / np.sqrt(rv[r] + EPS) * gain + bias
        np.testing.assert_allclose(y[t], want, rtol=1e-12, atol=1e-12, err_msg=f"step {t}")
        np.testing.assert_allclose(y2[t], want, rtol=1e-12, atol=1e-12, err_msg=f"step {t}, bn_forward")
        np.testing.assert_allclose(mean[t], rm[r], rtol=1e-15)
        np.testing.assert_allclose(rstd[t], 1 / np.sqrt(rv[r] + EPS), rtol=1e-12)
    np.testing.assert_array_equal(rm, keep_m)
    np.testing.assert_array_equal(rv, keep_v)


@pytest.mark.parametrize("which", sorted(CASES))
def test_training_backward_against_central_differences_of_the_masked_formula(which):
    lengths = CASES[which]
    act = active(lengths)
    x, gain, bias, rm, rv, dy = data(3175)
    _, mean, rstd = bn.batchnorm_forward_train(x, gain, bias, rm.copy(), rv.copy(), MOM, EPS,
                                               None if lengths is None else lengths.copy())
    dx, dgain, dbias = bn.batchnorm_backward(dy, x, mean, rstd, gain, None if lengths is None else lengths.copy())
    q = dict(x=x.copy(), gain=gain.copy(), bias=bias.copy())

    def loss():
        y, _, _ = formula(q["x"], q["gain"], q["bias"], act)
        return float((dy * y)[act].sum())

    for name, g in (("x", dx), ("gain", dgain), ("bias", dbias)):
        num = numeric_grad(loss, q[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")
    np.testing.assert_array_equal(dx[~act], 0.0)
