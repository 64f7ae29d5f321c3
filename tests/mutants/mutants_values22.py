"""Planted bugs, round 22 (format: tests/mutants/mutants.py): single-line slips in lines that earlier
catalogues left alone, in the recurrent BatchNorm cells when the x side, the h side and the cell hold different
numbers of running rows (the CPU fold path's row and update bounds, the BN-RNN twin's plan), in the BN twins' step
kernels and plans (a gain or bias dropped, a gate reading another's column, Graves's clip bounded on one side, the
carried dL/dc dropped, a padded step treated as active, the final state taken from a longer plan's last step, the
x side's backward after an evaluation forward), in the graph plans' cache keys (eps of the LSTM, RNN and window
forwards, BatchNorm's training flag of the window backward), in the layers and models on the device (the CUDA
skip stack's dL/dx and dL/dh, a last step past a chunk, a bidirectional evaluation's columns), in the layer
function's dL/dh_n on rows of length 0, and in quantities computed beside the kernels that decide what a row
scores (the device classifier's and CTC best path's first of tied maxima, a masked regression row counted within
the tolerance, an impossible CTC row, the MDN's log-sigma clip, centred RMSProp, the backend's rnn_infer, a BN
part's every-row fast path).

30 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 19 were caught
and 11 missed: the BN-RNN's narrow-input x side reading and folding by the h side's row count (two), the BN-RNN
twin's plan taking the x side's row count for the h side's rows, the LSTM's and the RNN's graph forward plans
cached without their eps, the window's BN backward plan shared by training and evaluation, the CUDA skip stack's
dL/dx of the bottom layer alone and its dL/dh not sent into layer 0, the MDN twin's second log-sigma clamped from
above only, and the device classifier's and CTC head's last of tied maxima. The new value tests catch every
mutant: test_values22_bn_cells (each side's own running rows, narrow and wide input, training and inference,
against reference.py), test_values22_bn_cells_cuda (the BN twins with every option: own running rows, lengths with
a row of 0, a tight clip met on both sides by every gate (the reference's derivatives recorded), a longer plan
answering a shorter call's final state; the LSTM's and RNN's plans at two eps), test_values22_window_graphs (a BN
training call and an evaluation call on one plan cache, each against the spec), test_values22_layers_cuda (a
three-layer skip stack on 'cuda' with lengths against the CPU one, and the CPU one's dL/dx and dWh against central
differences), test_values22_functional (dh_n seeds with and without rows of length 0 against central
differences, every plain and LN cell), test_values22_mdn_cuda (log-sigmas past either clip bound against the spec,
the CPU twin and central differences), test_values22_losses_cuda (ties in the classifier's logits and in the CTC
best path against np.argmax's first index and the host's decode), test_values22_backend (every op of a namespace
is its own name; the infer ops against the reference on both devices). One mutant written for this round, the
BN-RNN twin's backward treating a row's first padded step as active (s <= lengths[b]), was dropped as equivalent:
that row's dL/da there reaches nothing (the h-side and x-side BatchNorm backwards count and write only active
rows, and the bias sum is theirs); it was replaced by the x side's backward after an evaluation forward.

    python tests/mutants/run.py --only 'v22-*'
"""

BN_RNN = "lnrnn/kernels/bn_rnn.py"
BN_RNN_CUDA = "lnrnn/kernels/bn_rnn_cuda.py"
BN_LSTM_CUDA = "lnrnn/kernels/bn_lstm_cuda.py"
WINDOW_CUDA = "lnrnn/kernels/window_cuda.py"

# existing tests of these modules
BN_OLD = ["tests/kernels/test_bn_cells.py", "tests/kernels/test_values11_bn_cells.py",
          "tests/kernels/test_values18_bn_cell_x.py"]
BNC_OLD = ["tests/kernels/test_cuda_bn_graphs.py",
           "tests/kernels/test_cuda_kernels.py::test_bn_cells_match_cpu",
           "tests/kernels/test_cuda_kernels.py::test_bn_cells_masked_match_cpu"]
GRAPH_OLD = ["tests/kernels/test_cuda_graphs.py", "tests/kernels/test_values17_graphs_cuda.py"]
WGRAPH_OLD = ["tests/kernels/test_cuda_window_graphs.py"]
LAYERS_CUDA_OLD = ["tests/model/test_cuda_layers.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
            "tests/model/test_values16_functional.py", "tests/interop/test_torch.py"]
DEV_OLD = ["tests/model/test_values20_models_cuda.py", "tests/training/test_device_update.py",
           "tests/training/test_device_update_more.py"]
MDN_OLD = ["tests/kernels/test_mdn.py", "tests/kernels/test_cuda_backend.py"]
OPTIM_OLD = ["tests/training/test_optim.py", "tests/kernels/test_cuda_backend.py",
             "tests/training/test_device_update.py"]
LOSSES_OLD = ["tests/kernels/test_values9_losses_cuda.py", "tests/training/test_device_update.py"]
CTC_OLD = ["tests/kernels/test_ctc_cuda.py"]
BACKEND_OLD = ["tests/kernels/test_values_backend.py", "tests/kernels/test_values17_backend.py",
               "tests/kernels/test_cuda_backend.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values22_bn_cells.py"]
BNC_NEW = ["tests/kernels/test_values22_bn_cells_cuda.py"]
GRAPH_NEW = ["tests/kernels/test_values22_bn_cells_cuda.py::test_graph_plans_keep_their_eps"]
WGRAPH_NEW = ["tests/kernels/test_values22_window_graphs.py"]
LAYERS_CUDA_NEW = ["tests/model/test_values22_layers_cuda.py"]
FUNC_NEW = ["tests/model/test_values22_functional.py"]
MDN_NEW = ["tests/kernels/test_values22_mdn_cuda.py"]
LOSSES_NEW = ["tests/kernels/test_values22_losses_cuda.py"]
BACKEND_NEW = ["tests/kernels/test_values22_backend.py"]

MUTANTS = [
    # ---- the BN-RNN's x side when its running rows are fewer or more than the h side's ----
    dict(name="v22-bnrnn-fold-x-row-of-h-side", file=BN_RNN,
         old="            tx = min(t, Tsx - 1)",
         new="            tx = min(t, Ts - 1)",
         tests=BN_NEW + BN_OLD,
         why="a narrow input's x-side BatchNorm reads running row min(t, Tsh-1) of its own rows: past the x side's "
             "last row, or short of it, when the two sides hold different numbers of steps"),
    dict(name="v22-bnrnn-fold-x-updates-h-side-steps", file=BN_RNN,
         old="q == 0 and t < Tsx, rmx[tx], rvx[tx],",
         new="q == 0 and t < Ts, rmx[tx], rvx[tx],",
         tests=BN_NEW + BN_OLD,
         why="the x side folds step t into its running rows while t < Tsh: its last row is updated again by the "
             "steps past it, or steps it holds are not folded"),
    # ---- the BN twins' plans and step kernels ----
    dict(name="v22-bnrnn-cuda-key-h-rows-of-x-side", file=BN_RNN_CUDA,
         old="(rmx.shape[0], rmh.shape[0]), training,",
         new="(rmx.shape[0], rmx.shape[0]), training,",
         tests=BNC_NEW + BNC_OLD,
         why="the BN-RNN twin's plan takes the x side's row count for the h side's running rows"),
    dict(name="v22-bnrnn-cuda-x-side-backward-always-training", file=BN_RNN_CUDA,
         old="self.lengths, self.mean_x, self.rstd_x, gx, training, self.dxw,",
         new="self.lengths, self.mean_x, self.rstd_x, gx, True, self.dxw,",
         tests=BNC_NEW + BNC_OLD,
         why="the BN-RNN twin's x-side backward is the batch statistics' one after an evaluation forward too"),
    dict(name="v22-bnrnn-cuda-fwd-without-gh", file=BN_RNN_CUDA,
         old="y_t[b, j] = math.tanh(g * (a[r] - m) * rs + xn_t[b, j])",
         new="y_t[b, j] = math.tanh((a[r] - m) * rs + xn_t[b, j])",
         tests=BNC_NEW + BNC_OLD,
         why="the BN-RNN twin's h side ignores its gain gh"),
    dict(name="v22-bnrnn-cuda-hT-plan-last-row", file=BN_RNN_CUDA,
         old="return saved[6], take_row(plan.y, T - 1), saved",
         new="return saved[6], take_row(plan.y, plan.y.shape[0] - 1), saved",
         tests=BNC_NEW + BNC_OLD,
         why="hT is the plan's last step, not the call's: a longer cached plan answers a shorter call with a "
             "step past T"),
    dict(name="v22-bnlstm-cuda-cT-plan-last-row", file=BN_LSTM_CUDA,
         old="take_row(plan.c, T - 1), saved",
         new="take_row(plan.c, plan.c.shape[0] - 1), saved",
         tests=BNC_NEW + BNC_OLD,
         why="cT is the plan's last step, not the call's: a longer cached plan answers a shorter call with a "
             "step past T"),
    dict(name="v22-bnlstm-cuda-o-gate-reads-g-input", file=BN_LSTM_CUDA,
         old="(a[4 * r + 3] - m4[3]) * r4[3] + xn_t[b, 3 * H + j], one)",
         new="(a[4 * r + 3] - m4[3]) * r4[3] + xn_t[b, 2 * H + j], one)",
         tests=BNC_NEW + BNC_OLD,
         why="the output gate adds the cell input's x-side column"),
    dict(name="v22-bnlstm-cuda-tc-without-bc", file=BN_LSTM_CUDA,
         old="tcv = math.tanh(gcj * (cv[r] - mc) * rc + bcj)",
         new="tcv = math.tanh(gcj * (cv[r] - mc) * rc)",
         tests=BNC_NEW + BNC_OLD,
         why="the cell's BatchNorm drops its bias bc"),
    dict(name="v22-bnlstm-cuda-padded-from-the-step-after", file=BN_LSTM_CUDA,
         old="                if s < lengths[b]:\n                    act[r] = one\n                    cnt += one\n                    s1 += d\n                    s2 += d * cmr * rc\n",
         new="                if s <= lengths[b]:\n                    act[r] = one\n                    cnt += one\n                    s1 += d\n                    s2 += d * cmr * rc\n",
         tests=BNC_NEW + BNC_OLD,
         why="a row's first padded step is treated as active in the backward"),
    dict(name="v22-bnlstm-cuda-dc-without-carry", file=BN_LSTM_CUDA,
         old="dc = dcarry[b, j] + dcbn",
         new="dc = dcbn",
         tests=BNC_NEW + BNC_OLD,
         why="dL/dc_t drops what step t+1 carried back"),
    dict(name="v22-bnlstm-cuda-clip-g-no-lower-bound", file=BN_LSTM_CUDA,
         old="                    dg = min(max(dg, -cl), cl)",
         new="                    dg = min(dg, cl)",
         tests=BNC_NEW + BNC_OLD,
         why="Graves's clip bounds the cell input's derivative from above only"),
    # ---- graph plans' keys ----
    dict(name="v22-lstm-graph-forward-key-without-eps", file="lnrnn/kernels/lstm_cuda.py",
         old='plan = plan_for("lstm forward", T, (B, H, I, np.dtype(dt).str, ln, eps),',
         new='plan = plan_for("lstm forward", T, (B, H, I, np.dtype(dt).str, ln),',
         tests=GRAPH_NEW + GRAPH_OLD,
         why="the LSTM's forward plan is cached without its eps: a later call with another eps replays the first's"),
    dict(name="v22-rnn-graph-forward-key-without-eps", file="lnrnn/kernels/rnn_cuda.py",
         old='plan = plan_for("rnn forward", T, (B, H, I, np.dtype(dt).str, ln, float(eps)),',
         new='plan = plan_for("rnn forward", T, (B, H, I, np.dtype(dt).str, ln),',
         tests=GRAPH_NEW + GRAPH_OLD,
         why="the RNN's forward plan is cached without its eps: a later call with another eps replays the first's"),
    dict(name="v22-window-graph-forward-key-without-eps", file=WINDOW_CUDA,
         old="np.dtype(dt).str, norm, eps, extra),",
         new="np.dtype(dt).str, norm, extra),",
         tests=WGRAPH_NEW + WGRAPH_OLD,
         why="the window layer's forward plan is cached without its eps"),
    dict(name="v22-window-graph-backward-key-without-training", file=WINDOW_CUDA,
         old="norm, clip, bn and training),",
         new="norm, clip, bn),",
         tests=WGRAPH_NEW + WGRAPH_OLD,
         why="the BN window layer's backward plan of a training forward serves an evaluation one (batch statistics' "
             "backward where the running ones were used)"),
    # ---- layers, functional, models on the device ----
    dict(name="v22-skip-cuda-dx-bottom-layer-only", file="lnrnn/model/layers.py",
         old="                dx = kn.take_columns(d_in, 0, I, dx)\n                dh_above",
         new="                dx = kn.take_columns(d_in, 0, I)\n                dh_above",
         tests=LAYERS_CUDA_NEW + LAYERS_CUDA_OLD,
         why="a skip stack on 'cuda' returns the bottom layer's dL/dx alone: the upper layers' x columns are dropped"),
    dict(name="v22-skip-cuda-no-dh-into-layer-0", file="lnrnn/model/layers.py",
         old="dh_above = kn.take_columns(d_in, I, I + H) if k > 0 else None",
         new="dh_above = kn.take_columns(d_in, I, I + H) if k > 1 else None",
         tests=LAYERS_CUDA_NEW + LAYERS_CUDA_OLD,
         why="on 'cuda', layer 1 of a skip stack sends nothing back into layer 0's output"),
    dict(name="v22-functional-dh-n-zero-length-only-when-all", file="lnrnn/model/functional.py",
         old="    if dh_n is not None and lengths is not None and np.any(lengths == 0):",
         new="    if dh_n is not None and lengths is not None and np.all(lengths == 0):",
         tests=FUNC_NEW + FUNC_OLD,
         why="dL/dh_n of a row of length 0 (whose h_n is h0) reaches dh0 only when every row has length 0"),
    dict(name="v22-models-device-last-step-past-chunk", file="lnrnn/model/models.py",
         old="steps = arrays_cuda.to_device(np.clip(end, 0, Tc - 1).astype(np.int64))",
         new="steps = arrays_cuda.to_device(np.clip(end, 0, Tc).astype(np.int64))",
         tests=DEV_OLD,
         why="a row that ends after this chunk reads (and scatters into) step Tc, one past the chunk"),
    dict(name="v22-models-eval-bidirectional-last-swapped", file="lnrnn/model/models.py",
         old="h[rows] = np.where(self.reverse_columns, y[0, rows], h[rows])",
         new="h[rows] = np.where(self.reverse_columns, h[rows], y[0, rows])",
         tests=["tests/model/test_layers_models_bidirectional.py", "tests/model/test_values20_models.py"],
         why="an evaluation's last-step head of a bidirectional stack reads the forward columns at step 0 and the "
             "backward ones at the row's last step"),
    # ---- heads and optimizers on the device, the backend's namespace ----
    dict(name="v22-mdncuda-log-sigma2-no-lower-clamp", file="lnrnn/kernels/mdn_cuda.py",
         old="ls2 = min(max(yh[1 + 4 * M + k], -smax), smax)",
         new="ls2 = min(yh[1 + 4 * M + k], smax)",
         tests=MDN_NEW + MDN_OLD,
         why="the second log-sigma is clamped from above only: a very negative one overflows exp(-ls2)"),
    dict(name="v22-optimcuda-centred-without-mean-square", file="lnrnn/kernels/optim_cuda.py",
         old="                denom = denom - a * a",
         new="                denom = denom",
         tests=OPTIM_OLD,
         why="centred RMSProp on the device does not subtract the squared running mean"),
    dict(name="v22-backend-rnn-infer-is-forward", file="lnrnn/backend.py",
         old="rnn_infer=rnn.rnn_infer,",
         new="rnn_infer=rnn.rnn_forward,",
         tests=BACKEND_NEW + BACKEND_OLD,
         why="the namespace's rnn_infer is the forward (three results, the saved tuple kept)"),
    # ---- the heads' device losses: what a row scores and when a prediction counts ----
    dict(name="v22-lossescuda-xent-prediction-last-of-ties", file="lnrnn/kernels/losses_cuda.py",
         old="                if z > zmax:",
         new="                if z >= zmax:",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the device classifier predicts the last of tied logits (np.argmax, the host head: the first): a tie "
             "whose first class is the label counts as wrong"),
    dict(name="v22-lossescuda-ctc-best-path-last-of-ties", file="lnrnn/kernels/losses_cuda.py",
         old="                    if logp[t, r, c] > m:      # the first index of the maximum, as np.argmax",
         new="                    if logp[t, r, c] >= m:      # the first index of the maximum, as np.argmax",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the device CTC head's best path takes the last of tied classes: a tie of the blank and a label emits "
             "the label, and the character errors differ from the host's decode"),
    dict(name="v22-lossescuda-sqerr-masked-row-within", file="lnrnn/kernels/losses_cuda.py",
         old="            within = m != zero",
         new="            within = True",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="a row outside the loss (mask 0) counts as within the tolerance: the device accuracy counts it"),
    dict(name="v22-ctccuda-impossible-row-loss-inf", file="lnrnn/kernels/ctc_cuda.py",
         old="loss[b] = -lp if lp != ninf else zero",
         new="loss[b] = -lp",
         tests=CTC_OLD,
         why="a row no alignment can produce (labels longer than its steps allow) scores an infinite loss, not 0"),
    dict(name="v22-ctccuda-beta-reads-past-the-row", file="lnrnn/kernels/ctc_cuda.py",
         old="                    if s + 1 < Sb:",
         new="                    if s < Sb:",
         tests=CTC_OLD,
         why="beta's last extended label reads one position past the row's extended labels"),
    dict(name="v22-bnparts-all-rows-path-when-any-active", file="lnrnn/kernels/bn_parts.py",
         old="    if n == r1 - r0:  # every row active",
         new="    if n > 0:  # every row active",
         tests=BN_NEW + BN_OLD,
         why="a part's moments take the every-row path whenever a row is active: padded rows enter the statistics"),
]
