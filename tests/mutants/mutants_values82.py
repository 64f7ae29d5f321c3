"""Planted bugs, round 82 (format: tests/mutants/mutants.py): single-line slips in the CUDA array, graph, GEMM and row
modules, on lines no earlier round mutates: arrays_cuda's copy() passing an element count where copy_bytes wants
bytes, head() allocating float64 whatever the dtype, the fill kernel stopping one element short, fill_zeros()
stopping at the first empty array and seq_threads rounding a multiple of 32 up a warp too far; graphs_cuda's
stand-in replaying its warm-up instead of the recorded loop, the recorded loop testing before() where it runs
after(), LNRNN_CUDA_POOL read case-sensitively, describe() naming the library that served as the setting, and
loop_path sending a cell to the sequence kernels without asking whether they fit; gemm_cuda's tiled kernel adding
into C on a plain product, product() of the stand-in dropping accumulate and Direct.gemm passing the two transposes
the other way round; rows_cuda's dot_col reading W's row i in its second accumulator, split_groups rounded up
(split_matvec's last thread group incomplete) and local_stats adding eps to the standard deviation.

16 mutants. Against the existing targeted tests alone 8 were caught and 8 missed: copy() counting elements and
head() in float64 (the old tests never call copy() and take rows of float64 arrays only), fill_zeros() stopping at
an empty array (no test passed one among others), seq_threads a warp too many (no test of the function), the pool
setting's case (only LNRNN_CUDA_BLAS's case was tested), describe() naming the library (the old test sets
LNRNN_CUDA_BLAS to the library's own name, where both read the same), Direct.gemm's swapped transposes (the plan
tests run on the stand-in, whose products are the tiled kernel's) and split_groups rounded up (the old cell tests
run blocks of 4 threads for H = 5, where no thread groups form). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values82_arrays_cuda (to_device of strided host views and of
a device array, copy, head and take_row of float32 and float64 arrays, copy_bytes between offsets and its refusals,
fill and zeros of every element over blocks of 3 threads, fill_zeros past empty arrays, seq_threads against the
smallest multiple of 32 that holds G), test_values82_graphs_cuda (the stand-in's replay and a capturing library's
warm-up against the call sequence the docstrings define, loop_path for every setting, library and fit written out as
a table, call_plan's fresh per-step plan, the pool setting in any case, describe()'s whole line),
test_values82_gemm_cuda (the tiled GEMM against np.dot on sides 1, 5, 17 and 33 with every transpose, into an out
that held values and then accumulating; product(Eager()) and Direct().gemm with one operand transposed) and
test_values82_rows_cuda (block_sum/2/4, dot_col, split_matvec, local_stats and sigmoid each launched in a kernel of
its own against NumPy sums, v @ W, the row's mean and 1/sqrt(biased variance + eps) and the formula; split_groups
and units by their definitions). Dropped as equivalent: grid_1d's block count rounded down (the grid-stride loops
cover every element with at least one block), split_matvec summing P groups on the wide path (P is 1 there),
call_plan asking loop_path with seq_ok True (the BN cells' plan only asks whether the path is "graph", which seq_ok
never decides) and is_device without its ndarray test (no NumPy array has copy_to_host).

    python tests/mutants/run.py --only 'v82-*'
"""
ARRAYS = "lnrnn/kernels/cuda/arrays_cuda.py"
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"
ROWS = "lnrnn/kernels/cuda/rows_cuda.py"

# existing tests of these modules
ARRAYS_OLD = ["tests/kernels/test_values_arrays_cuda.py", "tests/kernels/test_values19_arrays_cuda.py",
              "tests/kernels/test_upload_strides.py", "tests/kernels/test_cuda_kernels.py::test_fill_and_float32",
              "tests/kernels/test_cuda_graphs.py::test_copies_by_bytes_and_rows"]
GRAPHS_OLD = ["tests/kernels/test_values17_graphs_cuda.py", "tests/kernels/test_values30_graphs_cuda.py",
              "tests/commands/test_info_cuda_paths.py", "tests/kernels/test_cuda_graphs.py"]
GEMM_OLD = ["tests/kernels/test_cuda_kernels.py::test_matmul_all_transposes",
            "tests/kernels/test_cuda_kernels.py::test_matmul_accumulate_and_cpu_twins",
            "tests/kernels/test_values30_gemm_cuda.py", "tests/kernels/test_values17_cuda_host.py",
            "tests/kernels/test_cuda_graphs.py", "tests/kernels/test_cuda_bn_graphs.py"]
ROWS_OLD = ["tests/kernels/test_values66_rows_cuda.py", "tests/kernels/test_values66_cells_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
ARRAYS_NEW = ["tests/kernels/test_values82_arrays_cuda.py"]
GRAPHS_NEW = ["tests/kernels/test_values82_graphs_cuda.py"]
GEMM_NEW = ["tests/kernels/test_values82_gemm_cuda.py"]
ROWS_NEW = ["tests/kernels/test_values82_rows_cuda.py"]

MUTANTS = [
    # ---- arrays_cuda: copies, fills, launch sizes ----
    dict(name="v82-copy-elements-not-bytes", file=ARRAYS,
         old="copy_bytes(out, a, a.nbytes)",
         new="copy_bytes(out, a, a.size)",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="copy() of a C-contiguous array passes its element count where copy_bytes wants bytes: an eighth of a "
             "float64 array is copied (or a count not a whole number of elements is refused)"),
    dict(name="v82-head-always-float64", file=ARRAYS,
         old="    out = empty((n,) + tuple(a.shape[1:]), a.dtype)",
         new="    out = empty((n,) + tuple(a.shape[1:]), np.float64)",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="head() allocates float64 whatever a's dtype: the first rows of a float32 array come back widened (or "
             "the copy of bytes between two dtypes fails)"),
    dict(name="v82-fill-stops-one-short", file=ARRAYS,
         old="    for i in range(start, a.shape[0], stride):\n        a[i] = value",
         new="    for i in range(start, a.shape[0] - 1, stride):\n        a[i] = value",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the fill kernel's grid-stride loop stops one short: fill() and zeros() leave the last element as it was"),
    dict(name="v82-fill-zeros-stops-at-an-empty-array", file=ARRAYS,
         old="        if not a.size:\n            continue",
         new="        if not a.size:\n            break",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="fill_zeros() stops at the first array with no elements: the arrays after it keep their old values"),
    dict(name="v82-seq-threads-a-warp-too-many", file=ARRAYS,
         old="(G + 31) // 32 * 32",
         new="(G + 32) // 32 * 32",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="seq_threads rounds G up to a warp one too far: a G that is already a multiple of 32 gets a whole idle "
             "warp more"),
    # ---- graphs_cuda: the simulator's stand-in, the captured loop, the choices and what they report ----
    dict(name="v82-eager-replay-runs-the-warm-up", file=GRAPHS,
         old="        return lambda: record(cuda.default_stream())",
         new="        return lambda: warm(cuda.default_stream())",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="the simulator's stand-in replays the warm-up (the first step only) instead of the recorded loop"),
    dict(name="v82-capture-loop-after-checks-before", file=GRAPHS,
         old="        for t in steps:\n            step(t, stream)\n        if after is not None:",
         new="        for t in steps:\n            step(t, stream)\n        if before is not None:",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="the recorded loop tests the wrong hook before running after(): a loop with an after and no before "
             "skips its tail, one with a before and no after calls None"),
    dict(name="v82-pool-name-case-sensitive", file=GRAPHS,
         old='    want = (os.environ.get("LNRNN_CUDA_POOL") or config.CUDA_POOL or "auto").strip().lower()',
         new='    want = (os.environ.get("LNRNN_CUDA_POOL") or config.CUDA_POOL or "auto").strip()',
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="LNRNN_CUDA_POOL is read case-sensitively (unlike LNRNN_CUDA_BLAS): 'OFF' is refused"),
    dict(name="v82-describe-names-the-library-not-the-setting", file=GRAPHS,
         old='        return f"{how} (LNRNN_CUDA_BLAS={name})"',
         new='        return f"{how} (LNRNN_CUDA_BLAS={p.name})"',
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="describe() reports the library that served as the setting: 'auto' that took torch reads "
             "LNRNN_CUDA_BLAS=torch"),
    dict(name="v82-loop-path-seq-without-room", file=GRAPHS,
         old='    if want in ("auto", "seq") and seq_ok:',
         new='    if want in ("auto", "seq"):',
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="loop_path picks the sequence kernels without asking whether they can serve (seq_ok): a cell whose "
             "shared arrays do not fit is sent to them"),
    # ---- gemm_cuda: the tiled kernel, the stand-in's product, the per-step plan's product ----
    dict(name="v82-gemm-plain-product-adds", file=GEMM,
         old="            else:\n                C[m, n] = s",
         new="            else:\n                C[m, n] += s",
         tests=GEMM_NEW + GEMM_OLD,
         why="the tiled GEMM adds into C when it should overwrite it: a product into an array that held values "
             "(a reused buffer) keeps them"),
    dict(name="v82-product-drops-accumulate", file=GEMM,
         old="tiled_matmul(A, B, C, trans_a, trans_b,\n"
             "                                                                                         accumulate)",
         new="tiled_matmul(A, B, C, trans_a, trans_b,\n"
             "                                                                                         False)",
         tests=GEMM_NEW + GEMM_OLD,
         why="product() of a provider without BLAS (the simulator's stand-in) ignores accumulate: a graph plan's "
             "dWh = h0^T dHW + Y^T dHW keeps only the last product"),
    dict(name="v82-direct-swaps-the-transposes", file=GEMM,
         old="matmul(A, B, out=C, trans_a=trans_a, trans_b=trans_b, accumulate=accumulate)",
         new="matmul(A, B, out=C, trans_a=trans_b, trans_b=trans_a, accumulate=accumulate)",
         tests=GEMM_NEW + GEMM_OLD,
         why="Direct.gemm (the per-step plans' product) passes trans_a as trans_b and back"),
    # ---- rows_cuda: device functions of one row ----
    dict(name="v82-dot-col-second-lane-reads-the-first-row", file=ROWS,
         old="        s1 += v[i + step] * W[i + step, col]",
         new="        s1 += v[i + step] * W[i, col]",
         tests=ROWS_NEW + ROWS_OLD,
         why="dot_col's second accumulator multiplies v[i + step] by W's row i: every sum of eight or more terms "
             "is off"),
    dict(name="v82-split-groups-rounded-up", file=ROWS,
         old="    return max(1, tpb // H)",
         new="    return max(1, -(-tpb // H))",
         tests=ROWS_NEW + ROWS_OLD,
         why="split_groups rounds tpb / H up: the last thread group of split_matvec is incomplete and its missing "
             "units' partial sums are never written"),
    dict(name="v82-local-stats-eps-outside-the-root", file=ROWS,
         old="    return m, one / math.sqrt(block_sum(sh, s) * inv + e)",
         new="    return m, one / (math.sqrt(block_sum(sh, s) * inv) + e)",
         tests=ROWS_NEW + ROWS_OLD,
         why="local_stats adds eps to the standard deviation instead of the variance"),
]
