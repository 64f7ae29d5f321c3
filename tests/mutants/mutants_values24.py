"""Planted bugs, round 24 (format: tests/mutants/mutants.py): single-line slips in the modules with the fewest
mutants per line, on the paths users run: the CTC prefix beam search (an extension kept as blank-ending, a
repeat collapsing from the total, the step's classes pruned by the worst kept prefix, the row's answer picked the
wrong way round), the cell registry's adapters (an LN cell bias read from its gain, the BN-LSTM's x and h
statistics or backward gains swapped, a masked final c read from tc), the layers and stacks (gradients written
instead of added, a bidirectional reversal over whole rows, a masked backward run unmasked), the synthesis
network's window layer (the stop rule's h from the top layer, an LN bias or the cell norm's gradients swapped),
repack's dtype check, the window op's CPU kernel (BN_t's mean over every row, LN's h side on the x side's
variance, dL/d(b_hat)'s sign, the window's share of dL/dh, dL/df on c_t), the fused BN cells and their parts (the
cell bias, the candidate's derivative, the cell norm's two sums, the h side's centring, dL/dgh, the running
means' momentum, padded rows' dL/d(input) unwritten) and synchronized BatchNorm (the x side's running row past
Ts, the h side's backward gain, a rank's dgx and db taken from the group's sums).

30 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 26 were caught
and 4 missed: the BN-LSTM adapter's x and h running statistics swapped, a masked BN-LSTM layer's final c read
from tc, a layer's backward writing its gradients instead of adding into them, and a synced rank's dgx and db
summed after the group's reduce. The new value tests catch every mutant they are listed for:
test_values24_layers (a masked BN-LSTM layer with moved parameters and statistics against reference.py in
training and inference: outputs, each row's own final h and c, running statistics, every gradient; masked LN-LSTM,
LSTM and RNN layers' gradients against the reference on dL/dy zeroed at padded steps; a second backward adding
into the first's gradients; a ragged bidirectional stack against two one-direction layers on each row's own
steps reversed; repack refusing two dtypes), test_values24_window (the window layer, LN and BN in training and
inference, against reference.window_lstm_forward/backward with every parameter moved), test_values24_bn_sync
(two ranks holding the same rows, reduce doubling every buffer, against the spec on the doubled batch: outputs,
running statistics, each rank's half of the parameter gradients). Three mutants considered for this round were
not kept, being equivalent: the fused BN-LSTM zeroing the carried dL/dc from a row's second padded step on
(t > lengths[b]): at its first padded step the carry from step t+1 is zero already and BatchNorm's backward gives
the padded row zero dL/dc, so the carry it passes back is zero either way; bn_parts.block_packs packing the
larger blocks' product for B // nblk + 1 rows instead of -(-B // nblk): when nblk divides B every block takes the
smaller pack, otherwise the two counts are equal; and the beam search not refreshing its pruning bound after an
offer: the bound only skips candidates the heap would refuse anyway, so only the speed changes.

    python tests/mutants/run.py --only 'v24-*'
"""

BEAM = "lnrnn/model/beam.py"
CELLS = "lnrnn/model/cells.py"
LAYERS = "lnrnn/model/layers.py"
WINDOW = "lnrnn/model/window.py"
FLAT = "lnrnn/model/flat.py"
WKERNEL = "lnrnn/kernels/window.py"
BN_LSTM = "lnrnn/kernels/bn_lstm.py"
BN_RNN = "lnrnn/kernels/bn_rnn.py"
BN_PARTS = "lnrnn/kernels/bn_parts.py"
BN_SYNC = "lnrnn/kernels/bn_sync.py"

# existing tests of these modules
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values9_beam.py"]
CELLS_OLD = ["tests/model/test_layers.py", "tests/model/test_functional.py", "tests/model/test_values_bn.py",
             "tests/model/test_values13_cells.py"]
LAYERS_OLD = ["tests/model/test_layers.py","tests/model/test_layers_models_bidirectional.py",
              "tests/model/test_values9_layers.py",
              "tests/model/test_values13_layers.py"]
WINDOW_OLD = ["tests/model/test_synthesis.py", "tests/model/test_values_window.py",
              "tests/model/test_values10_window.py", "tests/model/test_values14_window.py",
              "tests/model/test_values16_window.py"]
FLAT_OLD = ["tests/model/test_values_flat.py"]
WKERNEL_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values11_window.py"]
BN_OLD = ["tests/kernels/test_bn_cells.py", "tests/kernels/test_values11_bn_cells.py",
          "tests/kernels/test_values18_bn_lstm.py", "tests/kernels/test_values22_bn_cells.py"]
SYNC_OLD = ["tests/kernels/test_values11_bn_sync.py", "tests/kernels/test_values18_bn_sync.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LAYERS_NEW = ["tests/model/test_values24_layers.py"]
WINDOW_NEW = ["tests/model/test_values24_window.py"]
SYNC_NEW = ["tests/kernels/test_values24_bn_sync.py"]

MUTANTS = [
    # ---- the CTC prefix beam search ----
    dict(name="v24-beam-extension-counted-as-blank-ending", file=BEAM,
         old="                _offer(heap, keys, e, NINF, e, n, c, -1, tree)",
         new="                _offer(heap, keys, e, e, NINF, n, c, -1, tree)",
         tests=BEAM_OLD,
         why="a prefix extended by a label is kept as ending in a blank (pb, pnb swapped): its next repeat "
             "of the label extends it instead of collapsing"),
    dict(name="v24-beam-repeat-collapse-reads-tot", file=BEAM,
         old="                nbl = bval[2, k] + lp[c]",
         new="                nbl = bval[0, k] + lp[c]",
         tests=BEAM_OLD,
         why="a kept prefix's repeated last label collapses from its total probability, blank-ending paths "
             "included (only the non-blank-ending ones collapse)"),
    dict(name="v24-beam-class-bound-from-worst-kept", file=BEAM,
         old="        tot0 = bval[0, 0]",
         new="        tot0 = bval[0, nb - 1]",
         tests=BEAM_OLD,
         why="the step's label classes are pruned by the least probable kept prefix instead of the most "
             "probable: extensions of the best prefix that belong in the beam are never offered"),
    dict(name="v24-beam-best-is-the-worst", file=BEAM,
         old="_worse(tots[best], parent[nodes[best]], label[nodes[best]], tots[k], parent[n], label[n], tree)",
         new="_worse(tots[k], parent[n], label[n], tots[best], parent[nodes[best]], label[nodes[best]], tree)",
         tests=BEAM_OLD,
         why="beam_search_array's pick of a row's answer compares the candidates the wrong way round: the "
             "least probable kept prefix is returned"),
    # ---- the cell registry's adapters ----
    dict(name="v24-cells-ln-lstm-cell-bias-reads-gain", file=CELLS,
         old='    gc, bc = (p["gc"], p["bc"]) if ln else (c["1H"], c["0H"])',
         new='    gc, bc = (p["gc"], p["gc"]) if ln else (c["1H"], c["0H"])',
         tests=LAYERS_NEW + CELLS_OLD,
         why="the LN-LSTM's forward adapter passes the cell norm's gain as its bias too"),
    dict(name="v24-cells-bn-lstm-x-h-statistics-swapped", file=CELLS,
         old='b["rmx"], b["rvx"], b["rmh"], b["rvh"], b["rmc"], b["rvc"],',
         new='b["rmh"], b["rvh"], b["rmx"], b["rvx"], b["rmc"], b["rvc"],',
         tests=LAYERS_NEW + CELLS_OLD,
         why="the BN-LSTM adapter hands the h side's running statistics to the x side and back: training "
             "records each side's in the other's buffers, inference normalizes each side by the other's"),
    dict(name="v24-cells-bn-lstm-backward-gains-swapped", file=CELLS,
         old='kern.backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],',
         new='kern.backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gh"], p["gx"], p["gc"],',
         tests=LAYERS_NEW + CELLS_OLD,
         why="the BN-LSTM's backward adapter swaps the x and h sides' gains (equal at initialization)"),
    dict(name="v24-cells-bn-lstm-saved-c-reads-tc", file=CELLS,
         old="BN_LSTM_SAVED_Y, BN_LSTM_SAVED_C = 11, 7 ",
         new="BN_LSTM_SAVED_Y, BN_LSTM_SAVED_C = 11, 10 ",
         tests=LAYERS_NEW + CELLS_OLD,
         why="a masked BN-LSTM's final c of each row is read from tc (tanh of the normalized cell), same shape"),
    # ---- layers and stacks ----
    dict(name="v24-layers-gradients-overwritten", file=LAYERS,
         old="            g[n] += d\n",
         new="            g[n][...] = d\n",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a layer's backward writes its parameter gradients instead of adding into them: chunks of "
             "truncated BPTT (and stacks sharing a gradient buffer) keep only the last backward's"),
    dict(name="v24-layers-bidir-reversal-ignores-lengths", file=LAYERS,
         old="            return lambda a: reverse_valid(a, lengths)",
         new="            return lambda a: reverse_valid(a, None)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional stack's backward direction reverses whole rows, padding included: a short row's "
             "backward direction starts on its padding"),
    dict(name="v24-layers-backward-forgets-lengths", file=LAYERS,
         old="        self._saved = (x, state, saved, p, lengths) if keep else None",
         new="        self._saved = (x, state, saved, p, None) if keep else None",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a masked layer's backward runs unmasked: dL/dy at padded steps reaches the gradients"),
    # ---- the synthesis network's layers ----
    dict(name="v24-window-step-end-reads-top-layer", file=WINDOW,
         old="        h1 = np.asarray(y_t[:, :self.H], np.float64)",
         new="        h1 = np.asarray(y_t[:, -self.H:], np.float64)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the stop rule's phi past the text is computed from the top layer's h instead of layer 1's "
             "(the same with one layer)"),
    dict(name="v24-window-ln-x-bias-reads-h-bias", file=WINDOW,
         old='p.get("bx", c["0G"])',
         new='p.get("bh", c["0G"])',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the LN window layer passes its h side's LayerNorm bias for the x side's (both zero at "
             "initialization)"),
    dict(name="v24-window-gc-bc-gradients-swapped", file=WINDOW,
         old='"gc", "bc", "Wp", "bp")',
         new='"bc", "gc", "Wp", "bp")',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer adds the cell norm's gain gradient into its bias and back"),
    # ---- the flat buffer ----
    dict(name="v24-flat-two-dtypes-packed", file=FLAT,
         old="        if len(dts) > 1:",
         new="        if len(dts) > 2:",
         tests=LAYERS_NEW + FLAT_OLD,
         why="repack packs float32 and float64 arrays into one buffer of one of them, silently converting"),
    # ---- the window op's CPU kernel ----
    dict(name="v24-wkernel-bn-mean-over-all-rows", file=WKERNEL,
         old="        inv = one / v.dtype.type(max(n, 1))",
         new="        inv = one / v.dtype.type(max(B, 1))",
         tests=WKERNEL_OLD,
         why="the window layer's BN_t divides the active rows' sums by every row of the batch"),
    dict(name="v24-wkernel-ln-h-rstd-from-x-variance", file=WKERNEL,
         old="                rh = one / np.sqrt(vh * invG + eps)",
         new="                rh = one / np.sqrt(vx * invG + eps)",
         tests=WKERNEL_OLD,
         why="the LN window layer normalizes h_{t-1} Wh by the x side's variance"),
    dict(name="v24-wkernel-dbeta-sign", file=WKERNEL,
         old="                dpr[K + j] = -(al * sb) * be",
         new="                dpr[K + j] = (al * sb) * be",
         tests=WKERNEL_OLD,
         why="dL/d(b_hat) with the wrong sign: the window's width learns away from the loss"),
    dict(name="v24-wkernel-window-share-of-dh-dropped", file=WKERNEL,
         old="                dh = (dyr[j] if active else zero) + hn[j] + dpr[j]",
         new="                dh = (dyr[j] if active else zero) + hn[j]",
         tests=WKERNEL_OLD,
         why="the window's dL/dp_t Wp^T never joins dL/dh_t: the LSTM learns nothing from where it reads"),
    dict(name="v24-wkernel-forget-grad-reads-c-t", file=WKERNEL,
         old="            cp = c0[bb] if t == 0 else c[t - 1, bb]",
         new="            cp = c0[bb] if t == 0 else c[t, bb]",
         tests=WKERNEL_OLD,
         why="the backward's dL/df reads c_t from the saved cells instead of c_{t-1}"),
    # ---- the BN cells' fused kernels ----
    dict(name="v24-bnlstm-cell-bias-dropped", file=BN_LSTM,
         old="            z[j] = two * (gc[j] * (cr[j] - mean_c_t[j]) * rstd_c_t[j] + bc[j])",
         new="            z[j] = two * (gc[j] * (cr[j] - mean_c_t[j]) * rstd_c_t[j])",
         tests=BN_OLD,
         why="the BN-LSTM's cell norm drops its bias bc (zero at initialization)"),
    dict(name="v24-bnlstm-candidate-tanh-derivative", file=BN_LSTM,
         old="            dg[j] = dc * i * (one - g * g)",
         new="            dg[j] = dc * i * (one - g)",
         tests=BN_OLD,
         why="the candidate's derivative is taken as a sigmoid's on tanh's value"),
    dict(name="v24-bnlstm-cell-bwd-sums-swapped", file=BN_LSTM,
         old="gc, sc[:H], sc[H:], nt, training, dcbn)",
         new="gc, sc[H:], sc[:H], nt, training, dcbn)",
         tests=BN_OLD,
         why="the cell norm's backward takes sum dy * chat for sum dy and back"),
    dict(name="v24-bnrnn-h-mean-not-subtracted", file=BN_RNN,
         old="            z[j] = two * (gh[j] * (hr[j] - mean_h_t[j]) * rstd_h_t[j] + xr[j])",
         new="            z[j] = two * (gh[j] * hr[j] * rstd_h_t[j] + xr[j])",
         tests=BN_OLD,
         why="the BN-RNN's h side is scaled but not centred"),
    dict(name="v24-bnrnn-dgh-from-bias-sums", file=BN_RNN,
         old="        add_cols(dgh, s2, k0, k1)",
         new="        add_cols(dgh, s1, k0, k1)",
         tests=BN_OLD,
         why="the BN-RNN's dL/dgh is the sum of dL/da, the h side's would-be bias gradient"),
    dict(name="v24-parts-momentum-swapped", file=BN_PARTS,
         old="            rm_row[k] = (one - mom) * rm_row[k] + mom * mean[k]",
         new="            rm_row[k] = mom * rm_row[k] + (one - mom) * mean[k]",
         tests=BN_OLD,
         why="the fused cells' running means keep momentum of the old value and 1 - momentum of the batch's"),
    dict(name="v24-parts-padded-rows-not-zeroed", file=BN_PARTS,
         old="        for b in range(gap, lo):",
         new="        for b in range(gap, gap):",
         tests=BN_OLD,
         why="the BN backward leaves the padded rows' dL/d(input) unwritten (np.empty): garbage reaches dWh"),
    # ---- synchronized BatchNorm ----
    dict(name="v24-sync-x-running-row-past-Ts", file=BN_SYNC,
         old="int(counts[t]), shift[t], t < Ts,",
         new="int(counts[t]), shift[t], t <= Ts,",
         tests=SYNC_NEW + SYNC_OLD,
         why="the synced x side folds step Ts into running row Ts-1 again (steps past Ts are not recorded)"),
    dict(name="v24-sync-h-backward-with-x-gain", file=BN_SYNC,
         old="_h_back(da[t], hw[t], lengths, t, mean_h[t], rstd_h[t], gh, hs, n,",
         new="_h_back(da[t], hw[t], lengths, t, mean_h[t], rstd_h[t], gx, hs, n,",
         tests=SYNC_NEW + SYNC_OLD,
         why="the synced BN-LSTM's h-side backward scales by the x side's gain"),
    dict(name="v24-sync-x-gain-grads-after-the-reduce", file=BN_SYNC,
         old="    _step_totals(sums, dgain, dbias)\n    reduce(sums.reshape(-1))\n",
         new="    reduce(sums.reshape(-1))\n    _step_totals(sums, dgain, dbias)\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="each rank's dgx and db are added up from the group's sums instead of its own: the trainer's "
             "allreduce of the gradients then counts them once per rank"),
]
