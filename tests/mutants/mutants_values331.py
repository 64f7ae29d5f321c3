"""Planted bugs, round 331 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CUDA graph plans (lnrnn/kernels/cuda/graphs_cuda.py), the device arrays
(lnrnn/kernels/cuda/arrays_cuda.py) and the CUDA GEMMs (lnrnn/kernels/cuda/gemm_cuda.py), seventeenth pass: a
library's device arrays given their strides in Fortran order; describe() calling the stand-in a cuBLAS library
and naming the caching allocator only when none serves; a "graph" loop asked for served only under "auto"; a
longer call given a plan of fewer steps than it needs (no plan fits, yet one is looked for); the warm-up before a
capture run on the last step of the range; to_host turning a list into a tuple; load checking
the plan's buffer for C order instead of the array it is given; transpose into an out of the input's own shape;
the tiled kernel told trans_b for trans_a; each thread writing its row
index's column; accumulate inverted; projection_into splitting the rows after H, not B.

13 mutants. Against the old targeted files alone: not measured yet. (test_values286_graphs_rows_cuda,
test_values203_graphs_cuda, test_values179_graphs_cuda; test_values286_gemm_arrays_cuda,
test_values203_arrays_cuda; test_values203_gemm_cuda.) The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values331_graphs_cuda (c_strides against NumPy's strides
of C-ordered arrays and 280, 56, 8 written out; describe() of the stand-in and of a made-up library with its
allocator under LNRNN_CUDA_POOL auto and off, word for word; loop_path "graph" at one step and "auto" at 3 and 4
steps with CUDA_GRAPH_MIN_STEPS 4; a plan of 20 serving 18, a call of 21 getting bucket(21) = 24 and an exact 18
one of its own; capture_loop's warm-up as before, the first step and after), test_values331_gemm_arrays_cuda
(matmul at sides of 1, 3 and 17 under each transpose, plain and accumulating into an out that held values,
against np.dot in float64; projection_grads with B = 2, H = 3 against dx = dXW Wx^T, dWx = X^T dXW and
dWh = Hprev^T dHW; to_host of a list holding a tuple; copy and transpose of a 3 x 5 array against a.T; load's
refusal of a transposed view word for word with nothing written).

Left out as equivalent: grid_1d's count in fill made a.shape[0] (grid-stride loops cover every element with any
grid); colsum_launch's `P == 1` made `P <= 2` (one part over every row gives the same sums); fill's value passed
without a.dtype.type (the kernel casts on store); to_device without np.ascontiguousarray (copy_to_device lays out
any strides in C order); copy's is_c_contiguous made is_f_contiguous (under the simulator a flat view of an
F-ordered array is reshaped in C order, so the copy holds a.T either way; tried and not caught).
Left out as flaky: put_steps's zeros made empty (the simulator's fresh arrays often hold
zeros). Left out as not reachable under the simulator or without PyTorch/CuPy: the Torch and Cupy classes' lines
(empty's pointer arithmetic, the capture streams). Left out as crash-only duplicates: matmul's M, K read with
trans_b for trans_a (refused with the inner-dimension sentence, mutated already on the next lines).

    python tests/mutants/run.py --only 'v331-*'
"""
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"
ARRAYS = "lnrnn/kernels/cuda/arrays_cuda.py"
GEMM = "lnrnn/kernels/cuda/gemm_cuda.py"

T_GRAPHS = "tests/kernels/test_values331_graphs_cuda.py::"
T_GA = "tests/kernels/test_values331_gemm_arrays_cuda.py::"
OLD_GRAPHS = ["tests/kernels/test_values286_graphs_rows_cuda.py", "tests/kernels/test_values203_graphs_cuda.py",
              "tests/kernels/test_values179_graphs_cuda.py"]
OLD_ARRAYS = ["tests/kernels/test_values286_gemm_arrays_cuda.py", "tests/kernels/test_values203_arrays_cuda.py"]
OLD_GEMM = ["tests/kernels/test_values286_gemm_arrays_cuda.py", "tests/kernels/test_values203_gemm_cuda.py"]

MUTANTS = [
    # ---- graph plans: lnrnn/kernels/cuda/graphs_cuda.py ----
    dict(name="v331-graphs-c-strides-not-reversed", file=GRAPHS,
         old="    return tuple(reversed(out))",
         new="    return tuple(out)",
         tests=[T_GRAPHS + "test_c_strides_are_numpys_c_order_strides"] + OLD_GRAPHS,
         why="a library's device arrays get their strides last axis first (Fortran order): a 3 x 5 x 7 float64 "
             "array strided 8, 56, 280"),
    dict(name="v331-graphs-describe-eager-inverted", file=GRAPHS,
         old='''how = ("numba's tiled GEMM, time loops replayed" if p.name == "eager" else''',
         new='''how = ("numba's tiled GEMM, time loops replayed" if p.name != "eager" else''',
         tests=[T_GRAPHS + "test_describe_of_the_stand_in",
                T_GRAPHS + "test_describe_of_a_library_with_and_without_its_allocator"] + OLD_GRAPHS,
         why="describe() calls the simulator's stand-in cuBLAS through eager, and a real library numba's tiled GEMM"),
    dict(name="v331-graphs-describe-pool-inverted", file=GRAPHS,
         old='''+ (", device arrays from its caching allocator" if pool() is not None else ""))''',
         new='''+ (", device arrays from its caching allocator" if pool() is None else ""))''',
         tests=[T_GRAPHS + "test_describe_of_a_library_with_and_without_its_allocator"] + OLD_GRAPHS,
         why="describe() names the caching allocator under LNRNN_CUDA_POOL=off and not under auto"),
    dict(name="v331-graphs-loop-path-graph-word-dropped", file=GRAPHS,
         old='    if want in ("auto", "graph") and prov is not None and prov.graphs and long:',
         new='    if want == "auto" and prov is not None and prov.graphs and long:',
         tests=[T_GRAPHS + "test_loop_path_graph_asked_for_serves_one_step_and_auto_from_the_minimum"] + OLD_GRAPHS,
         why='CUDA_LOOP_PATH="graph" never gives the graph path: the per-step launches run instead'),
    dict(name="v331-graphs-plan-looked-for-among-all-of-the-key", file=GRAPHS,
         old="    if fits:\n",
         new="    if same:\n",
         tests=[T_GRAPHS + "test_a_plan_serves_fewer_steps_and_a_longer_call_gets_its_own"] + OLD_GRAPHS,
         why="a call longer than every plan of its key looks for the shortest fitting plan among none and fails "
             "instead of getting a plan of bucket(T) steps"),
    dict(name="v331-graphs-warm-up-on-the-last-step", file=GRAPHS,
         old="        step(steps[0], stream)\n",
         new="        step(steps[-1], stream)\n",
         tests=[T_GRAPHS + "test_capture_warms_with_the_first_step_then_replays_every_step"] + OLD_GRAPHS,
         why="the warm-up before a capture runs the range's last step instead of its first (a reversed loop warms "
             "at the step it ends on)"),
    # ---- device arrays: lnrnn/kernels/cuda/arrays_cuda.py ----
    dict(name="v331-arrays-to-host-list-becomes-tuple", file=ARRAYS,
         old="        return type(obj)(to_host(o) for o in obj)",
         new="        return tuple(to_host(o) for o in obj)",
         tests=[T_GA + "test_to_host_keeps_lists_and_tuples"] + OLD_ARRAYS,
         why="to_host of a list of device arrays returns a tuple"),
    dict(name="v331-arrays-load-checks-the-buffers-order", file=ARRAYS,
         old="                    or not src.is_c_contiguous()):",
         new="                    or not dst.is_c_contiguous()):",
         tests=[T_GA + "test_load_refuses_a_transposed_view_and_fills_the_first_rows"] + OLD_ARRAYS,
         why="load takes a transposed view's bytes into a plan's buffer instead of refusing it"),
    dict(name="v331-arrays-transpose-out-of-input-shape", file=ARRAYS,
         old="    return transpose_into(a, empty((N, M), a.dtype))",
         new="    return transpose_into(a, empty((M, N), a.dtype))",
         tests=[T_GA + "test_copy_and_transpose_of_a_three_by_five_array"] + OLD_ARRAYS,
         why="transpose of an M x N array writes into an M x N out (out of bounds past the diagonal, wrong shape)"),
    # ---- GEMMs: lnrnn/kernels/cuda/gemm_cuda.py ----
    dict(name="v331-gemm-tiled-flags-swapped", file=GEMM,
         old="(A, B, out, bool(trans_a), bool(trans_b), bool(accumulate))",
         new="(A, B, out, bool(trans_b), bool(trans_a), bool(accumulate))",
         tests=[T_GA + "test_matmul_with_transposed_operands_plain_and_accumulated",
                T_GA + "test_projection_grads_against_their_definition"] + OLD_GEMM,
         why="the tiled kernel reads A as transposed when B is, and the other way round"),
    dict(name="v331-gemm-kernel-column-from-row-index", file=GEMM,
         old="        m = m0 + ty\n        n = n0 + tx\n        if m < M and n < N:",
         new="        m = m0 + ty\n        n = n0 + ty\n        if m < M and n < N:",
         tests=[T_GA + "test_matmul_with_transposed_operands_plain_and_accumulated",
                T_GA + "test_projection_grads_against_their_definition"] + OLD_GEMM,
         why="each thread writes its sum into the column of its row index: a tile's off-diagonal sums are lost"),
    dict(name="v331-gemm-kernel-accumulate-inverted", file=GEMM,
         old="            if accumulate:\n                C[m, n] += s",
         new="            if not accumulate:\n                C[m, n] += s",
         tests=[T_GA + "test_matmul_with_transposed_operands_plain_and_accumulated",
                T_GA + "test_projection_grads_against_their_definition"] + OLD_GEMM,
         why="the tiled kernel adds to out when asked to overwrite it and overwrites it when asked to add"),
    dict(name="v331-gemm-projection-rows-split-at-h", file=GEMM,
         old="    B = h0.shape[0]\n    if I:",
         new="    B = h0.shape[1]\n    if I:",
         tests=[T_GA + "test_projection_grads_against_their_definition"] + OLD_GEMM,
         why="projection_into splits Hprev's rows after H (the state width) instead of B (the batch rows)"),
]
