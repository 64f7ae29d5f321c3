"""Planted bugs, round 141 (format: tests/mutants/mutants.py): single-line slips in the thread plumbing, the
measured choice of the per-step product and the kernel cache's naming, a sixth pass on lines no earlier round
mutates: run_chunks' runs of chunks cut from the chunks asked for instead of those clamped to the rows,
run_synced handing each worker the part before its own and swallowing a single part's error, the barrier
answering "met" when the abort flag went up after every part arrived; the host key hashing the sources' names
instead of their text, the user's record folder from XDG_CONFIG_HOME, a child's non-JSON last line raising, a
failed measurement started again in the next folder, measure() pairing the per-step shapes with the plain GEMM
(and the many-row shapes with the packed product) and recording the two times swapped; a dotted
NUMBA_CACHE_LOCATOR_CLASSES entry split at its first dot; the rule by CPU kind letting a CPU without AVX-512 or
MKL through to rgemm, LNRNN_DWH_GEMM taken in lower case only, the kernel cache's tag following the dWh choice.

14 mutants. Against the existing targeted tests alone 1 was caught and 13 missed, measured on the two or three
most direct old files of each module (test_values27/71_threads, test_values27/71/117_rec_choice,
test_values17/112_compiling, test_values_blas and test_values_info; the full lists' baseline ran past eight
minutes, as a change to rec_choice.py or blas.py measures again and recompiles, and was stopped): only the
unclamped runs of chunks was caught. Of the 13, by reading, files in the lists but not measured likely
catch three more: tests/kernels/test_rec_choice.py asserts the XDG_CACHE_HOME folder, and
tests/kernels/test_threads.py runs run_synced with a failing part (the swallowed error, and the parts handed
one short, whose last part never writes its slots). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists):
test_values141_threads (run_chunks driven by a Python chunk function at 2 rows on 3 threads, 1 row, 7 and 13
rows on 3, 4 and 8 threads: every chunk min(nchunks, n) once over the rows floor(k n / c) to
floor((k+1) n / c) worked out here, each row covered once; run_synced's parts each once, a single part's error
re-raised with flags[n] up and the parts' counters untouched; the compiled barrier with every part arrived
answering the abort flag), test_values141_rec_choice (measure() on a fake clock and fake products whose calls
move it by m K N times a per-product cost: each shape's seconds per product, the reps from ROUND_FLOPS, the
pairs timed and the geometric mean of the ratios worked out here, dWh's blocks covering every row each round;
the host key against SHA-1 over its parts on copies of the keyed sources, a record read back until one source
changes, then measured again under the new key; the user folder from XDG_CACHE_HOME, then HOME; one line of
garbage from the child refused; a failed child run once with the rule deciding and nothing written; a record
written whole and read back; decide at RGEMM_BELOW and BLAS_ABOVE and their next floats),
test_values141_blas_choice (_rule over every AVX-512 x MKL x vendor case against the rule's statement;
/proc/cpuinfo fields behind tabs; LNRNN_DWH_GEMM in any case and only where rgemm runs per step; two fresh
processes under LNRNN_REC_GEMM / LNRNN_DWH_GEMM whose REC, DWH, cache tag and ``lnrnn info`` line are checked
against the overrides), test_values141_compiling (_numba_locators from NUMBA_CACHE_LOCATOR_CLASSES against the
classes imported here with importlib, and unset). Dropped as equivalent: measure_dwh's geometric mean as a
median (two DWH_SHAPES: the mean of two logs is their median); _dry_call compiling for any mode but "skip" (it
runs only under "compile" or "skip"); run_child's LNRNN_REC_GEMM=blas for the child (its own import makes no
measurement either way and measure() times both products by name). Left out as hangs rather than failures:
the barrier's own counter stored a generation short, its wait on < generation as <=, and run_synced handing
work to one worker fewer (the last part's completion is then awaited forever).

    python tests/mutants/run.py --only 'v141-*'
"""
COMPILING = "lnrnn/compiling.py"
THREADS = "lnrnn/kernels/cpu/threads.py"
REC = "lnrnn/kernels/cpu/rec_choice.py"
BLAS = "lnrnn/kernels/cpu/blas.py"

# existing tests of these modules
COMPILING_OLD = ["tests/test_values_compiling.py", "tests/test_values17_compiling.py",
                 "tests/test_values32_compiling.py", "tests/test_values71_compiling.py",
                 "tests/test_values96_compiling.py", "tests/test_values112_compiling.py",
                 "tests/test_values_compiling_stamp.py"]
THREADS_OLD = ["tests/kernels/test_threads.py", "tests/kernels/test_values9_threads.py",
               "tests/kernels/test_values27_threads.py", "tests/kernels/test_values71_threads.py"]
REC_OLD = ["tests/kernels/test_rec_choice.py", "tests/kernels/test_values27_rec_choice.py",
           "tests/kernels/test_values71_rec_choice.py", "tests/kernels/test_values117_rec_choice.py"]
BLAS_OLD = ["tests/kernels/test_values_blas.py", "tests/commands/test_values_info.py"] + REC_OLD

# value tests written for the bugs below (first, so that a caught mutant stops there)
COMPILING_NEW = ["tests/test_values141_compiling.py"]
THREADS_NEW = ["tests/kernels/test_values141_threads.py"]
REC_NEW = ["tests/kernels/test_values141_rec_choice.py"]
BLAS_NEW = ["tests/kernels/test_values141_blas_choice.py"]

MUTANTS = [
    # ---- threads: run_chunks' runs of chunks, run_synced's parts and errors, the barrier's last word ----
    dict(name="v141-threads-runs-of-unclamped-chunks", file=THREADS,
         old="    runs = [chunk_bounds(nch, nthr, w) for w in range(nthr)]",
         new="    runs = [chunk_bounds(nchunks, nthr, w) for w in range(nthr)]",
         tests=THREADS_NEW + THREADS_OLD,
         why="the threads' runs of chunks split the chunks asked for, not the ones clamped to the rows: with fewer "
             "rows than chunks, chunks past the last row run with empty or overlapping row ranges"),
    dict(name="v141-threads-synced-second-part-as-first", file=THREADS,
         old="            inboxes[q - 1].put((run, q, done))",
         new="            inboxes[q - 1].put((run, q - 1, done))",
         tests=THREADS_NEW + THREADS_OLD,
         why="run_synced hands each worker the part before its own: part 0 runs twice and the last part never"),
    dict(name="v141-threads-synced-one-error-swallowed", file=THREADS,
         old="    if errors:\n        raise errors[0]",
         new="    if len(errors) > 1:\n        raise errors[0]",
         tests=THREADS_NEW + THREADS_OLD,
         why="an error raised by a single part is swallowed: the time loop returns with its outputs half written"),
    dict(name="v141-threads-barrier-ignores-a-late-abort", file=THREADS,
         old="    return _load_acquire(flags, n) == 0\n",
         new="    return True\n",
         tests=THREADS_NEW + THREADS_OLD,
         why="the barrier reports a met step even when a part failed after every part arrived (the abort flag is "
             "read only while waiting): the other parts run on into a step whose partner has gone"),
    # ---- rec_choice: the host key, the record's folders, the child's last line, a failed measurement ----
    dict(name="v141-rec-key-by-source-names", file=REC,
         old="            h.update(f.read())",
         new="            h.update(name.encode())",
         tests=REC_NEW + REC_OLD,
         why="the host key hashes the names of the products' sources, not their text: a changed rgemm.py or "
             "blas.py reads the old measurement back instead of measuring again"),
    dict(name="v141-rec-user-folder-from-xdg-config", file=REC,
         old='os.environ.get("XDG_CACHE_HOME")',
         new='os.environ.get("XDG_CONFIG_HOME")',
         tests=REC_NEW + REC_OLD,
         why="the user's record folder follows XDG_CONFIG_HOME instead of XDG_CACHE_HOME"),
    dict(name="v141-rec-child-garbage-line-raises", file=REC,
         old="    except (OSError, subprocess.SubprocessError, ValueError):",
         new="    except (OSError, subprocess.SubprocessError):",
         tests=REC_NEW + REC_OLD,
         why="a child whose last line is not JSON makes the import fail with a JSONDecodeError instead of "
             "falling back to the rule by CPU kind"),
    dict(name="v141-rec-failed-child-tries-next-folder", file=REC,
         old="            rec = run_child()\n            if rec is None:\n                return None",
         new="            rec = run_child()\n            if rec is None:\n                continue",
         tests=REC_NEW + REC_OLD,
         why="a failed measurement is started again in the next record folder: the import pays the child twice"),
    dict(name="v141-rec-measure-step-shapes-as-rows", file=REC,
         old="        if (m, K, N) in ROW_SHAPES:",
         new="        if (m, K, N) in SHAPES:",
         tests=REC_NEW + REC_OLD,
         why="the per-step shapes are timed against the BLAS's plain GEMM and the many-row shapes against the "
             "packed per-step product: each pair is the other choice's"),
    dict(name="v141-rec-measure-times-swapped", file=REC,
         old="        rows.append([m, K, N, best[0] / reps, best[1] / reps])",
         new="        rows.append([m, K, N, best[1] / reps, best[0] / reps])",
         tests=REC_NEW + REC_OLD,
         why="the record's per-shape times give the BLAS's time as rgemm's and rgemm's as the BLAS's"),
    # ---- compiling: NUMBA_CACHE_LOCATOR_CLASSES read back ----
    dict(name="v141-compiling-locator-module-at-first-dot", file=COMPILING,
         old='            module, _, cls = n.rpartition(".")',
         new='            module, _, cls = n.partition(".")',
         tests=COMPILING_NEW + COMPILING_OLD,
         why="a dotted locator class in NUMBA_CACHE_LOCATOR_CLASSES is split at its first dot: the class is "
             "looked up as 'core.caching.X' on numba and the import fails"),
    # ---- blas: the rule by CPU kind, the dWh override's case, the cache tag ----
    dict(name="v141-blas-rule-no-avx512-only-with-mkl", file=BLAS,
         old="    if not rg.AVX512:\n",
         new="    if not rg.AVX512 and have_mkl:\n",
         tests=BLAS_NEW + BLAS_OLD,
         why="a CPU without AVX-512 and without MKL falls through to 'AVX-512 without MKL': rgemm's 256-bit tile "
             "chosen where the rule says the BLAS"),
    dict(name="v141-blas-dwh-override-case-sensitive", file=BLAS,
         old='    asked = os.environ.get("LNRNN_DWH_GEMM", "").strip().lower()',
         new='    asked = os.environ.get("LNRNN_DWH_GEMM", "").strip()',
         tests=BLAS_NEW + BLAS_OLD,
         why="LNRNN_DWH_GEMM=RGEMM (or Blas) is ignored, unlike LNRNN_REC_GEMM which takes any case"),
    dict(name="v141-blas-tag-from-dwh", file=BLAS,
         old='BLAS_TAG = ("mkl" if HAVE_MKL else "numpy") + ("-rgemm" if REC == "rgemm" else "")',
         new='BLAS_TAG = ("mkl" if HAVE_MKL else "numpy") + ("-rgemm" if DWH == "rgemm" else "")',
         tests=BLAS_NEW + BLAS_OLD,
         why="the cached kernels' tag follows the dWh choice, not the per-step product's: kernels compiled for "
             "rgemm per step and for the BLAS share names where dWh runs on the BLAS"),
]
