"""Planted bugs, round 205 (format: tests/mutants/mutants.py): single-line slips on lines of compiling, the CPU
thread blocks and the run plan that no earlier round mutates (an eighth pass over these modules). threads.py:
dry_run letting None through as a mode, a dry run compiling the time loop in mode skip too, run_chunks taking
its thread count from the chunks asked instead of the clamped ones (chunk 0 leaves the calling thread).
compiling.py: the package prefix without its trailing separator (a sibling folder lnrnn_extra/ counts as
lnrnn's), _uses_lnrnn blind to a global that is an lnrnn module, Numba's locators keeping ours, from_function
checking the index under Numba's untagged file name, private_helpers making declarations internal, exclusive
taking a shared lock and giving up at its first refusal, one compile lock file for every signature, our locator
appended to (not put before) a user's NUMBA_CACHE_LOCATOR_CLASSES. plan.py: the unknown --optimizer refusal
naming the bad value where the choices belong, model_config writing skip for --no-skip.

14 mutants. Against the existing targeted tests alone 1 was caught and 13 missed: only the dry run compiling
in mode skip is seen (test_values178_threads' plain rows function has no compile method); no old file asks
dry_run for None, looks at which thread runs chunk 0, calls _uses_lnrnn, _numba_locators, from_function,
private_helpers, exclusive or compile_lock_path, sets NUMBA_CACHE_LOCATOR_CLASSES, matches the optimizer
refusal word for word or builds a model_config with --no-skip. That measurement ran on the quickest direct
old files (test_values178_threads; test_values178_compiling and test_values112_compiling;
test_values142_plan): the lists' full baseline, with test_threads and test_values141_threads, took 277 s
and its first mutant's run past 200 s, so it was stopped; test_threads, test_values141_threads,
test_values_compiling, test_plan and test_values_plan stay on the lists unmeasured. The new value tests
catch every mutant on their own (checked with the old tests taken off the lists): test_values205_threads
(dry_run's refusal word for word for None and three other modes; a stand-in time loop recording what it is
compiled for: the types of (0, 0, n) and the arguments in mode compile, nothing in mode skip; run_chunks
against a hand table of chunk rows at B = 1, 2, 3, 7, 65 with more chunks than rows and zero chunks, at
1, 2, 3, 4 and 8 threads, each chunk once, chunk 0 on the calling thread, each thread's chunks contiguous),
test_values205_compiling (_uses_lnrnn for files in and beside the package folder and for functions whose
globals hold an lnrnn module, an lnrnn function or a look-alike; _numba_locators from Numba's list and from
NUMBA_CACHE_LOCATOR_CLASSES, ours left out; use_kernel_cache putting ours first in a user's list once;
from_function with a stand-in Numba locator dropping an index whose data file is garbled, written under the
tagged disambiguator and the full stamp; private_helpers against a hand table of names, linkages and
declarations, the mangled prefix rebuilt from the Itanium rule; exclusive against flock locks held by the test:
shared, exclusive and released by a timer while it waits, and exclusive while held; compile_lock_path as
sha1 of repr of the argument types, worked out here, one file per signature, none once compiled or for
Numba's own locator), test_values205_plan (the optimizer refusal word for word with the choices joined
here; skip written for --skip only). The three new files run in about 2 s on one core.

Dropped as equivalent or not observable from a test: run_chunks' pool grown one short or rebuilt at every
call (futures queue on the workers there are: the same results). Left out for hanging rather than failing: run_synced queuing part 0 to a worker too (with
the BN cells' barriers part 0's second run waits on a part queued behind it), and the barrier's
comparisons (a wait that never ends).

    python tests/mutants/run.py --only 'v205-*'
"""
THREADS = "lnrnn/kernels/cpu/threads.py"
COMPILING = "lnrnn/compiling.py"
PLAN = "lnrnn/training/plan.py"

THREADS_NEW = "tests/kernels/test_values205_threads.py"
COMPILING_NEW = "tests/test_values205_compiling.py"
PLAN_NEW = "tests/training/test_values205_plan.py"
# existing tests of these modules (the most direct files of each)
THREADS_OLD = ["tests/kernels/test_threads.py", "tests/kernels/test_values141_threads.py",
               "tests/kernels/test_values178_threads.py"]
COMPILING_OLD = ["tests/test_values112_compiling.py", "tests/test_values178_compiling.py",
                 "tests/test_values_compiling.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py",
            "tests/training/test_values142_plan.py"]

MUTANTS = [
    # ---- lnrnn/kernels/cpu/threads.py ----
    dict(name="v205-dry-run-takes-none", file=THREADS,
         old='    if mode not in ("compile", "skip"):\n',
         new='    if mode not in ("compile", "skip", None):\n',
         tests=[THREADS_NEW] + THREADS_OLD,
         why="dry_run(None) is let through as a block that changes nothing instead of refused"),
    dict(name="v205-dry-call-compiles-when-skipping", file=THREADS,
         old='    if _dry["mode"] == "compile":\n',
         new='    if _dry["mode"]:\n',
         tests=[THREADS_NEW] + THREADS_OLD,
         why="a dry run in mode skip compiles the time loop too (any mode is truthy)"),
    dict(name="v205-run-chunks-threads-from-asked-chunks", file=THREADS,
         old="    nthr = max(1, min(numba.get_num_threads(), nch))\n",
         new="    nthr = max(1, min(numba.get_num_threads(), nchunks))\n",
         tests=[THREADS_NEW] + THREADS_OLD,
         why="the thread count follows the chunks asked, not the clamped ones: with more threads than rows "
             "chunk 0 leaves the calling thread for a worker"),
    # ---- lnrnn/compiling.py ----
    dict(name="v205-package-prefix-without-separator", file=COMPILING,
         old="_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep\n",
         new="_PACKAGE = os.path.dirname(os.path.abspath(__file__))\n",
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="a file in a sibling folder whose name begins with lnrnn (lnrnn_extra/) counts as lnrnn's own"),
    dict(name="v205-uses-lnrnn-misses-modules", file=COMPILING,
         old='        name = v.__name__ if isinstance(v, types.ModuleType) else getattr(v, "__module__", None)\n',
         new='        name = getattr(v, "__module__", None)\n',
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="a function that reaches lnrnn through an imported module alone (lnrnn.config as cfg) is not "
             "seen as using lnrnn: its cache misses the BLAS tag and the kernel stamp"),
    dict(name="v205-numba-locators-keep-ours", file=COMPILING,
         old="    return [c for c in _CACHE_IMPL._locator_classes if c is not KernelCacheLocator]\n",
         new="    return list(_CACHE_IMPL._locator_classes)\n",
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="Numba's locators include ours after use_kernel_cache: from_function would wrap itself"),
    dict(name="v205-index-checked-under-the-untagged-base", file=COMPILING,
         old="                drop_unreadable_index(self.get_cache_path(), _file_base(py_func, self.get_disambiguator()),\n",
         new="                drop_unreadable_index(self.get_cache_path(), _file_base(py_func, self._inner.get_disambiguator()),\n",
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="from_function checks the index under Numba's own file name (no BLAS tag): a broken tagged index "
             "is never dropped"),
    dict(name="v205-private-helpers-take-declarations", file=COMPILING,
         old="            if not fn.is_declaration and fn.linkage == ll.Linkage.linkonce_odr and fn.name.startswith(MANGLED):\n",
         new="            if fn.linkage == ll.Linkage.linkonce_odr and fn.name.startswith(MANGLED):\n",
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="lnrnn's declarations (bodies in another module) are made internal too: a body-less internal "
             "function that LLVM refuses"),
    dict(name="v205-exclusive-takes-a-shared-lock", file=COMPILING,
         old="                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n",
         new="                    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)\n",
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="the compile lock is shared: two processes (or a reader's lock) hold it at once"),
    dict(name="v205-exclusive-gives-up-at-once", file=COMPILING,
         old="                    if time.monotonic() > deadline:\n",
         new="                    if time.monotonic() < deadline:\n",
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="exclusive gives up at its first refusal instead of waiting up to wait_s for the lock"),
    dict(name="v205-one-lock-file-for-every-signature", file=COMPILING,
         old='    return os.path.join(locator.get_cache_path(), f"{impl.filename_base}.{key}.lock")\n',
         new='    return os.path.join(locator.get_cache_path(), f"{impl.filename_base}.lock")\n',
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="the compile lock's file leaves out the signature's hash: two signatures of one kernel wait "
             "for each other"),
    dict(name="v205-our-locator-appended-to-the-users-list", file=COMPILING,
         old='        config.CACHE_LOCATOR_CLASSES = _OURS + "," + config.CACHE_LOCATOR_CLASSES  # a user\'s list replaces Numba\'s\n',
         new='        config.CACHE_LOCATOR_CLASSES = config.CACHE_LOCATOR_CLASSES + "," + _OURS  # a user\'s list replaces Numba\'s\n',
         tests=[COMPILING_NEW] + COMPILING_OLD,
         why="with NUMBA_CACHE_LOCATOR_CLASSES set, ours comes after the user's: theirs is asked first and "
             "the kernel cache never carries the tag"),
    # ---- lnrnn/training/plan.py ----
    dict(name="v205-plan-optimizer-refusal-lists-the-choice", file=PLAN,
         old="        (cfg.optimizer in OPTIMIZERS, f\"unknown optimizer {cfg.optimizer!r}; choose one of {', '.join(OPTIMIZERS)}.\"),\n",
         new="        (cfg.optimizer in OPTIMIZERS, f\"unknown optimizer {cfg.optimizer!r}; choose one of {cfg.optimizer}.\"),\n",
         tests=[PLAN_NEW] + PLAN_OLD,
         why="an unknown --optimizer is refused naming the bad value where the choices belong"),
    dict(name="v205-plan-no-skip-turns-skip-on", file=PLAN,
         old="    if cfg.skip:\n",
         new="    if cfg.skip is not None:\n",
         tests=[PLAN_NEW] + PLAN_OLD,
         why="--no-skip (skip False) builds a skip-connected stack"),
]
