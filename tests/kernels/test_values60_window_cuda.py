"""window_cuda (the synthesis network's window layer, CUDA twin) with every option on, under the simulator, against
the NumPy spec (reference.window_lstm_*) and, for the window itself, against its definition recomputed here from
the twin's own h_t: kappa_t = kappa_{t-1} + exp(k_hat), phi_t(u) = sum_k alpha_k exp(-beta_k (kappa_t,k - u)^2)
over each row's own text (u = 1..ulen[b], 0 past it), w_t = sum_u phi_t(u) onehot(chars[u]).

B = 3 rows of their own lengths and texts (a row without text, a full-width one, codes past ulen that must never
be read), T = 4, H = 5, K = 2, C = 6, U = 5; row kernels of 4 threads and tiles of 3 (no size a multiple of a
block); LayerNorm and no norm (the fused cell kernel), BatchNorm in training and in inference with eps 0.3 and
momentum 0.35 off their defaults and each side holding its own number of running rows (x 2, h 4, cell 3), keep on
and off (the inference slots). float64: outputs and running rows to 1e-12, gradients to 1e-10.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from test_cuda_kernels import close, simulator_race_free  # noqa: E402
from test_window_cuda import FWD_OUT, GRADS, spec, twin  # noqa: E402  (the spec's and the twin's calls, one copy)
import test_window_cuda  # noqa: E402

T, B, I, H, K, C, U = 4, 3, 2, 5, 2, 6, 5
G = 4 * H
ROWS = (2, 4, 3)  # running rows of the x side, the h side, the cell
EPS, MOM = 0.3, 0.35
TOL_FWD, TOL_BWD = 1e-12, 1e-10


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Row kernels of 4 threads (3K = 6, C = 6, H = 5, U = 5 all wider than a block), tiles of 3; the spec and
    the twin (test_window_cuda's) called with eps 0.3 and momentum 0.35."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(test_window_cuda, "EPS", EPS)
    monkeypatch.setattr(test_window_cuda, "MOMENTUM", MOM)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


def problem(seed, ulen, K=K, C=C, alpha_shift=0.0):
    """(arguments of window_lstm_forward up to the running rows, a dict in order; the six running rows with their
    own counts; dy (T,B,H); dw (T,B,C)). Codes past ulen are valid codes too, so a loop reading past a row's text
    finds something to add. kappa advances about one position a step, so phi weighs several characters. K, C and
    the shift of alpha's log-rates are this file's unless given."""
    rng = np.random.default_rng(seed)
    n = lambda sc, *s, shift=0.0: shift + sc * rng.standard_normal(s)  # noqa: E731
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    bp = np.concatenate([n(0.2, K, shift=alpha_shift), n(0.2, K, shift=-0.7), n(0.2, K, shift=-0.2)])
    a = dict(x=n(1, T, B, I), h0=n(0.5, B, H), c0=n(0.5, B, H), kappa0=rng.uniform(0.0, 1.5, (B, K)),
             w0=n(0.5, B, C), chars=chars, ulen=np.array(ulen, np.int64), Wx=n(0.5, I + C, G), Wh=n(0.4, H, G),
             b=n(0.2, G), gx=n(0.2, G, shift=1.0), bx=n(0.2, G), gh=n(0.2, G, shift=1.0), bh=n(0.2, G),
             gc=n(0.2, H, shift=1.0), bc=n(0.2, H), Wp=n(0.4, H, 3 * K), bp=bp)
    run = []
    for rows, w in zip(ROWS, (G, G, H)):
        run += [n(0.3, rows, w), rng.uniform(0.5, 1.5, (rows, w))]
    return a, run, n(1, T, B, H), n(1, T, B, C)


def assert_matches(got, want):
    (outs, run, grads, _), (outs_w, run_w, grads_w) = got, want
    for name, o, e in zip(FWD_OUT, outs, outs_w):
        assert o.shape == e.shape and close(o, e) < TOL_FWD, f"{name}: {close(o, e):.2e}"
    for k, (r, e) in enumerate(zip(run, run_w)):
        assert close(r, e) < TOL_FWD, f"running row {k}: {close(r, e):.2e}"
    if grads is not None:
        for name, g, e in zip(GRADS, grads, grads_w):
            assert g.shape == e.shape and close(g, e) < TOL_BWD, f"d{name}: {close(g, e):.2e}"


def window_by_definition(a, y):
    """kappa (T,B,K), phi (T,B,U), w (T,B,C) of the soft window driven by y (T,B,H), recomputed here in NumPy."""
    kappa, phi, w = np.zeros((T, B, K)), np.zeros((T, B, U)), np.zeros((T, B, C))
    prev = a["kappa0"]
    for t in range(T):
        abk = np.exp(y[t] @ a["Wp"] + a["bp"])
        alpha, beta, step = abk[:, :K], abk[:, K:2 * K], abk[:, 2 * K:]
        kappa[t] = prev + step
        for b in range(B):
            for u in range(a["ulen"][b]):
                phi[t, b, u] = np.sum(alpha[b] * np.exp(-beta[b] * (kappa[t, b] - (u + 1)) ** 2))
                w[t, b, a["chars"][b, u]] += phi[t, b, u]
        prev = kappa[t]
    return kappa, phi, w


@pytest.mark.parametrize("norm", ["ln", "none"])
def test_fused_cell_window_over_each_rows_text(norm):
    """LayerNorm and no norm (the fused cell kernel): outputs and every gradient equal the spec's; phi, w and
    kappaT equal the window's definition on the twin's own h_t (nothing past a row's text, nothing for a row
    without text); dbp's beta part is not zero (so its sign is judged)."""
    a, run, dy, dw = problem(6011, [5, 3, 0])
    lengths = np.array([4, 2, 3], np.int64)
    want = spec(a, run, lengths, dy, dw, norm, True)
    got = twin(a, run, lengths, dy, dw, norm, True)
    assert_matches(got, want)
    outs, _, grads, _ = got
    kappa, phi, w = window_by_definition(a, outs[0])
    assert close(outs[6], phi) < 1e-12 and close(outs[1], w) < 1e-12
    assert close(outs[4], kappa[T - 1]) < 1e-12 and close(outs[5], w[T - 1]) < 1e-12
    assert np.abs(dict(zip(GRADS, grads))["bp"][K:2 * K]).max() > 1e-6


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_bn_own_running_rows_off_defaults(training):
    """BatchNorm with (2, 4, 3) running rows, eps 0.3, momentum 0.35, ragged lengths and texts: outputs, running
    rows and gradients equal the spec's; in training the h side's rows 2 and 3 (steps the x side has no row for)
    are folded and the x side's gain gradient is not its bias's (dgx != db); in inference nothing is folded."""
    a, run, dy, dw = problem(6012, [2, 5, 4])
    lengths = np.array([4, 1, 3], np.int64)
    want = spec(a, run, lengths, dy, dw, "bn", training)
    got = twin(a, run, lengths, dy, dw, "bn", training)
    assert_matches(got, want)
    run_after, g = got[1], dict(zip(GRADS, got[2]))
    if training:
        assert close(run_after[2][2:], run[2][2:]) > 1e-3 and close(run_after[3][2:], run[3][2:]) > 1e-3
        assert close(g["gx"], g["b"]) > 1e-3
    else:
        assert all(np.array_equal(r, r0) for r, r0 in zip(run_after, run))
    kappa, phi, w = window_by_definition(a, got[0][0])
    assert close(got[0][6], phi) < 1e-12 and close(got[0][1], w) < 1e-12


@pytest.mark.parametrize("norm", ["ln", "bn"])
def test_final_state_is_the_last_steps(norm):
    """keep on and off (inference keeps two slots): hT, cT, kappaT and wT are step T-1's, as the spec's, and equal
    between the two; kappaT is the definition's from the twin's y."""
    a, run, dy, dw = problem(6013, [4, 5, 2])
    lengths = np.array([4, 3, 4], np.int64)
    want = spec(a, run, lengths, dy, dw, norm, False)
    kept = twin(a, run, lengths, dy, dw, norm, False, keep=True)
    slots = twin(a, run, lengths, dy, dw, norm, False, keep=False)
    assert_matches(kept, want)
    assert_matches(slots, want)
    assert close(slots[0][4], window_by_definition(a, slots[0][0])[0][T - 1]) < 1e-12
