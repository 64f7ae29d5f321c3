"""bn_lstm_cuda, bn_rnn_cuda and batchnorm_cuda (the BN CUDA twins) in float64 under Numba's simulator
(tests/conftest.py), B = 3 rows and H = F = 5 units over tiles of 4 (the second tile holds one unit):

- the BN-LSTM, training with a narrow input (I = 1) and evaluation with a wide one (I = 3), two calls of T = 3
  steps, lengths (3, 0, 1) then (1, 3, 0) (rows of T, 0 and 1 steps in one batch), running rows of 2 (x), 2 (h)
  and 1 (cell) counts (steps past Ts fold nothing), eps 0.2, momentum 0.35, Graves's clip at 0.05 with dy of scale
  10: y, every saved array (but x Wx), the running rows after each call and all ten gradients against the CPU twin
  (lnrnn/kernels/bn_lstm.py);
- the BN-RNN, training with I = 1 and evaluation with I = 3, the same two calls, running rows of 2 and 1: y, the
  saved statistics, the running rows and all seven gradients against the NumPy spec (lnrnn/reference.py);
- BatchNorm alone over T = 4 with running rows of 2 (steps 2 and 3 past Ts) and lengths (4, 0, 1): two training
  calls on host running rows (written back), step 0's statistics and fold worked out by hand, inference and the
  backward against the spec."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from bn_problems import bn_problem  # noqa: E402
from lnrnn import reference  # noqa: E402
from lnrnn.kernels import batchnorm_cuda, bn_lstm, bn_lstm_cuda, bn_rnn_cuda  # noqa: E402
from test_cuda_kernels import close, host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from test_values270_bn_cuda import saved_rows  # noqa: E402

T, B, H = 3, 3, 5
CALLS = (np.array([3, 0, 1], np.int64), np.array([1, 3, 0], np.int64))
EPS, MOM, CLIP = 0.2, 0.35, 0.05
TOL = 1e-12
LSTM_NAMES = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
RNN_NAMES = ("x", "h0", "Wx", "Wh", "gx", "gh")
CASES = [(True, 1), (False, 3)]
IDS = ["training-I1", "evaluation-I3"]


def active(lengths, steps=T):
    return np.arange(steps)[:, None] < lengths[None, :]


def check_bn_lstm_two_calls(training, I, seed, counts, calls, second, eps, mom, clips):
    """The BN-LSTM twin over two calls of T steps (lengths calls[0], calls[1]; the second call's arguments
    second(a)), running rows of counts (x, h, cell), against the CPU twin: y, every saved array but x Wx, the
    running rows after each call (moved only in training) and all ten gradients at each clip of clips (dy of
    scale 10)."""
    a, run, dy = bn_problem(np.random.default_rng(seed), "lstm", T, B, I, H, counts, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    dy = 10 * dy
    rows, rows_cpu = [r.copy() for r in run], [r.copy() for r in run]
    for call, lengths in enumerate(calls):
        a_k = a if call == 0 else second(a)
        act = active(lengths)
        y, hT, cT, saved = bn_lstm_cuda.bn_lstm_forward(*a_k.values(), *rows, training, mom, eps, lengths=lengths)
        out = bn_lstm.bn_lstm_forward(*a_k.values(), *rows_cpu, training, mom, eps, lengths=lengths)
        assert close(host(y)[act], host(out[0])[act]) < TOL, f"y of call {call}"
        for k, (g, w) in enumerate(zip(saved[1:-2], out[-1][1:-2])):  # x Wx: laid out by each twin its own way
            assert host(g).shape == host(w).shape and close(host(g), host(w), floor=1e-3) < TOL, \
                f"saved {k + 1} of call {call}"
        for k, (g, w, r0) in enumerate(zip(rows, rows_cpu, run)):
            assert close(g, w) < TOL, f"running row {k} after call {call}"
            assert np.array_equal(g, r0) != training, f"running row {k} moved only in training"
        for clip in clips:
            grads = bn_lstm_cuda.bn_lstm_backward(dy, saved, *[a_k[k] for k in LSTM_NAMES], clip=clip)
            want = bn_lstm.bn_lstm_backward(dy, out[-1], *[a_k[k] for k in LSTM_NAMES], clip=clip)
            for k, (g, w) in enumerate(zip(grads, want)):
                g, w = host(g), host(w)
                assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, f"gradient {k} of call {call}, clip {clip}"


def check_bn_rnn_two_calls(training, I, seed, counts, calls, second, eps, mom):
    """The BN-RNN twin over two calls as check_bn_lstm_two_calls (running rows of counts (x, h)), against the
    NumPy spec: y, the saved statistics, the running rows after each call and all seven gradients."""
    a, run, dy = bn_problem(np.random.default_rng(seed), "rnn", T, B, I, H, counts, var_lo=0.4, var_hi=2.5,
                            mean_sc=0.6)
    rows, rows_spec = [r.copy() for r in run], [r.copy() for r in run]
    for call, lengths in enumerate(calls):
        a_k = a if call == 0 else second(a)
        act = active(lengths)
        y, _, saved = bn_rnn_cuda.bn_rnn_forward(*a_k.values(), *rows, training, mom, eps, lengths=lengths)
        ys, _, cache = reference.bn_rnn_forward(*a_k.values(), *rows_spec, training, mom, eps, lengths=lengths)
        assert close(host(y)[act], ys[act]) < TOL, f"y of call {call}"
        for name, g, w in zip(("mean_x", "rstd_x", "mean_h", "rstd_h"), [host(saved[k]) for k in (1, 2, 4, 5)],
                              saved_rows(cache)):
            assert close(g, w) < TOL, f"{name} of call {call}"
        for k, (g, w, r0) in enumerate(zip(rows, rows_spec, run)):
            assert close(g, w) < TOL, f"running row {k} after call {call}"
            assert np.array_equal(g, r0) != training, f"running row {k} moved only in training"
        grads = bn_rnn_cuda.bn_rnn_backward(dy, saved, *[a_k[k] for k in RNN_NAMES])
        want = reference.bn_rnn_backward(dy, cache, *[a_k[k] for k in RNN_NAMES])
        for name, g, w in zip(("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh"), grads, want):
            g = host(g)
            assert g.shape == w.shape and close(g, w, floor=1e-3) < TOL, f"{name} of call {call}"


@pytest.mark.parametrize("training,I", CASES, ids=IDS)
def test_bn_lstm_two_calls_equal_the_cpu_twin(training, I):
    check_bn_lstm_two_calls(training, I, 32910 + I, (2, 2, 1), CALLS,
                            lambda a: dict(a, x=a["x"] + 0.5, h0=0.5 * a["h0"][::-1].copy()), EPS, MOM, (CLIP,))


@pytest.mark.parametrize("training,I", CASES, ids=IDS)
def test_bn_rnn_two_calls_equal_the_spec(training, I):
    check_bn_rnn_two_calls(training, I, 32920 + I, (2, 1), CALLS,
                           lambda a: dict(a, x=a["x"] - 0.4, h0=0.5 * a["h0"][::-1].copy()), EPS, MOM)


def check_batchnorm_call(call, out, rows, rows_spec, x, gain, bias, dy, lengths, eps, mom):
    """batchnorm_cuda's training call number call (out = its (y, mean, rstd); rows = the running rows (rm, rv) it
    moved, on the host) against the spec's same call on rows_spec (moved here): y over the active rows, the
    statistics, the running rows after the call, and the backward's dx, dgain, dbias."""
    y, mean, rstd = out
    act = active(lengths, x.shape[0])
    ys, ms, rs = reference.batchnorm_forward_train(x, gain, bias, *rows_spec, mom, eps, lengths)
    assert close(host(y)[act], ys[act]) < TOL and close(host(mean), ms) < TOL and close(host(rstd), rs) < TOL, \
        f"call {call}"
    assert close(rows[0], rows_spec[0]) < TOL and close(rows[1], rows_spec[1]) < TOL, \
        f"running rows after call {call}"
    got = batchnorm_cuda.batchnorm_backward(dy, x, mean, rstd, gain, lengths)
    want = reference.batchnorm_backward(dy, x, ms, rs, gain, True, lengths)
    for name, g, w in zip(("dx", "dgain", "dbias"), got, want):
        assert close(host(g), w, floor=1e-3) < TOL, f"{name} of call {call}"


def test_batchnorm_past_ts_two_calls_inference_and_backward_equal_the_spec():
    rng = np.random.default_rng(32930)
    Tb, F, lengths = 4, 5, np.array([4, 0, 1], np.int64)
    x = 1.3 * rng.standard_normal((Tb, B, F)) + 0.4
    gain, bias = rng.uniform(0.5, 1.5, F), 0.2 * rng.standard_normal(F)
    rm, rv = 0.6 * rng.standard_normal((2, F)), rng.uniform(0.4, 2.5, (2, F))
    dy = rng.standard_normal((Tb, B, F))
    rm_c, rv_c, rm_s, rv_s = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    y, mean, rstd = batchnorm_cuda.batchnorm_forward_train(x, gain, bias, rm_c, rv_c, MOM, EPS, lengths)
    # step 0 by hand: rows 0 and 2 run
    r0 = x[0][[0, 2]]
    m0, v0 = (r0[0] + r0[1]) / 2, (r0[0] - r0[1]) ** 2 / 4
    assert close(host(mean)[0], m0) < TOL and close(host(rstd)[0], 1 / np.sqrt(v0 + EPS)) < TOL, "step 0"
    assert close(host(y)[0, 0], (r0[0] - m0) / np.sqrt(v0 + EPS) * gain + bias) < TOL, "y of step 0"
    assert close(rm_c[0], (1 - MOM) * rm[0] + MOM * m0) < TOL, "running mean row 0"
    assert close(rv_c[0], (1 - MOM) * rv[0] + MOM * 2 * v0) < TOL, "running var row 0 (unbiased: n / (n - 1) = 2)"
    for call in range(2):
        if call:
            x = x[::-1].copy()
            y, mean, rstd = batchnorm_cuda.batchnorm_forward_train(x, gain, bias, rm_c, rv_c, MOM, EPS, lengths)
        check_batchnorm_call(call, (y, mean, rstd), (rm_c, rv_c), (rm_s, rv_s), x, gain, bias, dy, lengths, EPS, MOM)
    assert not np.array_equal(rm_c, rm) and not np.array_equal(rv_c, rv), "the host rows written back"
    yi = batchnorm_cuda.batchnorm_forward_infer(x, gain, bias, rm_c, rv_c, EPS)
    want_i = reference.batchnorm_forward_infer(x, gain, bias, rm_c, rv_c, EPS)
    assert close(host(yi), want_i) < TOL, "inference on running rows of 2 over 4 steps"
    assert close(host(yi)[3], (x[3] - rm_c[1]) / np.sqrt(rv_c[1] + EPS) * gain + bias) < TOL, "step 3: row Ts-1"
