"""bn_rnn_cuda, batchnorm_cuda and layernorm_cuda (CUDA twins) in float64 under Numba's simulator against the NumPy
spec (lnrnn/reference.py), B = 3 rows and H = F = 5 units over tiles of 4 (the second tile holds one unit):

- the BN-RNN with lengths (3, 0, 2) over T = 3 (a row of T steps next to a row of none; the last step one row
  alone), running rows of 2 (x side) and 3 (h side), eps 0.15, momentum 0.3, training and evaluation: y, hT,
  the saved means and 1/std of both sides, the running rows and all seven gradients against the spec; then a
  second call of 2 steps (lengths 2, 0, 1) from the first call's hT with the running rows carried over;
- BatchNorm alone (lengths 4, 0, 2 over T = 4, running rows of 3): the training forward, the running rows, the
  inference forward on running rows that differ from the batch's, the backward;
- LayerNorm over rows of 5 features: y, mean, rstd and the three gradients;
- device lengths of the wrong shape refused word for word.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem  # noqa: E402
from lnrnn import reference  # noqa: E402
from lnrnn.kernels import batchnorm_cuda, bn_rnn_cuda, layernorm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device  # noqa: E402
from test_cuda_kernels import close, host, small_blocks  # noqa: E402,F401

T, B, I, H = 3, 3, 2, 5
LENGTHS = np.array([3, 0, 2], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]
EPS, MOM = 0.15, 0.3
ROWS = (2, 3)
TOL = 1e-12
NAMES = ("x", "h0", "Wx", "Wh", "gx", "gh")


def saved_rows(cache):
    """mean_x, rstd_x, mean_h, rstd_h (T,H) from the spec's per-step cache."""
    return [np.stack([s[k] for s in cache["steps"]]) for k in ("mx", "sx", "mh", "sh")]


@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_bn_rnn_lengths_0_and_t_and_a_second_call_equal_the_spec(training):
    a, run, dy = bn_problem(np.random.default_rng(27030), "rnn", T, B, I, H, ROWS, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    rows, rows_spec = [r.copy() for r in run], [r.copy() for r in run]
    y, hT, saved = bn_rnn_cuda.bn_rnn_forward(*a.values(), *rows, training, MOM, EPS, lengths=LENGTHS)
    ys, hs, cache = reference.bn_rnn_forward(*a.values(), *rows_spec, training, MOM, EPS, lengths=LENGTHS)
    assert close(host(y)[ACTIVE], ys[ACTIVE]) < TOL, "y on the active rows"
    assert close(host(hT)[0], hs[0]) < TOL, "the row of T steps ends at step T-1"
    for name, g, w in zip(("mean_x", "rstd_x", "mean_h", "rstd_h"), [host(saved[k]) for k in (1, 2, 4, 5)],
                          saved_rows(cache)):
        assert close(g, w) < TOL, name
    for k, (g, w, r0) in enumerate(zip(rows, rows_spec, run)):
        assert close(g, w) < TOL, f"running row {k}"
        assert np.array_equal(g, r0) != training, f"running row {k} moved only in training"
    grads = [host(g) for g in bn_rnn_cuda.bn_rnn_backward(dy, saved, *[a[k] for k in NAMES])]
    want = reference.bn_rnn_backward(dy, cache, *[a[k] for k in NAMES])
    for name, g, w in zip(("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh"), grads, want):
        assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, name
    assert not grads[0][:, 1].any(), "the row of 0 steps sends nothing back"
    # a second call of 2 steps from hT, the running rows carried over
    a2 = dict(a, x=a["x"][:2] + 0.5, h0=host(hT))
    len2 = np.array([2, 0, 1], np.int64)
    act2 = np.arange(2)[:, None] < len2[None, :]
    y2, _, saved2 = bn_rnn_cuda.bn_rnn_forward(*a2.values(), *rows, training, MOM, EPS, lengths=len2)
    y2s, _, cache2 = reference.bn_rnn_forward(*a2.values(), *rows_spec, training, MOM, EPS, lengths=len2)
    assert close(host(y2)[act2], y2s[act2]) < TOL, "y of the second call"
    for k, (g, w) in enumerate(zip(rows, rows_spec)):
        assert close(g, w) < TOL, f"running row {k} after the second call"
    grads2 = [host(g) for g in bn_rnn_cuda.bn_rnn_backward(dy[:2], saved2, *[a2[k] for k in NAMES])]
    want2 = reference.bn_rnn_backward(dy[:2], cache2, *[a2[k] for k in NAMES])
    for name, g, w in zip(("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh"), grads2, want2):
        assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, f"{name} of the second call"


def test_batchnorm_with_lengths_0_and_t_equals_the_spec():
    rng = np.random.default_rng(27040)
    Tb, F, lengths = 4, 5, np.array([4, 0, 2], np.int64)
    x = 1.3 * rng.standard_normal((Tb, B, F)) + 0.4
    gain, bias = rng.uniform(0.5, 1.5, F), 0.2 * rng.standard_normal(F)
    rm, rv = 0.6 * rng.standard_normal((3, F)), rng.uniform(0.4, 2.5, (3, F))
    dy = rng.standard_normal((Tb, B, F))
    rm_c, rv_c, rm_s, rv_s = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    y, mean, rstd = batchnorm_cuda.batchnorm_forward_train(x, gain, bias, rm_c, rv_c, MOM, EPS, lengths)
    ys, ms, rs = reference.batchnorm_forward_train(x, gain, bias, rm_s, rv_s, MOM, EPS, lengths)
    act = np.arange(Tb)[:, None] < lengths[None, :]
    assert close(host(y)[act], ys[act]) < TOL and close(host(mean), ms) < TOL and close(host(rstd), rs) < TOL
    assert close(rm_c, rm_s) < TOL and close(rv_c, rv_s) < TOL, "running rows"
    yi = batchnorm_cuda.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)
    assert close(host(yi), reference.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)) < TOL, "inference"
    assert close(host(yi)[act], ys[act]) > 1e-2, "the running rows differ from the batch's"
    got = [host(g) for g in batchnorm_cuda.batchnorm_backward(dy, x, mean, rstd, gain, lengths)]
    for name, g, w in zip(("dx", "dgain", "dbias"), got, reference.batchnorm_backward(dy, x, ms, rs, gain, True,
                                                                                      lengths)):
        assert close(g, w, floor=1e-3) < TOL, name


def test_layernorm_rows_of_5_equal_the_spec():
    rng = np.random.default_rng(27050)
    x, dy = 1.5 * rng.standard_normal((B, 5)) + 0.3, rng.standard_normal((B, 5))
    gain, bias = rng.uniform(0.5, 1.5, 5), 0.2 * rng.standard_normal(5)
    y, mean, rstd = layernorm_cuda.layernorm_forward(x, gain, bias, EPS)
    ys, ms, rs = reference.layernorm_forward(x, gain, bias, EPS)
    assert close(host(y), ys) < TOL and close(host(mean), ms) < TOL and close(host(rstd), rs) < TOL
    got = layernorm_cuda.layernorm_backward(dy, x, mean, rstd, gain)
    for name, g, w in zip(("dx", "dgain", "dbias"), got, reference.layernorm_backward(dy, x, ms, rs, gain)):
        assert close(host(g), w, floor=1e-3) < TOL, name


def test_device_lengths_of_the_wrong_shape_refused_word_for_word():
    with pytest.raises(ValueError) as e:
        batchnorm_cuda.device_lengths(to_device(np.zeros(4, np.int64)), 4, 3)
    assert str(e.value) == "lengths must be (B,) = (3,) int64, got (4,) of int64"
