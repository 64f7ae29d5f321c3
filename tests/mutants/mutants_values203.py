"""Planted bugs, round 203 (format: tests/mutants/mutants.py): single-line slips on lines of the CUDA device arrays,
graph plans and products that no earlier catalogue mutates: is_device calling any host object without copy_to_host a
device array (so to_device hands a Python list back), add_into's kernel stopping one element short, take_steps ignoring
a rev flag of a single column; pool()'s refusal naming LNRNN_CUDA_BLAS, pool() serving the library's allocator under
off, loop_path's refusal printing the path without quotes, describe() listing made providers among the reasons; the
tiled GEMM's K loop stopping one slab short, its trans_a guard testing m against K, its store guard testing n against M,
matmul handing a provider without BLAS its (missing) gemm, the column sums' row ranges starting at p * (N // P),
colsum_ln summing D * X; call_plan asking loop_path without T and calling a cached graph plan fresh.

15 mutants. Against the existing targeted tests alone 7 were caught and 8 missed: take_steps ignoring a single rev
column (the old tests' rev flags span five columns), pool() serving under off (no old test sets LNRNN_CUDA_POOL to off
beside a made library), loop_path's refusal without quotes (no old test reads the sentence whole), describe() listing
made providers (the old tests' _MADE holds reasons only), matmul handing the stand-in its missing gemm (the old tests
run matmul with LNRNN_CUDA_BLAS=off), the column sums' row ranges starting at p * (N // P) (37 rows in 3 parts, as the
old tests sum, start at the same rows either way), and both call_plan mutants (no old test calls call_plan). The new
tests catch every mutant on their own (checked with the old tests taken off the lists): test_values203_gemm_cuda (matmul
on sides of 1, 7 and 33, tiles of 4, plain over an out that held other values and accumulating, no transpose and both,
against np.dot in float64; matmul under the stand-in provider; colsum, colsum_prod and colsum_ln over 38 rows in three
unequal row ranges against NumPy's sums; call_plan with graphs from 8 steps: a fresh plan of 3, a graph plan of 10 that
a call of 9 and a second call of 10 reuse), test_values203_arrays_cuda (to_device of a nested list against np.array,
is_device of host objects; add_into of 7 elements in blocks of 4 threads against NumPy's sum; take_steps and put_steps
of one rev column against step 0 picked here), test_values203_graphs_cuda (pool()'s and loop_path's refusal sentences
word for word, pool() under auto and off with a made-up library allocator, describe() against the whole sentence where
cupy failed beside a made stand-in). Dropped before the catalogue as equivalent or near it: capture_loop's warm step
taking steps[-1] (Eager.capture never warms; only a library's capture would), call_plan asking loop_path with seq_ok
True (the graph test comes first and "seq" is not "graph"), copy_bytes's itemsizes both read from src (the dtypes are
checked equal first), the fill and add kernels' grids from a.shape[0] (grid-stride loops cover every element whatever
the grid), the column sums' parts count from a different divisor (any P >= 1 sums the same rows). Left out: fill_zeros's
driver memset and the PyTorch and CuPy providers' gemm and capture (the simulator never runs them). The old lists hold
the four or five most direct test files of each module; the gemm list also test_values115_bn_gemm_cuda (the column sums'
own value tests).

    python tests/mutants/run.py --only 'v203-*'
"""
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"
ARRAYS = "lnrnn/kernels/cuda/arrays_cuda.py"

# existing tests of these modules (the most direct ones)
GEMM_OLD = ["tests/kernels/test_values179_gemm_cuda.py", "tests/kernels/test_values82_gemm_cuda.py",
            "tests/kernels/test_values30_gemm_cuda.py", "tests/kernels/test_values115_bn_gemm_cuda.py"]
GRAPHS_OLD = ["tests/kernels/test_values179_graphs_cuda.py", "tests/kernels/test_values82_graphs_cuda.py",
              "tests/kernels/test_values30_graphs_cuda.py", "tests/kernels/test_values17_graphs_cuda.py"]
ARRAYS_OLD = ["tests/kernels/test_values179_arrays_cuda.py", "tests/kernels/test_values113_arrays_cuda.py",
              "tests/kernels/test_values82_arrays_cuda.py", "tests/kernels/test_values19_arrays_cuda.py",
              "tests/kernels/test_values_arrays_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
GEMM_NEW = ["tests/kernels/test_values203_gemm_cuda.py"]
GRAPHS_NEW = ["tests/kernels/test_values203_graphs_cuda.py"]
ARRAYS_NEW = ["tests/kernels/test_values203_arrays_cuda.py"]

MUTANTS = [
    # ---- arrays_cuda: host objects, add_into, a single rev column ----
    dict(name="v203-is-device-any-host-object", file=ARRAYS,
         old='return not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host")',
         new='return not isinstance(a, np.ndarray) or hasattr(a, "copy_to_host")',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="is_device takes every object that is not a NumPy array for a device array: to_device hands a Python "
             "list (or tuple) back unchanged instead of copying it to the device"),
    dict(name="v203-add-kernel-one-element-short", file=ARRAYS,
         old="    for i in range(start, out.shape[0], stride):\n        out[i] += a[i]",
         new="    for i in range(start, out.shape[0] - 1, stride):\n        out[i] += a[i]",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="add_into's grid-stride loop stops before the last element: out's last value keeps its old value"),
    dict(name="v203-take-steps-one-rev-column-ignored", file=ARRAYS,
         old="    B, H = out.shape\n    any_rev = rev.shape[0] > 0",
         new="    B, H = out.shape\n    any_rev = rev.shape[0] > 1",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="take_steps reads the rev flags only when there are two or more: a single reversed column (H = 1) takes "
             "each row's own step instead of step 0"),
    # ---- graphs_cuda: pool, loop_path's refusal, describe's reasons ----
    dict(name="v203-pool-refusal-names-the-blas-variable", file=GRAPHS,
         old='raise ValueError(f"LNRNN_CUDA_POOL/config.CUDA_POOL is {want!r}; use auto or off")',
         new='raise ValueError(f"LNRNN_CUDA_BLAS/config.CUDA_POOL is {want!r}; use auto or off")',
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="pool()'s refusal of an unknown word names LNRNN_CUDA_BLAS (copied from choice()) as the variable to fix"),
    dict(name="v203-pool-off-still-pools", file=GRAPHS,
         old='prov = provider() if want == "auto" else None',
         new='prov = provider()',
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="LNRNN_CUDA_POOL=off is read and then ignored: device arrays still come from the library's allocator"),
    dict(name="v203-loop-path-refusal-without-quotes", file=GRAPHS,
         old="{want!r}; use one of {",
         new="{want}; use one of {",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="loop_path's refusal prints the configured path bare, not as the string it is (an empty or spaced value "
             "cannot be seen)"),
    dict(name="v203-describe-lists-made-providers-as-reasons", file=GRAPHS,
         old="tried = [v for v in _MADE.values() if isinstance(v, str)]",
         new="tried = [v for v in _MADE.values() if v]",
         tests=GRAPHS_NEW + GRAPHS_OLD,
         why="describe() lists every entry of _MADE as a reason, made providers too: where one library was made and "
             "the asked-for one failed, the join fails on the provider object"),
    # ---- gemm_cuda: the tiled kernel, matmul's dispatch, the column sums, call_plan ----
    dict(name="v203-gemm-k-loop-one-slab-short", file=GEMM,
         old="for k0 in range(0, K, t):",
         new="for k0 in range(0, K - 1, t):",
         tests=GEMM_NEW + GEMM_OLD,
         why="the tiled product's slab loop stops at K - 1: K of 1 gives no slab at all (C = 0) and K of 33 with "
             "tiles of 4 drops the last slab's one row"),
    dict(name="v203-gemm-trans-a-guard-m-against-k", file=GEMM,
         old="sA[tx, ty] = A[k, m] if (k < K and m < M)",
         new="sA[tx, ty] = A[k, m] if (k < K and m < K)",
         tests=GEMM_NEW + GEMM_OLD,
         why="the transposed A slab's bound tests m against K: rows of C past K are zero when M > K, and A is read "
             "past its columns when M < K"),
    dict(name="v203-gemm-store-guard-n-against-m", file=GEMM,
         old="if m < M and n < N:",
         new="if m < M and n < M:",
         tests=GEMM_NEW + GEMM_OLD,
         why="the tiled product stores C[m, n] for n < M: columns past M keep their old values when N > M, and "
             "writes run past C's columns when N < M"),
    dict(name="v203-matmul-blas-less-provider-gets-gemm", file=GEMM,
         old="if prov is None or not prov.blas:",
         new="if prov is None:",
         tests=GEMM_NEW + GEMM_OLD,
         why="matmul hands any provider the product, the stand-in without BLAS too: it has no gemm"),
    dict(name="v203-colsum-range-start-floored-first", file=GEMM,
         old="lo = (p * N) // P",
         new="lo = p * (N // P)",
         tests=GEMM_NEW + GEMM_OLD,
         why="a column-sum part starts at p * (N // P) while the one before ends at ((p) * N) // P: when P does not "
             "divide N a row is summed twice (38 rows in 3 parts: row 24)"),
    dict(name="v203-colsum-ln-sums-d-times-x", file=GEMM,
         old="return _colsum(D, X, mean, rstd, SUM_LN)",
         new="return _colsum(D, X, mean, rstd, SUM_PROD)",
         tests=GEMM_NEW + GEMM_OLD,
         why="colsum_ln sums D * X instead of D * xhat: the layer norm gain's gradient without the normalization"),
    dict(name="v203-call-plan-loop-path-without-t", file=GEMM,
         old='if loop_path(False, T) == "graph":',
         new='if loop_path(False) == "graph":',
         tests=GEMM_NEW + GEMM_OLD,
         why="call_plan asks loop_path without the call's length: calls shorter than CUDA_GRAPH_MIN_STEPS take "
             "the graph path and fill the plan cache"),
    dict(name="v203-call-plan-cached-plan-called-fresh", file=GEMM,
         old="return plan_for(kind, T, key, make), False",
         new="return plan_for(kind, T, key, make), True",
         tests=GEMM_NEW + GEMM_OLD,
         why="a cached graph plan is called fresh: the caller may hand its buffers out, and the next call of the "
             "key overwrites them"),
]
