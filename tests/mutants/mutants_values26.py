"""Planted bugs, round 26 (format: tests/mutants/mutants.py): single-line slips in the modules with few mutants
per line so far: the CTC kernel's rescaled recursion (the gradient's label loop, the extended label of a row
on a chunk's reused scratch, the skip rule the forward reads, a row whose every path underflowed taken for an
impossible one) and its log-space fallback (where its paths may start and end, beta's start and emissions),
the CUDA twin (alpha's first step, entering the first label, dloss on the softmax term, the skip term's
emission in beta), decoding (collapse across a blank, best path without lengths, prefix beam search's repeat
rule and width), lnrnn read's order of several --input files, and the CPU cells' initial states in batch
chunks past the first (c0 in the LSTM's forward and backward, h0 in dWh's first block, h0 in the RNN).

21 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 18 were caught
and 3 missed: a row whose paths all fell below 1e-300 (a label class 800 nats under the blank) reported
impossible instead of run in log space, the log-space forward not letting a one-label row's paths start on
its label, and lnrnn read reading its --input files in name order (the existing test's files were given in
name order). The new value tests catch every mutant: test_values26_ctc (tiny rows against a brute-force
log-space sum over all C^T paths, loss and gradient: repeats, a distinct label after a repeat, one-label rows,
several rows a chunk with short rows after long ones; rows fitting only through a class 800 nats down, which
must run in log space; a one-label row in log space by hand, loss 800 - log 2), test_values26_decode (best
path without lengths, collapse across blanks, beam widths by hand and against the exact label probabilities),
test_values26_read (the command with a stand-in run and reader: files given out of name order, lines of an
.npz in its order, --beam and --batch-size passed on, --out). None was dropped as equivalent.

    python tests/mutants/run.py --only 'v26-*'

    python tests/mutants/run.py --only 'v26-*'
"""

CTC = "lnrnn/kernels/ctc.py"
CTC_CUDA = "lnrnn/kernels/ctc_cuda.py"
DECODE = "lnrnn/model/decode.py"
READ = "lnrnn/commands/read.py"
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

# existing tests of these modules
CTC_OLD = ["tests/kernels/test_ctc.py"]
CTC_CUDA_OLD = ["tests/kernels/test_ctc_cuda.py", "tests/kernels/test_values22_losses_cuda.py"]
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values20_decode.py", "tests/model/test_beam.py",
              "tests/model/test_values9_beam.py", "tests/kernels/test_ctc.py"]
READ_OLD = ["tests/commands/test_reading.py", "tests/commands/test_values_read.py",
            "tests/commands/test_values16_commands.py"]
CELLS_OLD = ["tests/kernels/test_kernels.py", "tests/kernels/test_values11_lstm.py", "tests/kernels/test_races.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values26_ctc.py"]
CTC_CUDA_NEW = []
DECODE_NEW = ["tests/model/test_values26_decode.py"]
READ_NEW = ["tests/commands/test_values26_read.py"]
CELLS_NEW = []

MUTANTS = [
    # ---- CTC, CPU: the rescaled recursion ----
    dict(name="v26-ctc-grad-last-label-dropped", file=CTC,
         old="    for i in range(i0, n, 2):                    # ... subtracted from its class",
         new="    for i in range(i0, n - 1, 2):                # ... subtracted from its class",
         tests=CTC_NEW + CTC_OLD,
         why="the gradient's label loop stops one short: where a step's band ends on a label, that label's "
             "posterior is not subtracted from its class"),
    dict(name="v26-ctc-classes-last-blank-unset", file=CTC,
         old="    for s in range(Sb):\n        ext[s] = CTC_BLANK if s % 2 == 0",
         new="    for s in range(Sb - 1):\n        ext[s] = CTC_BLANK if s % 2 == 0",
         tests=CTC_NEW + CTC_OLD,
         why="the extended label is made for all positions but the final blank: its class and blank flag "
             "are whatever the chunk's previous row (or fresh scratch) left there"),
    dict(name="v26-ctc-alpha-skip-rule-of-wrong-position", file=CTC,
         old="        inc = ap[i + 2] + ap[i + 1] + ap[i] * skm[i]",
         new="        inc = ap[i + 2] + ap[i + 1] + ap[i] * skm[i + 2]",
         tests=CTC_NEW + CTC_OLD,
         why="the forward's skip into position s reads the skip rule of position s+2: a repeated label is "
             "skipped into, a distinct one after a repeat is not"),
    dict(name="v26-ctc-underflow-taken-for-impossible", file=CTC,
         old="        if c == 0.0 and ldrop == -np.inf:",
         new="        if c == 0.0:",
         tests=CTC_NEW + CTC_OLD,
         why="a row whose every path underflowed after some were dropped is reported impossible (loss 0, "
             "gradient 0) instead of falling back to the exact log-space recursion"),
    # ---- CTC, CPU: the log-space fallback ----
    dict(name="v26-ctc-log-end-on-final-blank-only", file=CTC,
         old="    return _lse3(pa[Sb + 1], pa[Sb], ninf, low)",
         new="    return _lse3(pa[Sb + 1], ninf, ninf, low)",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space forward's p counts only the paths ending on the final blank, not those ending "
             "on the last label"),
    dict(name="v26-ctc-log-start-on-blank-only", file=CTC,
         old="    if Sb > 1:\n        pa[3] = lp[0, ext[1]]",
         new="    if Sb > 3:\n        pa[3] = lp[0, ext[1]]",
         tests=CTC_NEW + CTC_OLD,
         why="in log space a one-label row's paths may not start on its label: only those starting with a "
             "blank are counted"),
    dict(name="v26-ctc-log-beta-ends-on-last-position", file=CTC,
         old="        bn[s] = dt(0.0) if s >= Sb - 2 else ninf",
         new="        bn[s] = dt(0.0) if s >= Sb - 1 else ninf",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward's beta starts on the final blank only: paths ending on the last label "
             "get no posterior"),
    dict(name="v26-ctc-log-beta-emission-of-step-t", file=CTC,
         old="                bt[s] = bn[s] + lp[t + 1, ext[s]]",
         new="                bt[s] = bn[s] + lp[t, ext[s]]",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space beta[t] weighs beta[t+1] by step t's emissions instead of step t+1's"),
    # ---- CTC, CUDA twin (simulator) ----
    dict(name="v26-ctccuda-start-on-blank-only", file=CTC_CUDA,
         old="alpha[b, 0, s] = logp[0, b, ext(labels, b, s)] if s < 2 else ninf",
         new="alpha[b, 0, s] = logp[0, b, ext(labels, b, s)] if s < 1 else ninf",
         tests=CTC_CUDA_NEW + CTC_CUDA_OLD,
         why="alpha[0] has only the leading blank: paths starting on the first label are not counted"),
    dict(name="v26-ctccuda-stay-or-advance-from-position-one", file=CTC_CUDA,
         old="                    if s >= 1:\n                        a = lse(a, alpha[b, t - 1, s - 1])",
         new="                    if s >= 2:\n                        a = lse(a, alpha[b, t - 1, s - 1])",
         tests=CTC_CUDA_NEW + CTC_CUDA_OLD,
         why="position 1 (the first label) is not entered from the leading blank: a path must start on it"),
    dict(name="v26-ctccuda-softmax-term-ignores-dloss", file=CTC_CUDA,
         old="                    d[t, b, c] = g * math.exp(logp[t, b, c])",
         new="                    d[t, b, c] = math.exp(logp[t, b, c])",
         tests=CTC_CUDA_NEW + CTC_CUDA_OLD,
         why="the gradient's softmax term is not scaled by dloss[b] (the posteriors are): right only where "
             "dloss is 1"),
    dict(name="v26-ctccuda-beta-skip-emission-of-position-s", file=CTC_CUDA,
         old="beta[b, t + 1, s + 2] + logp[t + 1, b, ext(labels, b, s + 2)]",
         new="beta[b, t + 1, s + 2] + logp[t + 1, b, ext(labels, b, s)]",
         tests=CTC_CUDA_NEW + CTC_CUDA_OLD,
         why="the backward's skip term weighs beta[t+1, s+2] by the emission of s's label instead of s+2's"),
    # ---- decoding ----
    dict(name="v26-decode-collapse-blank-keeps-previous", file=DECODE,
         old="        prev = k\n",
         new="        prev = k if k != CTC_BLANK else prev\n",
         tests=DECODE_NEW + DECODE_OLD,
         why="collapse does not let a blank separate repeats: 'a _ a' reads as 'a'"),
    dict(name="v26-decode-best-path-default-lengths-short", file=DECODE,
         old="    lengths = np.full(B, T) if lengths is None else np.asarray(lengths)",
         new="    lengths = np.full(B, T - 1) if lengths is None else np.asarray(lengths)",
         tests=DECODE_NEW + DECODE_OLD,
         why="best path without lengths drops each row's last step"),
    dict(name="v26-decode-beam-repeat-collapses-from-blank-ending", file=DECODE,
         old="                    add(prefix, ninf, pnb + lp[c])\n",
         new="                    add(prefix, ninf, tot + lp[c])\n",
         tests=DECODE_NEW + DECODE_OLD,
         why="prefix beam search merges a repeat after a blank into the prefix ('a _ a' counted as 'a' too)"),
    dict(name="v26-decode-beam-keeps-one-extra", file=DECODE,
         old="        beams = dict(ranked[:width])",
         new="        beams = dict(ranked[:width + 1])",
         tests=DECODE_NEW + DECODE_OLD,
         why="prefix beam search keeps width + 1 prefixes a step (and returns as many)"),
    # ---- lnrnn read ----
    dict(name="v26-read-inputs-in-name-order", file=READ,
         old="    lines = [line for f in inputs for line in load_lines(f)]",
         new="    lines = [line for f in sorted(inputs) for line in load_lines(f)]",
         tests=READ_NEW + READ_OLD,
         why="the --input files are read in name order, not in the order given"),
    # ---- CPU cells: a chunk's rows of the initial state ----
    dict(name="v26-lstm-c0-of-the-chunk-row", file=LSTM,
         old="            cp = c0[bb] if t == 0 else c[tp, bb]",
         new="            cp = c0[r] if t == 0 else c[tp, bb]",
         tests=CELLS_NEW + CELLS_OLD,
         why="the forward's first step reads c0 at the row's index within its chunk: every chunk past the "
             "first starts from the first chunk's cell states"),
    dict(name="v26-lstm-backward-c0-of-the-chunk-row", file=LSTM,
         old="            cp = c0[bb] if t == 0 else c[t - 1, bb]",
         new="            cp = c0[r] if t == 0 else c[t - 1, bb]",
         tests=CELLS_NEW + CELLS_OLD,
         why="the backward's forget-gate gradient at step 0 reads c0 at the row's index within its chunk"),
    dict(name="v26-lstm-backward-h0-of-first-chunk", file=LSTM,
         old="        copy_rows(Hb[nk * Bc:(nk + 1) * Bc], h0[lo:hi] if t == 0 else y[t - 1, lo:hi])",
         new="        copy_rows(Hb[nk * Bc:(nk + 1) * Bc], h0[:hi - lo] if t == 0 else y[t - 1, lo:hi])",
         tests=CELLS_NEW + CELLS_OLD,
         why="dWh's step-0 share multiplies every chunk's dL/d(h Wh) by the first chunk's h0 rows"),
    dict(name="v26-rnn-h0-of-first-chunk", file=RNN,
         old="            rec_mul_fetch(h0[lo:hi], Wh, P, a, plan[:npl])",
         new="            rec_mul_fetch(h0[:hi - lo], Wh, P, a, plan[:npl])",
         tests=CELLS_NEW + CELLS_OLD,
         why="the RNN's first step multiplies the first chunk's h0 rows for every chunk"),
]
