"""Planted bugs, round 105 (format: tests/mutants/mutants.py): single-line slips in the NumPy spec
(lnrnn/reference.py) and the CPU CTC kernel (lnrnn/kernels/ctc.py), on lines no earlier round mutates, on
branches no compiled kernel takes: the plain LSTM started from h0 for its cell state, the LN-LSTM's dWh
taken from the x side's LayerNorm backward; per-step BatchNorm's variance over the padded rows, its running
table written one row past its end, inference's backward without rstd; the mixture density's pen terms
swapped, the soft window's alpha and beta blocks swapped; the spec's CTC beta skipping between repeats; the
kernel's softmax maximum started at 0, every row reading the padded label width, a row with p = 0 not
skipped, and in the log-space fallback every skip allowed, emissions a step behind and the gradient
started from log y.

14 mutants. Against the existing targeted tests alone the 8 spec mutants were measured (the six
test_values*_reference files): 7 were caught and 1 missed, inference's BatchNorm backward without rstd (no
old test differentiates the population-statistics forward). The 6 CTC kernel mutants were not measured
against the old tests: the first one's run over the six old CTC files was cut short after several minutes.
The new value tests catch all 14 on their own (checked with the old files taken off the lists):
test_values105_reference (a plain LSTM from its own h0 and c0 step by step; the LN-LSTM's gradients by
central differences in float64; per-step BatchNorm over a padded batch, the active rows' statistics and
running rows for t < Ts only, with more steps than the table; inference's backward by central differences
and, with lengths, by the closed form; Graves's mixture density and soft window term by term; the spec's
CTC against the sum over every alignment: repeats, an empty label, the minimum length, p = 0) and
test_values105_ctc (the kernel against the sum over every alignment taken in log space: logits 900 below
0, labels shorter than the padded width padded with a real class, a row that cannot fit among rows that
can, rows that fit only through classes 400 nats down and run in log space).
Dropped: clip_gate_grads clipping at clip = 0 (every backward at the default catches it; one too many for
the round); the spec's `if S > 1` at beta's last step as `S > 2` (S is odd: equivalent); the log-space
forward's pa[2] from CTC_BLANK instead of ext[0] (the same class); _row_forward's empty row returning
logspace True (the log-space forward returns the same 0 or -inf); K = CTC_ROW_CHUNKS chunks for fewer rows
(each row still runs once); the steps past a row's end left unzeroed (np.empty may hold zeros: no
dependable test).

    python tests/mutants/run.py --only 'v105-*'
"""
REF = "lnrnn/reference.py"
CTC = "lnrnn/kernels/ctc.py"

# existing tests of these modules
REF_OLD = ["tests/test_values11_reference.py", "tests/test_values18_reference.py", "tests/test_values31_reference.py",
           "tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py",
           "tests/test_values83_reference_ctc.py"]
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/kernels/test_values35_ctc.py",
           "tests/kernels/test_values48_ctc.py", "tests/kernels/test_values62_ctc.py",
           "tests/kernels/test_values87_ctc.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
REF_NEW = ["tests/test_values105_reference.py"]
CTC_NEW = ["tests/kernels/test_values105_ctc.py"]

MUTANTS = [
    # ---- the spec: a cell's initial state, the LN-LSTM's weight gradients ----
    dict(name="v105-ref-lstm-c0-from-h0", file=REF,
         old="    h, c = h0, c0\n    ys, cache = [], []",
         new="    h, c = h0, h0\n    ys, cache = [], []",
         tests=REF_NEW + REF_OLD,
         why="lstm_forward starts its cell state from h0: a given c0 is never read"),
    dict(name="v105-ref-lstm-ln-dWh-from-the-x-side", file=REF,
         old='        grads["Wh"] += s["h"].T @ dhw',
         new='        grads["Wh"] += s["h"].T @ dxw',
         tests=REF_NEW + REF_OLD,
         why="the LN-LSTM's dWh takes the x side's LayerNorm backward (the same as dhw only without norm)"),
    # ---- the spec: BatchNorm with per-step statistics, masks, running averages, inference ----
    dict(name="v105-ref-bn-variance-over-padded-rows", file=REF,
         old="    var = ((xa - mean) ** 2).mean(axis=0)  # biased",
         new="    var = ((x_t - mean) ** 2).mean(axis=0)  # biased",
         tests=REF_NEW + REF_OLD,
         why="a step's BN variance counts the padded rows too (around the active rows' mean)"),
    dict(name="v105-ref-bn-running-row-past-the-table", file=REF,
         old="    if t < Ts:\n",
         new="    if t <= Ts:\n",
         tests=REF_NEW + REF_OLD,
         why="training writes running row Ts at step Ts: an IndexError when a batch has more steps than the table"),
    dict(name="v105-ref-bn-inference-backward-without-rstd", file=REF,
         old="        dx = rstd * dxhat\n",
         new="        dx = dxhat\n",
         tests=REF_NEW + REF_OLD,
         why="with population statistics dL/dx is gain rstd dL/dy: the rstd factor is dropped"),
    # ---- the spec: Graves 2013's mixture density and soft window ----
    dict(name="v105-ref-mdn-pen-terms-swapped", file=REF,
         old="(pen * np.log(e) + (1 - pen) * np.log(1 - e))",
         new="(pen * np.log(1 - e) + (1 - pen) * np.log(e))",
         tests=REF_NEW + REF_OLD,
         why="the end-of-stroke Bernoulli scores a pen lift with log(1 - e) and a pen down with log e"),
    dict(name="v105-ref-window-alpha-beta-swapped", file=REF,
         old="    alpha, beta, ek = np.exp(p[:, :K]), np.exp(p[:, K:2 * K]), np.exp(p[:, 2 * K:])",
         new="    alpha, beta, ek = np.exp(p[:, K:2 * K]), np.exp(p[:, :K]), np.exp(p[:, 2 * K:])",
         tests=REF_NEW + REF_OLD,
         why="the window reads its widths beta from the first K outputs and its weights alpha from the second"),
    # ---- the spec's CTC: beta's skip between repeats ----
    dict(name="v105-ref-ctc-beta-skips-between-repeats", file=REF,
         old="if s + 2 < S and ext[s + 2] != CTC_BLANK and ext[s + 2] != ext[s]:",
         new="if s + 2 < S and ext[s + 2] != CTC_BLANK:",
         tests=REF_NEW + REF_OLD,
         why="the spec's beta skips the blank between two equal labels ('a a' read through a path 'a a')"),
    # ---- the CTC kernel: softmax, the rows' label lengths, p = 0, the log-space fallback ----
    dict(name="v105-ctc-softmax-max-from-zero", file=CTC,
         old="    m = float(x[0])\n",
         new="    m = 0.0\n",
         tests=CTC_NEW + CTC_OLD,
         why="the step's softmax starts its running max at 0, not at x[0]: logits far below 0 underflow to z = 0"),
    dict(name="v105-ctc-row-uses-padded-label-width", file=CTC,
         old="            Tb, Sb = input_lengths[b], 2 * label_lengths[b] + 1",
         new="            Tb, Sb = input_lengths[b], S",
         tests=CTC_NEW + CTC_OLD,
         why="every row reads the batch's widest label (its padding as labels), not its own label length"),
    dict(name="v105-ctc-infeasible-row-not-skipped", file=CTC,
         old="                        grad[t, b, c] = 0.0\n                continue\n",
         new="                        grad[t, b, c] = 0.0\n",
         tests=CTC_NEW + CTC_OLD,
         why="a row with p = 0 goes on after zeroing its gradient: loss inf and a backward over log 0"),
    dict(name="v105-ctc-log-skip-allowed-everywhere", file=CTC,
         old="        skl[s] = -np.inf\n",
         new="        skl[s] = 0.0\n",
         tests=CTC_NEW + CTC_OLD,
         why="in log space every position may skip two back (over a label, and between repeats): "
             "only rows that fall back to log space see it"),
    dict(name="v105-ctc-log-emission-from-the-step-before", file=CTC,
         old="            em[s] = lp[t, ext[s]]\n",
         new="            em[s] = lp[t - 1, ext[s]]\n",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space forward emits step t-1's log-probabilities at step t"),
    dict(name="v105-ctc-log-gradient-from-log-probabilities", file=CTC,
         old="            d[t, c] = _exp(lp[t, c])\n",
         new="            d[t, c] = lp[t, c]\n",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward starts each step's gradient from log y, not y"),
]
