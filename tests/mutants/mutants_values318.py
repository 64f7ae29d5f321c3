"""Planted bugs, round 318 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the synthesis window's CPU kernel (lnrnn/kernels/window.py) and its CUDA twin
(lnrnn/kernels/window_cuda.py), seventeenth pass: Graves's gate clip leaving the output gate's block unclipped;
the bias gradient db summed over the i, f and g blocks only (the o block left 0); dL/dh_{t-1} taken through
dL/d(X_t Wx) instead of dL/d(h_{t-1} Wh) (the same array without a norm, not with LayerNorm); the second row
chunk's initial-state gradients read from the wrong rows of its carries (a padding row of zeros); the text
check's U taken as the batch size (a text longer than B refused); on the device, the window row's zero made one
(phi past a text 1, w and p_t shifted), the backward's kappa of component 0 used for every component, the
carried dL/dkappa never written back, dw and dw_next swapped (a padded step's dw read, the carried one dropped),
the backward's loop over components stopping one short, the forward's slot of step t-1 taken as (t + 1) % S
(kappa_{t-1} and c_{t-1} read from a slot not yet written), and the forward's and the backward's C taken as
w0's row count (a code between B and C refused).

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (the old files taken off the lists: 13 of 13): test_values318_window (kappa, phi and w of every
step against Graves's eq. 46-51 written out by test_values285_window's formulas_hold at U = 1, 4 and 7 with
texts of U, 0 and 1 characters in one batch over two row chunks; the state carried from a 1-step call into a
2-step call against lnrnn.reference.window_lstm_forward over all 3 steps; every gradient against
lnrnn.reference.window_lstm_backward with the gate clip at 0.02, checked to bind in each gate block of db, and
without it, rows of 3, 1 and 2 steps, with and without LayerNorm), test_values318_window_cuda (the CUDA twin
under the simulator equal to the CPU twin in float64 at B 3, H 5, K 2, C 4, U 5, texts of 5, 1 and 0 characters
and rows of 2, 4 and 3 steps on row kernels of 4 threads; phi past each text exactly 0, w of a one-character text
phi(t,1) in its code's column; the refusal of a code at C word for word).

Left out as equivalent: window_row's and window_bwd_row's K read from kappa_prev or abk (the same K); the
backward's s1 = zero and s2 = zero started from s0 (also zero); the rows of the largest chunk
m = -(-B // nch) + 1 without its + 1 (the gap row only keeps chunks off one cache line); the inference slots
S2 = min(T, 1) (kappa_t and c_t are written element by element after their previous value is read, so one slot
gives the same numbers); the block stride n = blockDim.x - 1 (overlapping threads write equal values). Left out
as not deterministic: the CPU's zeroing of w_t over range(C) cut short and the NORM_NONE copy dXW = dL/da over
range(Bc - 1) (the unwritten entries hold np.empty's leftover memory); the window's dP Wp^T product written into
the carried dL/dh (the scratch it leaves unwritten holds leftover memory); the backward's gemm of dP with
trans_a (a shape mismatch, not a value). The window's phi, kappa and w arithmetic itself (the 1-based position,
the exponent, the scatter by code, the lengths) is mutated by earlier rounds.

    python tests/mutants/run.py --only 'v318-*'
"""
WIN = "lnrnn/kernels/window.py"
WCU = "lnrnn/kernels/window_cuda.py"

T_WIN = "tests/kernels/test_values318_window.py::"
T_WCU = "tests/kernels/test_values318_window_cuda.py::"
OLD_WIN = ["tests/kernels/test_window.py", "tests/kernels/test_values285_window.py",
           "tests/kernels/test_values293_window.py"]
OLD_WCU = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_values152_window_cuda.py",
           "tests/kernels/test_values293_window_cuda.py"]

CLIP = [T_WIN + f"test_gradients_with_the_gate_clip_against_the_spec_over_two_chunks[{n}-clip]"
        for n in ("none", "ln")]
GRADS = CLIP + [T_WIN + f"test_gradients_with_the_gate_clip_against_the_spec_over_two_chunks[{n}-noclip]"
                for n in ("none", "ln")]
TEXTS = [T_WIN + f"test_kappa_phi_and_w_at_texts_of_u_0_and_1[{u}-none]" for u in (4, 7)]
TWIN = [T_WCU + "test_layer_at_b3_k2_u5_equals_the_cpu_twin"]
REFUSAL = [T_WCU + "test_code_at_c_refused_word_for_word"]

MUTANTS = [
    # ---- the CPU kernel: lnrnn/kernels/window.py ----
    dict(name="v318-window-clip-skips-output-gate", file=WIN,
         old="(the carried dL/dc is not)\n                for j in range(G):",
         new="(the carried dL/dc is not)\n                for j in range(3 * H):",
         tests=CLIP + OLD_WIN,
         why="Graves's gate clip stops at the g block: dL/d(o) reaches db, the norms, h_{t-1} and the weights "
             "unclipped"),
    dict(name="v318-window-db-skips-output-gate", file=WIN,
         old="            pdb = pg[0]\n            for j in range(G):",
         new="            pdb = pg[0]\n            for j in range(3 * H):",
         tests=GRADS + OLD_WIN,
         why="the bias gradient sums dL/da over the i, f and g blocks only: db of the output gate stays 0"),
    dict(name="v318-window-dh-prev-through-x-side", file=WIN,
         old="rec_mul(dHW[t, r0:r1], WhT, PT, dhn)",
         new="rec_mul(dXW[t, r0:r1], WhT, PT, dhn)",
         tests=[GRADS[1], GRADS[3]] + OLD_WIN,
         why="dL/dh_{t-1} = dL/d(X_t Wx) Wh^T: right without a norm (one array), wrong through LayerNorm's two sides"),
    dict(name="v318-window-state-grads-of-second-chunk-wrong-rows", file=WIN,
         old="s[r0:r1] = v[:r1 - r0]",
         new="s[r0:r1] = v[r0:r1]",
         tests=GRADS + OLD_WIN,
         why="a later row chunk's dh0, dc0, dkappa0 and dw0 are read at its global row numbers from carries "
             "indexed from 0: row 2 gets the chunk's padding row of zeros"),
    dict(name="v318-window-text-u-is-batch-size", file=WIN,
         old="{chars.shape} and {ulen.shape}\")\n    U = chars.shape[1]",
         new="{chars.shape} and {ulen.shape}\")\n    U = chars.shape[0]",
         tests=TEXTS + OLD_WIN,
         why="the text check's U is B: a text longer than the batch is refused (or its mask fails)"),
    # ---- the CUDA twin: lnrnn/kernels/window_cuda.py ----
    dict(name="v318-cuda-window-row-zero-is-one", file=WCU,
         old="    n = cuda.blockDim.x\n    zero = one - one\n    K = kappa.shape[0]",
         new="    n = cuda.blockDim.x\n    zero = one\n    K = kappa.shape[0]",
         tests=TWIN + OLD_WCU,
         why="the forward window's sums start at 1: p_t, phi (1 past each text) and w all shifted"),
    dict(name="v318-cuda-window-bwd-kappa-of-component-0", file=WCU,
         old="        kap = kappa[k]",
         new="        kap = kappa[0]",
         tests=TWIN + OLD_WCU,
         why="the backward's distances kappa_k - u use component 0's kappa for every component"),
    dict(name="v318-cuda-window-bwd-dkappa-carry-not-written", file=WCU,
         old="        dkappa[k] = dk",
         new="        dkappa[k] = dkappa[k]",
         tests=TWIN + OLD_WCU,
         why="dL/dkappa_{t-1} is never written back: each step's dkappa sees no later step, dkappa0 is 0"),
    dict(name="v318-cuda-window-bwd-dw-and-dw-next-swapped", file=WCU,
         old="    dy, dw, dw_next = up",
         new="    dy, dw_next, dw = up",
         tests=TWIN + OLD_WCU,
         why="the padded step's dw is read and the dL/dw_t carried through X_{t+1} is dropped there"),
    dict(name="v318-cuda-window-bwd-last-component-skipped", file=WCU,
         old="    K = kappa.shape[0]\n    for k in range(tid, K, n):\n        a = abk[k]",
         new="    K = kappa.shape[0]\n    for k in range(tid, K - 1, n):\n        a = abk[k]",
         tests=TWIN + OLD_WCU,
         why="the backward's loop over components stops one short: the last Gaussian gets no dp, no dkappa"),
    dict(name="v318-cuda-forward-previous-slot-ahead", file=WCU,
         old="        k, j = t % S, (t - 1) % S  # slots of step t and t-1\n"
             "        gemm(v.w0 if t == 0 else v.w[t - 1], v.WxC, v.xw[t], accumulate=I > 0)\n"
             "        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hw)",
         new="        k, j = t % S, (t + 1) % S  # slots of step t and t-1\n"
             "        gemm(v.w0 if t == 0 else v.w[t - 1], v.WxC, v.xw[t], accumulate=I > 0)\n"
             "        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hw)",
         tests=TWIN + OLD_WCU,
         why="with keep the slot of step t-1 is taken as (t + 1) % T: kappa_{t-1} and c_{t-1} from a slot "
             "not written yet (the same slot with keep=False's two)"),
    dict(name="v318-cuda-forward-c-is-batch-size", file=WCU,
         old="(x has T = 0)\")\n    C = w0.shape[1]",
         new="(x has T = 0)\")\n    C = w0.shape[0]",
         tests=TWIN + REFUSAL + OLD_WCU,
         why="the forward's text check takes C as w0's row count B: a code between B and C is refused, a "
             "refusal names B"),
    dict(name="v318-cuda-backward-c-is-batch-size", file=WCU,
         old="    T, B, I = x.shape\n    C = w0.shape[1]",
         new="    T, B, I = x.shape\n    C = w0.shape[0]",
         tests=TWIN + OLD_WCU,
         why="the backward's text check takes C as B: a text using a code at or past B is refused there"),
]
