"""Planted bugs, round 302 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CPU LSTM (lnrnn/kernels/lstm.py), the RNN (lnrnn/kernels/rnn.py) and the shared row passes
(lnrnn/kernels/cpu/rows.py), sixteenth pass: a narrow input's x_t Wc taking the last row of Wc for the first; the
LN-LSTM's closed-form input variance keeping only its last term; a wide input's hhat scaled by the input's rstd;
the cell LayerNorm's mean over H - 1 units; the plain LSTM handing back db as dL/dbx; a wide input's LN backward
reading the recurrent rstd for the input's, adding x's xhat into dgh and scaling s1x twice and s2x never; the
RNN's narrow input missing the last unit and its tanh left a sigmoid on the last unit; rows_transposed one column
too wide; ln_row_stats's variance skipping the first element; ln_row_backward's second sum over dxhat squared;
sigmoid_row's float32 scale read from exp(r)'s half of the scratch.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values302_lstm (lstm_infer's y, hT, cT bit for
bit lstm_forward's and 1, 2, 3 chunks the same bits, at I = 1, 2, FOLD_MAX_I, FOLD_MAX_I + 1 with LN on and off,
against reference.lstm_forward; every gradient against reference.lstm_backward with the clip off, at the largest
|dL/da|, just under and just past it; every gradient against central differences with dcT given and not),
test_values302_rnn (the same for rnn_forward, rnn_infer and rnn_backward against reference.rnn_*), and
test_values302_rows (widths 1, 7, 17 against W[j0:j1].T, the mean and biased variance, reference.layernorm_*,
dz W^T and x^T dz, and 1 / (1 + exp(-a)) in float64). Left out as equivalent: rnn_backward's
fold = 0 < I <= FOLD_MAX_I made < (at I = FOLD_MAX_I the wide path's matmul and matmul_tn give the same dx and
dWx to rounding); lstm's c buffer of min(T, 1) rows in lstm_infer (c_t and c_{t-1} in one row: each unit reads
its old value before writing its new one); the clip_bound around lstm_backward's clip dropped (a clip of inf
clips nothing either way). Left out as unobservable: the prefetch lines (_fetch_row, plan_steps' regions) only
bring rows into the cache. Left out as flaky: loops shortened by one over rows written into np.empty buffers
(the leftover memory decides the value), and rnn's saved ahat kept one step long in rnn_forward (reads past the
buffer, without bounds checks).

    python tests/mutants/run.py --only 'v302-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"
ROWS = "lnrnn/kernels/cpu/rows.py"

T_LSTM = "tests/kernels/test_values302_lstm.py::"
T_RNN = "tests/kernels/test_values302_rnn.py::"
T_ROWS = "tests/kernels/test_values302_rows.py::"
L_FWD = T_LSTM + "test_infer_and_every_chunking_give_the_forwards_bits_and_the_spec"
L_CLIP = T_LSTM + "test_every_gradient_with_the_clip_at_just_under_and_just_past_its_bound"
L_FD = T_LSTM + "test_every_gradient_against_central_differences"
R_FWD = T_RNN + "test_infer_and_every_chunking_give_the_forwards_bits_and_the_spec"
R_GRAD = T_RNN + "test_every_gradient_against_the_spec_and_central_differences"
OLD_LSTM = ["tests/kernels/test_values147_lstm.py", "tests/kernels/test_values123_lstm.py",
            "tests/kernels/test_values11_lstm.py"]
OLD_RNN = ["tests/kernels/test_values147_rnn.py", "tests/kernels/test_values123_rnn.py"]
OLD_ROWS = ["tests/kernels/test_values268_rows.py", "tests/kernels/test_values155_layernorm_rows.py",
            "tests/kernels/test_values155_sigmoid_rows.py"]

MUTANTS = [
    # ---- lnrnn/kernels/lstm.py: the forward ----
    dict(name="v302-lstm-fold-first-row-is-last", file=LSTM,
         old="    wc0 = Wc[0] if fold else bs ",
         new="    wc0 = Wc[I - 1] if fold else bs ",
         tests=[L_FWD] + OLD_LSTM,
         why="a narrow input's x_t[0] multiplies the last row of Wx (Wc) instead of the first (same at I = 1)"),
    dict(name="v302-lstm-fold-ln-variance-last-term-only", file=LSTM,
         old="                            u += Rx[k, i] * xt[i]\n                        v += u * u",
         new="                            u += Rx[k, i] * xt[i]\n                        v = u * u",
         tests=[L_FWD] + OLD_LSTM,
         why="the LN-LSTM's narrow-input variance ||Rx x_t||^2 keeps only its last square (same at I = 1)"),
    dict(name="v302-lstm-wide-ln-hhat-scaled-by-input-rstd", file=LSTM,
         old="                        u = xr[j] * sx\n                        v = hr[j] * sh",
         new="                        u = xr[j] * sx\n                        v = hr[j] * sx",
         tests=[L_FWD] + OLD_LSTM,
         why="with a wide input the LN-LSTM normalizes h_{t-1} Wh by x_t Wx's 1/std"),
    dict(name="v302-lstm-cell-ln-mean-over-h-minus-1", file=LSTM,
         old="                for k in range(H):  # not summed in the loop above",
         new="                for k in range(H - 1):  # not summed in the loop above",
         tests=[L_FWD] + OLD_LSTM,
         why="the cell LayerNorm's mean leaves out the last unit (still divided by H)"),
    # ---- lnrnn/kernels/lstm.py: the backward ----
    dict(name="v302-lstm-plain-dbx-is-db", file=LSTM,
         old="return dx, dh0, dc0, dWx, dWh, db, zG, zG.copy(), zG.copy(), zG.copy(), zH, zH.copy()",
         new="return dx, dh0, dc0, dWx, dWh, db, zG, db.copy(), zG.copy(), zG.copy(), zH, zH.copy()",
         tests=[L_CLIP, L_FD] + OLD_LSTM,
         why="the plain LSTM returns db as dL/dbx, a parameter it never reads (its gradient is 0)"),
    dict(name="v302-lstm-wide-ln-backward-rx-is-rh", file=LSTM,
         old="                rx = rstd[0, t, bb]\n                xh = xp[t, bb]",
         new="                rx = rstd[1, t, bb]\n                xh = xp[t, bb]",
         tests=[L_CLIP, L_FD] + OLD_LSTM,
         why="a wide input's LN backward scales dL/d(x_t Wx) by h's 1/std instead of x's"),
    dict(name="v302-lstm-wide-ln-dgh-reads-xhat", file=LSTM,
         old="                    pgx[j] += d * xh[j]\n                    pgh[j] += d * hh[j]",
         new="                    pgx[j] += d * xh[j]\n                    pgh[j] += d * xh[j]",
         tests=[L_CLIP, L_FD] + OLD_LSTM,
         why="a wide input's dL/dgh sums dL/da times x's xhat instead of h's"),
    dict(name="v302-lstm-wide-ln-s2x-not-averaged", file=LSTM,
         old="                s1x *= invG\n                s2x *= invG\n                rh = rstd[1, t, bb]\n                dxr",
         new="                s1x *= invG\n                s1x *= invG\n                rh = rstd[1, t, bb]\n                dxr",
         tests=[L_CLIP, L_FD] + OLD_LSTM,
         why="a wide input's LN backward divides s1x by G twice and leaves s2x a sum, not a mean"),
    # ---- lnrnn/kernels/rnn.py ----
    dict(name="v302-rnn-fold-last-unit-no-input", file=RNN,
         old="                for i in range(I):\n                    for k in range(H):",
         new="                for i in range(I):\n                    for k in range(H - 1):",
         tests=[R_FWD, R_GRAD] + OLD_RNN,
         why="with a narrow input the RNN's last unit never gets x_t Wx"),
    dict(name="v302-rnn-tanh-left-sigmoid-on-last-unit", file=RNN,
         old="            for k in range(H):\n                y[t, bb, k] = two * y[t, bb, k] - one",
         new="            for k in range(H - 1):\n                y[t, bb, k] = two * y[t, bb, k] - one",
         tests=[R_FWD, R_GRAD] + OLD_RNN,
         why="tanh(z) = 2 sigmoid(2z) - 1 stops one unit short: the last unit outputs sigmoid(2z)"),
    # ---- lnrnn/kernels/cpu/rows.py ----
    dict(name="v302-rows-transposed-one-too-wide", file=ROWS,
         old="    w = j1 - j0\n",
         new="    w = j1 - j0 + 1\n",
         tests=[T_ROWS + "test_rows_transposed_is_the_transposed_slice"] + OLD_ROWS,
         why="rows_transposed(W, j0, j1) takes rows j0..j1 inclusive: one column too many"),
    dict(name="v302-rows-ln-variance-skips-first", file=ROWS,
         old="    v = zero\n    for j in range(F):\n        d = x[j] - m",
         new="    v = zero\n    for j in range(1, F):\n        d = x[j] - m",
         tests=[T_ROWS + "test_ln_row_stats_and_forward_against_the_definition"] + OLD_ROWS,
         why="the row LayerNorm's variance leaves out the first element's square (same at width 1)"),
    dict(name="v302-rows-ln-backward-s2-of-dxhat-squared", file=ROWS,
         old="        s2 += dxhat[j] * xhat[j]",
         new="        s2 += dxhat[j] * dxhat[j]",
         tests=[T_ROWS + "test_ln_row_backward_against_the_reference"] + OLD_ROWS,
         why="the row LayerNorm backward's mean(dxhat * xhat) is taken of dxhat squared (same at width 1)"),
    dict(name="v302-rows-sigmoid-scale-from-exp-half", file=ROWS,
         old="    scale = kb[:n].view(np.float32)",
         new="    scale = kb[n:2 * n].view(np.float32)",
         tests=[T_ROWS + "test_sigmoid_row_against_the_float64_formula"] + OLD_ROWS,
         why="float32 sigmoid_row multiplies exp(r) by itself instead of by 2^k"),
]
