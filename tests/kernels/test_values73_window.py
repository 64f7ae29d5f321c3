"""The synthesis layer's window kernel (lnrnn/kernels/window.py) in float64 with every option on: K = 3
components, rows of their own text lengths (a full text, one character, a short one, none) and their own
sequence lengths (one of a single step), dL/dy and dL/dw nonzero at padded steps, the four norms (none,
LN, BN_t in training, BN_t from running rows), codes past a row's text out of range (read by neither the kernel
nor the spec). The forward (y, w, phi, the final state, BN's running rows)
and every gradient against the NumPy spec (lnrnn.reference); phi exactly 0 past each row's text even where
the buffer it is written into held NaN; the gradients of the window's parameters, of the feedback rows
Wx[I:] and of the initial state against central differences of a loss over the running steps only, the
forward rerun for each; the batch split into 1, 2 and 3 chunks of rows giving the same bits for the
forward (the per-row gradients to BLAS's rounding on other row counts, each against the spec); and the text
check's bound on character codes (C itself refused)."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels import window
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from gradcheck_util import numeric_grad
from split_bits import same_split

EPS, MOM = 1e-5, 0.1
T, B, I, H, K, C, U = 5, 4, 2, 3, 3, 4, 6
G = 4 * H
LENGTHS = np.array([5, 1, 3, 4], np.int64)
ULEN = np.array([6, 1, 3, 0], np.int64)
CHARS = np.array([[1, 3, 1, 0, 2, 1],     # repeated characters, every code
                  [2, 9, 9, 9, 9, 9],     # one character; past ulen: codes never read (out of range)
                  [3, 0, 3, 7, 7, 7],
                  [5, 5, 5, 5, 5, 5]], np.int64)
CODES = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN, "bn-infer": NORM_BN}


def problem(seed):
    rng = np.random.default_rng(seed)

    def nrm(*shape, sc=1.0, mu=0.0):
        return mu + sc * rng.standard_normal(shape)
    a = dict(x=nrm(T, B, I), h0=nrm(B, H, sc=0.5), c0=nrm(B, H, sc=0.5), kappa0=rng.uniform(0.0, 1.5, (B, K)),
             w0=rng.uniform(0.0, 0.5, (B, C)), chars=CHARS.copy(), ulen=ULEN.copy(),
             Wx=nrm(I + C, G, sc=0.5), Wh=nrm(H, G, sc=0.5), b=nrm(G, sc=0.2), gx=nrm(G, sc=0.3, mu=1.0),
             bx=nrm(G, sc=0.2), gh=nrm(G, sc=0.3, mu=1.0), bh=nrm(G, sc=0.2), gc=nrm(H, sc=0.3, mu=1.0),
             bc=nrm(H, sc=0.2), Wp=nrm(H, 3 * K, sc=0.5),
             # alpha of three sizes, beta ~ 0.4, kappa moving ~0.6 a step
             bp=np.concatenate([[0.4, -0.3, 0.1], nrm(K, sc=0.1, mu=-1.0), nrm(K, sc=0.1, mu=-0.5)]))
    run = [rng.uniform(-0.3, 0.3, (T, F)) if j % 2 == 0 else rng.uniform(0.5, 1.5, (T, F))
           for j, F in enumerate((G, G, G, G, H, H))]                         # rmx, rvx, rmh, rvh, rmc, rvc
    return a, run, nrm(T, B, H), nrm(T, B, C)


def kernel(a, run, norm, keep=True):
    run = [r.copy() for r in run]
    out = window.window_lstm_forward(*a.values(), *run, CODES[norm], norm != "bn-infer", MOM, EPS, LENGTHS, keep)
    return out, run


def kernel_backward(dy, dw, saved, a, norm):
    return window.window_lstm_backward(dy, dw, saved, a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"],
                                       a["ulen"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], CODES[norm],
                                       0.0)


def spec(a, run, norm):
    run = [r.copy() for r in run]
    out = ref.window_lstm_forward(*a.values(), *run, "none" if norm == "none" else norm[:2],
                                  training=norm != "bn-infer", momentum=MOM, eps=EPS, lengths=LENGTHS)
    return out, run


def rel(x, y):
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return float(np.max(np.abs(x - y), initial=0.0) / max(np.max(np.abs(y), initial=0.0), 1e-300))


def poison_small_buffers(nbytes, n=8):
    """Leave NaN in the freed buffers NumPy hands out next for ``nbytes``: an output a kernel does not write
    in full then shows it."""
    junk = [np.full(nbytes // 8, np.nan) for _ in range(n)]
    del junk


@pytest.mark.parametrize("norm", ["none", "ln", "bn", "bn-infer"])
def test_forward_against_the_spec(norm):
    a, run, _, _ = problem(73)
    (y, w, hT, cT, kT, wT, phi, saved), run_k = kernel(a, run, norm)
    (ys, ws, hs, cs, ks, wss, phis, _), run_s = spec(a, run, norm)
    for got, want in ((y, ys), (w, ws), (hT, hs), (cT, cs), (kT, ks), (wT, wss), (phi, phis)):
        assert rel(got, want) < 1e-11
    for got, want in zip(run_k, run_s):                 # BN's running rows (untouched otherwise)
        assert rel(got, want) < 1e-12
    if norm == "bn":
        assert rel(run_k[0], run[0]) > 1e-3             # the running rows did move


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_phi_is_zero_past_each_rows_text(norm):
    a, run, _, _ = problem(7)
    for _ in range(3):
        poison_small_buffers(T * B * U * 8)
        (y, w, *_, phi, saved), _ = kernel(a, run, norm, keep=False)
        for b in range(B):
            assert np.all(phi[:, b, ULEN[b]:] == 0.0)
            assert np.all(np.isfinite(phi[:, b, :ULEN[b]])) and np.all(phi[:, b, :ULEN[b]] > 0.0)
        # w_t: phi summed per character of the row's own text, every other column 0
        want = np.zeros((T, B, C))
        for b in range(B):
            for u in range(ULEN[b]):
                want[:, b, CHARS[b, u]] += phi[:, b, u]
        assert rel(w, want) < 1e-14


@pytest.mark.parametrize("norm", ["none", "ln", "bn", "bn-infer"])
def test_backward_against_the_spec(norm):
    a, run, dy, dw = problem(11)
    (_, _, _, _, _, _, _, saved), _ = kernel(a, run, norm)
    got = kernel_backward(dy, dw, saved, a, norm)
    (*_, cache), _ = spec(a, run, norm)
    want = ref.window_lstm_backward(dy, dw, cache, a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], a["chars"])
    names = ("dx", "dh0", "dc0", "dkappa0", "dw0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc", "dbc",
             "dWp", "dbp")
    for n, g, wnt in zip(names, got, want):
        assert g.shape == wnt.shape, n
        assert rel(g, wnt) < 1e-10, n


@pytest.mark.parametrize("norm", ["ln", "bn"])
def test_gradients_against_central_differences(norm):
    """L = sum over running steps of dy . y + dw . w, by the kernel's forward alone."""
    a, run, dy, dw = problem(5)
    on = (np.arange(T)[:, None] < LENGTHS[None, :])[..., None]             # (T,B,1)

    def loss():
        (y, w, *_), _ = kernel(a, run, norm, keep=False)
        return float(np.sum(np.where(on, dy * y, 0.0)) + np.sum(np.where(on, dw * w, 0.0)))
    (_, _, _, _, _, _, _, saved), _ = kernel(a, run, norm)
    got = dict(zip(("dx", "dh0", "dc0", "dkappa0", "dw0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc",
                    "dbc", "dWp", "dbp"), kernel_backward(dy, dw, saved, a, norm)))
    for n in ("Wp", "bp", "kappa0", "w0", "h0", "c0", "Wx"):
        num = numeric_grad(loss, a[n], eps=1e-6, order=2)
        assert rel(got["d" + n], num) < 1e-6, n


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_one_two_and_three_chunks_of_rows_agree(norm, monkeypatch):
    a, run, dy, dw = problem(3)
    outs = []
    for n in (1, 2, 3):
        monkeypatch.setattr(window, "_chunks", lambda B_, norm_, n=n: n)
        (y, w, hT, cT, kT, wT, phi, saved), _ = kernel(a, run, norm)
        g = kernel_backward(dy, dw, saved, a, norm)
        outs.append((y, w, hT, cT, kT, wT, phi) + g[:5])                   # forward, dx and the state's gradients
        (*_, cache), _ = spec(a, run, norm)
        want = ref.window_lstm_backward(dy, dw, cache, a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"],
                                        a["chars"])
        for got, wnt in zip(g, want):
            assert rel(got, wnt) < 1e-10
    for other in outs[1:]:
        for x1, x2 in zip(outs[0][:7], other[:7]):                         # the forward: the same bits
            assert same_split(x1, x2)
        for x1, x2 in zip(outs[0][7:], other[7:]):                         # the backward: BLAS on other row counts
            assert rel(x2, x1) < 1e-13


def test_window_feeds_the_next_steps_input():
    """Step t reads [x_t | w_{t-1}] through Wx (no norm): h_0 from [x_0 | w0], h_1 from [x_1 | w_0] and h_0,
    by hand from the LSTM's equations."""
    a, run, _, _ = problem(9)
    (y, w, *_), _ = kernel(a, run, "none")
    sig = lambda v: 1.0 / (1.0 + np.exp(-v))                               # noqa: E731
    act = np.concatenate([a["x"][0], a["w0"]], axis=1) @ a["Wx"] + a["h0"] @ a["Wh"] + a["b"]
    i, f, g, o = sig(act[:, :H]), sig(act[:, H:2 * H]), np.tanh(act[:, 2 * H:3 * H]), sig(act[:, 3 * H:])
    c1 = f * a["c0"] + i * g
    assert rel(y[0], o * np.tanh(c1)) < 1e-13
    act = np.concatenate([a["x"][1], w[0]], axis=1) @ a["Wx"] + y[0] @ a["Wh"] + a["b"]
    i, f, g, o = sig(act[:, :H]), sig(act[:, H:2 * H]), np.tanh(act[:, 2 * H:3 * H]), sig(act[:, 3 * H:])
    on = (1 < LENGTHS)[:, None]
    assert rel(np.where(on, y[1], 0.0), np.where(on, o * np.tanh(f * c1 + i * g), 0.0)) < 1e-13


def test_character_codes_must_lie_below_C():
    a, run, _, _ = problem(1)
    bad = dict(a, chars=CHARS.copy())
    bad["chars"][0, 2] = C                      # row 0's third character: code C, one past the last column
    with pytest.raises(ValueError, match=r"character codes must lie in \[0, C\)"):
        kernel(bad, run, "none")
    bad["chars"][0, 2] = -1
    with pytest.raises(ValueError, match="character codes"):
        kernel(bad, run, "none")
    ok = dict(a, chars=CHARS.copy())
    ok["chars"][1, 1] = C                       # past row 1's one character: never read
    (y, w, *_), _ = kernel(ok, run, "none")
    (y0, w0, *_), _ = kernel(a, run, "none")
    assert np.array_equal(y, y0) and np.array_equal(w, w0)
