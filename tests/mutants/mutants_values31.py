"""Planted bugs, round 31 (format: tests/mutants/mutants.py): single-line slips in the CPU modules with the fewest
mutants per line so far: the NumPy spec (reference.py: the window's text mask and its kappa gradient, the BN running
mean's momentum, the window layer's BN sides and their running rows, the RNN's record of dL/dh_t, the mixture
density NLL's correlation term), the synthesis window kernel (window.py: BN inference past the running rows, the
gradient of kappa's increment, the cell LayerNorm's divisor), the BN-LSTM (bn_lstm.py: the cell's running row
clamped by the h side's count, the backward's column chunks by blocks instead of parts, its BN means over every
row), the synchronized BN cells (bn_sync.py: the h side's running row past Ts, the BN-RNN backward's local row
count, the inference backward's gate clip, the cell gain's sums), BatchNorm (batchnorm.py: dgain assigned per
step, an empty step's mean) and the LSTM (lstm.py: dbh, the folded LN bias, a narrow input's LN dWx sums).
The spec's mutants list only tests that judge it without a kernel (central differences of its own forward,
formulas by hand, PyTorch): a kernel-vs-spec test would copy the spec's bug into its expectation.

21 mutants. Against the existing targeted tests alone (run before the new tests were listed) 16 were caught and
5 missed: the window reading one character past each text (forward and backward read the same mask, so the
spec's central differences agree), the window layer's h side folding its BN statistics into the x side's
running rows (the outputs in training use batch statistics, and no test looked at the spec's rows by side),
the MDN NLL with the correlation term's sign flipped (only kernel-vs-spec tests read mdn_nll's values), the
window kernel's BN inference wrapping to row t mod Ts (every window test had Ts = T + 1 rows), and the
synchronized BN-LSTM's inference backward dropping the gate clip (no test clipped the synced cell against the
spec). The new value tests catch every mutant (a rerun of the five and of the two BatchNorm mutants, which the
old tests caught too): test_values31_reference (one window step against the equations in PyTorch, forward and
autograd backward, with a code past each ended text that no text holds; the window layer's running rows of the
x side, the h side and the cell against each side's batch statistics by hand, and its inference gates and cell
from each side's own rows; mdn_nll against torch.distributions' mixture of correlated bivariate normals and
Bernoulli, correlations near +-0.9), test_values31_window (BN with Ts = 3 < T = 7, training and inference,
kernel against spec: outputs, running rows, every gradient), test_values31_bn_sync (the synced BN-LSTM with a
clip that bites, training and inference, against the clipped spec), test_values31_batchnorm (a masked batch
whose last four steps have no active row, T = 11 over the kernel's chunks of steps: those steps by the rule
written out, their running rows untouched, zero dx, the rest against the spec, float64 and float32).

No mutant written for this round was dropped. Considered and not written, as equivalent: zeroing the carried
dL/dc of padded rows from the first padded step on or one step later (bn_lstm.py, bn_sync.py: the BN backward
already gives a padded row zero dL/dc_t, so its carry is zero either way); the window forward's row of
c_{t-1}, kappa_{t-1} as t % S2 - 1 (negative indexing gives the same row) or with one row of each without keep
(each element is read before it is overwritten); bn_sync's shift rows of another step (any shift gives the same
statistics up to rounding) and its counts truncated instead of rounded (sums of exact integers);
reference.window_phi_at, which no module of lnrnn calls (the stop rule's tests read it as their expectation).

    python tests/mutants/run.py --only 'v31-*'
"""
REF = "lnrnn/reference.py"
WIN = "lnrnn/kernels/window.py"
BNL = "lnrnn/kernels/bn_lstm.py"
SYNC = "lnrnn/kernels/bn_sync.py"
BNPY = "lnrnn/kernels/batchnorm.py"
LSTM = "lnrnn/kernels/lstm.py"

# existing tests that judge the spec without a kernel (central differences of its own forward, formulas by hand)
REF_OLD = ["tests/test_values18_reference.py", "tests/test_values11_reference.py",
           "tests/kernels/test_window.py::test_reference_backward_matches_central_differences",
           "tests/kernels/test_bn_cells.py::test_gradcheck[reference-small-lstm-True]",
           "tests/kernels/test_bn_cells.py::test_gradcheck[reference-small-rnn-True]",
           "tests/kernels/test_bn_cells.py::test_masked_gradcheck[reference-mixed-lstm-True]",
           "tests/kernels/test_bn_cells.py::test_masked_gradcheck[reference-mixed-rnn-True]",
           "tests/kernels/test_batchnorm.py::test_gradcheck[True-reference]",
           "tests/kernels/test_batchnorm.py::test_masked_gradcheck[reference]",
           "tests/kernels/test_kernels.py::test_lstm_reference_gradcheck",
           "tests/kernels/test_kernels.py::test_rnn_reference_gradcheck"]
DIAG_OLD = ["tests/test_diagnostics.py::test_grad_h_equals_central_differences"]
# existing tests of the kernels
WIN_OLD = ["tests/kernels/test_window.py::test_kernel_matches_reference",
           "tests/kernels/test_window.py::test_inference_equals_training_forward_bit_for_bit",
           "tests/kernels/test_values11_window.py"]
BNL_OLD = ["tests/kernels/test_values22_bn_cells.py", "tests/kernels/test_values18_bn_lstm.py",
           "tests/kernels/test_bn_cells.py::test_kernel_matches_reference",
           "tests/kernels/test_bn_cells.py::test_masked_kernel_matches_reference",
           "tests/kernels/test_bn_cells.py::test_inference_reuses_last_running_row",
           "tests/kernels/test_bn_cells.py::test_padded_rows_are_outside_everything"]
SYNC_OLD = ["tests/kernels/test_values18_bn_sync.py", "tests/kernels/test_values24_bn_sync.py",
            "tests/kernels/test_values11_bn_sync.py"]
BN_OLD = ["tests/kernels/test_batchnorm.py"]
LSTM_OLD = ["tests/kernels/test_kernels.py::test_lstm_kernel_matches_reference", "tests/kernels/test_values11_lstm.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
REF_NEW = ["tests/test_values31_reference.py"]
WIN_NEW = ["tests/kernels/test_values31_window.py"]
SYNC_NEW = ["tests/kernels/test_values31_bn_sync.py"]
BN_NEW = ["tests/kernels/test_values31_batchnorm.py"]

MUTANTS = [
    # ---- reference.py: the spec ----
    dict(name="v31-ref-window-text-one-character-long", file=REF,
         old="    on = (np.arange(U)[None, :] < np.asarray(ulen)[:, None])",
         new="    on = (np.arange(U)[None, :] <= np.asarray(ulen)[:, None])",
         tests=REF_NEW + REF_OLD,
         why="the window reads one character past each text (u = ulen + 1 gets phi and w a share of its code); "
             "forward and backward read the same mask, so the spec's own central differences agree"),
    dict(name="v31-ref-bn-running-mean-momentum-swapped", file=REF,
         old="        rm[t] = (1 - momentum) * rm[t] + momentum * mean\n",
         new="        rm[t] = momentum * rm[t] + (1 - momentum) * mean\n",
         tests=REF_NEW + REF_OLD,
         why="the running mean keeps a tenth of its old value and takes nine tenths of the batch's"),
    dict(name="v31-ref-window-bn-h-side-on-x-running-rows", file=REF,
         old='            s["mh"], s["sh"] = _bn_stats(hw, rmh, rvh, t, training, momentum, eps, active[t])',
         new='            s["mh"], s["sh"] = _bn_stats(hw, rmx, rvx, t, training, momentum, eps, active[t])',
         tests=REF_NEW + REF_OLD,
         why="the window layer's h side folds its batch statistics into the x side's running rows (and reads "
             "them in inference): rmh, rvh never move, rmx, rvx move twice a step"),
    dict(name="v31-ref-rnn-record-direct-gradient-only", file=REF,
         old="            record.append(dy[t] + dh_next)\n",
         new="            record.append(dy[t])\n",
         tests=DIAG_OLD + REF_OLD,
         why="the RNN's record holds dL/dh_t from the layer above only, not the total through later steps"),
    dict(name="v31-ref-mdn-correlation-sign", file=REF,
         old="    q = (dx / s1) ** 2 + (dy / s2) ** 2 - 2 * rho * dx * dy / (s1 * s2)",
         new="    q = (dx / s1) ** 2 + (dy / s2) ** 2 + 2 * rho * dx * dy / (s1 * s2)",
         tests=REF_NEW + REF_OLD,
         why="the spec's bivariate normal has the correlation term's sign flipped: the density of -rho"),
    dict(name="v31-ref-window-kappa-gradient-sign", file=REF,
         old='    dkap = dkappa - 2.0 * s["beta"] * (ae * s["d"]).sum(axis=2)',
         new='    dkap = dkappa + 2.0 * s["beta"] * (ae * s["d"]).sum(axis=2)',
         tests=REF_NEW + REF_OLD,
         why="dL/dkappa of the window with the sign of d(exp(-beta (kappa - u)^2))/dkappa flipped"),
    # ---- kernels/window.py ----
    dict(name="v31-window-bn-inference-row-wraps", file=WIN,
         old="        row = min(t, Ts - 1)\n        for j in range(F):\n            mean[j] = rm[row, j]",
         new="        row = t % Ts\n        for j in range(F):\n            mean[j] = rm[row, j]",
         tests=WIN_NEW + WIN_OLD,
         why="BN inference past the running rows wraps to row t mod Ts instead of staying on the last row"),
    dict(name="v31-window-kappa-increment-chain-dropped", file=WIN,
         old="                dpr[2 * K + j] = dk[j] * wn[2 * K + j]",
         new="                dpr[2 * K + j] = dk[j]",
         tests=WIN_NEW + WIN_OLD,
         why="dL/dk_hat = dL/dkappa without the factor exp(k_hat) of kappa's increment"),
    dict(name="v31-window-ln-cell-variance-over-G", file=WIN,
         old="                sc = one / np.sqrt(vc * invH + eps)",
         new="                sc = one / np.sqrt(vc * invG + eps)",
         tests=WIN_NEW + WIN_OLD,
         why="the cell's LayerNorm divides its sum of squares by G = 4H, not H"),
    # ---- kernels/bn_lstm.py ----
    dict(name="v31-bnlstm-cell-row-from-h-side-count", file=BNL,
         old="        th, tc_ = min(t, Tsh - 1), min(t, Tsc - 1)",
         new="        th, tc_ = min(t, Tsh - 1), min(t, Tsh - 1)",
         tests=BNL_OLD,
         why="the cell's running row is clamped to the h side's row count"),
    dict(name="v31-bnlstm-gain-columns-by-blocks", file=BNL,
         old="    k0, k1 = chunk_bounds(G, n, q)  # the columns",
         new="    k0, k1 = chunk_bounds(G, nblk, q)  # the columns",
         tests=BNL_OLD,
         why="the backward's parts add dgh (and the fold's dWx, dgx, db) by column chunks of nblk, not n: with "
             "fewer parts than blocks the last chunks' columns are never added"),
    dict(name="v31-bnlstm-backward-counts-every-row", file=BNL,
         old="        nt = active_rows(lengths, t)\n        for b in range(r0, r1):",
         new="        nt = B\n        for b in range(r0, r1):",
         tests=BNL_OLD,
         why="the backward's BN means divide by the batch, not by the rows active at step t"),
    # ---- kernels/bn_sync.py ----
    dict(name="v31-sync-h-running-row-past-Ts", file=SYNC,
         old="_lstm_gates(bh, counts[t], sh, hw[t], xn[t], cprev, gh, t < Tsh,",
         new="_lstm_gates(bh, counts[t], sh, hw[t], xn[t], cprev, gh, t <= Tsh,",
         tests=SYNC_NEW + SYNC_OLD,
         why="the synced BN-LSTM folds step Ts into the h side's last running row too"),
    dict(name="v31-sync-rnn-backward-local-rows", file=SYNC,
         old="        n = int(counts[t])\n        _h_back",
         new="        n = B\n        _h_back",
         tests=SYNC_NEW + SYNC_OLD,
         why="the synced BN-RNN's backward means divide by the rank's rows, not the group's active count"),
    dict(name="v31-sync-inference-backward-drops-clip", file=SYNC,
         old="        return fused_lstm.bn_lstm_backward(dy, saved[:-1], x, h0, c0, Wx, Wh, gx, gh, gc, clip=clip)",
         new="        return fused_lstm.bn_lstm_backward(dy, saved[:-1], x, h0, c0, Wx, Wh, gx, gh, gc)",
         tests=SYNC_NEW + SYNC_OLD,
         why="the synced BN-LSTM's inference backward (the fused kernel's) does not pass Graves's clip on"),
    dict(name="v31-sync-cell-gain-from-bias-sums", file=SYNC,
         old="        dgc[j] += sums[H + j]",
         new="        dgc[j] += sums[j]",
         tests=SYNC_NEW + SYNC_OLD,
         why="the synced BN-LSTM's cell gain gradient sums dL/dy instead of dL/dy * chat"),
    # ---- kernels/batchnorm.py ----
    dict(name="v31-bn-dgain-assigned-per-step", file=BNPY,
         old="        dg[k] += s2_[k]",
         new="        dg[k] = s2_[k]",
         tests=BN_NEW + BN_OLD,
         why="dgain is assigned at each step, not accumulated: a chunk of several steps keeps its last step's"),
    dict(name="v31-bn-empty-step-mean-from-running", file=BNPY,
         old="            m_[k] = dt(0)\n            r_[k] = one / np.sqrt(eps_)",
         new="            m_[k] = rm[k]\n            r_[k] = one / np.sqrt(eps_)",
         tests=BN_NEW + BN_OLD,
         why="a step with no active row normalizes about the running mean, where the rule says mean 0"),
    # ---- kernels/lstm.py ----
    dict(name="v31-lstm-dbh-returns-dgh", file=LSTM,
         old="    return dx, dh0, dc0, dWx, dWh, db, dgx, db.copy(), dgh, db.copy(), dgc, dbc",
         new="    return dx, dh0, dc0, dWx, dWh, db, dgx, db.copy(), dgh, dgh.copy(), dgc, dbc",
         tests=LSTM_OLD,
         why="the LN-LSTM returns dgh as dbh (dL/dbh is dL/db: bh adds to the preactivation as b does)"),
    dict(name="v31-lstm-ln-folded-bias-drops-bh", file=LSTM,
         old="        bs[j] = b[j] + bx[j] + bh[j] if ln else b[j]",
         new="        bs[j] = b[j] + bx[j] if ln else b[j]",
         tests=LSTM_OLD,
         why="the LN-LSTM's folded bias leaves out the h side's LayerNorm bias"),
    dict(name="v31-lstm-narrow-ln-a-sums-take-s2", file=LSTM,
         old="                    pAB[i, I] += xw[i] * s1x",
         new="                    pAB[i, I] += xw[i] * s2x",
         tests=LSTM_OLD,
         why="a narrow input's LN dWx: A_i sums xw_i s2 instead of xw_i s1 (the mean term of the x side)"),
]
