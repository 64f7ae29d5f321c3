"""Planted bugs, round 83 (format: tests/mutants/mutants.py): single-line slips in the NumPy spec, the public API and
the gradient judge, on lines no earlier round mutates: LayerNorm's variance over F - 1, its backward without the
mean's share, the LN-LSTM's h_t from the raw cell (LN(c_t) computed and unused), lstm_backward's record holding the
direct dL/dh_t only, Graves's derivative clip bounding from above only; per-step BatchNorm's statistics over the
padded rows too, its dgain multiplied by the gain, the BN-LSTM's dc_{t-1} without the carry from c_{t+1}; the soft
window's kappa not accumulated and its dL/dbeta without the minus; CTC's paths allowed to start on the blank only
and its beta recursion reading the emission a step early; a Run's block rows not defaulted when its settings hold
None or 0, fit()'s refusal listing the options it fixes itself; rel_error's denominator |a + n| and the
fourth-order difference quotient with a plus.

16 mutants. Against the existing targeted tests alone 9 were caught and 7 missed: the record of the total dL/dh_t
(no old spec test passed a record), the one-sided clip (no old spec test clipped), both CTC slips (the old spec
tests judge LayerNorm, BatchNorm, the window and the mixture density; the CTC spec is judged only through its
kernel's tests, which compare against it and were not counted), the block rows of a run whose settings hold None
(no old test builds such a run), the options fit() lists (no old test passes fit() an option it does not take) and
rel_error on elements of opposite signs (the old definition test has none). The new value tests catch every mutant
on their own (checked with the old tests taken off the lists), in about 1.5 s together:
test_values83_reference_forward (the LN-LSTM of Ba et al. 2016, LN on the cell, the masked BN-LSTM of Cooijmans et
al. 2016 with its running rows, momentum, unbiased variance and rows past Ts, training and inference, and two steps
of Graves's 2013 window, each against a per-step loop written from the papers' equations),
test_values83_reference_backward (the LN and plain LSTM and RNN, masked BatchNorm, the training BN-LSTM and one
window step against central differences of the spec's forward in float64; record against differences of the loss of
steps t..T-1 run from h_t; the clip on a one-step, one-row problem where dL/db is the preactivation gradient, so db
= clip(dL/db) and dWx = x clip(dL/db)^T), test_values83_reference_ctc (loss against the sum over all C^T paths
collapsed by hand, rows of their own lengths, one that cannot fit; gradient against central differences of the
dloss-weighted loss), test_values83_api (block rows, describe, fit()'s option list against TrainConfig's fields,
the entry points' defaults, sample_run's refusals) and test_values83_gradcheck (rel_error against its definition,
numeric_grad of a cubic, and the verdict on a right gradient, pass, and on one with a transposed matrix or one
element off by 1e-4, fail). Dropped as equivalent: StepPredictions.probability indexing with -1 for padded steps
(np.where puts NaN there whatever was read), sample_idx's "size <= k" as "< k" (at size k the draw is every index,
sorted: the same set; only the random stream moves on), and "0.0 < clip < inf" as "<= inf" (clipping to +-inf is no
clip). Also left out, to keep the round at 16: the BN-LSTM's gains swapped and the RNN's dh_{t-1} through Wh
untransposed (both caught by the new forward and backward tests when planted by hand).

    python tests/mutants/run.py --only 'v83-*'
"""
REF = "lnrnn/reference.py"
API = "lnrnn/api.py"
GRAD = "lnrnn/gradcheck.py"

# existing tests of these modules
REF_OLD = ["tests/test_values11_reference.py", "tests/test_values18_reference.py", "tests/test_values31_reference.py"]
API_OLD = ["tests/test_values_api.py", "tests/test_values27_api.py", "tests/test_values77_api.py"]
GRAD_OLD = ["tests/test_values_gradcheck.py", "tests/test_values9_gradcheck.py", "tests/test_values27_gradcheck.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
FWD_NEW = ["tests/test_values83_reference_forward.py"]
BWD_NEW = ["tests/test_values83_reference_backward.py"]
CTC_NEW = ["tests/test_values83_reference_ctc.py"]
API_NEW = ["tests/test_values83_api.py"]
GRAD_NEW = ["tests/test_values83_gradcheck.py"]

MUTANTS = [
    # ---- LayerNorm and the LN-LSTM (Ba et al. 2016, LN on the cell) ----
    dict(name="v83-ln-unbiased-variance", file=REF,
         old="var = ((x - mean[..., None]) ** 2).mean(axis=-1)  # biased",
         new="var = ((x - mean[..., None]) ** 2).sum(axis=-1) / (x.shape[-1] - 1)  # biased",
         tests=FWD_NEW + REF_OLD,
         why="LayerNorm divides the squared deviations by F - 1: every LN output is scaled by sqrt((F-1)/F)"),
    dict(name="v83-ln-backward-without-the-mean-term", file=REF,
         old="dx = rstd[..., None] * (dxhat - dxhat.mean(-1, keepdims=True) - xhat",
         new="dx = rstd[..., None] * (dxhat - xhat",
         tests=BWD_NEW + REF_OLD,
         why="LayerNorm's dx drops the mean's share (-mean of dxhat): the LN cells' dx, dh0 and weight gradients "
             "are off"),
    dict(name="v83-ln-lstm-h-from-the-raw-cell", file=REF,
         old="        tc = np.tanh(cn)\n        h_new = o * tc",
         new="        tc = np.tanh(c_new)\n        h_new = o * tc",
         tests=FWD_NEW + REF_OLD,
         why="the LN-LSTM's h_t = o tanh(c_t): LN(c_t; gc, bc) is computed and then not used"),
    dict(name="v83-lstm-record-the-direct-gradient-only", file=REF,
         old="            record.append(dh)\n        do = dh * s[\"tc\"]\n        dcn = dh * s[\"o\"] * (1.0 - s",
         new="            record.append(dy[t])\n        do = dh * s[\"tc\"]\n        dcn = dh * s[\"o\"] * (1.0 - s",
         tests=BWD_NEW + REF_OLD,
         why="lstm_backward's record gets dL/dh_t from the loss at step t only, not the total through later steps"),
    dict(name="v83-clip-one-sided", file=REF,
         old="return np.clip(da, -clip, clip)",
         new="return np.minimum(da, clip)",
         tests=BWD_NEW + REF_OLD,
         why="Graves's derivative clip bounds dL/d(preactivation) from above only: large negative ones pass"),
    dict(name="v83-bn-stats-over-padded-rows", file=REF,
         old="xa = x_t if active is None else x_t[active]",
         new="xa = x_t",
         tests=FWD_NEW + REF_OLD,
         why="a step's BatchNorm statistics (and its running row) count the padded rows of a masked batch"),
    dict(name="v83-bn-dgain-times-gain", file=REF,
         old="return dx, (dy_t * xhat).sum(axis=0), dy_t.sum(axis=0)",
         new="return dx, (dxhat * xhat).sum(axis=0), dy_t.sum(axis=0)",
         tests=BWD_NEW + REF_OLD,
         why="BatchNorm's dgain sums dxhat xhat = dy gain xhat: every gain gradient is multiplied by its gain"),
    dict(name="v83-bn-lstm-dc-next-without-the-carry", file=REF,
         old="dc_next = dc * f\n    return dx, dh_next, dc_next, dWx",
         new="dc_next = dc_bn * f\n    return dx, dh_next, dc_next, dWx",
         tests=BWD_NEW + REF_OLD,
         why="the BN-LSTM passes back only the cell gradient from h_t, dropping what came from c_{t+1}"),
    # ---- Graves's soft window ----
    dict(name="v83-window-kappa-not-accumulated", file=REF,
         old="kappa = kappa_prev + ek",
         new="kappa = ek",
         tests=FWD_NEW + REF_OLD,
         why="kappa_t = exp(k_hat) instead of kappa_{t-1} + exp(k_hat): the window cannot move along the text"),
    dict(name="v83-window-dbeta-sign", file=REF,
         old='dbeta = -(ae * s["d"] ** 2).sum(axis=2)',
         new='dbeta = (ae * s["d"] ** 2).sum(axis=2)',
         tests=BWD_NEW + REF_OLD,
         why="the window's dL/dbeta loses the minus of d/dbeta exp(-beta d^2)"),
    # ---- CTC ----
    dict(name="v83-ctc-start-on-the-blank-only", file=REF,
         old="alpha[t, s] = e if s < 2 else -np.inf",
         new="alpha[t, s] = e if s < 1 else -np.inf",
         tests=CTC_NEW + REF_OLD,
         why="CTC's paths may start on the leading blank only, not on the first label: p misses every path that "
             "emits the first label at step 0"),
    dict(name="v83-ctc-beta-emission-a-step-early", file=REF,
         old="beta[t + 1, k] + logp[t + 1, b, ext[k]]",
         new="beta[t + 1, k] + logp[t, b, ext[k]]",
         tests=CTC_NEW + REF_OLD,
         why="CTC's beta recursion reads step t's emission for the move into step t+1: the posteriors, so the "
             "gradient, are wrong"),
    # ---- the public API ----
    dict(name="v83-api-block-rows-none-not-defaulted", file=API,
         old='return int(self.train_config.get("block_rows") or BLOCK_ROWS)',
         new='return int(self.train_config.get("block_rows", BLOCK_ROWS))',
         tests=API_NEW + API_OLD,
         why="a run whose settings hold block_rows None (or 0) fails with a TypeError instead of getting "
             "config.BLOCK_ROWS"),
    dict(name="v83-api-fit-lists-the-fixed-options", file=API,
         old='known = ", ".join(sorted(fields - set(FIT_FIXED)))',
         new='known = ", ".join(sorted(fields))',
         tests=API_NEW + API_OLD,
         why="fit()'s refusal of an unknown option lists task, data_dir, out, ... among the options it takes"),
    # ---- gradcheck ----
    dict(name="v83-gradcheck-magnitude-of-the-sum", file=GRAD,
         old="mag = np.abs(a) + np.abs(n)",
         new="mag = np.abs(a + n)",
         tests=GRAD_NEW + GRAD_OLD,
         why="rel_error's denominator is |a + n|: an element whose analytic and numeric gradients have opposite "
             "signs is divided by ~0 (or judged on the floor of the others)"),
    dict(name="v83-gradcheck-fourth-order-sign", file=GRAD,
         old="out[n] = (8 * (fp - fm) - (fp2 - fm2)) / (12 * eps)",
         new="out[n] = (8 * (fp - fm) + (fp2 - fm2)) / (12 * eps)",
         tests=GRAD_NEW + GRAD_OLD,
         why="the fourth-order quotient adds the 2 eps difference: every numeric derivative is 5/3 too large and "
             "a correct backward is judged wrong"),
]
