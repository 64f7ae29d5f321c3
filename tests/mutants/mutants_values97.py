"""Planted bugs, round 97 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins, a third pass on
lines no earlier round mutates: the BN-RNN's backward without the carry through Wh, its training dhw with the
centred instead of the normalized hw, dgx and dgh returned in each other's places; BatchNorm's forward writing
every lane's rows from row 0, its bias gradient taking the gain's sum, its backward sums over a row's first
padded step; the classifier's argmax never reaching the last class and the CTC head's edit distance read from the
table's previous row; the mixture density's softplus(-e) with the wrong sign and its backward reading the first
log-sigma for the second; CTC's alpha skipping from the blank and beta emitting its own class on the move
forward; SGD's velocity not decayed and plain RMSProp's alpha and 1 - alpha swapped; LayerNorm's backward sums
without the gain and layernorm_forward without its affine.

16 mutants. Against the existing targeted tests alone 14 were caught and 2 missed: SGD's velocity not decayed and
plain RMSProp's alpha swapped (the old optimizer tests run RMSProp with momentum and Adam, not SGD with momentum
or plain RMSProp). Measured on the most direct old files (the lists below); test_cuda_kernels, test_cuda_bn_graphs,
test_cuda_blocksizes and test_mdn were left off the lists as too slow under the simulator for a per-mutant run.
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values97_bn_cuda (BatchNorm's twin against the CPU twin and against the per-step definition, training's
gradients against the batch-statistics formula, inference's against sums over the running rows; the BN-RNN's
twin against the CPU twin over three steps, training and inference; lengths 3, 0, 2, B = 3 over 4 lanes,
H = 5 over tiles of 4), test_values97_heads_cuda (softmax_xent against -log softmax and softmax - onehot with
the last class as a label, a masked and a -1 row; ctc_rows against the Levenshtein recursion on best paths
built by hand; mdn against the CPU twin and lnrnn.reference.mdn_nll; CTC against the sum over every path
collapsed by hand, labels as long as T, a repeat, a skip, an empty label, and the CPU twin),
test_values97_optim_ln_cuda (SGD with momentum and plain RMSProp over two steps against their rules written
out, and the CPU twin; LayerNorm's forward and dx against the definition, the CPU twin). Dropped before the
catalogue as equivalent: the classifier's one-hot column taken from the raw label instead of the safe one (on a
row not scored its gradient is multiplied by 0 and its rows are written 0 anyway) and the mixture's pmax loop
starting one component late (a shift that cancels in the log-sum-exp).

    python tests/mutants/run.py --only 'v97-*'
"""
BNRNN = "lnrnn/kernels/bn_rnn_cuda.py"
BN = "lnrnn/kernels/batchnorm_cuda.py"
LOSSES = "lnrnn/kernels/losses_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
CTC = "lnrnn/kernels/ctc_cuda.py"
OPTIM = "lnrnn/kernels/optim_cuda.py"
LN = "lnrnn/kernels/layernorm_cuda.py"

# existing tests of these modules
BNRNN_OLD = ["tests/kernels/test_values79_bn_cells_cuda.py", "tests/kernels/test_values38_bn_cells_cuda.py",
             "tests/kernels/test_values22_bn_cells_cuda.py"]
BN_OLD = ["tests/kernels/test_values75_batchnorm_cuda.py"]
LOSSES_OLD = ["tests/kernels/test_values22_losses_cuda.py", "tests/kernels/test_values9_losses_cuda.py",
              "tests/kernels/test_values66_rows_cuda.py"]
MDN_OLD = ["tests/kernels/test_values22_mdn_cuda.py", "tests/kernels/test_values66_rows_cuda.py"]
CTC_OLD = ["tests/kernels/test_values75_ctc_cuda.py", "tests/kernels/test_ctc_cuda.py"]
OPTIM_OLD = ["tests/kernels/test_values75_optim_cuda.py", "tests/kernels/test_values30_optim_cuda.py"]
LN_OLD = ["tests/kernels/test_values30_layernorm_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BNRNN_NEW = ["tests/kernels/test_values97_bn_cuda.py"]
BN_NEW = ["tests/kernels/test_values97_bn_cuda.py"]
LOSSES_NEW = ["tests/kernels/test_values97_heads_cuda.py"]
MDN_NEW = ["tests/kernels/test_values97_heads_cuda.py"]
CTC_NEW = ["tests/kernels/test_values97_heads_cuda.py"]
OPTIM_NEW = ["tests/kernels/test_values97_optim_ln_cuda.py"]
LN_NEW = ["tests/kernels/test_values97_optim_ln_cuda.py"]

MUTANTS = [
    # ---- the BN-RNN's CUDA twin: the carry, the training dhw's rstd, the gains' gradients ----
    dict(name="v97-bnrnn-bwd-without-carry", file=BNRNN,
         old="                    d = (dy_t[b, j] + dhn[b, j]) * (one - h * h)",
         new="                    d = dy_t[b, j] * (one - h * h)",
         tests=BNRNN_NEW + BNRNN_OLD,
         why="a step's dL/d(tanh argument) without the gradient carried back from the next step through Wh: "
             "every step but the last loses its recurrent share"),
    dict(name="v97-bnrnn-train-dhw-xm-without-rstd", file=BNRNN,
         old="(da[r] - (s1 + xm[r] * r1 * s2) * inv)",
         new="(da[r] - (s1 + xm[r] * s2) * inv)",
         tests=BNRNN_NEW + BNRNN_OLD,
         why="training's dhw takes the centred hw instead of the normalized one in the variance's share: wrong "
             "wherever rstd is not 1"),
    dict(name="v97-bnrnn-dgx-dgh-swapped", file=BNRNN,
         old="own(plan.dWx), own(plan.dWh), db, dgx, dgh",
         new="own(plan.dWx), own(plan.dWh), db, dgh, dgx",
         tests=BNRNN_NEW + BNRNN_OLD,
         why="bn_rnn_backward returns the h side's gain gradient where the x side's belongs and back"),
    # ---- BatchNorm's CUDA twin: a lane's rows, the partial sums, the backward's active rows ----
    dict(name="v97-bn-fwd-rows-without-lane-offset", file=BN,
         old="            for b in range(cuda.threadIdx.y, x.shape[1], cuda.blockDim.y):\n"
             "                y[st, b, k]",
         new="            for b in range(0, x.shape[1], cuda.blockDim.y):\n"
             "                y[st, b, k]",
         tests=BN_NEW + BN_OLD,
         why="every lane writes y for the rows of lane 0: rows b with b % lanes != 0 are never written"),
    dict(name="v97-bn-bwd-pbias-from-s2", file=BN,
         old="        pbias[st, k] = s1",
         new="        pbias[st, k] = s2",
         tests=BN_NEW + BN_OLD,
         why="a step's bias gradient takes the gain's sum (dy times x hat) instead of the sum of dy"),
    dict(name="v97-bn-bwd-sums-one-row-long", file=BN,
         old="            if t < lengths[b]:\n                s1 += dy2[b, k]",
         new="            if t <= lengths[b]:\n                s1 += dy2[b, k]",
         tests=BN_NEW + BN_OLD,
         why="the backward's sums and count take a row at its first padded step too: dx of the active rows, "
             "dgain and dbias change wherever a row ends before T"),
    # ---- the heads' losses: the classifier's argmax, the CTC head's edit distance ----
    dict(name="v97-losses-xent-argmax-skips-last-class", file=LOSSES,
         old="            best = 0\n            for c in range(1, C):",
         new="            best = 0\n            for c in range(1, C - 1):",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the classifier's prediction never considers the last class: a row whose label is the last class "
             "and its largest logit counts as wrong"),
    dict(name="v97-losses-ctc-distance-other-row", file=LOSSES,
         old="            rows[r, 1] = float64(dist[r, Lb % 2, n])",
         new="            rows[r, 1] = float64(dist[r, (Lb + 1) % 2, n])",
         tests=LOSSES_NEW + LOSSES_OLD,
         why="the edit distance is read from the table's previous row (one label short), not the last one"),
    # ---- the mixture density twin: the end-of-stroke softplus, the second log-sigma's gradient ----
    dict(name="v97-mdn-softplus-neg-sign", file=MDN,
         old="            sp_neg = sp_pos - eh",
         new="            sp_neg = sp_pos + eh",
         tests=MDN_NEW + MDN_OLD,
         why="softplus(-e) taken as softplus(e) + e: the end-of-stroke term of the nll of a pen-up point"),
    dict(name="v97-mdn-bwd-sh2-reads-sh1", file=MDN,
         old="                sh1, sh2 = yh[1 + 3 * M + k], yh[1 + 4 * M + k]",
         new="                sh1, sh2 = yh[1 + 3 * M + k], yh[1 + 3 * M + k]",
         tests=MDN_NEW + MDN_OLD,
         why="the backward reads the first log-sigma for the second: the mu2 gradient's scale and the "
             "log-sigma2 gradient's clip window are the first coordinate's"),
    # ---- CTC's CUDA twin: alpha's skip, beta's emission ----
    dict(name="v97-ctc-alpha-skip-from-s-1", file=CTC,
         old="                        a = lse(a, alpha[b, t - 1, s - 2])",
         new="                        a = lse(a, alpha[b, t - 1, s - 1])",
         tests=CTC_NEW + CTC_OLD,
         why="the skip over a blank between two different labels adds alpha of the blank again, not of the "
             "label before it"),
    dict(name="v97-ctc-beta-next-emits-own-class", file=CTC,
         old="a = lse(a, beta[b, t + 1, s + 1] + logp[t + 1, b, ext(labels, b, s + 1)])",
         new="a = lse(a, beta[b, t + 1, s + 1] + logp[t + 1, b, ext(labels, b, s)])",
         tests=CTC_NEW + CTC_OLD,
         why="beta's move to the next position emits this position's class instead of the next one's"),
    # ---- the optimizers' CUDA twin: SGD's momentum, RMSProp's decay ----
    dict(name="v97-optim-sgd-velocity-not-decayed", file=OPTIM,
         old="                vi = v[i] * momentum",
         new="                vi = v[i]",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="SGD's velocity keeps all of the last one: v = v + g whatever the momentum (seen from step two)"),
    dict(name="v97-optim-rmsprop-alpha-args-swapped", file=OPTIM,
         old="dt(lr), dt(alpha), dt(1 - alpha), dt(eps))",
         new="dt(lr), dt(1 - alpha), dt(alpha), dt(eps))",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="plain RMSProp's decay and its complement passed in each other's places"),
    # ---- LayerNorm's CUDA twin: the backward's gain, the forward's affine ----
    dict(name="v97-ln-bwd-sums-without-gain", file=LN,
         old="            d = dy[r, j] * gain[j]",
         new="            d = dy[r, j]",
         tests=LN_NEW + LN_OLD,
         why="the backward's row sums take dy instead of dy times the gain: dx wrong unless every gain is 1"),
    dict(name="v97-ln-forward-affine-off", file=LN,
         old="    ln_rows(x, gain, bias, float(eps), True, y, mean, rstd)",
         new="    ln_rows(x, gain, bias, float(eps), False, y, mean, rstd)",
         tests=LN_NEW + LN_OLD,
         why="layernorm_forward returns the normalized rows without its gain and bias"),
]
