"""Planted bugs, round 179 (format: tests/mutants/mutants.py): single-line slips on lines of the CUDA products, graphs,
device arrays and row device functions that no earlier catalogue mutates: matmul's two refusal sentences (op(A)'s K
printed as op(B)'s, the expected out transposed), the tiled GEMM's grid axes swapped, colsum_prod summing D * D and
every part of the column sums dropping its last row; nbtype's refusal printing the raw dtype, copy_bytes under the
simulator letting arrays of two dtypes through, load's refusal naming the plan's shape for the array's, grid_1d
rounding its blocks down; the reason a library could not be made losing the exception's type, describe() joining the
reasons with commas, a plan for a new length made for T steps while filed under bucket(T); dot_col's seventh
accumulator reading the row before.

13 mutants. Against the existing targeted tests alone 5 were caught and 8 missed: both of matmul's refusal sentences
(no old test reads either sentence whole), nbtype's and load's refusal sentences, grid_1d rounding down (every
kernel's grid-stride loop still covers each element), the library's reason without its exception type and the reasons
joined by commas (the old tests set the reasons themselves or look for each one inside the line), and the plan made
for T (the old cache tests ask only for lengths equal to their bucket). colsum_prod of D * D passed the direct gemm
tests and was caught once test_values115_bn_gemm_cuda (the column sums' own value tests) joined its list. The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values179_gemm_cuda (the refusal sentences against the shapes worked out by hand under no and both transposes; M
5 by N 9, two row tiles and three column tiles of 4, against np.dot in float64 with either operand transposed; colsum
and colsum_prod over 37 rows in three parts against NumPy's sums), test_values179_arrays_cuda (nbtype's sentence for
np.int32 and float16; copy_bytes of float32 into float64 refused in its own sentence, the destination untouched; load
into a longer buffer's first rows against NumPy, and its refusal naming both arrays; grid_1d against the fewest
blocks that hold n, at least one, at most GRID_MAX_BLOCKS), test_values179_graphs_cuda (describe() as on a GPU
machine where made-up PyTorch and CuPy classes fail to be made, against the whole sentence, each made once; a plan
for 13 steps after one of 9 made for bucket(13) = 14 computed here, then serving a call of 14),
test_values179_rows_cuda (dot_col over two and three passes of eight, strides 1 and 2, against the sums taken here).
Dropped before the catalogue as equivalent or near it: the shared B slab padded with 1 instead of 0 past K (every
such value meets a 0 of A's slab), dot_col's unrolled loop entered one pass later (the tail loop sums the same
terms), split_matvec's "wide" for H equal to the block (one group of whole columns either way) and its reduction over
range(P) when wide (P is 1 there). Left out: fill_zeros's driver memset (the simulator never runs it). The old lists
hold the most direct test files of each module; the column sums' mutants also test_values115_bn_gemm_cuda.

    python tests/mutants/run.py --only 'v179-*'
"""
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"
ARRAYS = "lnrnn/kernels/cuda/arrays_cuda.py"
ROWS = "lnrnn/kernels/cuda/rows_cuda.py"

# existing tests of these modules (the most direct ones)
GEMM_OLD = ["tests/kernels/test_values82_gemm_cuda.py", "tests/kernels/test_values30_gemm_cuda.py"]
GRAPHS_OLD = ["tests/kernels/test_values82_graphs_cuda.py", "tests/kernels/test_values30_graphs_cuda.py",
              "tests/kernels/test_values17_graphs_cuda.py"]
ARRAYS_OLD = ["tests/kernels/test_values82_arrays_cuda.py", "tests/kernels/test_values113_arrays_cuda.py",
              "tests/kernels/test_values19_arrays_cuda.py", "tests/kernels/test_values_arrays_cuda.py"]
ROWS_OLD = ["tests/kernels/test_values82_rows_cuda.py", "tests/kernels/test_values66_rows_cuda.py"]
COLSUM_OLD = ["tests/kernels/test_values115_bn_gemm_cuda.py"] + GEMM_OLD  # the column sums' own value tests

# value tests written for the bugs below (first, so that a caught mutant stops there)
GEMM_NEW = ["tests/kernels/test_values179_gemm_cuda.py"]
GRAPHS_NEW = ["tests/kernels/test_values179_graphs_cuda.py"]
ARRAYS_NEW = ["tests/kernels/test_values179_arrays_cuda.py"]
ROWS_NEW = ["tests/kernels/test_values179_rows_cuda.py"]

MUTANTS = [
    # ---- gemm_cuda: refusal sentences, the tiled kernel's grid, the column sums ----
    dict(name="v179-matmul-inner-refusal-names-op-a-k-for-op-b", file=GEMM,
         old="and op(B) is {(K2, N)}\")",
         new="and op(B) is {(K, N)}\")",
         tests=GEMM_NEW + GEMM_OLD,
         why="matmul's refusal of unequal inner dimensions prints op(A)'s K as op(B)'s: the sentence shows two "
             "shapes that agree"),
    dict(name="v179-matmul-out-refusal-expects-transposed-shape", file=GEMM,
         old="expected {(M, N)}\")",
         new="expected {(N, M)}\")",
         tests=GEMM_NEW + GEMM_OLD,
         why="matmul's refusal of an out of the wrong shape names the transposed shape as the one expected"),
    dict(name="v179-tiled-matmul-grid-axes-swapped", file=GEMM,
         old="    grid = ((N + t - 1) // t, (M + t - 1) // t)",
         new="    grid = ((M + t - 1) // t, (N + t - 1) // t)",
         tests=GEMM_NEW + GEMM_OLD,
         why="the tiled GEMM's grid counts row tiles along x and column tiles along y: where M and N span "
             "different numbers of tiles, some tiles of C are never computed"),
    dict(name="v179-colsum-prod-multiplies-d-by-itself", file=GEMM,
         old="                    d *= X[r, j]\n",
         new="                    d *= D[r, j]\n",
         tests=GEMM_NEW + COLSUM_OLD,
         why="colsum_prod sums D * D, not D * X"),
    dict(name="v179-colsum-part-drops-its-last-row", file=GEMM,
         old="            for r in range(lo + ty, hi, t):",
         new="            for r in range(lo + ty, hi - 1, t):",
         tests=GEMM_NEW + COLSUM_OLD,
         why="each part of the column sums stops one row before its end: the last row of every part is left out"),
    # ---- arrays_cuda: refusal sentences, the simulator's byte copies, the 1-D grid ----
    dict(name="v179-nbtype-refusal-prints-the-raw-dtype", file=ARRAYS,
         old="got {np.dtype(dtype).name}\")",
         new="got {dtype}\")",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="nbtype's refusal prints whatever was passed (\"<class 'numpy.int32'>\") instead of the dtype's name"),
    dict(name="v179-copy-bytes-lets-another-dtype-through", file=ARRAYS,
         old="        if dst.dtype != src.dtype or (dst_at | src_at | nbytes) % d:",
         new="        if (dst_at | src_at | nbytes) % d:",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="under the simulator copy_bytes no longer refuses arrays of two dtypes in its own sentence: a float32 "
             "source reaches numba's copy, which converts values or fails in words of its own"),
    dict(name="v179-load-refusal-names-the-plans-shape-for-the-array", file=ARRAYS,
         old="f\"load: a {src.dtype} {src.shape} array",
         new="f\"load: a {src.dtype} {dst.shape} array",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="load's refusal names the plan's shape for the array that did not fit"),
    dict(name="v179-grid-1d-rounds-blocks-down", file=ARRAYS,
         old="    return max(1, min((n + tpb - 1) // tpb, GRID_MAX_BLOCKS)), tpb",
         new="    return max(1, min(n // tpb, GRID_MAX_BLOCKS)), tpb",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="grid_1d rounds the block count down: a grid of one block too few (the grid-stride loops still "
             "cover every element, one thread doing two, so only the grid itself shows it)"),
    # ---- graphs_cuda: why a library could not serve, the plan made for a new length ----
    dict(name="v179-make-reason-drops-the-exception-type", file=GRAPHS,
         old="            _MADE[name] = f\"{name}: {type(e).__name__}: {e}\"",
         new="            _MADE[name] = f\"{name}: {e}\"",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="the reason a library could not be made loses the exception's type: describe() says 'torch: No "
             "module named torch' without saying it was an import that failed"),
    dict(name="v179-describe-joins-the-reasons-with-commas", file=GRAPHS,
         old="(f\" ({'; '.join(tried)})\"",
         new="(f\" ({', '.join(tried)})\"",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="describe() joins the libraries' reasons with commas, which a reason's own text also holds"),
    dict(name="v179-plan-made-for-the-calls-length-not-its-bucket", file=GRAPHS,
         old="        plan = make(prov, S)",
         new="        plan = make(prov, T)",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="a plan made once calls of other lengths came with the key is made for the call's T steps while it "
             "is filed under bucket(T): a later call of up to bucket(T) steps takes a plan too short for it"),
    # ---- rows_cuda: dot_col's unrolled accumulators ----
    dict(name="v179-dot-col-seventh-term-reads-the-sixth-row-of-w", file=ROWS,
         old="        s6 += v[i + 6 * step] * W[i + 6 * step, col]",
         new="        s6 += v[i + 6 * step] * W[i + 5 * step, col]",
         tests=ROWS_NEW + ROWS_OLD,
         why="a copy-paste slip in dot_col's unrolled loop: every eighth term multiplies v by the row before"),
]
