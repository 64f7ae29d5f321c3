"""Planted bugs, round 60 (format: tests/mutants/mutants.py): single-line slips in the recurrent-BN LSTM's CUDA
twin and the window layer's, on lines no earlier round mutates. bn_lstm_cuda: its forward step kernel counting a
row at its first padded step, folding the h side's statistics of a step where no row is active, reading gate i's
running mean for every gate and the h side's running variance for the cell in inference; its backward clipping
with clip 0 (off) and clipping the output gate from below only, the inference backward through BN_t without the
running 1/std; the plan summing the cell bias's parts into dgc and handing the x side's BN_t eps and momentum
swapped. window_cuda: phi placed at kappa_{t-1}, the window's backward reading the whole padded text, dL/d(beta)
of the wrong sign, the fused cell kernel (no norm, LN) weighing the padded text, the BN path's h-side running row
capped by the x side's count, the x side's gain gradient taking col_backward's bias sum, and the final cell state
and kappa taken from the slot after the last step's.

16 mutants. Against the existing targeted tests alone 15 were caught and 1 missed: the BN path's h-side running
row capped by the x side's count (every older window test gives the three sides the same number of running rows).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values60_bn_lstm_cuda (the CPU twin bn_lstm at B = 3 rows of their own lengths with a step where no row is
active, H = 5 over tiles of 4, eps 0.3 and momentum 0.35, running rows (2, 5, 3), training and inference, clip 0
and a clip that binds on every gate from both sides (recorded from the NumPy reference's clip_gate_grads, whose
gradients the twin equals too); by the definitions: no fold on the empty step, step 0's x-side fold of the batch
mean and unbiased variance, step 0's inference output recomputed in NumPy from each column's running rows) and
test_values60_window_cuda (the NumPy spec reference.window_lstm_* at T = 4, B = 3, H = 5, K = 2, C = 6, U = 5
over blocks of 4 threads and tiles of 3, a row without text and codes past ulen that must not be read, LN, no
norm and BN in training and inference with running rows (2, 4, 3), eps and momentum off their defaults, keep on
and off; the window's kappa, phi and w recomputed here from the twin's own h_t by their definition). Dropped
before the catalogue as equivalent: the backward's padded rows not zeroing dcarry (padded steps are a suffix of
each row, so the carry there is still the zeros it started as).

    python tests/mutants/run.py --only 'v60-*'
"""
BNL = "lnrnn/kernels/bn_lstm_cuda.py"
WIN = "lnrnn/kernels/window_cuda.py"

# existing tests of these modules
BNL_OLD = ["tests/kernels/test_values22_bn_cells_cuda.py", "tests/kernels/test_values38_bn_cells_cuda.py",
           "tests/kernels/test_cuda_bn_graphs.py"]
WIN_OLD = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_values38_window_cuda.py",
           "tests/kernels/test_values22_window_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BNL_NEW = ["tests/kernels/test_values60_bn_lstm_cuda.py"]
WIN_NEW = ["tests/kernels/test_values60_window_cuda.py"]

MUTANTS = [
    # ---- bn_lstm_cuda's step kernels: active rows, folds, inference statistics, the clip ----
    dict(name="v60-bnlstm-fwd-active-through-length", file=BNL,
         old="                on = s < lengths[b]",
         new="                on = s <= lengths[b]",
         tests=BNL_NEW + BNL_OLD,
         why="the forward's BN_t counts a row at its first padded step (s == lengths[b]) among the active ones: "
             "the batch statistics of that step and the running rows folded from them take in a padded row"),
    dict(name="v60-bnlstm-fold-step-without-rows", file=BNL,
         old="if update_h and valid and n > zero and lane == 0:",
         new="if update_h and valid and n >= zero and lane == 0:",
         tests=BNL_NEW + BNL_OLD,
         why="a step where every row is padded (n = 0) still folds its h-side batch statistics (mean 0, "
             "variance 0) into the running rows: they shrink by 1 - momentum where the CPU twin leaves them"),
    dict(name="v60-bnlstm-infer-h-mean-without-gate-offset", file=BNL,
         old="                m4[q] = rmh_r[q * H + j]",
         new="                m4[q] = rmh_r[j]",
         tests=BNL_NEW + BNL_OLD,
         why="in inference every gate column reads gate i's running mean (rmh[j], not rmh[q H + j])"),
    dict(name="v60-bnlstm-infer-cell-var-of-h-side", file=BNL,
         old="mc, rc = rmc_r[j], one / math.sqrt(rvc_r[j] + e)",
         new="mc, rc = rmc_r[j], one / math.sqrt(rvh_r[j] + e)",
         tests=BNL_NEW + BNL_OLD,
         why="in inference the cell's BN_t divides by the h side's running variance (copy-paste of the row above)"),
    dict(name="v60-bnlstm-clip-zero-clips", file=BNL,
         old="                if cl > zero:  # Graves",
         new="                if cl >= zero:  # Graves",
         tests=BNL_NEW + BNL_OLD,
         why="clip 0 (off) clips every gate derivative to [0, 0]: without a clip no gradient flows into the gates"),
    dict(name="v60-bnlstm-clip-o-no-upper-bound", file=BNL,
         old="                    do = min(max(do, -cl), cl)",
         new="                    do = max(do, -cl)",
         tests=BNL_NEW + BNL_OLD,
         why="the output gate's derivative is clipped from below only: a large positive dL/da_o passes"),
    dict(name="v60-bnlstm-infer-dhw-without-rstd", file=BNL,
         old="                        dhw_t[b, q * H + j] = g4[q] * r4[q] * ga[4 * r + q]",
         new="                        dhw_t[b, q * H + j] = g4[q] * ga[4 * r + q]",
         tests=BNL_NEW + BNL_OLD,
         why="the inference backward through the h side's BN_t forgets the running 1/std: dWh, dh0 and dx wrong"),
    dict(name="v60-bnlstm-dgc-summed-from-dbc", file=BNL,
         old="(parts[1], self.pgc, self.sums[3])",
         new="(parts[1], self.pbc, self.sums[3])",
         tests=BNL_NEW + BNL_OLD,
         why="the cell gain's gradient sums the cell bias's per-step parts: dgc = dbc"),
    dict(name="v60-bnlstm-x-side-momentum-eps-swapped", file=BNL,
         old="rmx, rvx, training, momentum, eps, self.xn",
         new="rmx, rvx, training, eps, momentum, self.xn",
         tests=BNL_NEW + BNL_OLD,
         why="the x side's BN_t gets eps as its momentum and momentum as its eps (swapped arguments); at the "
             "defaults (0.1, 1e-5) this shows too, off them the folded rows and outputs differ more"),
    # ---- window_cuda: the soft window's rows, its backward over the text, BN's running rows, final state ----
    dict(name="v60-window-phi-from-previous-kappa", file=WIN,
         old="                d = kappa[k] - pos",
         new="                d = kappa_prev[k] - pos",
         tests=WIN_NEW + WIN_OLD,
         why="phi places each Gaussian at kappa_{t-1}, not at the kappa_t just advanced"),
    dict(name="v60-window-bwd-reads-whole-text", file=WIN,
         old="        for u in range(L):\n            cls = chars[u]",
         new="        for u in range(chars.shape[0]):\n            cls = chars[u]",
         tests=WIN_NEW + WIN_OLD,
         why="the window's backward sums over every position of the padded text, ulen ignored: a row shorter than "
             "U gets gradient from characters phi never weighed"),
    dict(name="v60-window-dbeta-sign", file=WIN,
         old="        dp[K + k] = -s1 * be",
         new="        dp[K + k] = s1 * be",
         tests=WIN_NEW + WIN_OLD,
         why="dL/d(beta_hat) loses its sign (beta enters phi as exp(-beta d^2))"),
    dict(name="v60-window-ln-fwd-text-to-width", file=WIN,
         old="        cuda.syncthreads()  # h_t complete\n"
             "        window_row(y_t[bb], Wp, bp, kappa_prev[bb], chars[bb], min(ulen[bb], chars.shape[1]),",
         new="        cuda.syncthreads()  # h_t complete\n"
             "        window_row(y_t[bb], Wp, bp, kappa_prev[bb], chars[bb], chars.shape[1],",
         tests=WIN_NEW + WIN_OLD,
         why="the fused cell kernel (no norm, LN) weighs every position of the padded text: phi past ulen is not 0 "
             "and w takes in the padding's codes"),
    dict(name="v60-window-bn-h-row-of-x-side", file=WIN,
         old="rx, rh, rc = min(t, Tsx - 1), min(t, Tsh - 1), min(t, Tsc - 1)",
         new="rx, rh, rc = min(t, Tsx - 1), min(t, Tsx - 1), min(t, Tsc - 1)",
         tests=WIN_NEW + WIN_OLD,
         why="the h side's running row of step t is capped by the x side's count: with fewer x rows than h rows "
             "later steps fold into and read the wrong h row"),
    dict(name="v60-window-bn-x-gain-grad-is-bias-grad", file=WIN,
         old="        _, s2 = col_backward(",
         new="        s2, _ = col_backward(",
         tests=WIN_NEW + WIN_OLD,
         why="the x side's per-step gain parts take col_backward's first sum (sum dy, the bias's): dgx = db"),
    dict(name="v60-window-final-c-slot", file=WIN,
         old="    last = (T - 1) % S",
         new="    last = T % S",
         tests=WIN_NEW + WIN_OLD,
         why="the final cell state and kappa come from the slot after the last step's: cT and kappaT of step 0 "
             "(keep) or of step T - 2 (inference)"),
]
