"""Planted bugs, round 351 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the per-step product's choice (lnrnn/kernels/cpu/rec_choice.py), the compiled-kernel cache (lnrnn/compiling.py)
and lnrnn info (lnrnn/commands/info.py), eighteenth pass: eight rounds in turns instead of nine (the median of an
even count is no round's own ratio); the row shapes left out of the measurement; dWh's gradient rows of 3H columns
(a GRU's) instead of an LSTM's 4H; measure_dwh refusing exactly the blocks that do run on rgemm; the dWh ratio's
arithmetic mean over the shapes instead of the geometric; LNRNN_REC_RECORD_DIR followed by the package's folder
instead of alone; the child started without its time limit; a record that cannot be written in the first folder
used without being kept in the next; CompileClock's nested compilations ending the interval at the first inner
end; a folder beside the package whose name begins like it taken for lnrnn's; compile_once's lock made a folder;
lnrnn's locator never put into Numba's list; an index cut short after its version reported kept; lnrnn info's BN
cells' and window layer's CUDA loop asked with seq_ok True.

14 mutants. Against the old targeted files alone (each mutant's v351 files taken off its list): 6 of 14 caught;
missed: dWh's rows given 3H columns, LNRNN_REC_RECORD_DIR followed by the package's folder, the child started
without its time limit, a record not kept in the next folder, nested compile events ending the interval early, a
sibling folder named lnrnn-something taken for the package, the lock path made a folder, the BN cells' CUDA loop
asked for as a sequence kernel. (test_values325_rec_choice, test_values284_rec_choice and test_values178_rec_choice
under tests/kernels; test_values325_compiling and test_values284_compiling under tests/kernels,
test_values254_compiling under tests/; test_values325_info and test_values_info under tests/commands.) The new value
tests catch every mutant on their own (checked with the old files taken off the lists): test_values351_rec_choice
(in_turns on a stand-in clock with nine non-monotonic rounds after a warm-up, the median 1.5 picked out by hand from
the sorted ratios; measure on three awkward shapes, two per-step and one of rows, with ROUND_FLOPS 1000: 9, 13 and 3
products per round worked out, the geometric mean (2 * 2 * 0.5) ** (1/3); measure_dwh on H 5 and H 2 with blocks of
2 and 3 steps: each product's rows, (R, 4H) gradient rows and partial shapes written out, the geometric mean
sqrt(0.75) against the arithmetic 0.875; the refusal word for word; record_dirs for the variable, XDG_CACHE_HOME and
HOME; the child's keyword arguments through a stand-in subprocess.run that times out; a first folder whose temporary
file cannot be opened, the record then found in the second with its lock), test_values351_compiling (numba:compile
events fired by hand at stand-in times: union 1 -> 5 and 7 -> 9.5; _uses_lnrnn for a file in the package and beside
it; compile_once's lock file a plain file, waited on for COMPILE_WAIT_S, held while compiling; use_kernel_cache on
Numba's list without ours: ours first, once; an index of this Numba version cut in half deleted),
test_values351_info (the CUDA lines word for word with graphs_cuda's and lstm_cuda's choices stood in by distinct
strings). Left out as equivalent: choose's `if rec is None` made `if not rec` (a record is a non-empty dict);
measure's seeds (the timed values do not change the choice); sources_stamp's os.stat made os.lstat (the kernel
sources are plain files); _numba_locators' getattr(caching, cls) given n (with no module part the two are the same
name); private_helpers' "internal" made "private" (neither is exported: the same calls resolve). Left out as not
cheaply observable: CHILD_TIMEOUT_S's value itself beyond what the child is handed (only a child hanging for minutes
shows it); COMPILE_WAIT_S's value (only a holder compiling for fifteen minutes shows it). Left out as a crash rather
than a value: the measurement's output array of (m, K) (the stand-in and the real products refuse the shape).

    python tests/mutants/run.py --only 'v351-*'
"""
REC = "lnrnn/kernels/cpu/rec_choice.py"
COMP = "lnrnn/compiling.py"
INFO = "lnrnn/commands/info.py"

T_REC = "tests/kernels/test_values351_rec_choice.py::"
T_COMP = "tests/kernels/test_values351_compiling.py::"
T_INFO = "tests/commands/test_values351_info.py::"
OLD_REC = ["tests/kernels/test_values325_rec_choice.py", "tests/kernels/test_values284_rec_choice.py",
           "tests/kernels/test_values178_rec_choice.py"]
OLD_COMP = ["tests/kernels/test_values325_compiling.py", "tests/kernels/test_values284_compiling.py",
            "tests/test_values254_compiling.py"]
OLD_INFO = ["tests/commands/test_values325_info.py", "tests/commands/test_values_info.py"]

MUTANTS = [
    # ---- the per-step product's choice: lnrnn/kernels/cpu/rec_choice.py ----
    dict(name="v351-rec-eight-rounds", file=REC,
         old="ROUNDS = 9 ",
         new="ROUNDS = 8 ",
         tests=[T_REC + "test_in_turns_one_warm_up_then_an_odd_count_of_rounds"] + OLD_REC,
         why="eight rounds in turns: the median of an even count averages two rounds' ratios, no round's own"),
    dict(name="v351-rec-row-shapes-not-timed", file=REC,
         old="    for m, K, N in SHAPES + ROW_SHAPES:",
         new="    for m, K, N in SHAPES:",
         tests=[T_REC + "test_measure_times_the_per_step_shapes_and_the_row_shapes"] + OLD_REC,
         why="the products over many rows that follow the choice (rows_mul) are left out of the ratio"),
    dict(name="v351-rec-dwh-three-gates", file=REC,
         old="        G = 4 * H\n",
         new="        G = 3 * H\n",
         tests=[T_REC + "test_measure_dwh_gradient_rows_of_four_gates_and_geometric_mean"] + OLD_REC,
         why="dWh's blocks are timed on (R, 3H) gradient rows and (3H, H) partials, a GRU's, not an LSTM's 4H"),
    dict(name="v351-rec-dwh-refusal-inverted", file=REC,
         old="        if not tw:\n",
         new="        if tw:\n",
         tests=[T_REC + "test_measure_dwh_gradient_rows_of_four_gates_and_geometric_mean",
                T_REC + "test_measure_dwh_refuses_blocks_that_would_not_run_on_rgemm"] + OLD_REC,
         why="measure_dwh refuses the blocks that do run on rgemm (so every measurement fails and the rule decides) "
             "and times those that do not"),
    dict(name="v351-rec-dwh-arithmetic-mean", file=REC,
         old="    return rows, float(np.exp(np.mean(logs)))",
         new="    return rows, float(np.mean(np.exp(logs)))",
         tests=[T_REC + "test_measure_dwh_gradient_rows_of_four_gates_and_geometric_mean"] + OLD_REC,
         why="the dWh ratio is the arithmetic mean of the shapes' ratios, not the geometric"),
    dict(name="v351-rec-record-dir-then-package", file=REC,
         old='        return [os.environ["LNRNN_REC_RECORD_DIR"]]',
         new='        return [os.environ["LNRNN_REC_RECORD_DIR"], os.path.join(HERE, "__pycache__")]',
         tests=[T_REC + "test_record_dirs_by_the_documented_rule"] + OLD_REC,
         why="LNRNN_REC_RECORD_DIR is followed by the package's folder: a record is written there where the "
             "folder given cannot take it"),
    dict(name="v351-rec-child-without-time-limit", file=REC,
         old="text=True, timeout=CHILD_TIMEOUT_S, stdin=subprocess.DEVNULL)",
         new="text=True, stdin=subprocess.DEVNULL)",
         tests=[T_REC + "test_the_child_runs_under_its_time_limit"] + OLD_REC,
         why="the measuring child runs without its time limit: a hung child hangs the import of lnrnn"),
    dict(name="v351-rec-unwritten-record-not-kept", file=REC,
         old="            except OSError:\n                continue\n",
         new="            except OSError:\n                return rec\n",
         tests=[T_REC + "test_a_record_that_cannot_be_written_is_kept_in_the_next_folder"] + OLD_REC,
         why="a record that cannot be written in the first folder is used but never kept in the next: every "
             "process measures again"),
    # ---- the compile clock and the kernel cache: lnrnn/compiling.py ----
    dict(name="v351-comp-nested-depth-set", file=COMP,
         old="            self._depth += 1\n",
         new="            self._depth = 1\n",
         tests=[T_COMP + "test_compile_clock_counts_the_union_of_nested_compilations"] + OLD_COMP,
         why="a compilation nested in another ends the clock's interval at the inner one's end"),
    dict(name="v351-comp-package-prefix-without-separator", file=COMP,
         old="    if os.path.abspath(py_file).startswith(_PACKAGE):",
         new="    if os.path.abspath(py_file).startswith(_PACKAGE.rstrip(os.sep)):",
         tests=[T_COMP + "test_a_folder_beside_the_package_is_not_lnrnns"] + OLD_COMP,
         why="a file in a folder beside the package whose name begins 'lnrnn' (lnrnn_extras/) is taken for lnrnn's"),
    dict(name="v351-comp-lock-path-made-a-folder", file=COMP,
         old="                os.makedirs(os.path.dirname(path), exist_ok=True)",
         new="                os.makedirs(path, exist_ok=True)",
         tests=[T_COMP + "test_compile_once_takes_its_lock_file_beside_the_cache"] + OLD_COMP,
         why="compile_once makes its lock path a folder: the lock file cannot be opened, every process compiles"),
    dict(name="v351-comp-locator-never-inserted", file=COMP,
         old="    if KernelCacheLocator not in _CACHE_IMPL._locator_classes:",
         new="    if KernelCacheLocator in _CACHE_IMPL._locator_classes:",
         tests=[T_COMP + "test_use_kernel_cache_puts_lnrnns_locator_first_once"] + OLD_COMP,
         why="lnrnn's locator is never put into Numba's list: cache files lose the BLAS choice in their names"),
    dict(name="v351-comp-garbled-index-reported-kept", file=COMP,
         old="            pass\n        return True\n",
         new="            pass\n        return False\n",
         tests=[T_COMP + "test_an_index_cut_short_after_its_version_is_deleted"] + OLD_COMP,
         why="an unreadable index that was deleted is reported as kept"),
    # ---- lnrnn info: lnrnn/commands/info.py ----
    dict(name="v351-info-bn-loop-asked-seq-ok", file=INFO,
         old='f"layer: {loop_path(False)}")',
         new='f"layer: {loop_path(True)}")',
         tests=[T_INFO + "test_the_cuda_paths_line_names_each_loop"] + OLD_INFO,
         why="lnrnn info names the BN cells' and window layer's loop as if they had sequence kernels"),
]
