"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) equals its NumPy spec (reference.window_lstm_*).

The synthesis network's first layer, an LSTM of each norm reading [x_t | w_{t-1}], and its soft window:
forward outputs and BatchNorm running statistics to 1e-12, every gradient to 1e-10 (float64, relative to
the largest magnitude), with right-padded rows (lengths) and texts (ulen, a row with no text at all),
a character repeated within a text (the scatter into w adds), BatchNorm running statistics of Ts = 3 < T
rows (step 3 is not recorded, and reads row 2 in inference), Graves's gate clip, keep=False, and one
float32 case. Shapes are tiny and no size is a multiple of a block: row kernels of 8 (or 4) threads,
tiles of 4 (or 3), T=4 B=3 I=2 H=5 (G=20) K=2 (3K=6) C=7 U=5.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0).
"""
import importlib.util

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config, reference as ref  # noqa: E402

from lnrnn.kernels import window_cuda  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE  # noqa: E402
from test_cuda_kernels import close, simulator_race_free  # noqa: E402  (one copy of the simulator fixes)

EPS = 1e-5
MOMENTUM = 0.1
TOL_FWD = 1e-12   # float64 outputs and running statistics: max |cuda - spec| / max |spec|
TOL_BWD = 1e-10   # float64 gradients
TOL32_FWD = 2e-6  # float32 twin against the float64 spec (measured: 2e-7 outputs, 3e-6 gradients)
TOL32_BWD = 3e-5
CODES = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN}
SHAPE = dict(T=4, B=3, I=2, H=5, K=2, C=7, U=5)
FWD_OUT = ("y", "w", "hT", "cT", "kappaT", "wT", "phi")
BWD_ARGS = ("x", "h0", "c0", "kappa0", "w0", "chars", "ulen", "Wx", "Wh", "gx", "gh", "gc", "Wp")
GRADS = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")

host = arrays_cuda.to_host


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Row kernels of 8 threads, tiles of 4 (several blocks, none full); the simulator's fixes."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    monkeypatch.setattr(gemm_cuda, "TILE", 4)
    with simulator_race_free(monkeypatch):
        yield


def problem(seed, lengths, ulen, T, B, I, H, K, C, U, Ts=3):
    """(arguments of window_lstm_forward up to the running statistics, as a dict in order; the six running
    statistics; dy (T,B,H); dw (T,B,C)), float64. The window's biases make kappa move about one position
    a step, so phi sees several characters; row 0's text repeats a character."""
    rng = np.random.default_rng(seed)
    G = 4 * H

    def n(scale, *s, shift=0.0):
        return shift + scale * rng.standard_normal(s)

    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    chars[0, 3] = chars[0, 1]
    bp = np.concatenate([n(0.2, K), n(0.2, K, shift=-0.7), n(0.2, K, shift=-0.2)])
    a = dict(x=n(1, T, B, I), h0=n(0.5, B, H), c0=n(0.5, B, H), kappa0=rng.uniform(0.0, 1.5, (B, K)),
             w0=n(0.5, B, C), chars=chars, ulen=np.array(ulen, np.int64), Wx=n(0.5, I + C, G), Wh=n(0.4, H, G),
             b=n(0.2, G), gx=n(0.2, G, shift=1.0), bx=n(0.2, G), gh=n(0.2, G, shift=1.0), bh=n(0.2, G),
             gc=n(0.2, H, shift=1.0), bc=n(0.2, H), Wp=n(0.4, H, 3 * K), bp=bp)
    run = [n(0.3, Ts, w) if k % 2 == 0 else rng.uniform(0.5, 1.5, (Ts, w)) for k, w in enumerate([G] * 4 + [H] * 2)]
    return a, run, np.array(lengths, np.int64), n(1, T, B, H), n(1, T, B, C)


def spec(a, run, lengths, dy, dw, norm, training, clip=0.0):
    """The reference's forward outputs (FWD_OUT order), its running statistics (updated) and gradients."""
    run = [r.copy() for r in run]
    if norm != "bn":
        run = [np.zeros((0, 0))] * 6
    *outs, cache = ref.window_lstm_forward(*a.values(), *run, norm, training, MOMENTUM, EPS, lengths)
    grads = ref.window_lstm_backward(dy, dw, cache, a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], a["chars"],
                                     clip)
    return outs, run, grads


def twin(a, run, lengths, dy, dw, norm, training, clip=0.0, keep=True, dtype=np.float64):
    """The CUDA twin on the same problem (cast to dtype): (outputs, running statistics after, gradients, saved),
    the outputs and gradients as host arrays after checking that they came back as device arrays."""
    cast = {k: (v.astype(dtype) if v.dtype.kind == "f" else v) for k, v in a.items()}
    run = [r.astype(dtype) for r in run] if norm == "bn" else [np.zeros((0, 0), dtype)] * 6
    *outs, saved = window_cuda.window_lstm_forward(*cast.values(), *run, CODES[norm], training, MOMENTUM, EPS,
                                                   lengths, keep)
    assert all(arrays_cuda.is_device(o) for o in outs), "CUDA twins return device arrays"
    if not keep:
        assert saved is None
        return host(outs), run, None, saved
    grads = window_cuda.window_lstm_backward(dy.astype(dtype), dw.astype(dtype), saved, *[cast[k] for k in BWD_ARGS],
                                             CODES[norm], clip)
    assert len(grads) == len(GRADS) and all(arrays_cuda.is_device(g) for g in grads)
    return host(outs), run, host(grads), saved


def assert_matches(got, want, tol_fwd, tol_bwd):
    (outs, run, grads, _), (outs_w, run_w, grads_w) = got, want
    for name, o, e in zip(FWD_OUT, outs, outs_w):
        assert o.shape == e.shape, name
        assert close(o, e) < tol_fwd, f"{name}: {close(o, e):.2e}"
    for k, (r, e) in enumerate(zip(run, run_w)):
        assert close(r, e) < tol_fwd, f"running statistics {k}: {close(r, e):.2e}"
    for name, g, e in zip(GRADS, grads, grads_w):
        assert g.shape == e.shape, name
        assert close(g, e) < tol_bwd, f"d{name}: {close(g, e):.2e}"


# (norm, training, lengths, ulen, threads per block, tile): every case masks points and characters except
# "none", whose rows all run and whose texts are full; the LN case runs blocks of 4 threads (3K, C, H, U
# all wider than a block) and tiles of 3.
CASES = {
    "none": ("none", True, [4, 4, 4], [5, 5, 5], 8, 4),
    "ln": ("ln", True, [4, 2, 3], [5, 3, 0], 4, 3),
    "bn-train": ("bn", True, [4, 1, 3], [4, 5, 2], 8, 4),
    "bn-infer": ("bn", False, [2, 4, 3], [5, 0, 3], 8, 4),
}


@pytest.mark.parametrize("case", list(CASES))
def test_window_layer_matches_reference(case, monkeypatch):
    norm, training, lengths, ulen, tpb, tl = CASES[case]
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
    monkeypatch.setattr(gemm_cuda, "TILE", tl)
    a, run, lengths, dy, dw = problem(1, lengths, ulen, **SHAPE)
    want = spec(a, run, lengths, dy, dw, norm, training)
    got = twin(a, run, lengths, dy, dw, norm, training)
    assert_matches(got, want, TOL_FWD, TOL_BWD)
    outs, run_after, grads, saved = got
    g = dict(zip(GRADS, grads))
    # the masks do what they say: no text, no window; padded steps' dy, dw reach nothing
    assert not outs[1][:, np.array(ulen) == 0].any()
    assert not outs[6][:, np.arange(SHAPE["U"]) >= np.array(ulen)[:, None]].any()
    assert not g["x"][~(np.arange(SHAPE["T"])[:, None] < lengths)].any()
    if norm == "bn":
        assert not g["bx"].any() and not g["bh"].any()
        assert training == any(not np.array_equal(r, r0) for r, r0 in zip(run_after, run))
    if norm == "none":
        assert not any(g[k].any() for k in ("gx", "bx", "gh", "bh", "gc", "bc"))
    assert len(saved) == 20 and saved[-1] == training


@pytest.mark.parametrize("norm", ["ln", "bn"])
def test_gate_clip_matches_reference(norm):
    """Graves's clip, tight enough to bind: the twin equals the clipped spec, which differs from the unclipped."""
    clip = 0.05
    a, run, lengths, dy, dw = problem(2, [4, 2, 3], [5, 3, 4], **SHAPE)
    want = spec(a, run, lengths, dy, dw, norm, True, clip)
    unclipped = spec(a, run, lengths, dy, dw, norm, True)[2]
    assert close(want[2][5], unclipped[5]) > 1e-3, "the clip must change dWx for this test to judge it"
    assert_matches(twin(a, run, lengths, dy, dw, norm, True, clip), want, TOL_FWD, TOL_BWD)


@pytest.mark.parametrize("norm,training", [("ln", True), ("bn", True), ("bn", False)])
def test_inference_equals_training_forward(norm, training):
    """keep=False: saved is None; outputs, final state and running statistics those of keep=True, bit for bit."""
    a, run, lengths, dy, dw = problem(3, [4, 2, 3], [5, 3, 4], **SHAPE)
    outs, run_k, _, _ = twin(a, run, lengths, dy, dw, norm, training, keep=True)
    outs_i, run_i, _, _ = twin(a, run, lengths, dy, dw, norm, training, keep=False)
    for name, o, e in zip(FWD_OUT, outs_i, outs):
        assert np.array_equal(o, e), name
    for r, e in zip(run_i, run_k):
        assert np.array_equal(r, e)


def test_float32_stays_float32():
    """float32 in, float32 out, within TOL32_FWD / TOL32_BWD of the float64 spec (BN, training, masked)."""
    a, run, lengths, dy, dw = problem(4, [4, 2, 3], [5, 3, 4], **SHAPE)
    want = spec(a, run, lengths, dy, dw, "bn", True)
    got = twin(a, run, lengths, dy, dw, "bn", True, dtype=np.float32)
    assert all(o.dtype == np.float32 for o in list(got[0]) + list(got[1]) + list(got[2]))
    assert_matches(got, want, TOL32_FWD, TOL32_BWD)


def test_device_inputs_and_text_checks():
    """Device arrays in give the host-array result, and so do garbage codes past ulen (never read); a length
    outside [0, U] or a code before it outside [0, C) is refused in one sentence."""
    a, run, lengths, dy, dw = problem(5, [4, 2, 3], [5, 3, 4], **SHAPE)
    z = np.zeros((0, 0))
    args = lambda d: (*d.values(), *[z] * 6, NORM_LN, True, MOMENTUM, EPS, lengths, True)  # noqa: E731
    want = host(window_cuda.window_lstm_forward(*args(a))[:-1])
    on_device = host(window_cuda.window_lstm_forward(*args({k: arrays_cuda.to_device(v) for k, v in a.items()}))[:-1])
    garbage = a["chars"].copy()
    garbage[1, 3:] = [-1, 99]
    past_ulen = host(window_cuda.window_lstm_forward(*args(dict(a, chars=garbage)))[:-1])
    for o, p, e in zip(on_device, past_ulen, want):
        assert np.array_equal(o, e) and np.array_equal(p, e)
    garbage[1, 2] = SHAPE["C"]
    with pytest.raises(ValueError, match="character codes must lie in"):
        window_cuda.window_lstm_forward(*args(dict(a, chars=garbage)))
    with pytest.raises(ValueError, match="ulen must lie in"):
        window_cuda.window_lstm_forward(*args(dict(a, ulen=a["ulen"] + SHAPE["U"])))


def test_matches_cpu_twin():
    """The CPU twin (lnrnn/kernels/window.py) and this one on one case: BN, training, masked (Ts = T, as
    the CPU twin asks), outputs, running statistics and gradients to the float64 tolerances."""
    if importlib.util.find_spec("lnrnn.kernels.window") is None:
        pytest.skip("the CPU twin lnrnn/kernels/window.py is not there")
    from lnrnn.kernels import window

    a, run, lengths, dy, dw = problem(6, [4, 1, 3], [5, 3, 0], **SHAPE, Ts=SHAPE["T"])
    run_c = [r.copy() for r in run]
    *outs, saved = window.window_lstm_forward(*a.values(), *run_c, NORM_BN, True, MOMENTUM, EPS, lengths, True)
    grads = window.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], NORM_BN, 0.0)
    assert_matches(twin(a, run, lengths, dy, dw, "bn", True), (outs, run_c, grads), TOL_FWD, TOL_BWD)


def test_window_sequences_are_the_saved_c_and_kappa():
    """window_sequences of the CUDA twin's saved tuple: c_t and kappa_t of every step, as the CPU twin's
    of its own (the layer's masked final state reads them)."""
    from lnrnn.kernels import window

    a, run, lengths, dy, dw = problem(7, [4, 2, 3], [5, 3, 1], **SHAPE, Ts=SHAPE["T"])
    want = window.window_sequences(window.window_lstm_forward(*a.values(), *[np.zeros((0, 0))] * 6, NORM_LN, True,
                                                              MOMENTUM, EPS, lengths, True)[-1])
    *_, saved = twin(a, run, lengths, dy, dw, "ln", True)
    for g, w in zip(window_cuda.window_sequences(saved), want):
        assert close(host(g), w) < TOL_FWD
