"""Planted bugs, round 35 (format: tests/mutants/mutants.py): single-line slips in the bindings, the layer
functions, the window layer, the flat buffers, the two heads and the RNN kernels, on lines no earlier round
mutated: lnrnn.jax's primal path (apply without a gradient) run without the lengths, vmap's folded forward
reshaping y without moving the examples' axis back, the backward callback's (dh0, dc0) handed back swapped;
functional's residuals rebuilt as training whatever the forward ran (a BN cell's inference backward), dL/dh_n
read from dfinal's last entry (dL/dc_n), a BN-LSTM taking a dc_n seed its kernels have no place for; the
window layer's chunks reading the BN statistics rows of steps 0.. instead of t0.., its dL/dc0 returned as
dL/dh0, the upper layers' dL/dx not summed; FlatArrays.split viewing its own data, not the array it was given;
the MDN's log-softmax shift missing the last component, its softplus written as log1p(exp) (overflow at a
large end-of-stroke logit), dL/ds2_hat zeroed by s1's clip; the CTC softmax's shift missing the last class,
the log-space path's skip added as 1 (a factor e) instead of 0, the three-term log-sum-exp shifting by two
terms only; the LN-RNN's bias not doubled inside tanh(z) = 2 sigmoid(2z) - 1, its saved 1/std holding the
row's mean; the BN-RNN's inference backward taking the batch statistics' terms, its narrow-input backward
scaling the x side by the h side's 1/std.

20 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 17 were caught
and 3 missed: the MDN's log-softmax shift missing the last component (the tests' mixture logits stay moderate,
where the shift changes nothing), dL/ds2_hat zeroed where s1's log-sigma is clipped (the clip tests push log sigma1
alone past its bound), and the CTC softmax's shift missing the last class (exp is exact up to a gap of about 700
nats; the extreme rows of the tests hold a class far below the rest, not far above). The new value tests catch all
three: test_values35_mdn (the row loss written out with np.logaddexp and np.clip, and central differences of it:
rows with one mixture logit 1000 above the others, each component in turn and at M 1, 2, 3, 5; end-of-stroke logits
of +-800 with either pen; the nine combinations of log sigma1 and log sigma2 below, inside and above the clip, each
clipped one's derivative 0 and the other's its own) and test_values35_ctc (the loss and gradient summed over all
C^T paths, T 5, C 4, with a class 1000 nats above the others at two steps of each row, for each of the four
classes, on labels with and without a repeat). No mutant written for this round was dropped. Considered and not
written as equivalent: rnn.py's scratch rows ``-(-B // nch)`` as ``B // nch`` (the scratch holds one row more, and
a chunk is never longer than B // nch + 1), ``_host_backward`` reading the layout's width off dy instead of y (same
shape), ``_buffer_rows`` returning the inference statistics ungrown (the BN kernels clip the step to Ts - 1
themselves), and the empty rows' dh0 set rather than added to (the kernels give those rows zero).

    python tests/mutants/run.py --only 'v35-*'
"""
JAX = "lnrnn/interop/jax.py"
FUNC = "lnrnn/model/functional.py"
WIN = "lnrnn/model/window.py"
FLAT = "lnrnn/model/flat.py"
MDN = "lnrnn/kernels/mdn.py"
CTC = "lnrnn/kernels/ctc.py"
RNN = "lnrnn/kernels/rnn.py"
BNRNN = "lnrnn/kernels/bn_rnn.py"

# existing tests of these modules
JAX_OLD = ["tests/interop/test_values19_jax.py", "tests/interop/test_values23_jax.py",
           "tests/interop/test_jax.py::test_check_grads_float64",
           "tests/interop/test_jax.py::test_forward_and_backward_equal_recurrent_stack",
           "tests/interop/test_jax.py::test_vmap_forward_and_per_example_gradients",
           "tests/interop/test_jax.py::test_vmap_folds_independent_rows_into_one_kernel_call",
           "tests/interop/test_jax.py::test_vmap_over_parameters_nested_and_jacrev",
           "tests/interop/test_jax.py::test_remat_gives_the_same_gradients_without_residuals",
           "tests/interop/test_jax.py::test_check_grads_of_c_n_over_full_rows",
           "tests/interop/test_jax.py::test_batchnorm_inference_and_statistics_like_flax",
           "tests/interop/test_jax.py::test_batch_first_and_default_state",
           "tests/interop/test_jax_bidirectional.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
            "tests/model/test_values16_functional.py", "tests/model/test_values22_functional.py",
            "tests/interop/test_values_torch.py", "tests/interop/test_values14_torch.py",
            "tests/interop/test_values16_torch.py"]
WIN_OLD = ["tests/model/test_values_window.py", "tests/model/test_values14_window.py",
           "tests/model/test_values16_window.py", "tests/model/test_values24_window.py",
           "tests/model/test_synthesis.py::test_whole_model_gradients_equal_central_differences",
           "tests/model/test_synthesis.py::test_padded_characters_and_points_add_nothing",
           "tests/model/test_synthesis.py::test_truncated_bptt_whole_sequence_and_chunks",
           "tests/model/test_synthesis.py::test_evaluation_chunks_and_steps_agree_with_the_training_forward",
           "tests/model/test_synthesis.py::test_masked_final_state_is_each_rows_last_step"]
FLAT_OLD = ["tests/model/test_values_flat.py", "tests/model/test_values24_layers.py"]
MDN_OLD = ["tests/kernels/test_mdn.py", "tests/model/test_values_heads.py",
           "tests/commands/test_values_sampling.py::test_draws_follow_a_two_component_mixture",
           "tests/commands/test_values_sampling.py::test_split_follows_its_definition_on_both_sides_of_the_clip"]
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/model/test_values33_heads.py"]
RNN_OLD = ["tests/kernels/test_kernels.py", "tests/kernels/test_races.py::test_rnn_backward_chunk_partials",
           "tests/kernels/test_values11_lstm.py"]
BNRNN_OLD = ["tests/kernels/test_bn_cells.py", "tests/kernels/test_values11_bn_cells.py",
             "tests/kernels/test_values22_bn_cells.py", "tests/kernels/test_values18_bn_cell_x.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MDN_NEW = ["tests/kernels/test_values35_mdn.py"]
CTC_NEW = ["tests/kernels/test_values35_ctc.py"]

MUTANTS = [
    # ---- lnrnn.jax: the primal path, vmap's folded batch, the state's cotangents ----
    dict(name="v35-jax-primal-path-drops-lengths", file=JAX,
         old="_forward_call(cfg, False, x, state, p, lengths, bufs)",
         new="_forward_call(cfg, False, x, state, p, None, bufs)",
         tests=JAX_OLD,
         why="apply without a gradient (the custom_vjp's primal) runs every row all T steps: each row's final "
             "state is the one after step T-1, and a BN cell's statistics count the padded rows"),
    dict(name="v35-jax-folded-vmap-y-not-unfolded", file=JAX,
         old="    y = np.moveaxis(y.reshape(T, V, B, H), 1, 0).reshape(lead + (T, B, H))",
         new="    y = y.reshape(lead + (T, B, H))",
         tests=JAX_OLD,
         why="vmap's folded forward reshapes y (T, V*B, H) to lead + (T,B,H) without moving the examples' axis "
             "first: example v gets steps of the others"),
    dict(name="v35-jax-dh0-dc0-swapped", file=JAX,
         old="    return (np.asarray(dx, dt), tuple(np.asarray(d, dt) for d in d0),",
         new="    return (np.asarray(dx, dt), tuple(np.asarray(d, dt) for d in d0[::-1]),",
         tests=JAX_OLD,
         why="the backward callback hands back (dc0, dh0) for an LSTM's (h0, c0): the initial states' "
             "gradients are mis-ordered"),
    # ---- functional: the bindings' pair ----
    dict(name="v35-func-residuals-always-training", file=FUNC,
         old="        items.append(bool(training))",
         new="        items.append(True)",
         tests=FUNC_OLD + JAX_OLD,
         why="the saved tuple rebuilt from the residuals says training whatever the forward ran: a BN cell's "
             "inference backward (population statistics, a fixed affine map) runs the batch-statistics backward"),
    dict(name="v35-func-dh-n-read-from-the-last-cotangent", file=FUNC,
         old="    dh_n = None if dfinal[0] is None else k.to_host(dfinal[0])",
         new="    dh_n = None if dfinal[-1] is None else k.to_host(dfinal[-1])",
         tests=FUNC_OLD,
         why="an LSTM's dL/dh_n is read from dfinal's last entry (dL/dc_n): the two final-state cotangents "
             "mis-ordered"),
    dict(name="v35-func-bn-lstm-takes-a-dc-n-seed", file=FUNC,
         old='    return spec.cell == "lstm" and spec.norm != "bn"',
         new='    return spec.cell == "lstm"',
         tests=FUNC_OLD,
         why="a BN-LSTM's dL/dc_n is passed to kernels that take no seed (or dropped) instead of refused"),
    # ---- the window layer: chunks, dstate0, the upper layers' dx ----
    dict(name="v35-window-chunk-reads-bn-rows-from-step-0", file=WIN,
         old="            bufs = self._buffer_rows(int(t0), T, training)",
         new="            bufs = self._buffer_rows(0, T, training)",
         tests=WIN_OLD,
         why="a chunk of a truncated-BPTT sequence (t0 > 0) reads and updates the BN statistics rows of steps "
             "0..T-1, not t0..t0+T-1"),
    dict(name="v35-window-dc0-is-dh0", file=WIN,
         old="tuple(k.to_host(s) for s in (dh0, dc0, dk0, dw0))",
         new="tuple(k.to_host(s) for s in (dh0, dh0, dk0, dw0))",
         tests=WIN_OLD,
         why="the window layer's initial-state gradient returns dL/dh0 in place of dL/dc0 (on the host path)"),
    dict(name="v35-window-upper-dx-not-summed", file=WIN,
         old="            dx = k.take_columns(d_in, 0, I, dx)",
         new="            dx = k.take_columns(d_in, 0, I)",
         tests=WIN_OLD,
         why="dL/dx from the upper layers is not summed: only layer 2's reaches dx (layer 3's and above are lost)"),
    # ---- flat buffers ----
    dict(name="v35-flat-split-views-own-data", file=FLAT,
         old="        return FlatArrays(flat, self.layout).views",
         new="        return FlatArrays(self.data, self.layout).views",
         tests=FLAT_OLD,
         why="split gives views of the parameters themselves, not of the array it was handed (an optimizer "
             "slot, a received buffer)"),
    # ---- MDN: log-sum-exp stability, the clip's derivative ----
    dict(name="v35-mdn-pi-max-misses-last-component", file=MDN,
         old="    for k in range(1, M):\n        pmax = max(pmax, yh[1 + k])",
         new="    for k in range(1, M - 1):\n        pmax = max(pmax, yh[1 + k])",
         tests=MDN_NEW + MDN_OLD,
         why="the log-softmax's shift misses the last component: exact for moderate pi_hat, overflow (inf/NaN) "
             "where the last component's pi_hat is far above the others"),
    dict(name="v35-mdn-softplus-not-stable", file=MDN,
         old="    sp_pos = max(eh, dt(0.0)) + np.log1p(np.exp(-abs(eh)))    # softplus(e_hat)",
         new="    sp_pos = np.log1p(np.exp(eh))    # softplus(e_hat)",
         tests=MDN_NEW + MDN_OLD,
         why="softplus(e_hat) as log1p(exp(e_hat)): inf for a large end-of-stroke output"),
    dict(name="v35-mdn-s2-clip-judged-by-s1", file=MDN,
         old="(C * b * (b - rho * a) - one) if -smax < sh2 < smax else zero",
         new="(C * b * (b - rho * a) - one) if -smax < sh1 < smax else zero",
         tests=MDN_NEW + MDN_OLD,
         why="dL/ds2_hat is zeroed where s1's log-sigma is clipped (and kept where s2's is)"),
    # ---- CTC: extreme logits, the log-space path ----
    dict(name="v35-ctc-softmax-max-misses-last-class", file=CTC,
         old="    for c in range(1, C):\n        m = max(m, float(x[c]))",
         new="    for c in range(1, C - 1):\n        m = max(m, float(x[c]))",
         tests=CTC_NEW + CTC_OLD,
         why="the softmax's shift misses the last class: a last-class logit far above the rest leaves exp "
             "outside _exp's range (y <= 1) and the softmax wrong"),
    dict(name="v35-ctc-log-skip-factor-one", file=CTC,
         old="            skl[s] = 0.0",
         new="            skl[s] = 1.0",
         tests=CTC_NEW + CTC_OLD,
         why="in log space an allowed skip adds 1 (a factor e) instead of 0: the log-space path overcounts "
             "every alignment that skips a blank"),
    dict(name="v35-ctc-lse3-shift-ignores-skip", file=CTC,
         old="    m = float(max(max(x0, x1), max(x2, low)))",
         new="    m = float(max(max(x0, x1), low))",
         tests=CTC_NEW + CTC_OLD,
         why="the three-term log-sum-exp shifts by the first two terms only: a skip term far above them (or the "
             "only finite one) overflows or is lost"),
    # ---- RNN kernel ----
    dict(name="v35-rnn-ln-bias-not-doubled", file=RNN,
         old="                    y[t, bb, k] = two * (g[k] * ahat[ts, bb, k] + b[k])",
         new="                    y[t, bb, k] = two * g[k] * ahat[ts, bb, k] + b[k]",
         tests=RNN_OLD,
         why="the LN-RNN's tanh(z) = 2 sigmoid(2z) - 1 doubles the gain term only: the bias enters at half weight"),
    dict(name="v35-rnn-ln-rstd-saved-as-mean", file=RNN,
         old="                rstd[ts, bb] = s\n",
         new="                rstd[ts, bb] = m\n",
         tests=RNN_OLD,
         why="the LN-RNN saves the row's mean as its 1/std: y is right, BPTT through the LayerNorm is wrong"),
    # ---- BN-RNN kernel ----
    dict(name="v35-bnrnn-inference-backward-as-training", file=BNRNN,
         old="gh, s1, s2, nt, training, dhw[t])",
         new="gh, s1, s2, nt, True, dhw[t])",
         tests=BNRNN_OLD,
         why="the h side's BN backward always takes the batch statistics' terms: an inference-mode backward "
             "(population statistics, a fixed affine map) gets the training gradient"),
    dict(name="v35-bnrnn-fold-v-from-h-side-rstd", file=BNRNN,
         old="            fold_v(Wx, gx, rstd_x[t], V)",
         new="            fold_v(Wx, gx, rstd_h[t], V)",
         tests=BNRNN_OLD,
         why="the narrow-input (fold) backward scales the x side by the h side's 1/std"),
]
