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

from lnrnn import config  # noqa: E402

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from test_cuda_kernels import close, simulator_race_free  # noqa: E402

T, B, I, H, C, U = 4, 3, 2, 5, 3, 5
G = 4 * H
TPB = 4
ROWS = (2, 4, 3)  # running rows of the x side, the h side, the cell
EPS, MOM = 1e-5, 0.2
TOL = 1e-10
CODES = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN}
FWD_OUT = ("y", "w", "hT", "cT", "kappaT", "wT", "phi")
BWD_ARGS = ("x", "h0", "c0", "kappa0", "w0", "chars", "ulen", "Wx", "Wh", "gx", "gh", "gc", "Wp")
GRADS = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", TPB)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


def problem(seed, K, ulen, lengths):
    """(inputs of window_lstm_forward up to the running rows, a dict in order; six running rows of their own
    counts; dy (T,B,H); dw (T,B,C)). kappa moves about one position a step, so phi weighs several characters."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s, shift=0.0: shift + sc * rng.standard_normal(s)  # noqa: E731
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    bp = np.concatenate([n(0.2, K, shift=0.2), n(0.2, K, shift=-0.7), n(0.2, K, shift=-0.2)])
    a = dict(x=n(1, T, B, I), h0=n(0.5, B, H), c0=n(0.5, B, H), kappa0=rng.uniform(0.0, 1.5, (B, K)),
             w0=n(0.5, B, C), chars=chars, ulen=np.array(ulen, np.int64), Wx=n(0.5, I + C, G), Wh=n(0.4, H, G),
             b=n(0.2, G), gx=n(0.2, G, shift=1.0), bx=n(0.2, G), gh=n(0.2, G, shift=1.0), bh=n(0.2, G),
             gc=n(0.2, H, shift=1.0), bc=n(0.2, H), Wp=n(0.4, H, 3 * K), bp=bp)
    run = []
    for rows, w in zip(ROWS, (G, G, H)):
        run += [n(0.3, rows, w), rng.uniform(0.5, 1.5, (rows, w))]
    return a, run, np.array(lengths, np.int64), n(1, T, B, H), n(1, T, B, C)


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


def window_by_definition(h, Wp, bp, kappa_prev, chars, ulen):
    K = kappa_prev.shape[1]
    abk = np.exp(h @ Wp + bp)
    alpha, beta = abk[:, :K], abk[:, K:2 * K]
    kappa = kappa_prev + abk[:, 2 * K:]
    phi, w = np.zeros((B, U)), np.zeros((B, C))
    for b in range(B):
        for u in range(ulen[b]):
            phi[b, u] = np.sum(alpha[b] * np.exp(-beta[b] * (kappa[b] - (u + 1)) ** 2))
            w[b, chars[b, u]] += phi[b, u]
    return abk, kappa, phi, w


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
    want = window_by_definition(h, Wp, bp, kappa_prev, chars, ulen)
    for name, g, e in zip(("abk", "kappa", "phi", "w"), out, want):
        g = to_host(g)
        assert np.isfinite(g).all(), name
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12, err_msg=name)
