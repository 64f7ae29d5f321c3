"""Planted bugs, round 284 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the compile cache (lnrnn/compiling.py), the BLAS and per-step product choice (lnrnn/kernels/cpu/blas.py,
lnrnn/kernels/cpu/rec_choice.py, lnrnn/mkl.py) and the chunk threads (lnrnn/kernels/cpu/threads.py), thirteenth
pass: a measured ratio printed to one place in lnrnn info's reason; a ratio under RGEMM_BELOW choosing the BLAS;
the host key hashed without the separator between CPU, BLAS and Python; the key cut to 15 hex digits; the record
looked up with the BLAS name and the CPU swapped; the measuring child started with LNRNN_REC_GEMM=blas; choose
without a record giving the per-step BLAS rule the reason of rgemm's dWh blocks ("not measured"); _choose_rec
handing rec_choice the rule of a host with MKL whatever it was given; LNRNN_DWH_GEMM=blas ignored; a library
lacking one CBLAS symbol taken; LNRNN_MKL_LIB set empty taken for a path; run_chunks' pool recording one worker
more than it made (the next call asking for one more thread runs two chunks on one worker); a garbled or wrong
cache index reported deleted but left in place; every function, lnrnn's or not, taking lnrnn's cache locator.

14 mutants. Against the old targeted files alone: not measured yet. (test_values178_rec_choice,
test_values71_rec_choice, test_values254_blas_threads, test_values216_mkl, test_values178_threads under
tests/kernels; test_values254_compiling under tests/.) The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values284_rec_choice (decide's reasons with the ratio to two
places written out by hand at 0.874, 0.8951, 1.234 and 0.9; the record's file named by the key computed with
hashlib (test_values178's key_by_hand), its JSON read back, a counting stand-in for the child, measured again for
another CPU and for a record under the right name holding another key; the child's command line and environment
with LNRNN_REC_GEMM, LNRNN_NO_CACHE and NUMBA_NUM_THREADS word for word and its last output line read; choose's
four reasons without a record and with one; the rule _choose_rec hands over with and without MKL on an Intel CPU;
LNRNN_DWH_GEMM's values ' BLAS ', 'blas', 'Rgemm' accepted and 'numpy', '' ignored), test_values284_mkl_threads
(llvmlite's loader and lookup stood in as in test_values216_mkl: a library lacking cblas_dgemm_compute, or both
pack symbols, refused naming them; LNRNN_MKL_LIB empty, missing and set, LNRNN_BLAS=NumPy, word for word;
run_chunks on 2 then 3 threads with three chunks meeting at a barrier only all three running at once pass),
test_values284_compiling (index files pickled by hand with test_values254's _index: absent, intact, another
stamp, the wrong signature, cut short, the folder listed after; _uses_lnrnn of functions made with exec in globals
of their own). Left out as equivalent: run_chunks' pool grown on `<=` instead of `<` (a pool of the same size made
again: the same chunks and values); rec_choice.decide's `if ratio is None` made `if not ratio` (a ratio of
rgemm's time to the BLAS's is never 0); read_record's second read under the lock dropped (the first read, the
measurement and the record are the same: only a second child may run). Left out as a hang rather than a value:
run_synced's parts started from range(2, n) (the caller waits for a part that never runs). Left out as not
cheaply observable: _MKL_NAME taken as the full path (read only in a fresh process with MKL present, not on
every host); _file_base's Python minor version (needs a second interpreter). Left out to keep the round at 14:
_rule's "AVX-512 without MKL" case made "blas" (test_values254's test_rule_by_cpu_kind reads it, and so does
test_choose_rec_hands_over_the_rule_of_its_own_mkl); the dWh reason's ratio to one place.

    python tests/mutants/run.py --only 'v284-*'
"""
BLAS = "lnrnn/kernels/cpu/blas.py"
REC = "lnrnn/kernels/cpu/rec_choice.py"
MKL = "lnrnn/mkl.py"
THREADS = "lnrnn/kernels/cpu/threads.py"
COMP = "lnrnn/compiling.py"

T_REC = "tests/kernels/test_values284_rec_choice.py::"
T_MT = "tests/kernels/test_values284_mkl_threads.py::"
T_COMP = "tests/kernels/test_values284_compiling.py::"
OLD_REC = ["tests/kernels/test_values178_rec_choice.py", "tests/kernels/test_values71_rec_choice.py",
           "tests/kernels/test_values254_blas_threads.py"]
OLD_BLAS = ["tests/kernels/test_values254_blas_threads.py", "tests/kernels/test_values71_rec_choice.py"]
OLD_MKL = ["tests/kernels/test_values216_mkl.py"]
OLD_THREADS = ["tests/kernels/test_values178_threads.py", "tests/kernels/test_values254_blas_threads.py"]
OLD_COMP = ["tests/test_values254_compiling.py"]

MUTANTS = [
    # ---- the measured choice and its record: lnrnn/kernels/cpu/rec_choice.py ----
    dict(name="v284-rec-reason-ratio-one-place", file=REC,
         old='rgemm took {ratio:.2f}x the BLAS\'s time on the per-step shapes"',
         new='rgemm took {ratio:.1f}x the BLAS\'s time on the per-step shapes"',
         tests=[T_REC + "test_decide_reasons_word_for_word",
                T_REC + "test_choose_without_a_record_gives_each_rules_dwh_reason"] + OLD_REC,
         why="lnrnn info's reason rounds the measured ratio to one place: 0.87x reads 0.9x, on the wrong side of "
             "RGEMM_BELOW"),
    dict(name="v284-rec-fast-rgemm-chooses-blas", file=REC,
         old='    if ratio < RGEMM_BELOW:\n        return "rgemm", measured',
         new='    if ratio < RGEMM_BELOW:\n        return "blas", measured',
         tests=[T_REC + "test_decide_reasons_word_for_word",
                T_REC + "test_choose_without_a_record_gives_each_rules_dwh_reason"] + OLD_REC,
         why="a host where rgemm measured faster runs the per-step products on the BLAS"),
    dict(name="v284-rec-key-without-separator", file=REC,
         old='        h.update(part.encode() + b"\\0")',
         new='        h.update(part.encode())',
         tests=[T_REC + "test_record_named_by_the_host_key_and_measured_again_on_another"] + OLD_REC,
         why="the host key hashes CPU, BLAS and Python run together: 'ab'+'c' and 'a'+'bc' share a record"),
    dict(name="v284-rec-key-fifteen-digits", file=REC,
         old="    return h.hexdigest()[:16]",
         new="    return h.hexdigest()[:15]",
         tests=[T_REC + "test_record_named_by_the_host_key_and_measured_again_on_another"] + OLD_REC,
         why="the record's key is cut to 15 hex digits: the records of every host are named anew"),
    dict(name="v284-rec-key-arguments-swapped", file=REC,
         old="    key = host_key(blas_name, cpu)",
         new="    key = host_key(cpu, blas_name)",
         tests=[T_REC + "test_record_named_by_the_host_key_and_measured_again_on_another"] + OLD_REC,
         why="the record is looked up under a key of the BLAS name as the CPU and the CPU as the BLAS"),
    dict(name="v284-rec-child-told-blas", file=REC,
         old='    env = dict(os.environ, LNRNN_REC_GEMM="rgemm", LNRNN_NO_CACHE="1"',
         new='    env = dict(os.environ, LNRNN_REC_GEMM="blas", LNRNN_NO_CACHE="1"',
         tests=[T_REC + "test_the_child_runs_with_its_environment_and_its_last_line_is_read"] + OLD_REC,
         why="the measuring child is told LNRNN_REC_GEMM=blas: its blas.py compiles the BLAS's kernels, not "
             "the ones whose choice it measures"),
    dict(name="v284-rec-no-record-dwh-reason-of-rgemm", file=REC,
         old="        return (*choice, *decide_dwh(None, choice[0]))",
         new='        return (*choice, *decide_dwh(None, "rgemm"))',
         tests=[T_REC + "test_choose_without_a_record_gives_each_rules_dwh_reason"] + OLD_REC,
         why="without a record, a host ruled onto the BLAS is told its dWh blocks were 'not measured' instead of "
             "running on the BLAS with the per-step products"),
    # ---- blas.py's choice of rule and of dWh's blocks ----
    dict(name="v284-blas-rule-always-with-mkl", file=BLAS,
         old="    rec, why, dwh, dwh_why = rec_choice.choose(_blas_name(have_mkl), _cpu_key(), _rule(have_mkl))",
         new="    rec, why, dwh, dwh_why = rec_choice.choose(_blas_name(have_mkl), _cpu_key(), _rule(True))",
         tests=[T_REC + "test_choose_rec_hands_over_the_rule_of_its_own_mkl"] + OLD_BLAS,
         why="a host without MKL is ruled as one with MKL: an Intel CPU with AVX-512 falls back to np.dot per step"),
    dict(name="v284-blas-dwh-gemm-blas-ignored", file=BLAS,
         old='    if asked in ("rgemm", "blas"):\n        return rec, why, asked,',
         new='    if asked in ("rgemm",):\n        return rec, why, asked,',
         tests=[T_REC + "test_dwh_gemm_values_accepted_and_ignored"] + OLD_BLAS,
         why="LNRNN_DWH_GEMM=blas is ignored: dWh's blocks stay on rgemm where the measurement chose it"),
    # ---- lnrnn/mkl.py ----
    dict(name="v284-mkl-one-missing-symbol-taken", file=MKL,
         old="    if missing:  # compiled code",
         new="    if len(missing) > 1:  # compiled code",
         tests=[T_MT + "test_a_library_lacking_symbols_is_refused_naming_them"] + OLD_MKL,
         why="a library lacking exactly one CBLAS symbol is loaded: a kernel calling it kills the process"),
    dict(name="v284-mkl-empty-lib-taken-for-a-path", file=MKL,
         old="    if path:\n        if not os.path.exists(path):",
         new="    if path is not None:\n        if not os.path.exists(path):",
         tests=[T_MT + "test_mkl_lib_values_word_for_word"] + OLD_MKL,
         why="LNRNN_MKL_LIB set empty is taken for a path that does not exist: the wheel's MKL is not used"),
    # ---- lnrnn/kernels/cpu/threads.py ----
    dict(name="v284-threads-pool-size-one-more", file=THREADS,
         old='        _pool["size"] = nthr - 1',
         new='        _pool["size"] = nthr',
         tests=[T_MT + "test_run_chunks_grows_its_pool_for_more_threads"] + OLD_THREADS,
         why="the pool records one worker more than it has: a call on one thread more runs two runs of chunks on "
             "one worker, one after the other"),
    # ---- lnrnn/compiling.py ----
    dict(name="v284-comp-bad-index-not-deleted", file=COMP,
         old="            os.remove(index)",
         new="            pass",
         tests=[T_COMP + "test_stale_and_unreadable_indexes_kept_or_deleted"] + OLD_COMP,
         why="an unreadable or wrong cache index is reported deleted but left for Numba to fail on"),
    dict(name="v284-comp-every-function-uses-lnrnn", file=COMP,
         old="            return True\n    return False\n\n\ndef _numba_locators",
         new="            return True\n    return True\n\n\ndef _numba_locators",
         tests=[T_COMP + "test_which_functions_take_lnrnns_locator"] + OLD_COMP,
         why="every cached function, lnrnn's or not, takes lnrnn's locator: a user's own kernels are named with "
             "lnrnn's BLAS choice and checked by it"),
]
