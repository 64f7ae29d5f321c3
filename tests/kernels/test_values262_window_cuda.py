"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) in float64 under Numba's simulator against its CPU
twin (lnrnn/kernels/window.py), with BatchNorm, every option on: T = 4 steps, B = 3 rows of lengths (4, 0, 2) (a
row that runs all T steps next to one that never runs), texts of 5, 2 and 0 characters, K = 2 components, C = 3,
H = 5 on row kernels of 4 threads and tiles of 3 (no size a multiple of a block), running rows of their own
counts (x 2, h 4, cell 3), Graves's clip at 0.05 with dy and dw of scale 10 (it bites: the CPU twin's gradients
without it differ), in training and in evaluation. Forward outputs, the saved c and kappa, the running rows after
and every gradient to 1e-10 of the CPU twin's magnitude (or of 1e-3 where that is smaller); in evaluation also
the layer run without its saved tuple (inference keeps two slots): the last-step heads hT, cT, kappaT and wT equal
the kept run's step T-1.

The text check's refusal of a character code past C, word for word (the CPU twin's sentence).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_BN  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
from test_values152_window_cuda import BWD_ARGS, EPS, MOM, U, problem  # noqa: E402
from test_cuda_kernels import close  # noqa: E402
from test_values152_window_cuda import FWD_OUT, GRADS, TOL  # noqa: E402

K = 2
CLIP = 0.05
T = 4


def run(mod, a, rows, lengths, dy, dw, training, clip, host):
    """(outputs, saved c and kappa, running rows after, gradients) of one twin with BatchNorm, as host arrays."""
    rows = [r.copy() for r in rows]
    live = [to_device(r) for r in rows] if mod is window_cuda else rows
    *outs, saved = mod.window_lstm_forward(*a.values(), *live, NORM_BN, training, MOM, EPS, lengths, True)
    seqs = mod.window_sequences(saved)
    grads = mod.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], NORM_BN, clip)
    return [host(o) for o in outs], [host(s) for s in seqs], [host(r) for r in live], [host(g) for g in grads]


@pytest.mark.parametrize("training", [True, False], ids=["training", "evaluation"])
def test_bn_layer_over_rows_of_4_0_and_2_steps_with_clip_equals_the_cpu_twin(training):
    a, rows, lengths, dy, dw = problem(26220, K, [U, 2, 0], [T, 0, 2])
    dy, dw = 10 * dy, 10 * dw
    want = run(cpu, a, rows, lengths, dy, dw, training, CLIP, np.asarray)
    unclipped = run(cpu, a, rows, lengths, dy, dw, training, 0.0, np.asarray)
    assert max(close(g, e, floor=1e-3) for g, e in zip(unclipped[3], want[3])) > 1e-2, "the clip bites"
    got = run(window_cuda, a, rows, lengths, dy, dw, training, CLIP, to_host)
    # to TOL of each array's magnitude, or of 1e-3 where that is smaller: in training BN_t over the two rows
    # that run at steps 0 and 1 leaves dL/dx near 1e-6, sums that cancel to their rounding
    for group, names, g, e in zip(("output", "saved", "running row", "gradient"),
                                  (FWD_OUT, ("c", "kappa"), range(6), GRADS), got, want):
        assert len(g) == len(e), group
        for name, x, z in zip(names, g, e):
            assert x.shape == z.shape and close(x, z, floor=1e-3) < TOL, f"{group} {name}"
    if not training:
        assert all(np.array_equal(r, r0) for r, r0 in zip(got[2], rows)), "nothing folded in evaluation"
        heads = window_cuda.window_lstm_forward(*a.values(), *[to_device(r.copy()) for r in rows], NORM_BN, False,
                                                MOM, EPS, lengths, False)
        assert heads[-1] is None
        y, w, hT, cT, kappaT, wT = [to_host(o) for o in heads[:6]]
        kept_y, kept_w = got[0][0], got[0][1]
        c, kappa = got[1]
        for name, g, e in (("y", y, kept_y), ("w", w, kept_w), ("hT", hT, kept_y[T - 1]), ("cT", cT, c[T - 1]),
                           ("kappaT", kappaT, kappa[T - 1]), ("wT", wT, kept_w[T - 1])):
            assert g.shape == e.shape and close(g, e, floor=1e-3) < 1e-12, name
    g = dict(zip(("x", "h0", "c0", "kappa0", "w0"), got[3]))
    assert not g["x"][:, 1].any(), "the row of 0 steps sends nothing back"
    assert not g["x"][2:, 2].any() and g["x"][1, 2].any(), "the row of 2 steps from steps 0 and 1 only"


def test_character_code_past_c_refused_word_for_word():
    a, rows, lengths, _, _ = problem(26221, K, [U, 2, 0], [T, 0, 2])
    chars = a["chars"].copy()
    chars[0, 3] = 3  # C = 3 codes: 0, 1, 2
    chars[2, 0] = 7  # past row 2's empty text: never read
    bad = dict(a, chars=chars)
    with pytest.raises(ValueError) as e:
        window_cuda.window_lstm_forward(*bad.values(), *[np.zeros((0, 0))] * 6, 0, True, MOM, EPS, lengths, True)
    assert str(e.value) == "character codes must lie in [0, C) = [0, 3), got 0..3"
