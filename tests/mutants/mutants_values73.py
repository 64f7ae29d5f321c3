"""Planted bugs, round 73 (format: tests/mutants/mutants.py): single-line slips in the synthesis layer's window
kernel and in the sequence models, on lines no earlier round mutates: phi cleared over the row's own text only
(past ulen it keeps the buffer's bytes), the tanh block's gate scale one column late, a character code equal
to C let through the text check, BN_t's forward counting a row at the step after its end, dL/d(o) without
tanh(c_t), the window's feedback gradient dL/dw_{t-1} taken through the h side's norm, dh0 and dc0 swapped,
dWx[I:] read against w_t instead of w_{t-1}, dWp against h_{t-1} instead of h_t, dbp missing each part's first
row; a per-step head's targets cut along the batch for a truncated-BPTT chunk, every chunk's rows selected as
if it began at step 0, loss_sums counting the last inference chunk only, load_arrays checking the rank instead
of the shape, a sampling step without the head's bias, infer_chunk_steps without its floor of one step,
batches_of one row short, a given total not used as the normalizer of the means.

18 mutants. Against the existing targeted tests alone 17 were caught and 1 missed: model.step leaving out
the head's bias (the head's b starts at zero and no test of step gave it a value). The new value tests catch
every mutant on their own (checked with the old tests taken off the lists): test_values73_window (K = 3,
rows of their own text lengths (6, 1, 3, 0) and sequence lengths (5, 1, 3, 4), dL/dy and dL/dw nonzero at
padded steps, norms none, LN, BN_t training and BN_t from running rows: the forward, BN's running rows and
all sixteen gradients against the NumPy spec lnrnn.reference; phi exactly 0 past each text with NaN left in
the buffers NumPy hands out next, and w_t as phi summed per character by hand; the window's parameters, the
feedback rows Wx[I:] and the initial state against central differences of the kernel's forward; 1, 2 and 3
chunks of rows giving the same forward bits and each the spec's gradients; steps 0 and 1 by hand from
[x_t | w_{t-1}]; codes C and -1 refused, C past a text accepted) and test_values73_models (2-layer LSTM
stacks, plain and skip, against the NumPy reimplementation of test_values51_models: parameter names and
shapes from the config; the mean loss as the sum over running, labelled steps over their count for truncated
BPTT in chunks of 1, 2, 3 and T steps, last-step and per-step heads; inference over time chunks of one and
two steps, last outputs and evaluate over two batches; infer_chunk_steps by its definition; a given total
scaling the means and gradients by count / total; load_arrays refusing other shapes and leaving the
parameter as it was; three sampling steps as y_t W + b; batches_of by hand).

Dropped as equivalent: c and kappa saved in one row instead of two without keep (each element of the
previous step is read before the same element of the step is written); the cache-line gap between two
chunks' work rows left out (spacing only); ``tbptt > T`` for ``tbptt >= T`` (one chunk of T steps either
way); loss_and_grad's chunk end not capped at T (the slices stop at T and the shifted lengths never exceed
T - t0). The code-C mutant's test puts the code in row 0, so that the planted bug's stray write lands inside
the buffer (the next row's first column) rather than past it.

    python tests/mutants/run.py --only 'v73-*'
"""
WINDOW = "lnrnn/kernels/window.py"
MODELS = "lnrnn/model/models.py"

# existing tests of these modules
WINDOW_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values11_window.py",
              "tests/kernels/test_values31_window.py", "tests/kernels/test_values42_window_text.py",
              "tests/kernels/test_values45_window.py", "tests/kernels/test_values57_window.py"]
MODELS_OLD = ["tests/model/test_models.py", "tests/model/test_values10_models.py", "tests/model/test_values16_models.py",
              "tests/model/test_values20_models.py", "tests/model/test_values37_models.py",
              "tests/model/test_values51_models.py", "tests/model/test_eval_chunks.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
WINDOW_NEW = ["tests/kernels/test_values73_window.py"]
MODELS_NEW = ["tests/model/test_values73_models.py"]

MUTANTS = [
    # ---- the window kernel (lnrnn/kernels/window.py) ----
    dict(name="v73-window-phi-past-ulen-left-unset", file=WINDOW,
         old="            for u in range(U):\n                fr[u] = zero",
         new="            for u in range(nu):\n                fr[u] = zero",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="phi is cleared over the row's own characters only: phi(t,u) past ulen[b] keeps np.empty's bytes"),
    dict(name="v73-window-g-block-edge-off-by-one", file=WINDOW,
         old="        gm[j] = two if 2 * H <= j < 3 * H else one",
         new="        gm[j] = two if 2 * H < j <= 3 * H else one",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the tanh block's scale starts one column late and takes the o gate's first column"),
    dict(name="v73-window-code-C-let-through", file=WINDOW,
         old="    if used.size and (used.min() < 0 or used.max() >= C):",
         new="    if used.size and (used.min() < 0 or used.max() > C):",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="a character code equal to C passes the check and the scatter writes one column past the row"),
    dict(name="v73-window-bn-counts-a-row-at-its-end", file=WINDOW,
         old="            if t < lengths[r]:\n                n += 1",
         new="            if t <= lengths[r]:\n                n += 1",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="BN_t's forward counts a row at the step right after its end: the mean and variance divide by one more"),
    dict(name="v73-window-output-gate-grad-drops-tanh", file=WINDOW,
         old="                dao[j] = dh * tk * o * (one - o)",
         new="                dao[j] = dh * o * (one - o)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dL/d(o's preactivation) forgets the factor tanh(c_t)"),
    dict(name="v73-window-dw-prev-from-the-h-side", file=WINDOW,
         old="        gemm(dXW[t, r0:r1], WxwT, dwn, False)  # dL/dw_{t-1}, from step t's input",
         new="        gemm(dHW[t, r0:r1], WxwT, dwn, False)  # dL/dw_{t-1}, from step t's input",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window's feedback gradient is taken through the h side's norm (the same array without a norm)"),
    dict(name="v73-window-initial-state-grads-swapped", file=WINDOW,
         old="(carry[0][k, 0], carry[0][k, 1], carry[1][k], carry[2][k])",
         new="(carry[0][k, 1], carry[0][k, 0], carry[1][k], carry[2][k])",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dh0 and dc0 come back in each other's place"),
    dict(name="v73-window-dwx-reads-w-of-the-step", file=WINDOW,
         old="ws[:T].reshape(T * B, C)",
         new="ws[1:].reshape(T * B, C)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dWx[I:] pairs dXW_t with w_t instead of the w_{t-1} that step t read"),
    dict(name="v73-window-dwp-reads-h-of-the-step-before", file=WINDOW,
         old="            hs[1:].reshape(T * B, H))",
         new="            hs[:T].reshape(T * B, H))",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dWp pairs dP_t with h_{t-1} instead of the h_t the window read"),
    dict(name="v73-window-dbp-skips-each-parts-first-row", file=WINDOW,
         old="    for i in range(a, e):\n        dpi = dP[i]",
         new="    for i in range(a + 1, e):\n        dpi = dP[i]",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="each part's column sums of dP start one row late: dbp misses a row at each part's first step"),
    # ---- the sequence models (lnrnn/model/models.py) ----
    dict(name="v73-models-chunk-targets-wrong-axis", file=MODELS,
         old="        return np.asarray(targets)[:, t0:t1]",
         new="        return np.asarray(targets)[t0:t1]",
         tests=MODELS_NEW + MODELS_OLD,
         why="a per-step head's targets (B,T) are cut along the batch for a truncated-BPTT chunk"),
    dict(name="v73-models-tbptt-select-from-step-0", file=MODELS,
         old="            h, valid, where = self._select(y, T, lengths, t0)",
         new="            h, valid, where = self._select(y, T, lengths, 0)",
         tests=MODELS_NEW + MODELS_OLD,
         why="every truncated-BPTT chunk reads its rows' steps as if it began at step 0"),
    dict(name="v73-models-infer-chunk-count-reset", file=MODELS,
         old="                sums[m] += s[m]\n            count += c\n        return {**sums",
         new="                sums[m] += s[m]\n            count = c\n        return {**sums",
         tests=MODELS_NEW + MODELS_OLD,
         why="loss_sums over several inference chunks reports the last chunk's count only"),
    dict(name="v73-models-load-arrays-shape-by-ndim", file=MODELS,
         old="            if p.shape != arrays[k].shape:",
         new="            if p.ndim != arrays[k].ndim:",
         tests=MODELS_NEW + MODELS_OLD,
         why="load_arrays lets an array of the right rank and another shape through (a (1,) bias broadcasts)"),
    dict(name="v73-models-step-drops-head-bias", file=MODELS,
         old="        return self.head.linear(y_t), state",
         new="        return y_t @ self.head.params[\"W\"], state",
         tests=MODELS_NEW + MODELS_OLD,
         why="one sampling step's output leaves out the head's bias"),
    dict(name="v73-models-infer-chunk-steps-unguarded", file=MODELS,
         old="    return max(1, min(T, INFER_CHUNK_ROWS // max(B, 1)))",
         new="    return min(T, INFER_CHUNK_ROWS // max(B, 1))",
         tests=MODELS_NEW + MODELS_OLD,
         why="a batch wider than INFER_CHUNK_ROWS gets chunks of 0 steps"),
    dict(name="v73-models-batches-of-one-row-short", file=MODELS,
         old="        sl = slice(s, s + batch_size)",
         new="        sl = slice(s, s + batch_size - 1)",
         tests=MODELS_NEW + MODELS_OLD,
         why="batches_of leaves out the last row of every batch"),
    dict(name="v73-models-mean-over-own-count", file=MODELS,
         old="        return self.head.mean(sums, total)\n\n    def loss_sums",
         new="        return self.head.mean(sums, self.last_count)\n\n    def loss_sums",
         tests=MODELS_NEW + MODELS_OLD,
         why="loss_and_grad with a given total (a shard of a batch) reports its means over its own count"),
]
