"""Planted bugs, round 218 (format: tests/mutants/mutants.py): single-line slips on lines of the kernel cache, the run
plan, the memory plan and evaluation that no earlier round mutates: _file_base taking the stem of the function's
whole path (a cache file name with folders in it) instead of its base name, MANGLED miscounting the length of
"lnrnn", exclusive opening its lock file without O_CREAT (a first compilation never holds the lock); window_size
refusing a skip left at the task's default as if it were --no-skip, model_config comparing the window's norm with
--window-norm instead of the cell's norm, the --init refusal naming --cell's value, validate refusing --head ctc
with --window 0; estimate reading each BN buffer's suffix as its width, available_bytes counting every physical page
instead of the available ones and taking a cgroup limit of a GiB or more for none, check_fits taking available=0 for
unknown, --steps named last among the hints; format_metrics writing the loss a second time after its label,
model_from_run letting a KeyError of a model description out raw.

14 mutants. Against the existing targeted tests alone (the lists below: the most direct old files of each module) 9
were caught and 5 missed: window_size refusing the default skip (old tests build windows with skip given), the
--init refusal naming --cell's value (no test read that sentence), validate refusing --head ctc with --window 0,
check_fits taking available=0 for unknown, and model_from_run letting a KeyError out raw. The new value tests catch
every mutant on their own (checked with the old tests taken off the lists): test_values218_compiling (_file_base
against Numba's own _CacheImpl.get_filename_base fed the file stem and qualified name written out here; MANGLED
against Numba's Itanium mangler and its definition; exclusive on a lock file that does not exist yet;
drop_unreadable_index on index and data files written here in Numba's pickle layout, matching and not),
test_values218_plan (window and window_norm of a text task's model config with the skip left at the default,
config.WINDOW_NORM_DEFAULT looked up here; the --no-skip and --init refusals word for word; --head ctc with --window
0 and 3), test_values218_memory (a BN-LSTM's statistics counted by hand per buffer, one and two directions;
available_bytes from /proc/meminfo, cgroup v2 files and sysconf values served by fakes; check_fits at 0 bytes and
its hints' order by hand), test_values218_evaluation (format_metrics' long form against METRIC_INFO's labels; a
checkpoint missing a model field read back as a CheckpointError). Dropped as equivalent or near it:
drop_unreadable_index returning True for an index it keeps (its only caller ignores the answer), the
bidirectional-with-window check in validate (window_size refuses the same runs with the same sentence), the
message of a signature mismatch in drop_unreadable_index (caught and turned into a deletion at once).

    python tests/mutants/run.py --only 'v218-*'
"""
COMPILING = "lnrnn/compiling.py"
PLAN = "lnrnn/training/plan.py"
MEMORY = "lnrnn/training/memory.py"
EVALUATION = "lnrnn/training/evaluation.py"

# existing tests of these modules
COMPILING_OLD = ["tests/test_values_compiling.py", "tests/test_values205_compiling.py",
                 "tests/test_values178_compiling.py", "tests/test_values112_compiling.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py", "tests/training/test_values21_plan.py",
            "tests/training/test_values36_plan.py", "tests/training/test_values54_plan.py",
            "tests/training/test_values80_plan.py", "tests/training/test_values130_plan.py",
            "tests/training/test_values142_plan.py", "tests/training/test_values205_plan.py"]
MEMORY_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values10_memory.py",
              "tests/training/test_values36_memory.py", "tests/training/test_values70_memory.py",
              "tests/training/test_values95_memory.py", "tests/training/test_values157_memory.py",
              "tests/training/test_values185_memory.py"]
EVALUATION_OLD = ["tests/training/test_values_evaluation.py", "tests/training/test_values10_evaluation.py",
                  "tests/training/test_values15_evaluation.py", "tests/training/test_values21_evaluation.py",
                  "tests/training/test_values64_evaluation.py", "tests/training/test_values130_evaluation.py",
                  "tests/training/test_values185_evaluation.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
COMPILING_NEW = ["tests/test_values218_compiling.py"]
PLAN_NEW = ["tests/training/test_values218_plan.py"]
MEMORY_NEW = ["tests/training/test_values218_memory.py"]
EVALUATION_NEW = ["tests/training/test_values218_evaluation.py"]

MUTANTS = [
    # ---- the kernel cache ----
    dict(name="v218-file-base-whole-path", file=COMPILING,
         old="    stem = os.path.splitext(os.path.basename(inspect.getfile(py_func)))[0]\n",
         new="    stem = os.path.splitext(inspect.getfile(py_func))[0]\n",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="the index name begins with the source's whole path, not Numba's module stem: a name with folders"),
    dict(name="v218-mangled-miscounted", file=COMPILING,
         old='MANGLED = "_ZN5lnrnn"',
         new='MANGLED = "_ZN6lnrnn"',
         tests=COMPILING_NEW + COMPILING_OLD,
         why="the length of 'lnrnn' miscounted: no function of lnrnn's is made internal"),
    dict(name="v218-lock-file-not-created", file=COMPILING,
         old="os.O_RDWR | os.O_CREAT, 0o666",
         new="os.O_RDWR, 0o666",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="the lock file is opened, never created: the first compilation of a signature runs unlocked"),
    # ---- the run plan ----
    dict(name="v218-window-refuses-default-skip", file=PLAN,
         old="    if cfg.skip is False:\n",
         new="    if not cfg.skip:\n",
         tests=PLAN_NEW + PLAN_OLD,
         why="a skip left at the task's default (None) is refused as --no-skip for the attention window"),
    dict(name="v218-window-norm-against-option", file=PLAN,
         old="        if window_norm != spec.norm:\n",
         new="        if window_norm != cfg.window_norm:\n",
         tests=PLAN_NEW + PLAN_OLD,
         why="window_norm compared with --window-norm, not the cell's norm: a default equal to it is written"),
    dict(name="v218-init-refusal-names-cell", file=PLAN,
         old="not {cfg.init!r}",
         new="not {cfg.cell!r}",
         tests=PLAN_NEW + PLAN_OLD,
         why="the --init refusal quotes the --cell value instead of the bad --init"),
    dict(name="v218-ctc-refuses-window-zero", file=PLAN,
         old='(not (cfg.head == "ctc" and cfg.window),',
         new='(not (cfg.head == "ctc" and cfg.window is not None),',
         tests=PLAN_NEW + PLAN_OLD,
         why="--head ctc with --window 0 (no window) is refused as if it had a window"),
    # ---- the memory plan ----
    dict(name="v218-buffer-suffix-as-width", file=MEMORY,
         old="    for _, w in spec.buffers:\n",
         new="    for w, _ in spec.buffers:\n",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="each BN buffer's suffix read as its width: every statistic counted H wide, the G-wide ones too"),
    dict(name="v218-sysconf-physical-pages", file=MEMORY,
         old='"SC_AVPHYS_PAGES"',
         new='"SC_PHYS_PAGES"',
         tests=MEMORY_NEW + MEMORY_OLD,
         why="without /proc/meminfo, every physical page counted as available"),
    dict(name="v218-cgroup-limit-cap-1gib", file=MEMORY,
         old="int(lim) < (1 << 60)",
         new="int(lim) < (1 << 30)",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="a cgroup limit of a GiB or more is taken for 'no limit'"),
    dict(name="v218-zero-available-unknown", file=MEMORY,
         old="available_bytes() if available is None else available\n    # every part counts",
         new="available_bytes() if not available else available\n    # every part counts",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="available=0 is taken for 'not given': the memory free at the time is read instead"),
    dict(name="v218-steps-hint-last", file=MEMORY,
         old='hints = ["a smaller --steps"] + [h for h in hints if h != "a smaller --steps"]',
         new='hints = [h for h in hints if h != "a smaller --steps"] + ["a smaller --steps"]',
         tests=MEMORY_NEW + MEMORY_OLD,
         why="with --steps given, a smaller --steps is named last instead of first"),
    # ---- evaluation ----
    dict(name="v218-loss-written-twice", file=EVALUATION,
         old="            continue\n",
         new="",
         tests=EVALUATION_NEW + EVALUATION_OLD,
         why="the long form writes the loss under its label and again as 'loss'"),
    dict(name="v218-model-keyerror-escapes", file=EVALUATION,
         old="except (TypeError, ValueError, KeyError, OverflowError, MemoryError) as e:",
         new="except (TypeError, ValueError, OverflowError, MemoryError) as e:",
         tests=EVALUATION_NEW + EVALUATION_OLD,
         why="a model description lacking a field escapes as a bare KeyError instead of a CheckpointError"),
]
