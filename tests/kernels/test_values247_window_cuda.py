"""The window layer's CUDA twin (lnrnn/kernels/window_cuda.py) in float64 under Numba's simulator, without
normalization, on K = 2 components (T = 4, B = 3, H = 5, U = 5, C = 3: none a multiple of the 4-thread row blocks):
rows that run 4 (= T), 0 and 1 steps over a full text, an empty one and one of one character, dy and dw of scale
10 under Graves's clip at 0.05 (it bites: the CPU twin's gradients without it differ), forward outputs, the saved c
and kappa and every gradient against the CPU twin (lnrnn/kernels/window.py) given the same clip; and the text
check's refusal of a length past U, word for word.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window as cpu  # noqa: E402
from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from test_cuda_kernels import close  # noqa: E402
# small_blocks: the autouse fixture (row kernels of TPB = 4 threads, tiles of 3, the simulator race-free)
from test_values103_window_cuda import small_blocks  # noqa: E402,F401
from test_values152_window_cuda import BWD_ARGS, EPS, MOM, U, problem  # noqa: E402
from test_values175_window_cuda import check_same_as_cpu  # noqa: E402

K = 2
CLIP = 0.05
NONE = [np.zeros((0, 0))] * 6


def run(mod, a, lengths, dy, dw, clip, host):
    *outs, saved = mod.window_lstm_forward(*a.values(), *NONE, NORM_NONE, True, MOM, EPS, lengths, True)
    seqs = mod.window_sequences(saved)
    grads = mod.window_lstm_backward(dy, dw, saved, *[a[k] for k in BWD_ARGS], NORM_NONE, clip)
    return [host(o) for o in outs], [host(s) for s in seqs], [], [host(g) for g in grads]


def test_plain_layer_over_rows_of_4_0_and_1_steps_with_clip_equals_the_cpu_twin():
    a, _, lengths, dy, dw = problem(2470, K, [U, 0, 1], [4, 0, 1])
    dy, dw = 10 * dy, 10 * dw
    want = run(cpu, a, lengths, dy, dw, CLIP, np.asarray)
    unclipped = run(cpu, a, lengths, dy, dw, 0.0, np.asarray)
    assert max(close(g, e) for g, e in zip(unclipped[3], want[3]) if np.abs(e).max(initial=0.0) > 0) > 1e-2, \
        "the clip bites"
    got = run(window_cuda, a, lengths, dy, dw, CLIP, to_host)
    check_same_as_cpu(got, want)
    grads = dict(zip(("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp",
                      "bp"), got[3]))
    assert not grads["x"][:, 1].any(), "the row of 0 steps sends nothing back"
    assert not grads["x"][1:, 2].any() and grads["x"][0, 2].any(), "the row of 1 step only from step 0"
    assert grads["x"][3, 0].any(), "the row of T steps from its last step"


def test_ulen_past_u_refused_word_for_word():
    a, _, lengths, _, _ = problem(2471, K, [U, 0, 1], [4, 0, 1])
    bad = dict(a, ulen=np.array([U + 1, 0, 1], np.int64))
    with pytest.raises(ValueError) as e:
        window_cuda.window_lstm_forward(*bad.values(), *NONE, NORM_NONE, True, MOM, EPS, lengths, True)
    assert str(e.value) == "ulen must lie in [0, U] = [0, 5], got 0..6"
