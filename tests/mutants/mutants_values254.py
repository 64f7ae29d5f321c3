"""Planted bugs, round 254 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the CPU plumbing around the kernels: the per-step product's choice (lnrnn/kernels/cpu/blas.py), the row blocks and
chunks dealt to threads (lnrnn/kernels/cpu/threads.py) and the compile cache's keys and stamps
(lnrnn/compiling.py): a CPU without AVX-512 ruled onto rgemm; LNRNN_REC_GEMM=blas ignored as unknown; an unknown
LNRNN_REC_GEMM not noted beside the measurement's reason; the process's BLAS line describing the other product; the
whole-pass dWh blocks sent to rgemm by the dWh choice instead of the per-step one; the LSTM dWh block's transposed-
product test counting steps instead of rows; rgemm's big budget giving the default block rows; run_chunks dealing
more chunks than rows; an exception in a worker's chunk swallowed; --block-rows rounded instead of truncated; an
index's data files looked for under the index's base name; an intact cache index reported as deleted; a lock file
for signatures compiled already and none for new ones; a user's locator list left without lnrnn's locator; and,
added with drop_unreadable_index's module check, an entry of another module's name kept and the module not
passed by the locator.

16 mutants (the last 2 added with that check, each caught by test_values254_compiling's tests of it). Against the old targeted files alone (the OLD_* lists) the measurement was cut short on a loaded host (3
to 7 minutes a mutant): of the first 9, 6 were caught; missed were the BLAS line describing the other product,
grad_blocks taking DWH's choice for REC's, and a worker thread's exception swallowed; the other 5 were not run.
(test_cache_blas, test_blocks, test_values71_rec_choice, test_values178_threads under tests/kernels;
test_values178_compiling, test_values205_compiling under tests/.) The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values254_blas_threads (the rule's choice and sentence
per CPU kind with AVX-512 and the vendor set here; LNRNN_REC_GEMM / LNRNN_DWH_GEMM choices and reasons word for
word; an unknown value's note after a measurement stood in by hand, and the library name and rule handed to it; a
fresh process with LNRNN_REC_GEMM=blas reporting its choice, reasons and BLAS line, the line built from lnrnn.mkl's
path; dWh/dWx block rows and (steps, transposed) pairs worked out from the L2/big budgets by hand, the S2 case's 4
blocks of 7 steps; batch_blocks at 13 sizes and chunk bounds of 95 and 1000 rows by hand; run_chunks' chunks at 3
rows of 5 asked and 7 rows of 3, and on 3 threads its runs [0,1), [1,3), [3,5) with chunk 0 on the calling thread
and a worker's exception re-raised; block_rows(2.6) as 2 rows and 0.5's refusal word for word),
test_values254_compiling (kernel_sources of a package tree laid out in a temporary folder; drop_unreadable_index
over index and data files pickled in the test: intact, missing data, a wrong signature, another stamp or version,
garbled, absent; compile_lock_path of a compiled and an uncompiled signature, the key by hashlib; a user's
NUMBA_CACHE_LOCATOR_CLASSES with lnrnn's locator put first once and an empty one left empty). Left out as
equivalent: _file_base's getattr(sys, 'abiflags', '') made '' (CPython's abiflags are '' on the builds used here);
run_synced's part(0, 1, ...) made part(0, n, ...) (n is 1 there); rec_mul_fetch's BLAS branch made gemm_mul_fetch
(the same product without MKL's packing: the same values, only slower). Left out as a crash at import rather than a
value: kernel_sources listing kernels/ under each folder's name (the stamp's os.stat fails on cpu/batchnorm.py when
blas.py is imported). Left out as not cheaply observable: run_chunks' pool size made nthr (one idle extra worker
thread, same chunks and values). Left out to keep the round at 14: LNRNN_DWH_GEMM=blas ignored
(test_dwh_gemm_blas_asked_for_on_rgemm reads that choice and its reason all the same).

    python tests/mutants/run.py --only 'v254-*'
"""
BLAS = "lnrnn/kernels/cpu/blas.py"
THREADS = "lnrnn/kernels/cpu/threads.py"
COMP = "lnrnn/compiling.py"

T_BT = "tests/kernels/test_values254_blas_threads.py::"
T_COMP = "tests/test_values254_compiling.py::"
OLD_BLAS = ["tests/kernels/test_cache_blas.py", "tests/kernels/test_blocks.py",
            "tests/kernels/test_values71_rec_choice.py"]
OLD_THREADS = ["tests/kernels/test_values178_threads.py", "tests/kernels/test_blocks.py"]
OLD_COMP = ["tests/test_values178_compiling.py", "tests/test_values205_compiling.py",
            "tests/kernels/test_cache_blas.py"]

MUTANTS = [
    # ---- the per-step product's choice and block sizes: lnrnn/kernels/cpu/blas.py ----
    dict(name="v254-blas-rule-no-avx512-on-rgemm", file=BLAS,
         old="""        return "blas", "the CPU has no AVX-512, where rgemm's 256-bit tile""",
         new="""        return "rgemm", "the CPU has no AVX-512, where rgemm's 256-bit tile""",
         tests=[T_BT + "test_rule_by_cpu_kind", T_BT + "test_unknown_rec_gemm_noted_beside_the_measurement"]
         + OLD_BLAS,
         why="a CPU without AVX-512 is ruled onto rgemm while the reason says the BLAS is faster"),
    dict(name="v254-blas-rec-gemm-blas-unknown", file=BLAS,
         old="""    if asked in ("rgemm", "blas"):
        return _asked_dwh(asked,""",
         new="""    if asked in ("rgemm",):
        return _asked_dwh(asked,""",
         tests=[T_BT + "test_rec_gemm_asked_for_wins_over_numpy_blas",
                T_BT + "test_fresh_process_with_rec_gemm_blas_reports_it"] + OLD_BLAS,
         why="LNRNN_REC_GEMM=blas is treated as an unknown value: ignored, noted as neither rgemm nor blas"),
    dict(name="v254-blas-unknown-rec-gemm-note-dropped", file=BLAS,
         old="    return _asked_dwh(rec, why + note, dwh, dwh_why)",
         new="    return _asked_dwh(rec, why, dwh, dwh_why)",
         tests=[T_BT + "test_unknown_rec_gemm_noted_beside_the_measurement"] + OLD_BLAS,
         why="an unknown LNRNN_REC_GEMM is ignored silently where a measurement decides: lnrnn info's reason "
             "does not say so"),
    dict(name="v254-blas-line-describes-the-other-product", file=BLAS,
         old='if REC == "blas":\n    BLAS = ',
         new='if REC == "rgemm":\n    BLAS = ',
         tests=[T_BT + "test_fresh_process_with_rec_gemm_blas_reports_it"] + OLD_BLAS,
         why="the BLAS line lnrnn info and the benches print describes rgemm where the BLAS runs the steps "
             "and the other way round"),
    dict(name="v254-blas-grad-blocks-tw-by-dwh", file=BLAS,
         old="    return rows, grad_on_rgemm(K, N, 0, rows, itemsize, rec, big)",
         new="    return rows, grad_on_rgemm(K, N, 0, rows, itemsize, DWH, big)",
         tests=[T_BT + "test_grad_blocks_follow_the_per_step_product"] + OLD_BLAS,
         why="the RNN/BN cells' dWh blocks go to rgemm's transposed product only where dWh's measurement "
             "chose rgemm, not wherever rgemm runs the steps"),
    dict(name="v254-blas-dwh-blocks-tw-counts-steps", file=BLAS,
         old="    tw = grad_on_rgemm(H, 4 * H, I, nb * m, itemsize, rec, big)",
         new="    tw = grad_on_rgemm(H, 4 * H, I, nb, itemsize, rec, big)",
         tests=[T_BT + "test_dwh_blocks_by_hand"] + OLD_BLAS,
         why="the LSTM's dWh block is judged by its step count instead of its rows: 300-row chunks go to "
             "rgemm's transposed product past half the L2 budget"),
    dict(name="v254-blas-big-budget-default-rows", file=BLAS,
         old="    if budget == 0:\n        return DWH_BLOCK_ROWS",
         new="    if budget != DWH_L2_BYTES:\n        return DWH_BLOCK_ROWS",
         tests=[T_BT + "test_grad_block_rows_by_hand"] + OLD_BLAS,
         why="rgemm's big budget (4 MiB) gives DWH_BLOCK_ROWS rows a block instead of a quarter of it in rows"),
    # ---- row blocks and chunks: lnrnn/kernels/cpu/threads.py ----
    dict(name="v254-threads-chunks-not-clamped-to-rows", file=THREADS,
         old="    nch = clamp_chunks(nchunks, n)",
         new="    nch = clamp_chunks(nchunks, nchunks)",
         tests=[T_BT + "test_run_chunks_never_more_chunks_than_rows"] + OLD_THREADS,
         why="run_chunks deals more chunks than rows: empty chunks, and the rows' bounds shift"),
    dict(name="v254-threads-worker-exception-swallowed", file=THREADS,
         old="    for f in futures:\n        f.result()",
         new="    for f in futures:\n        f.exception()",
         tests=[T_BT + "test_run_chunks_on_three_threads_deals_whole_runs_and_reraises"] + OLD_THREADS,
         why="an exception in a chunk run on a worker thread is waited for but not re-raised"),
    dict(name="v254-threads-block-rows-rounded", file=THREADS,
         old="    rows = int(rows)",
         new="    rows = round(rows)",
         tests=[T_BT + "test_block_rows_truncates_to_whole_rows"] + OLD_THREADS,
         why="block_rows(2.6) holds blocks of at least 3 rows, not 2: 16 rows in 4 blocks instead of 8"),
    # ---- the compile cache: lnrnn/compiling.py ----
    dict(name="v254-compiling-data-file-read-by-index-base", file=COMP,
         old='                with open(os.path.join(folder, name), "rb") as f:',
         new='                with open(os.path.join(folder, base), "rb") as f:',
         tests=[T_COMP + "test_drop_unreadable_index_keeps_good_and_drops_bad"] + OLD_COMP,
         why="the index's data files are looked for under the index's base name: never found, so one holding "
             "another signature than its key is never caught and Numba loads the wrong code"),
    dict(name="v254-compiling-intact-index-said-dropped", file=COMP,
         old='not {module}")\n        return False',
         new='not {module}")\n        return True',
         tests=[T_COMP + "test_drop_unreadable_index_keeps_good_and_drops_bad"] + OLD_COMP,
         why="an intact index is reported as deleted"),
    dict(name="v254-compiling-lock-for-compiled-signature", file=COMP,
         old="    if tuple(args) in disp.overloads:",
         new="    if tuple(args) not in disp.overloads:",
         tests=[T_COMP + "test_lock_path_only_for_a_signature_not_compiled_here"] + OLD_COMP,
         why="a lock file is taken for signatures compiled already and none for new ones: processes on a cold "
             "cache all compile"),
    dict(name="v254-compiling-user-locators-without-ours", file=COMP,
         old="    if config.CACHE_LOCATOR_CLASSES and _OURS not in config.CACHE_LOCATOR_CLASSES:",
         new="    if config.CACHE_LOCATOR_CLASSES and _OURS in config.CACHE_LOCATOR_CLASSES:",
         tests=[T_COMP + "test_user_locator_list_gets_ours_first_once"] + OLD_COMP,
         why="a user's NUMBA_CACHE_LOCATOR_CLASSES replaces lnrnn's locator: kernels cached without the BLAS "
             "choice in their names"),
    # added with the module-name check of drop_unreadable_index (a kernel file loaded under two names)
    dict(name="v254-compiling-other-module-entry-kept", file=COMP,
         old="            if module is not None and isinstance(payload[2], str) and payload[2] != module:",
         new="            if module is not None and isinstance(payload[2], str) and payload[2] == module:",
         tests=[T_COMP + "test_drop_unreadable_index_drops_an_entry_of_another_module"] + OLD_COMP,
         why="a cache entry compiled for the same file under another module's name is loaded (ModuleNotFoundError "
             "where that module does not exist) and the function's own entries are dropped"),
    dict(name="v254-compiling-module-not-passed", file=COMP,
         old="                                      self.get_source_stamp(), py_func.__module__)",
         new="                                      self.get_source_stamp())",
         tests=[T_COMP + "test_a_kernel_file_loaded_under_two_module_names_runs_in_both"] + OLD_COMP,
         why="the locator checks no module name: a kernel file loaded under a second name fails to load the "
             "first name's cache entry (ModuleNotFoundError)"),
]
