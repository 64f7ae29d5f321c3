"""Planted bugs, round 30 (format: tests/mutants/mutants.py): single-line slips in the CUDA modules with the fewest
mutants per line so far: lstm_cuda (the call's eps on the per-step and sequence paths, the sequence forward's
barrier between steps, the device's centered weights in float32, the graph backward's cell gradients), gemm_cuda
(a transposed operand's tile mask, the second launch of a split column sum, the products after a time loop for a
one-column input), graphs_cuda (the plan cache: which library's plans serve, which fitting plan, which plan is
evicted; C strides of pooled arrays), layernorm_cuda (eps rounded to float32), optim_cuda (clipping at exactly the
limit, a float32 gradient's norm summed in float32), mdn_cuda (the backward's row mask, rho's bound in its
derivative) and rows_cuda (the barriers of block_sum and split_matvec).

19 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 9 were caught
and 10 missed: the per-step and sequence paths' input LayerNorm with the configured eps, the sequence forward
kernel's LayerNorms with the configured eps (every old LSTM test runs eps 1e-5, the default; only the graph path
was tried with another), the centered weights summed in float32, projection_into skipping dx and dWx of a
one-column input (no old test runs a CUDA cell with I = 1), the plan cache ignoring the library, taking the
longest fitting plan and evicting the oldest made instead of the least used, c_strides walking the shape from the
front (used on a GPU's pool only), clipping a norm equal to the limit, and the clipping norm of a float32
gradient summed in float32. The caught ones: the removed barriers (the simulator runs a block's threads one after
another up to each barrier, so a missing one shows at once), the gain and bias gradients of the cell LayerNorm
swapped on the graph path, the tile mask, the column sum's mode, eps in float32 (test_layernorm_matches_cpu's
one-feature row: its variance 0 makes 1/std 1/sqrt(eps) itself), the MDN mask and rho's bound.
The new value tests catch every mutant: test_values30_lstm_cuda (an LN-LSTM with eps 0.3 on the sequence and
per-step paths against the CPU twin; centered_device against codes.centered, bit for bit in float32 on rows whose
float32 sum rounds), test_values30_gemm_cuda (projection_grads for I = 0, 1, 3 against the three products in
NumPy; the plain LSTM and RNN with I = 1 on both paths against their CPU twins), test_values30_graphs_cuda
(plan_for on made-up providers and plans: a plan serves only its library, the shortest fitting plan serves, the
least recently used one is evicted; c_strides against NumPy's strides), test_values30_optim_cuda (a gradient of
norm exactly the limit left alone, one just above scaled by the rule; a float32 gradient's norm equal to the
float64 sum of its squares) and test_values30_layernorm_cuda (eps 0.1 and 1e-5, a constant row among rows of
every spread, against the formula and the CPU twin; listed first for the eps mutant too).
No mutant written for this round was dropped. Considered and not written, as equivalent: another thread than
thread 0 writing a LayerNorm row's mean and 1/std (every thread holds the same block sums), mdn_cuda's grid
rounded down (its grid-stride loops cover every row with any grid of at least one block), dot_col's unrolled loop
stopping one group early (the remainder loop takes the rest), the sequence backward's zeroing of dc0 (the
driver hands it zeros), colsum_parts without its REDUCE_PARTS cap (more row ranges, the same sums) and
call_plan asking loop_path with seq_ok True (only "graph" is compared).

    python tests/mutants/run.py --only 'v30-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"
LN = "lnrnn/kernels/layernorm_cuda.py"
OPTIM = "lnrnn/kernels/optim_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
ROWS = "lnrnn/kernels/cuda/rows_cuda.py"

CK = "tests/kernels/test_cuda_kernels.py"
BS = "tests/kernels/test_cuda_blocksizes.py"
CG = "tests/kernels/test_cuda_graphs.py"

# existing tests of these modules
LSTM_OLD = [f"{CK}::test_lstm_matches_cpu", "tests/kernels/test_values_lstm_cuda.py",
            "tests/kernels/test_values11_lstm_cuda.py",
            "tests/kernels/test_values22_bn_cells_cuda.py::test_graph_plans_keep_their_eps"]
CENTERED_OLD = ["tests/kernels/test_values11_lstm_cuda.py", f"{CK}::test_float32_stays_float32",
                "tests/training/test_device_update.py::test_float32_updates_stay_float32_and_close"]
GEMM_OLD = [f"{CK}::test_matmul_all_transposes", f"{CK}::test_matmul_accumulate_and_cpu_twins",
            f"{CK}::test_column_reductions", f"{BS}::test_gemm_and_column_sums_odd_tiles"]
PROJ_OLD = [f"{CK}::test_lstm_matches_cpu", f"{CK}::test_rnn_matches_cpu",
            f"{CK}::test_device_inputs_single_step_single_row",
            f"{CG}::test_backward_plan_with_no_input_columns_and_after_a_nan_call"]
GRAPHS_OLD = [f"{CG}::test_oldest_plan_evicted", f"{CG}::test_a_reused_plan_leaves_earlier_results_alone",
              f"{CG}::test_a_longer_plan_serves_a_shorter_call", f"{CG}::test_ragged_lengths_share_bucketed_plans",
              f"{CG}::test_rnn_plans_reused_and_shared_by_a_shorter_call", "tests/kernels/test_values17_graphs_cuda.py"]
POOL_OLD = [f"{CG}::test_arrays_come_from_the_pool", f"{CG}::test_torch_pool_takes_and_returns_memory",
            "tests/kernels/test_values17_graphs_cuda.py"]
LN_OLD = [f"{CK}::test_layernorm_matches_cpu", f"{CK}::test_layernorm_float32", f"{BS}::test_layernorm_blocks"]
OPTIM_OLD = ["tests/training/test_device_update.py::test_three_updates_equal_the_cpu_optimizer",
             "tests/training/test_device_update.py::test_float32_updates_stay_float32_and_close",
             "tests/training/test_device_update.py::test_clipping_of_a_gradient_that_is_not_finite_leaves_it",
             "tests/training/test_device_update.py::test_resumed_device_optimizer_continues_as_the_cpu_one"]
MDN_OLD = ["tests/kernels/test_values22_mdn_cuda.py", "tests/kernels/test_mdn.py::test_cuda_twin_equals_cpu_twin",
           "tests/kernels/test_cuda_bounds.py::test_mdn_twins_agree_beyond_every_bound"]
ROWS_OLD = [f"{BS}::test_block_sum_every_block_size", f"{BS}::test_split_matvec_odd_groups",
            f"{CK}::test_layernorm_matches_cpu"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
V30 = "tests/kernels/test_values30"
LSTM_NEW = [f"{V30}_lstm_cuda.py::test_ln_lstm_with_a_large_eps_matches_the_cpu_twin"]
CENTERED_NEW = [f"{V30}_lstm_cuda.py::test_centered_weights_on_the_device_are_the_hosts"]
PROJ_NEW = [f"{V30}_gemm_cuda.py"]
GRAPHS_NEW = [f"{V30}_graphs_cuda.py"]
OPTIM_NEW = [f"{V30}_optim_cuda.py"]
LN_NEW = [f"{V30}_layernorm_cuda.py"]

MUTANTS = [
    # ---- lstm_cuda: eps of the per-step and sequence paths, the sequence loop's barrier, the centered rows ----
    dict(name="v30-lstmcuda-input-ln-default-eps", file=LSTM,
         old="ln_rows(xp2, d1, d1, eps, False, xp2, empty(T * B, dt), rstd[0].reshape(T * B))",
         new="ln_rows(xp2, d1, d1, config.EPS, False, xp2, empty(T * B, dt), rstd[0].reshape(T * B))",
         tests=LSTM_NEW + LSTM_OLD,
         why="the per-step and sequence paths normalize x Wx with the configured default eps, not the call's"),
    dict(name="v30-lstmcuda-seq-forward-default-eps", file=LSTM,
         old="        e = dt(eps)\n        for k in range(tid, H, n):\n            hs[k] = h0[bb, k]",
         new="        e = dt(config.EPS)\n        for k in range(tid, H, n):\n            hs[k] = h0[bb, k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the sequence forward kernel's LayerNorms of h Wh and c_t use the default eps, not the call's"),
    dict(name="v30-lstmcuda-seq-forward-no-barrier-after-step", file=LSTM,
         old="            cuda.syncthreads()  # hs holds h_t for the next step's product\n",
         new="",
         tests=LSTM_OLD,
         why="the sequence forward starts step t+1's product before every thread has written its h_t into hs"),
    dict(name="v30-lstmcuda-centered-rows-summed-in-dtype", file=LSTM,
         old="            s += float64(W[k, j])\n",
         new="            s += W[k, j]\n",
         tests=CENTERED_NEW + CENTERED_OLD,
         why="the device's centered Wx sums a float32 row in float32: not the CPU twin's float64 mean, bit for bit"),
    dict(name="v30-lstmcuda-graph-backward-cell-gain-grads-swapped", file=LSTM,
         old="            return grads + (dgx, copy(db), dgh, copy(db), dgc, dbc)",
         new="            return grads + (dgx, copy(db), dgh, copy(db), dbc, dgc)",
         tests=[f"{CG}::test_graph_path_matches_cpu", f"{CG}::test_dc_seed_and_clip"],
         why="the graph backward returns the cell LayerNorm's bias gradient as its gain gradient and back"),
    # ---- gemm_cuda: tile masks, the column sums' second pass, the projection of a one-column input ----
    dict(name="v30-gemmcuda-trans-b-mask-against-k", file=GEMM,
         old="sB[tx, ty] = B[n, k] if (k < K and n < N) else dt(0.0)",
         new="sB[tx, ty] = B[n, k] if (k < K and n < K) else dt(0.0)",
         tests=GEMM_OLD,
         why="a transposed B's tile is masked by K instead of N: columns past K read as zero, or past N read"),
    dict(name="v30-gemmcuda-colsum-second-pass-keeps-mode", file=GEMM,
         old="kern[(gx, 1), (t, t), stream](part, part, mean, rstd, SUM, out)",
         new="kern[(gx, 1), (t, t), stream](part, part, mean, rstd, mode, out)",
         tests=GEMM_OLD,
         why="the second launch of a split column sum adds the partials with the first one's mode (part*part)"),
    dict(name="v30-gemmcuda-projection-one-input-column-skipped", file=GEMM,
         old="    if I:  # else dx and dWx hold nothing\n",
         new="    if I > 1:  # else dx and dWx hold nothing\n",
         tests=PROJ_NEW + PROJ_OLD,
         why="projection_into skips dx and dWx of a one-column input (I = 1), not only of none"),
    # ---- graphs_cuda: the plan cache and C strides ----
    dict(name="v30-graphs-plan-shared-across-libraries", file=GRAPHS,
         old="    same = [k for k in PLANS if k[:2] == (kind, prov.name) and k[3:] == key]\n",
         new="    same = [k for k in PLANS if k[0] == kind and k[3:] == key]\n",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="a plan captured through one library serves a call after the library was switched"),
    dict(name="v30-graphs-longest-fitting-plan", file=GRAPHS,
         old="        k = min(fits, key=lambda k: k[2])\n",
         new="        k = max(fits, key=lambda k: k[2])\n",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="of the cached plans long enough for a call, the longest serves it (more padded steps), not the shortest"),
    dict(name="v30-graphs-reuse-not-recent", file=GRAPHS,
         old="        plan = PLANS.pop(k)\n",
         new="        plan = PLANS[k]\n",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="a reused plan keeps its place in the cache: the eviction takes the oldest made, not the least used"),
    dict(name="v30-graphs-c-strides-reversed", file=GRAPHS,
         old="    for n in reversed(shape):\n",
         new="    for n in shape:\n",
         tests=GRAPHS_NEW + POOL_OLD,
         why="c_strides walks the shape from the front: a pooled array of unequal sides gets another array's strides"),
    # ---- layernorm_cuda ----
    dict(name="v30-lncuda-eps-in-float32", file=LN,
         old="m, rs = row_stats(sh, x[r], F, one / dt(F), dt(eps), one)",
         new="m, rs = row_stats(sh, x[r], F, one / dt(F), np.float32(eps), one)",
         tests=LN_NEW + LN_OLD,
         why="the row kernel adds eps rounded to float32 in a float64 LayerNorm"),
    # ---- optim_cuda ----
    dict(name="v30-optimcuda-clip-at-the-limit", file=OPTIM,
         old="and not math.isnan(n) and n > max_norm:",
         new="and not math.isnan(n) and n >= max_norm:",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="a gradient whose norm equals the limit is scaled by max_norm / (norm + CLIP_EPS), where only a larger "
             "one is"),
    dict(name="v30-optimcuda-norm-squares-in-dtype", file=OPTIM,
         old="            gi = float64(g[i])\n",
         new="            gi = g[i]\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the clipping norm squares and adds a float32 gradient in float32, not float64 as the CPU twin"),
    # ---- mdn_cuda ----
    dict(name="v30-mdncuda-backward-mask-ignored", file=MDN,
         old="                continue\n            yh, tg, g = yhat[n], target[n], dnll[n]\n",
         new="                pass\n            yh, tg, g = yhat[n], target[n], dnll[n]\n",
         tests=MDN_OLD,
         why="the backward writes derivatives on rows that are not valid (from dnll there and the zeroed saved rows)"),
    dict(name="v30-mdncuda-rho-grad-without-bound", file=MDN,
         old="* rmax * (one - th * th)",
         new="* (one - th * th)",
         tests=MDN_OLD,
         why="the derivative by the correlation's logit drops the factor RHO of rho = RHO tanh(.)"),
    # ---- rows_cuda: barriers ----
    dict(name="v30-rowscuda-block-sum-no-trailing-barrier", file=ROWS,
         old="    s = sh[0]\n    cuda.syncthreads()  # nobody overwrites sh[0] before everyone has read it\n",
         new="    s = sh[0]\n",
         tests=ROWS_OLD,
         why="block_sum returns before every thread has read sh[0]: the next sum's values overwrite it"),
    dict(name="v30-rowscuda-matvec-no-barrier", file=ROWS,
         old="                red[q * H + k] = dot_col(v, W, k, q, N, P, zero)\n        cuda.syncthreads()\n",
         new="                red[q * H + k] = dot_col(v, W, k, q, N, P, zero)\n",
         tests=ROWS_OLD,
         why="split_matvec adds the thread groups' partial sums before every group has written its own"),
]
