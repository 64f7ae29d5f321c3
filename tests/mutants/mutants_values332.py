"""Planted bugs, round 332 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CPU LSTM and LN-LSTM (lnrnn/kernels/lstm.py), eighteenth pass: the forward's step 1 multiplying
h0 by Wh again instead of h_0; a chunk writing its rows from row 0 of the batch instead of its own first row; a
narrow input's third column missing on the last gate unit; a wide input's LayerNorm variance over the first H of
its G features; the input and forget gates swapped in the forward; lstm_infer writing every step's output into
row 0; the cell LayerNorm's variance skipping its last unit; the backward's cell LayerNorm mean without the gain;
dL/di read from the output gate for the cell input; the g and o blocks of dL/da swapped; a narrow input's LN
backward reading the recurrent rstd for the input's and taking the recurrent mean over H instead of G; the plain
narrow input's dWx reading x of the chunk-local row; a wide input's LN backward weighting the recurrent sums
with gx instead of gh.

14 mutants. Against the old targeted files alone: 14 of 14 (the kernel's older value files compare every output and
gradient with the spec too). The new value tests catch every mutant on their own (checked with the old files taken off
the lists): test_values332_lstm (lstm_forward's and lstm_infer's y, hT, cT at T = 1, 2, 3, B = 7, H = 5, on 1, 2 and
3 chunks, I = 1, 3 (narrow) and 6 (wide), LN on and off, whole and in two pieces with (h, c) carried over, against
reference.lstm_forward; every gradient at B = 5, H = 9 against reference.lstm_backward with the gate clip off, at
the largest |dL/d(preactivation)| and at half of it; every gradient at T = 2, B = 3 against central differences of
the reference's loss with dcT given). Left out as equivalent: the LN backward's x_t Mc product read as Mc[i, k] for
Mc[k, i] (Mc = Wc Wc^T is symmetric); lstm_backward's pG[1, 1:] = 0 after the narrow LN's dgx dropped (the narrow LN
loop never adds into pgx, whose partials start at np.zeros); S = T if keep else 2 and c's buffer of T rows in
lstm_infer (more rows of buffer, the same values); _run_forward's ln = norm == NORM_LN made norm != NORM_NONE (the
BN code never reaches this kernel). Left out as flaky: loops over H or G shortened by one where the skipped element
is read from a fresh np.empty array (memory left by an identical earlier run may hold the right value), and m = B //
nch for the largest chunk's rows (the extra scratch row hides it in the forward; the backward's dWh block then
overruns its view). Left out as not cheap: the backward's dWh and x block bounds (nk == nb, nkx == nbx): at sizes
this small a block is the whole sequence (blas.dwh_blocks), so passing a block takes hundreds of rows. Left out as
unobservable: the prefetch lines (_fetch_row, plan_steps) only bring rows into the cache.

    python tests/mutants/run.py --only 'v332-*'
"""
LSTM = "lnrnn/kernels/lstm.py"

T_LSTM = "tests/kernels/test_values332_lstm.py::"
FWD = T_LSTM + "test_forward_and_infer_at_one_two_and_three_steps_against_the_spec"
SPEC = T_LSTM + "test_every_gradient_against_the_spec_with_the_clip_off_at_and_inside_its_bound"
FD = T_LSTM + "test_every_gradient_against_central_differences"
OLD_LSTM = ["tests/kernels/test_values147_lstm.py", "tests/kernels/test_values302_lstm.py",
            "tests/kernels/test_values168_lstm.py", "tests/kernels/test_values123_lstm.py"]

MUTANTS = [
    # ---- the forward: _forward_rows ----
    dict(name="v332-lstm-step-one-reads-h0", file=LSTM,
         old="        if t == 0:\n            rec_mul_fetch(h0[lo:hi], Whc, P, hw, plan[:npl])",
         new="        if t <= 1:\n            rec_mul_fetch(h0[lo:hi], Whc, P, hw, plan[:npl])",
         tests=[FWD, SPEC] + OLD_LSTM,
         why="the recurrent product at step 1 is h0 Wh again instead of h_0 Wh (the same at T = 1)"),
    dict(name="v332-lstm-forward-chunk-rows-from-zero", file=LSTM,
         old="            bb = lo + r\n            a = gates[ts, bb]  # (G,) activated gates",
         new="            bb = r\n            a = gates[ts, bb]  # (G,) activated gates",
         tests=[FWD, SPEC] + OLD_LSTM,
         why="every chunk but the first writes its rows over the first chunk's (invisible on one chunk)"),
    dict(name="v332-lstm-fold-third-column-short", file=LSTM,
         old="                for i in range(2, I):\n                    for j in range(G):",
         new="                for i in range(2, I):\n                    for j in range(G - 1):",
         tests=[FWD, SPEC] + OLD_LSTM,
         why="a narrow input's columns past the second miss the last gate unit (o's last) in x_t Wx (I = 3, 4)"),
    dict(name="v332-lstm-wide-ln-variance-over-h", file=LSTM,
         old="                v = zero\n                for j in range(G):\n                    v += xr[j] * xr[j]",
         new="                v = zero\n                for j in range(H):\n                    v += xr[j] * xr[j]",
         tests=[FWD, SPEC] + OLD_LSTM,
         why="a wide input's LayerNorm variance sums the first H of the G features (then divides by G)"),
    dict(name="v332-lstm-forward-input-forget-swapped", file=LSTM,
         old="            ai, af, ag, ao = a[:H], a[H:2 * H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks\n"
             "            cp = c0[bb]",
         new="            ai, af, ag, ao = a[H:2 * H], a[:H], a[2 * H:3 * H], a[3 * H:]  # 0-based loops over gate blocks\n"
             "            cp = c0[bb]",
         tests=[FWD, SPEC] + OLD_LSTM,
         why="the forward reads the gates in the order [f|i|g|o]: the input gate scales the old cell"),
    dict(name="v332-lstm-infer-outputs-into-row-zero", file=LSTM,
         old="            yr = y[t, bb]",
         new="            yr = y[ts, bb]",
         tests=[FWD] + OLD_LSTM,
         why="lstm_infer (one-row buffers, ts = 0) writes every step's h_t into y[0]: y[1:] left unwritten and "
             "the next step's product reads a stale h_{t-1} (training, where ts = t, unchanged)"),
    dict(name="v332-lstm-cell-ln-variance-skips-last", file=LSTM,
         old="                v = zero\n                for k in range(H):\n                    u = ct[k] - mc",
         new="                v = zero\n                for k in range(H - 1):\n                    u = ct[k] - mc",
         tests=[FWD, SPEC] + OLD_LSTM,
         why="the cell LayerNorm's variance leaves out the last unit (still divided by H)"),
    # ---- the backward: _backward_rows ----
    dict(name="v332-lstm-cell-ln-backward-mean-without-gain", file=LSTM,
         old="                    u = d * gc[k]\n",
         new="                    u = d\n",
         tests=[SPEC, FD] + OLD_LSTM,
         why="the cell LayerNorm backward's mean term sums dL/d(chat) without the gain gc"),
    dict(name="v332-lstm-backward-cell-input-read-from-o", file=LSTM,
         old="                g = ag[k]\n",
         new="                g = ao[k]\n",
         tests=[SPEC, FD] + OLD_LSTM,
         why="the backward takes the output gate for the cell input g: dL/di, dL/dg wrong"),
    dict(name="v332-lstm-backward-g-o-blocks-swapped", file=LSTM,
         old="            dai, daf, dag, dao = da[:H], da[H:2 * H], da[2 * H:3 * H], da[3 * H:]",
         new="            dai, daf, dag, dao = da[:H], da[H:2 * H], da[3 * H:], da[2 * H:3 * H]",
         tests=[SPEC, FD] + OLD_LSTM,
         why="dL/d(preactivation) of the g and o blocks land in each other's places"),
    dict(name="v332-lstm-fold-ln-backward-input-rstd-is-recurrent", file=LSTM,
         old="                rx = rstd[0, t, bb]\n                for i in range(I):",
         new="                rx = rstd[1, t, bb]\n                for i in range(I):",
         tests=[SPEC, FD] + OLD_LSTM,
         why="a narrow input's LN backward scales x_t by the recurrent LayerNorm's rstd instead of the input's"),
    dict(name="v332-lstm-fold-ln-backward-recurrent-mean-over-h", file=LSTM,
         old="                    pc[i] = s\n                s1h *= invG",
         new="                    pc[i] = s\n                s1h *= invH",
         tests=[SPEC, FD] + OLD_LSTM,
         why="a narrow input's recurrent LayerNorm backward takes the mean of dL/dhhat gh over H, not G"),
    dict(name="v332-lstm-fold-plain-dwx-chunk-local-row", file=LSTM,
         old="input_row_grads(dx[t, bb], pWx, dhw, x[t, bb], Wx)",
         new="input_row_grads(dx[t, bb], pWx, dhw, x[t, r], Wx)",
         tests=[SPEC, FD] + OLD_LSTM,
         why="the plain LSTM's narrow input adds x of the chunk-local row r into dWx (wrong past the first chunk)"),
    dict(name="v332-lstm-wide-ln-backward-recurrent-sums-with-gx", file=LSTM,
         old="                    pgx[j] += d * xh[j]\n                    pgh[j] += d * hh[j]\n                    u = d * gh[j]",
         new="                    pgx[j] += d * xh[j]\n                    pgh[j] += d * hh[j]\n                    u = d * gx[j]",
         tests=[SPEC, FD] + OLD_LSTM,
         why="a wide input's recurrent LayerNorm backward sums dL/da gx (the input's gain) for its mean terms"),
]
