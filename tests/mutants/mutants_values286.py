"""Planted bugs, round 286 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CUDA infrastructure and the MDN/CTC twins run under Numba's simulator (lnrnn/kernels/cuda/gemm_cuda.py,
arrays_cuda.py, graphs_cuda.py, rows_cuda.py, lnrnn/kernels/mdn_cuda.py, ctc_cuda.py), thirteenth pass: the tiled
GEMM's column tile taken from the block's row index; the plain B slab loaded with its row from threadIdx.x; a K of
one taken for a product with no terms (C = 0); copy_bytes's refusal naming the two arrays' sizes the wrong way round;
the transpose kernel stopping one element short; final_rows taking a row of exactly T steps from seq instead of s_T;
mask_steps multiplying padded steps by one; bucket rounding down; the plan cache evicting its newest plan; a bucketed
plan kept under the call's steps instead of its own; a captured loop's replay skipping before (and calling a missing
one); split_matvec adding one thread group too few; the mixture's responsibilities normalized by the largest term
instead of the log-sum-exp; CTC's saved log p stored with the wrong sign.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values286_gemm_arrays_cuda (matmul at sides of 1, 17 and
33 with a tile of 4, each transpose, plain over an out that held other values and accumulating, against np.dot, and
K = 1 against the outer product by hand; copy_bytes from byte 8 into byte 24 against NumPy slicing and a copy past the
destination refused word for word with nothing written; transpose_into over an out of NaN against a.T; final_rows at
lengths T, 2, 0 and mask_steps at 4, 1, 0 against rows picked and the running mask multiplied out by hand),
test_values286_graphs_rows_cuda (bucket for T = 1..70 against its definition by counting up; plan_for with a second
length of one key against the steps and keys written out, two plans at most with the oldest out; capture_loop's
replays against the plain loop's calls with and without before/after; split_matvec with two thread groups against
W.T @ v summed by hand), test_values286_ctc_mdn_cuda (CTC at B = 3 against lnrnn/reference.py's NumPy CTC: loss,
log p and the gradient, zero past each row's steps; the mixture density at M = 3 against reference.mdn_nll and the
CPU twin's responsibilities and gradient). Every new file runs in a few seconds with -n 0.

Left out as equivalent: ctc_cuda's lse with `a < b` for `a > b` (a + log1p(e^(b-a)) is the same log-sum-exp either
way, unless exp overflows past float64's range); the maxima of the log-softmax over fewer classes in either twin
(shift-invariant); split_matvec's `wide = H > tpb` made `>=` (at H = tpb there is one group either way); colsum_parts
with another divisor (any P >= 1 sums the same rows); capture_loop's warm step taking another step (the stand-in
never warms, and only a library's capture would); the mdn and ctc grids (every loop strides over the grid). Left out
as flaky: put_steps's zeros made empty (fresh device memory may already hold zeros). Left out as beyond the
simulator: the PyTorch and CuPy providers' empty, gemm and capture, and fill_zeros's driver memset.

    python tests/mutants/run.py --only 'v286-*'
"""
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"
ARRAYS = "lnrnn/kernels/cuda/arrays_cuda.py"
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"
ROWS = "lnrnn/kernels/cuda/rows_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
CTC = "lnrnn/kernels/ctc_cuda.py"

T_GA = "tests/kernels/test_values286_gemm_arrays_cuda.py::"
T_GR = "tests/kernels/test_values286_graphs_rows_cuda.py::"
T_CM = "tests/kernels/test_values286_ctc_mdn_cuda.py::"

OLD_GEMM = ["tests/kernels/test_values203_gemm_cuda.py", "tests/kernels/test_values179_gemm_cuda.py",
            "tests/kernels/test_values82_gemm_cuda.py"]
OLD_ARRAYS = ["tests/kernels/test_values203_arrays_cuda.py", "tests/kernels/test_values179_arrays_cuda.py",
              "tests/kernels/test_values82_arrays_cuda.py"]
OLD_GRAPHS = ["tests/kernels/test_values203_graphs_cuda.py", "tests/kernels/test_values179_graphs_cuda.py",
              "tests/kernels/test_values30_graphs_cuda.py", "tests/kernels/test_values82_graphs_cuda.py"]
OLD_ROWS = ["tests/kernels/test_values179_rows_cuda.py", "tests/kernels/test_values82_rows_cuda.py",
            "tests/kernels/test_values66_rows_cuda.py"]
OLD_CTC_MDN = ["tests/kernels/test_values264_ctc_mdn_cuda.py", "tests/kernels/test_values207_ctc_mdn_cuda.py",
               "tests/kernels/test_ctc_cuda.py", "tests/kernels/test_values159_mdn_cuda.py"]

MATMUL = T_GA + "test_matmul_at_sides_of_1_17_33_equals_np_dot"

MUTANTS = [
    # ---- gemm_cuda: the tiled kernel and matmul ----
    dict(name="v286-gemm-column-tile-from-block-row", file=GEMM,
         old="        n0 = cuda.blockIdx.x * t",
         new="        n0 = cuda.blockIdx.y * t",
         tests=[MATMUL] + OLD_GEMM,
         why="every block's column tile starts where its row tile does: a row of C wider than one tile keeps only "
             "its first tile's columns (blocks of one row of tiles all write columns 0..t-1)"),
    dict(name="v286-gemm-plain-b-row-from-tx", file=GEMM,
         old="                k = k0 + ty\n                n = n0 + tx\n                sB[ty, tx]",
         new="                k = k0 + tx\n                n = n0 + tx\n                sB[ty, tx]",
         tests=[MATMUL] + OLD_GEMM,
         why="an untransposed B's slab is staged with its row from threadIdx.x: each column reads the diagonal of "
             "the slab, products with K > 1 are wrong"),
    dict(name="v286-gemm-k-of-one-taken-for-none", file=GEMM,
         old="    if M and N and K == 0:",
         new="    if M and N and K <= 1:",
         tests=[T_GA + "test_matmul_of_k_one_is_the_outer_product", MATMUL] + OLD_GEMM,
         why="a product over one term (an outer product) is taken for one with none: C is zeroed, or left as it "
             "was when accumulating"),
    # ---- arrays_cuda: copies, transpose, a ragged batch's rows ----
    dict(name="v286-arrays-copy-bytes-refusal-swaps-sizes", file=ARRAYS,
         old='from {src_at} of {src.nbytes} into {dst_at} of {dst.nbytes}")',
         new='from {src_at} of {dst.nbytes} into {dst_at} of {src.nbytes}")',
         tests=[T_GA + "test_copy_bytes_past_the_destination_refused_word_for_word_nothing_written"] + OLD_ARRAYS,
         why="copy_bytes's refusal gives the source's size as the destination's and the other way round"),
    dict(name="v286-arrays-transpose-stops-one-short", file=ARRAYS,
         old="    for q in range(start, M * N, stride):",
         new="    for q in range(start, M * N - 1, stride):",
         tests=[T_GA + "test_transpose_into_writes_every_element"] + OLD_ARRAYS,
         why="the transpose kernel never writes out's last element (it keeps whatever the buffer held)"),
    dict(name="v286-arrays-final-rows-length-t-from-seq", file=ARRAYS,
         old="        if L >= T:",
         new="        if L > T:",
         tests=[T_GA + "test_final_rows_at_lengths_t_two_and_zero"] + OLD_ARRAYS,
         why="a row of exactly T steps takes its final state from seq[T-1] instead of s_T (a cell whose s_T is not "
             "its last output row, an LSTM's c, gets the wrong state)"),
    dict(name="v286-arrays-mask-steps-zero-made-one", file=ARRAYS,
         old="nbtype(a.dtype)(0.0), out)",
         new="nbtype(a.dtype)(1.0), out)",
         tests=[T_GA + "test_mask_steps_zeroes_each_rows_padded_steps"] + OLD_ARRAYS,
         why="mask_steps multiplies padded steps by one: nothing past a row's length is masked"),
    # ---- graphs_cuda: plans and captured loops ----
    dict(name="v286-graphs-bucket-rounds-down", file=GRAPHS,
         old="    return -(-T // q) * q",
         new="    return (T // q) * q",
         tests=[T_GR + "test_bucket_is_t_rounded_up_to_a_quarter_of_its_power_of_two",
                T_GR + "test_a_second_length_gets_a_bucketed_plan_kept_under_its_own_steps"] + OLD_GRAPHS,
         why="bucket rounds T down to the quarter step: a plan made for 9 steps has 8"),
    dict(name="v286-graphs-plans-evict-newest", file=GRAPHS,
         old="            PLANS.popitem(last=False)",
         new="            PLANS.popitem()",
         tests=[T_GR + "test_at_most_two_plans_the_oldest_out_first"] + OLD_GRAPHS,
         why="a full plan cache drops its newest plan instead of its oldest"),
    dict(name="v286-graphs-plan-key-holds-call-steps", file=GRAPHS,
         old="        k = (kind, prov.name, S) + key",
         new="        k = (kind, prov.name, T) + key",
         tests=[T_GR + "test_a_second_length_gets_a_bucketed_plan_kept_under_its_own_steps"] + OLD_GRAPHS,
         why="a bucketed plan of S steps is cached under the call's T: a later call of S steps does not find it and "
             "captures another"),
    dict(name="v286-graphs-replay-skips-before", file=GRAPHS,
         old="    def record(stream):\n        if before is not None:",
         new="    def record(stream):\n        if before is None:",
         tests=[T_GR + "test_captured_loop_replays_the_plain_calls"] + OLD_GRAPHS,
         why="a captured loop's replay never runs before (and calls a missing before): the loop starts from "
             "buffers not loaded"),
    # ---- rows_cuda: the split matrix-vector product ----
    dict(name="v286-rows-matvec-drops-last-group", file=ROWS,
         old="            for q in range(1 if wide else P):",
         new="            for q in range(1 if wide else P - 1):",
         tests=[T_GR + "test_split_matvec_adds_every_thread_group"] + OLD_ROWS,
         why="split_matvec adds one thread group too few: with H <= tpb the rows j = P-1, 2P-1, ... are left out"),
    # ---- mdn_cuda and ctc_cuda ----
    dict(name="v286-mdn-gamma-normalized-by-max", file=MDN,
         old="                gamma[n, k] = math.exp(gamma[n, k] - lse)",
         new="                gamma[n, k] = math.exp(gamma[n, k] - lmax)",
         tests=[T_CM + "test_mdn_loss_responsibilities_and_gradient_equal_the_cpu_twin"] + OLD_CTC_MDN,
         why="the responsibilities are divided by the largest component's density instead of the sum: they do "
             "not sum to 1 and the gradient is off"),
    dict(name="v286-ctc-logz-negated", file=CTC,
         old="                logz[b] = lp",
         new="                logz[b] = -lp",
         tests=[T_CM + "test_ctc_gradient_equals_the_reference_and_stops_at_each_rows_steps",
                T_CM + "test_ctc_loss_and_log_p_equal_the_reference"] + OLD_CTC_MDN,
         why="the saved log p is stored as the loss: the backward's posteriors exp(alpha + beta - logz) are wrong "
             "(the loss itself is right)"),
]
