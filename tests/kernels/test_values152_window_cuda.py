"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) against its CPU twin (lnrnn/kernels/window.py), in
float64 under Numba's simulator, with every option on: ragged texts (an empty one, one character, three, codes
past each text that are valid codes, so a loop reading past a text finds something to add), rows of their own
lengths (a row that runs one step, so later steps are padded), initial h, c, kappa and w carried in, LayerNorm,
BatchNorm in training with each side holding its own number of running rows (x 2, h 4, cell 3) and no norm;
K = 1 and K = 2 (3K = 3 and 6), B = 3, H = 5, C = 3, U = 5 on row kernels of 4 threads and tiles of 3 (no size a
multiple of a block). Forward outputs, the saved per-step c and kappa (window_sequences), the running rows and
every gradient to 1e-10 of the CPU twin's magnitude.

One step of the window's own forward kernel into outputs that held NaN, against the window's definition
written out here in NumPy: abk = exp(h Wp + bp), kappa = kappa_prev + exp(k_hat), phi(u) = sum_k alpha_k
exp(-beta_k (kappa_k - u)^2) for u = 1..ulen and exactly 0 past it, w = sum_u phi(u) onehot(chars[u]).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from test_cuda_kernels import close  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import TPB, small_blocks  # noqa: E402,F401
# the layer's problem (T, B, I, H, U and the running rows' counts are that file's) and one window step's definition
from test_values60_window_cuda import B, H, U, problem as layer_problem  # noqa: E402
from test_values84_window_cuda import window_of_p  # noqa: E402

C = 3
EPS, MOM = 1e-5, 0.2
TOL = 1e-10
CODES = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN}
FWD_OUT = ("y", "w", "hT", "cT", "kappaT", "wT", "phi")
BWD_ARGS = ("x", "h0", "c0", "kappa0", "w0", "chars", "ulen", "Wx", "Wh", "gx", "gh", "gc", "Wp")
GRADS = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


def problem(seed, K, ulen, lengths):
    """(inputs of window_lstm_forward up to the running rows, a dict in order; six running rows of their own
    counts; the row lengths; dy (T,B,H); dw (T,B,C)): test_values60_window_cuda's problem on this file's K and C,
    alpha's log-rates about 0.2."""
    a, run, dy, dw = layer_problem(seed, ulen, K=K, C=C, alpha_shift=0.2)
    return a, run, np.array(lengths, np.int64), dy, dw


def run_twin(mod, a, run, lengths, dy, dw, norm, host):
    """(outputs, saved c and kappa, running rows after, gradients) of one twin, as host arrays."""
    run = [r.copy() for r in run] if norm == "bn" else [np.zeros((0, 0))] * 6
    if mod is window_cuda and norm == "bn":
        run = [to_device(r) for r in run]
    *outs, saved = mod.window_lstm_forward(*a.values(), *run, CODES[norm], True, MOM, EPS, lengths, True)
    seqs = mod.window_sequences(saved)
    grads = mod.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], CODES[norm], 0.0)
    return [host(o) for o in outs], [host(s) for s in seqs], [host(r) for r in run], [host(g) for g in grads]


# (norm, K, texts, lengths): an empty text, one character and three in every case; one row that runs a single step
CASES = {"ln-K1": ("ln", 1, [0, 1, 3], [4, 1, 3]),
         "bn-K2": ("bn", 2, [3, 0, 1], [4, 2, 1]),
         "none-K2": ("none", 2, [1, 3, 0], [1, 4, 3])}


@pytest.mark.parametrize("case", list(CASES))
def test_layer_equals_the_cpu_twin(case):
    norm, K, ulen, lengths = CASES[case]
    a, run, lengths, dy, dw = problem(152 + K, K, ulen, lengths)
    want = run_twin(cpu, a, run, lengths, dy, dw, norm, np.asarray)
    got = run_twin(window_cuda, a, run, lengths, dy, dw, norm, to_host)
    for group, names, g, e in zip(("output", "saved", "running row", "gradient"),
                                  (FWD_OUT, ("c", "kappa"), range(6), GRADS), got, want):
        for name, x, y in zip(names, g, e):
            assert x.shape == y.shape, f"{group} {name}"
            assert close(x, y) < TOL, f"{group} {name}: {close(x, y):.2e}"
    outs, _, run_after, grads = got
    phi, w = outs[6], outs[1]
    for b, n in enumerate(ulen):  # no window past a text, none at all without one
        assert not phi[:, b, n:].any() and (phi[:, b, :n] > 0).all(), b
        assert w[:, b].any() == (n > 0), b
    g = dict(zip(GRADS, grads))
    assert np.abs(g["bp"]).min() > 1e-8, "every part of the window's bias carries a gradient"
    assert np.abs(g["x"][0]).max() > 1e-6, "step 0 sends a gradient to x"
    if norm == "ln":
        assert close(g["gh"], g["gx"]) > 1e-3 and close(g["gc"], g["bc"]) > 1e-3
    if norm == "bn":  # the h side's running rows move in training (the cell's 3 are judged against the CPU twin)
        assert all(close(r, r0) > 1e-6 for r, r0 in zip(run_after[2:4], run[2:4]))
        assert close(g["gc"], g["bc"]) > 1e-3


@pytest.mark.parametrize("K", [1, 2])
def test_one_step_into_nan_equals_the_definition(K):
    """Every output written: phi exactly 0 past each text, w exactly 0 for the empty text, nothing added to what
    the outputs held before."""
    rng = np.random.default_rng(1520 + K)
    h, Wp = rng.standard_normal((B, H)), 0.4 * rng.standard_normal((H, 3 * K))
    bp = np.concatenate([0.2 * rng.standard_normal(K), 0.2 * rng.standard_normal(K) - 0.7, np.full(K, -0.2)])
    kappa_prev = rng.uniform(0.0, 3.0, (B, K))
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    ulen = np.array([1, 0, 3], np.int64)
    fwd, _ = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    out = tuple(to_device(np.full(s, np.nan)) for s in ((B, 3 * K), (B, K), (B, U), (B, C)))
    fwd[B, TPB](to_device(h), (to_device(Wp), to_device(bp), to_device(kappa_prev), to_device(chars),
                               to_device(ulen)), out)
    want = window_of_p(h @ Wp + bp, kappa_prev, chars, ulen, C)
    for name, g, e in zip(("abk", "kappa", "phi", "w"), out, want):
        g = to_host(g)
        assert np.isfinite(g).all(), name
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12, err_msg=name)
