"""bn_lstm_cuda, bn_rnn_cuda and batchnorm_cuda (the BN CUDA twins) in float64 under Numba's simulator
(tests/conftest.py), B = 3 rows and H = F = 5 units over tiles of 4 (the second tile holds one unit), the modes
and widths the other way round from test_values329_bn_cuda:

- the BN-LSTM, training with a wide input (I = 3) and evaluation with a narrow one (I = 1), two calls of T = 3
  steps with lengths (0, 3, 1) then (3, 1, 2) (rows of 0, 1 and T steps in one batch; the last row's length
  changes between the calls), running rows of 1 (x), 2 (h) and 2 (cell) counts (steps past Ts fold nothing),
  eps 0.3, momentum 0.2, backward with Graves's clip at 0.04 (dy of scale 10) and without: y, every saved array
  (but x Wx), the running rows after each call and all ten gradients against the CPU twin (lnrnn/kernels/bn_lstm.py);
- the BN-RNN, training with I = 3 and evaluation with I = 1, the same two calls, running rows of 1 and 2: y, the
  saved statistics, the running rows after each call and all seven gradients against the NumPy spec
  (lnrnn/reference.py);
- BatchNorm alone over T = 4 with running rows of 3 (step 3 past Ts) and lengths (0, 1, 4): step 0 (two rows),
  step 1 (one row: variance 0, unbiased by 1) and the fold worked out by hand, two training calls on host running
  rows and a third on device rows, the backward and inference against the spec."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import reference  # noqa: E402
from lnrnn.kernels import batchnorm_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from test_values329_bn_cuda import check_batchnorm_call, check_bn_lstm_two_calls, check_bn_rnn_two_calls  # noqa: E402

B = 3  # rows; the two-call checks run test_values329_bn_cuda's T = 3 steps and H = 5 units
CALLS = (np.array([0, 3, 1], np.int64), np.array([3, 1, 2], np.int64))
EPS, MOM, CLIP = 0.3, 0.2, 0.04
TOL = 1e-12
CASES = [(True, 3), (False, 1)]
IDS = ["training-I3", "evaluation-I1"]


@pytest.mark.parametrize("training,I", CASES, ids=IDS)
def test_bn_lstm_two_calls_clipped_and_not_equal_the_cpu_twin(training, I):
    check_bn_lstm_two_calls(training, I, 35610 + I, (1, 2, 2), CALLS,
                            lambda a: dict(a, x=0.7 * a["x"][::-1].copy() - 0.3, c0=-a["c0"]), EPS, MOM, (CLIP, 0.0))


@pytest.mark.parametrize("training,I", CASES, ids=IDS)
def test_bn_rnn_two_calls_equal_the_spec(training, I):
    check_bn_rnn_two_calls(training, I, 35620 + I, (1, 2), CALLS,
                           lambda a: dict(a, x=0.7 * a["x"][::-1].copy() + 0.3, h0=-a["h0"]), EPS, MOM)


def test_batchnorm_one_and_two_rows_by_hand_three_calls_backward_and_inference():
    rng = np.random.default_rng(35630)
    Tb, F, lengths = 4, 5, np.array([0, 1, 4], np.int64)
    x = 1.2 * rng.standard_normal((Tb, B, F)) - 0.5
    gain, bias = rng.uniform(0.5, 1.5, F), 0.3 * rng.standard_normal(F)
    rm, rv = 0.6 * rng.standard_normal((3, F)), rng.uniform(0.4, 2.5, (3, F))
    dy = rng.standard_normal((Tb, B, F))
    rm_c, rv_c, rm_s, rv_s = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    y, mean, rstd = batchnorm_cuda.batchnorm_forward_train(x, gain, bias, rm_c, rv_c, MOM, EPS, lengths)
    # step 0 by hand: rows 1 and 2 run; step 1: row 2 alone (variance 0, unbiased by n / max(n - 1, 1) = 1)
    r1, r2 = x[0, 1], x[0, 2]
    m0, v0 = (r1 + r2) / 2, (r1 - r2) ** 2 / 4
    assert close(host(mean)[0], m0) < TOL and close(host(rstd)[0], 1 / np.sqrt(v0 + EPS)) < TOL, "step 0"
    assert close(host(y)[0, 2], (r2 - m0) / np.sqrt(v0 + EPS) * gain + bias) < TOL, "y of step 0"
    assert close(host(mean)[1], x[1, 2]) < TOL and close(host(rstd)[1], np.full(F, 1 / np.sqrt(EPS))) < TOL, \
        "step 1: one row"
    assert close(host(y)[1, 2], bias) < TOL, "y of step 1: the bias alone"
    assert close(rm_c[0], (1 - MOM) * rm[0] + MOM * m0) < TOL, "running mean row 0"
    assert close(rv_c[0], (1 - MOM) * rv[0] + MOM * 2 * v0) < TOL, "running var row 0 (unbiased: n / (n - 1) = 2)"
    assert close(rm_c[1], (1 - MOM) * rm[1] + MOM * x[1, 2]) < TOL, "running mean row 1"
    assert close(rv_c[1], (1 - MOM) * rv[1]) < TOL, "running var row 1: a variance of 0 folded"
    for call in range(3):
        if call:
            x = 0.8 * x[::-1].copy() + 0.2
        dev = call == 2  # the third call on device running rows, updated in place
        if dev:
            rm_d, rv_d = arrays_cuda.to_device(rm_c), arrays_cuda.to_device(rv_c)
        if call:
            y, mean, rstd = batchnorm_cuda.batchnorm_forward_train(x, gain, bias, rm_d if dev else rm_c,
                                                                   rv_d if dev else rv_c, MOM, EPS, lengths)
        if dev:
            rm_c, rv_c = host(rm_d), host(rv_d)
        check_batchnorm_call(call, (y, mean, rstd), (rm_c, rv_c), (rm_s, rv_s), x, gain, bias, dy, lengths, EPS, MOM)
    assert not np.array_equal(rm_c[:3], rm) and not np.array_equal(rv_c[:3], rv), "the running rows moved"
    yi = batchnorm_cuda.batchnorm_forward_infer(x, gain, bias, rm_c, rv_c, EPS)
    want_i = reference.batchnorm_forward_infer(x, gain, bias, rm_c, rv_c, EPS)
    assert close(host(yi), want_i) < TOL, "inference on running rows of 3 over 4 steps"
    assert close(host(yi)[3], (x[3] - rm_c[2]) / np.sqrt(rv_c[2] + EPS) * gain + bias) < TOL, "step 3: row Ts-1"
    gi = batchnorm_cuda.bn_backward(dy, x, rm_c[[0, 1, 2, 2]], 1 / np.sqrt(rv_c[[0, 1, 2, 2]] + EPS), gain, False,
                                    lengths)
    wi = reference.batchnorm_backward(dy, x, rm_c[[0, 1, 2, 2]], 1 / np.sqrt(rv_c[[0, 1, 2, 2]] + EPS), gain, False,
                                      lengths)
    for name, g, w in zip(("dx", "dgain", "dbias"), gi, wi):
        assert close(host(g), w, floor=1e-3) < TOL, f"inference {name}"
