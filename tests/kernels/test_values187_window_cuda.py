"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) in float64 under Numba's simulator, on K = 2 mixture
components (3K = 6, B = 3, H = 5, U = 5: none a multiple of the 4-thread row blocks) with texts that name a
character more than once (U = 5 positions over C = 3 codes), an empty text and one of one character, and rows
that run 0, 1 and all 4 steps:

- against the CPU twin (lnrnn/kernels/window.py) with LayerNorm and with BatchNorm in training (running rows of
  their own counts per side): forward outputs, the saved per-step c and kappa, the running rows and every
  gradient to 1e-10 of the CPU twin's magnitude;
- against the window's definition written out here: w_t = sum_u phi_t(u) onehot(chars[u]) from the phi the twin
  returns, and every component's kappa stepping forward on every step;
- against the loss itself: a central difference of L = sum(dy * y) + sum(dw * w) along one random direction
  through every parameter and initial state, taken on the CUDA twin alone, equals the gradients' inner product
  with that direction;
- without keep (two slots of per-step state), a chunk of three steps started at t0 = 1 from the CPU twin's first
  step (h, c, kappa and w carried) against the tail of one CPU run over all four steps, phi of every step
  included.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_LN  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from test_cuda_kernels import close  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
# the problem (T = 4, B = 3, H = 5, U = 5, C = 3, running rows 2, 4, 3) and one run of a twin, forward and backward
from test_values152_window_cuda import (C, CODES, EPS, FWD_OUT, GRADS, MOM, TOL, U, problem,  # noqa: E402
                                        run_twin)
from test_values175_window_cuda import check_same_as_cpu  # noqa: E402

K = 2
# (norm, texts, lengths): a full text (codes repeat), an empty one and one character; rows of 4, 0 and 1 steps
CASES = {"ln": ("ln", [U, 0, 1], [4, 0, 1]),
         "bn": ("bn", [1, U, 0], [1, 4, 0])}
NONE = [np.zeros((0, 0))] * 6


def _forward(mod, a, run, lengths, norm, keep):
    run = [r.copy() for r in run] if norm == "bn" else NONE
    if mod is window_cuda and norm == "bn":
        run = [to_device(r) for r in run]
    return mod.window_lstm_forward(*a.values(), *run, CODES[norm], True, MOM, EPS, lengths, keep)


@pytest.mark.parametrize("case", list(CASES))
def test_layer_equals_the_cpu_twin_and_the_definitions(case):
    norm, ulen, lengths = CASES[case]
    a, run, lengths, dy, dw = problem(187, K, ulen, lengths)
    T = a["x"].shape[0]
    live = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]  # (T,B,1): the steps each row runs
    dy, dw = dy * live, dw * live
    want = run_twin(cpu, a, run, lengths, dy, dw, norm, np.asarray)
    got = run_twin(window_cuda, a, run, lengths, dy, dw, norm, to_host)
    check_same_as_cpu(got, want)

    # the window's definition, on the twin's own phi and kappa
    outs, (c_seq, kappa_seq), _, grads = got
    w, phi = outs[1], outs[6]
    onehot = np.eye(C)[a["chars"]]  # (B,U,C)
    live_u = np.arange(U)[None, :] < np.array(ulen)[:, None]  # (B,U)
    w_def = np.einsum("tbu,buc->tbc", phi * live_u[None], onehot)
    full = ulen.index(U)
    assert len(set(a["chars"][full])) < U, "the full text names a character twice"
    assert close(w, w_def) < TOL, f"w = sum_u phi(u) onehot(chars[u]): {close(w, w_def):.2e}"
    steps = np.diff(np.concatenate([a["kappa0"][None], kappa_seq]), axis=0)  # (T,B,K)
    assert (steps > 0).all(), "every component's kappa steps forward on every step"

    # the loss along one direction through every input, parameter and initial state, on the CUDA twin alone
    rng = np.random.default_rng(1870)
    names = [n for n in GRADS]
    v = {n: rng.standard_normal(np.shape(a[n])) for n in names}

    def loss(eps):
        moved = {k: (x + eps * v[k] if k in v else x) for k, x in a.items()}
        y, ww = _forward(window_cuda, moved, run, lengths, norm, False)[:2]
        return float(np.sum(dy * to_host(y)) + np.sum(dw * to_host(ww)))

    h = 1e-6  # BatchNorm over two live rows curves sharply: a central difference of 1e-5 is off by 2e-6
    fd = (loss(h) - loss(-h)) / (2 * h)
    an = sum(float(np.sum(g * v[n])) for n, g in zip(GRADS, grads))
    assert abs(fd - an) < 1e-6 * max(1.0, abs(an)), f"directional derivative {fd} vs gradients {an}"
    by_name = dict(zip(GRADS, grads))
    assert close(by_name["h0"], by_name["c0"]) > 1e-3, "dL/dh0 and dL/dc0 are different sums"


def test_chunk_from_t0_without_keep_equals_one_run():
    """LayerNorm, every row running all four steps: the CPU twin's first step, then the CUDA twin's chunk of the
    remaining three without keep (two slots), started from the first step's h, c, kappa and w, equals steps 1..3 of
    one CPU run over all four, phi of every step and the final state included."""
    a, run, _, _, _ = problem(1871, K, [U, 1, 0], [4, 4, 4])
    full = np.full(3, 4, np.int64)
    y, w, hT, cT, kT, wT, phi, _ = cpu.window_lstm_forward(*a.values(), *NONE, NORM_LN, True, MOM, EPS, full, False)
    first = dict(a, x=a["x"][:1])
    _, _, h1, c1, k1, w1, _, _ = cpu.window_lstm_forward(*first.values(), *NONE, NORM_LN, True, MOM, EPS,
                                                          np.full(3, 1, np.int64), False)
    rest = dict(a, x=a["x"][1:], h0=h1, c0=c1, kappa0=k1, w0=w1)
    *outs, saved = window_cuda.window_lstm_forward(*rest.values(), *NONE, NORM_LN, True, MOM, EPS,
                                                   np.full(3, 3, np.int64), False)
    assert saved is None
    want = (y[1:], w[1:], hT, cT, kT, wT, phi[1:])
    for name, g, e in zip(FWD_OUT, outs, want):
        g = to_host(g)
        assert g.shape == e.shape and close(g, e) < TOL, f"{name}: {close(g, e):.2e}"
    assert (to_host(outs[4]) > k1).all(), "kappa carried on from where the first step left it"
