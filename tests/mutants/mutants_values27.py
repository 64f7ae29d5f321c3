"""Planted bugs, round 27 (format: tests/mutants/mutants.py): single-line slips in the modules with the fewest
mutants per line so far: rgemm's products at shapes that are not multiples of its tile (rgemm_add's last, partial
panel and its scratch edge tile, rgemm's edge tiles' rows, rgemm_add's check of panels longer than K), the CPU
threads (clamp_chunks's "at least one chunk", the BN parts' par_min edge and thread count, batch_blocks at two
rows), the choice of per-step product (in_turns's ratio and its untimed first call, measure's geometric mean,
choose's dWh blocks following the measured product, not the rule), the gradient check's defaults (step 1e-4,
fourth order) and lnrnn.api's argument checks and batching (predict's integer lengths and its last, shorter
batch; read's batch of one line; predict's batch size itself, which it did not check: a negative one returned its
uninitialized output as results).

18 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 6 were caught
and 11 missed: clamp_chunks giving no chunk for an empty batch, a BN step of exactly par_min elements kept on one
part, n_parts one thread short, in_turns's ratio inverted, in_turns timing the first (compiling) call, measure's
arithmetic mean, numeric_grad's default step 1e-3 and default order 2, predict taking float lengths, predict's
last batch counted as a whole one, and read refusing batch_size 1; the eighteenth, written after predict gained
its check of batch_size, is predict without it. The new value tests catch every mutant:
test_values27_threads (clamp_chunks and an empty batch's one chunk, batch_blocks against its documented rule
written out for B 1..299 at three block sizes, n_parts below, at and above par_min on a faked thread count and
PART_THREADS), test_values27_rec_choice (in_turns on a fake clock: call counts, best rounds and the median
ratio by hand; measure on fake products against the geometric mean; choose's four cases of ratio, dWh ratio and
rule), test_values27_gradcheck (numeric_grad's defaults on sin(30 x) against its derivative, and equal to
eps=1e-4, order=4 given outright), test_values27_api (float lengths refused, a counting progress over batches
of 3, 1, N and more than N, read with batch_size 1 against the lines read by hand one a batch; batch sizes 0, -1, 2.5 and True refused by
predict and evaluate_run). No mutant
written for this round was dropped; two considered were not written as equivalent: the tile kernel clamping
the rows past b to row 0 instead of b-1 (those rows are computed and never stored), and rgemm_fetch's
fetch_schedule counting edge tiles among the full ones (a prefetch is a hint: the product is the same).

    python tests/mutants/run.py --only 'v27-*'
"""
RGEMM = "lnrnn/kernels/cpu/rgemm.py"
THREADS = "lnrnn/kernels/cpu/threads.py"
REC = "lnrnn/kernels/cpu/rec_choice.py"
GRAD = "lnrnn/gradcheck.py"
API = "lnrnn/api.py"

# existing tests of these modules
RGEMM_OLD = ["tests/kernels/test_rgemm.py"]
THREADS_OLD = ["tests/kernels/test_values9_threads.py",
               "tests/kernels/test_blocks.py::test_batch_blocks_depend_on_the_batch_alone",
               "tests/kernels/test_blocks.py::test_run_chunks_runs_every_chunk_once_on_at_most_the_threads",
               "tests/kernels/test_blocks.py::test_block_rows_setting_is_scoped_and_checked",
               "tests/kernels/test_threads.py::test_every_part_sees_the_whole_step",
               "tests/kernels/test_threads.py::test_a_failing_part_releases_the_others_and_raises"]
REC_OLD = ["tests/kernels/test_rec_choice.py"]
GRAD_OLD = ["tests/test_values_gradcheck.py", "tests/test_values9_gradcheck.py"]
API_OLD = ["tests/test_values_api.py", "tests/test_values10_api.py", "tests/test_values15_api.py"]
READ_OLD = ["tests/test_values_api_read.py", "tests/test_values15_api.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
THREADS_NEW = ["tests/kernels/test_values27_threads.py"]
REC_NEW = ["tests/kernels/test_values27_rec_choice.py"]
GRAD_NEW = ["tests/test_values27_gradcheck.py"]
API_NEW = ["tests/test_values27_api.py"]

MUTANTS = [
    # ---- rgemm: edge tiles, panels, argument checks ----
    dict(name="v27-rgemm-add-last-panel-dropped", file=RGEMM,
         old="    for p in range(Wp.shape[0]):        # panel-major: Wp[p] stays in L1/L2",
         new="    for p in range(G // NR):            # panel-major: Wp[p] stays in L1/L2",
         tests=RGEMM_OLD,
         why="rgemm_add loops over the full panels only: where G is not a multiple of NR the last columns of C "
             "get nothing added"),
    dict(name="v27-rgemm-add-edge-tile-not-zeroed", file=RGEMM,
         old="                        edge[i, j] = 0\n",
         new="                        pass\n",
         tests=RGEMM_OLD,
         why="rgemm_add's scratch tile is not cleared before an edge tile adds into it: each edge tile carries "
             "the one before it (or np.empty's garbage)"),
    dict(name="v27-rgemm-fetch-edge-tile-row-short", file=RGEMM,
         old="            if nc < NR or mr < 4:\n                for i in range(mr):",
         new="            if nc < NR or mr < 4:\n                for i in range(mr - 1):",
         tests=RGEMM_OLD,
         why="rgemm's edge tiles copy one row too few into C: the last row of a ragged batch (and of every "
             "ragged column panel) keeps what C held"),
    dict(name="v27-rgemm-add-exact-panels-only", file=RGEMM,
         old="    if Wp.shape[1] < K or Wp.shape[2]",
         new="    if Wp.shape[1] != K or Wp.shape[2]",
         tests=RGEMM_OLD,
         why="rgemm_add refuses panels longer than K, which its docstring allows (a view of a longer buffer)"),
    # ---- threads: chunks, blocks, BN parts ----
    dict(name="v27-threads-zero-chunks-allowed", file=THREADS,
         old="    return max(1, min(nchunks, n))",
         new="    return min(nchunks, n)",
         tests=THREADS_NEW + THREADS_OLD,
         why="clamp_chunks gives 0 chunks for an empty batch (or nchunks 0): run_chunks then calls no chunk at "
             "all, where the docstring says at least one"),
    dict(name="v27-threads-parts-at-par-min-stay-one", file=THREADS,
         old="    if B * G < par_min:",
         new="    if B * G <= par_min:",
         tests=THREADS_NEW + THREADS_OLD,
         why="a BN step of exactly par_min elements runs on one part, where only fewer than par_min do"),
    dict(name="v27-threads-parts-one-thread-short", file=THREADS,
         old="PART_THREADS or numba.get_num_threads(), B))",
         new="PART_THREADS or numba.get_num_threads() - 1, B))",
         tests=THREADS_NEW + THREADS_OLD,
         why="n_parts splits a BN time loop over one thread fewer than Numba has"),
    dict(name="v27-threads-two-rows-one-block", file=THREADS,
         old="    while 2 * n <= B and 2 * n <= max(2, B // rows):",
         new="    while 2 * n < B and 2 * n <= max(2, B // rows):",
         tests=THREADS_NEW + THREADS_OLD,
         why="a batch of exactly two rows (or 2^k rows at the limit) gets half the blocks it should"),
    # ---- rec_choice: the timing and the choice ----
    dict(name="v27-rec-in-turns-ratio-inverted", file=REC,
         old="np.log(np.median(times[:, 0] / times[:, 1]))",
         new="np.log(np.median(times[:, 1] / times[:, 0]))",
         tests=REC_NEW + REC_OLD,
         why="in_turns returns the log of the BLAS's time over rgemm's: the faster product is taken for the slower"),
    dict(name="v27-rec-in-turns-no-warm-up", file=REC,
         old="    for run in runs:\n        run()\n    times",
         new="    times",
         tests=REC_NEW + REC_OLD,
         why="in_turns times the first calls too: a product's compilation (or first load) falls into round 0"),
    dict(name="v27-rec-measure-arithmetic-mean", file=REC,
         old='"ratio": float(np.exp(np.mean(logs)))',
         new='"ratio": float(np.mean(np.exp(logs)))',
         tests=REC_NEW + REC_OLD,
         why="measure's ratio is the arithmetic mean of the shapes' ratios, not their geometric mean: one slow "
             "shape outweighs the others"),
    dict(name="v27-rec-choose-dwh-by-rule", file=REC,
         old='    return (*choice, *decide_dwh(rec["dwh_ratio"], choice[0]))',
         new='    return (*choice, *decide_dwh(rec["dwh_ratio"], rule[0]))',
         tests=REC_NEW + REC_OLD,
         why="dWh's blocks follow the rule's per-step product, not the measured one: a host measured to run the "
             "BLAS per step takes rgemm's dWh blocks"),
    # ---- gradcheck: its defaults ----
    dict(name="v27-gradcheck-default-eps-too-large", file=GRAD,
         old="def numeric_grad(f, arr, eps=1e-4, idx=None, order=4):",
         new="def numeric_grad(f, arr, eps=1e-3, idx=None, order=4):",
         tests=GRAD_NEW + GRAD_OLD,
         why="the default finite-difference step is ten times larger: truncation error O(eps^4) grows 1e4-fold"),
    dict(name="v27-gradcheck-default-order-2", file=GRAD,
         old="def numeric_grad(f, arr, eps=1e-4, idx=None, order=4):",
         new="def numeric_grad(f, arr, eps=1e-4, idx=None, order=2):",
         tests=GRAD_NEW + GRAD_OLD,
         why="numeric_grad defaults to second-order differences at the fourth-order step: O(eps^2) truncation"),
    # ---- lnrnn.api: argument checks ----
    dict(name="v27-api-predict-float-lengths-taken", file=API,
         old="not np.issubdtype(lengths.dtype, np.integer)",
         new="not np.issubdtype(lengths.dtype, np.number)",
         tests=API_NEW + API_OLD,
         why="predict takes float lengths (2.5) and truncates them instead of refusing them"),
    dict(name="v27-api-predict-last-batch-overruns", file=API,
         old="            e = min(s + batch_size, N)\n",
         new="            e = s + batch_size\n",
         tests=API_NEW + API_OLD,
         why="predict's last batch claims batch_size rows where fewer are left"),
    dict(name="v27-api-read-batch-of-one-refused", file=API,
         old="or not isinstance(value, (int, np.integer)) or value < least:",
         new="or not isinstance(value, (int, np.integer)) or value <= least:",
         tests=API_NEW + READ_OLD,
         why="read (and predict) refuse batch_size 1 (one line at a time)"),
    dict(name="v27-api-predict-batch-size-unchecked", file=API,
         old="    batch_size = _count(batch_size, \"batch_size\")\n",
         new="",
         tests=API_NEW + API_OLD,
         why="predict runs no batch for a negative batch_size and returns its uninitialized output as results "
             "(0: a bare ValueError from range)"),
]
