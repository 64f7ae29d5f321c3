"""Planted bugs, round 178 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates
in compiling, thread blocks, the per-step product choice and the BLAS glue. threads.py: dry_run and block_rows
saving the new value as the old one (the mode and the block rows never given back), run_synced's flags without
the abort slot flags[n]; rec_choice.py: decide keeping the CPU kind's rule for a measured rgemm clearly slower
than the BLAS, the record's key leaving blas.py out, in_turns leaving round 0 untimed (np.empty's leftovers),
measure_dwh timing the BLAS over rgemm's blocks of rows, recorded skipping the folders it may write; blas.py:
gemm adding to out (beta 1), grad_blocks passing (N, K) for (K, N); gemm.py: matmul splitting rows by the
asked rather than the clamped chunk count, sum_rows looping over the wrong axis; compiling.py: the cache's
disambiguator without the BLAS tag, drop_unreadable_index looking for the index under the data files' suffix.

14 mutants. Against the existing targeted tests alone 8 were caught and 6 missed: dry_run's and block_rows'
restore (no old test reads the mode or the block rows after a block ends), measure_dwh's BLAS blocks (no old
test looks at the rows it hands each product), matmul with more chunks than rows, the disambiguator without
the tag and the index's suffix (test_values112_compiling checks neither). That measurement ran on the most
direct old files only (test_threads and test_values141_threads, test_rec_choice and test_values141_rec_choice,
test_gemm, test_values112_compiling; their lists here are those): the full lists' baseline with
test_cache_blas (child processes) ran past eight minutes and was stopped, so test_cache_blas and
test_values94_gemm were not measured. The new value tests catch every mutant on their own (checked with the
old tests taken off the lists): test_values178_threads (run_chunks' chunks against the near-equal split worked
out by hand, before and after a dry_run block; batch_blocks against a hand table of block rows and B, the old
rows back after each block_rows block, nested too; run_synced's parts each with its index, the part count and
n + 1 flags, and part 0's error raising the abort flag), test_values178_rec_choice (decide against a hand
table of ratios at and around both thresholds; host_key against sha1 of its parts written out here over
copies of the three sources, changed by an edit of each and not of another file; in_turns on a fake clock
with known run times; measure_dwh with a fake blas recording each block's rows, every row once per run and
the ratio worked out here; recorded writing the record to a temporary folder and reading it back without
measuring again, choose from it), test_values178_gemm (gemm and gemm_add against float64 NumPy products in
float64 and float32, plain and transposed, out prefilled, a strided view; matmul with 8, 3, 2 and 1 chunks
of 3 rows; sum_rows against the sum of its rows; grad_blocks against grad_budget's rule worked out for
rgemm and the BLAS), test_values178_compiling (the disambiguator and the file base against Numba's own
CacheImpl.get_filename_base for three tags; drop_unreadable_index on a missing, garbled, other-version,
other-stamp, whole and truncated index in a temporary folder).

Dropped as equivalent or not observable from a test: run_chunks' thread count taken from the rows instead of
the chunks (extra threads get empty chunk ranges: same results); the thread pool grown one short (futures
queue on fewer workers: same results); n == 1's part called with n (n is 1 there); sum_rows' copy of part[0]
made a view (the partials are not read afterwards); matmul_tn's grad_blocks with swapped sizes (the partials'
layout follows tw either way: the same sums); decide's None check written as "not ratio" (a measured ratio
is exp of a mean, never 0). Left out for hanging rather than failing: run_synced queuing parts from 2 (part 1
never runs and done.get() waits forever).

    python tests/mutants/run.py --only 'v178-*'
"""
THREADS_NEW = "tests/kernels/test_values178_threads.py"
CHOICE_NEW = "tests/kernels/test_values178_rec_choice.py"
GEMM_NEW = "tests/kernels/test_values178_gemm.py"
COMPILING_NEW = "tests/test_values178_compiling.py"
THREADS_OLD = ["tests/kernels/test_threads.py", "tests/kernels/test_values141_threads.py"]
CHOICE_OLD = ["tests/kernels/test_rec_choice.py", "tests/kernels/test_values141_rec_choice.py"]
GEMM_OLD = ["tests/kernels/test_gemm.py"]
COMPILING_OLD = ["tests/test_values112_compiling.py"]

MUTANTS = [
    # ---- lnrnn/kernels/cpu/threads.py ----
    dict(name="v178-dry-run-mode-not-restored", file="lnrnn/kernels/cpu/threads.py",
         old='    old, _dry["mode"] = _dry["mode"], mode\n',
         new='    old, _dry["mode"] = mode, mode\n',
         tests=[THREADS_NEW] + THREADS_OLD,
         why="dry_run saves the new mode as the old one: after the block every run_chunks call still runs nothing"),
    dict(name="v178-block-rows-not-restored", file="lnrnn/kernels/cpu/threads.py",
         old='    old, _BLOCKS["rows"] = _BLOCKS["rows"], rows\n',
         new='    old, _BLOCKS["rows"] = rows, rows\n',
         tests=[THREADS_NEW] + THREADS_OLD,
         why="block_rows saves the new rows as the old ones: the batch blocks stay split by them after the block"),
    dict(name="v178-synced-flags-no-abort-slot", file="lnrnn/kernels/cpu/threads.py",
         old="    flags = np.zeros(n + 1, dtype=np.int64)\n",
         new="    flags = np.zeros(n, dtype=np.int64)\n",
         tests=[THREADS_NEW] + THREADS_OLD,
         why="run_synced's flags have one slot per part and none for the abort flag flags[n]"),
    # ---- lnrnn/kernels/cpu/rec_choice.py ----
    dict(name="v178-decide-slow-rgemm-keeps-rule", file="lnrnn/kernels/cpu/rec_choice.py",
         old='        return "blas", measured\n',
         new='        return rule[0], measured\n',
         tests=[CHOICE_NEW] + CHOICE_OLD,
         why="a measured rgemm clearly slower than the BLAS still gets the CPU kind's rule, which may be rgemm"),
    dict(name="v178-host-key-misses-blas-source", file="lnrnn/kernels/cpu/rec_choice.py",
         old='KEY_SOURCES = ("rgemm.py", "blas.py", "rec_choice.py")',
         new='KEY_SOURCES = ("rgemm.py", "rec_choice.py")',
         tests=[CHOICE_NEW] + CHOICE_OLD,
         why="the record's key leaves out blas.py: an edited blas.py reads the choice measured against the old one"),
    dict(name="v178-in-turns-round-zero-untimed", file="lnrnn/kernels/cpu/rec_choice.py",
         old="    for r in range(ROUNDS):\n",
         new="    for r in range(1, ROUNDS):\n",
         tests=[CHOICE_NEW] + CHOICE_OLD,
         why="in_turns times rounds 1..ROUNDS-1 only: round 0's row of the times is np.empty's leftovers"),
    dict(name="v178-measure-dwh-blas-blocks-of-rgemm-rows", file="lnrnn/kernels/cpu/rec_choice.py",
         old="            for r0 in range(0, R, nb):\n"
             "                blas.gemm_add(A[r0:r0 + nb], D[r0:r0 + nb], pWh, True)",
         new="            for r0 in range(0, R, nr):\n"
             "                blas.gemm_add(A[r0:r0 + nr], D[r0:r0 + nr], pWh, True)",
         tests=[CHOICE_NEW] + CHOICE_OLD,
         why="measure_dwh times the BLAS over rgemm's blocks of rows, not the blocks the BLAS would run"),
    dict(name="v178-record-writable-folder-skipped", file="lnrnn/kernels/cpu/rec_choice.py",
         old="        if not os.access(folder, os.W_OK):\n",
         new="        if os.access(folder, os.W_OK):\n",
         tests=[CHOICE_NEW] + CHOICE_OLD,
         why="recorded skips the folders it may write and tries the others: no record is ever made where it could be"),
    # ---- lnrnn/kernels/cpu/blas.py ----
    dict(name="v178-gemm-accumulates", file="lnrnn/kernels/cpu/blas.py",
         old="    _gemm(A, W, out, trans_a, False)\n",
         new="    _gemm(A, W, out, trans_a, True)\n",
         tests=[GEMM_NEW] + GEMM_OLD,
         why="gemm adds A @ W to what out held (gemm_add's call copied): beta 1 where it must be 0"),
    dict(name="v178-grad-blocks-swapped-sizes", file="lnrnn/kernels/cpu/blas.py",
         old="    rows = grad_block_rows(K, N, 0, itemsize, big)\n",
         new="    rows = grad_block_rows(N, K, 0, itemsize, big)\n",
         tests=[GEMM_NEW] + GEMM_OLD,
         why="grad_blocks passes (N, K) for (K, N): the block rows are sized by the wrong partial's width"),
    # ---- lnrnn/kernels/cpu/gemm.py ----
    dict(name="v178-matmul-bounds-by-unclamped-chunks", file="lnrnn/kernels/cpu/gemm.py",
         old="        lo, hi = chunk_bounds(N, nch, k)\n        if hi > lo:\n            rows_mul(",
         new="        lo, hi = chunk_bounds(N, nchunks, k)\n        if hi > lo:\n            rows_mul(",
         tests=[GEMM_NEW] + GEMM_OLD,
         why="matmul splits the rows by the asked chunks, not the clamped ones: with more chunks than rows the last "
             "rows are never computed"),
    dict(name="v178-sum-rows-wrong-axis", file="lnrnn/kernels/cpu/gemm.py",
         old="        for j in range(part.shape[1]):\n",
         new="        for j in range(part.shape[0]):\n",
         tests=[GEMM_NEW] + GEMM_OLD,
         why="sum_rows adds only the first nch columns of the later partials (the wrong axis's length)"),
    # ---- lnrnn/compiling.py ----
    dict(name="v178-disambiguator-without-blas-tag", file="lnrnn/compiling.py",
         old='        return f"{self._inner.get_disambiguator()}-{self.tag}"',
         new='        return f"{self._inner.get_disambiguator()}"',
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="cached kernels are no longer named with the BLAS choice: a process reads kernels compiled against "
             "another choice"),
    dict(name="v178-index-looked-up-by-data-suffix", file="lnrnn/compiling.py",
         old='    index = os.path.join(folder, base + ".nbi")',
         new='    index = os.path.join(folder, base + ".nbc")',
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="drop_unreadable_index looks for the index under the data files' suffix: an unreadable index is never "
             "dropped"),
]
