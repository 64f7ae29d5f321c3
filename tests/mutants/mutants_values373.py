"""Planted bugs, round 373 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in evaluation's split_arrays (lnrnn/training/evaluation.py), fine-tuning (lnrnn/training/finetune.py),
the progress bar (lnrnn/training/progress.py), the flat parameter buffer (lnrnn/model/flat.py) and the gradcheck
utility (lnrnn/gradcheck.py), nineteenth pass: split_arrays returning its two dicts swapped; check_settings
refusing equal shape options (and passing different ones); load_into comparing the source's config with itself;
the 'nothing there' refusal of --init-from without its f-string (the path unnamed); the compile note without its
newline; the bar's parts joined by ', '; the terminal and plain-line modes swapped; a note written only when quiet;
FlatArrays.names sorted instead of in packing order; repack's offsets starting at 1; repack's dtype check
inverted (float32 arrays packed as float64, a passed dtype refused); repack's views looked up without the prefix;
check_stack's loss a mean instead of the documented sum; check_stack comparing the first analytic elements
instead of the sampled ones.

14 mutants. Against the old targeted files alone (each mutant's v373 files taken off its list): 12 of 14
caught; missed: the 'nothing there' refusal without its f-string, the compile note without its newline. The old
targeted files are
test_values_evaluation, test_values10_evaluation and test_values185_evaluation (evaluation); test_values_finetune,
test_values14_finetune and test_values118_finetune (fine-tuning); test_values_progress, test_values10_progress and
test_values180_progress (the bar); test_values_flat, test_values119_flat and test_values216_flat (the buffer);
test_values_gradcheck and test_values281_gradcheck (the utility). The new value tests catch every mutant on their
own: test_values373_progress_finetune (the bar's line word for word with its rate pinned at 0 samples/s, a plain
line per log_every with no carriage return, a note as its own line and nothing when quiet, the compile note's
sentence with a 0.01 s delay; check_settings passing equal options and refusing --bidirectional word for word;
load_into refusing --hidden 5 vs 4 word for word and loading equal shapes; read_source naming the missing path;
split_arrays' keys split by hand), test_values373_flat (names in layout order; offsets 0, 6, 8 with the prefixed
names, float32 kept, the values concatenated, dicts re-pointed at views; a passed dtype converting mixed arrays and
none refusing them word for word), test_values373_gradcheck (check_stack's verdicts within TOLERANCE with
max_elems 4, so every array larger than that is sampled). Left out as equivalent: sample_idx's 'size <= k' made
'<' (choosing k of k elements and sorting them is arange again); the compile-note timer's daemon flag (nothing
a test or user sees within a run). Left out as unreachable cheaply: the device update's lines (a GPU only) and
TensorBoardLog (the tensorboard package is not installed here).

    python tests/mutants/run.py --only 'v373-*'
"""
EVALUATION = "lnrnn/training/evaluation.py"
FINETUNE = "lnrnn/training/finetune.py"
PROGRESS = "lnrnn/training/progress.py"
FLAT = "lnrnn/model/flat.py"
GRADCHECK = "lnrnn/gradcheck.py"

T_PF = "tests/training/test_values373_progress_finetune.py::"
T_FLAT = "tests/model/test_values373_flat.py::"
T_GC = "tests/test_values373_gradcheck.py::"
OLD_EVAL = ["tests/training/test_values_evaluation.py", "tests/training/test_values10_evaluation.py",
            "tests/training/test_values185_evaluation.py"]
OLD_FT = ["tests/training/test_values_finetune.py", "tests/training/test_values14_finetune.py",
          "tests/training/test_values118_finetune.py"]
OLD_PROG = ["tests/training/test_values_progress.py", "tests/training/test_values10_progress.py",
            "tests/training/test_values180_progress.py"]
OLD_FLAT = ["tests/model/test_values_flat.py", "tests/model/test_values119_flat.py",
            "tests/model/test_values216_flat.py"]
OLD_GC = ["tests/test_values_gradcheck.py", "tests/test_values281_gradcheck.py"]

MUTANTS = [
    # ---- evaluation: lnrnn/training/evaluation.py ----
    dict(name="v373-evaluation-split-arrays-swapped", file=EVALUATION,
         old="    return model, slots\n",
         new="    return slots, model\n",
         tests=[T_PF + "test_split_arrays_model_first_then_slots"] + OLD_EVAL,
         why="split_arrays returns the optimizer slots where the model's arrays belong"),
    # ---- fine-tuning: lnrnn/training/finetune.py ----
    dict(name="v373-finetune-settings-equal-refused", file=FINETUNE,
         old="        if saved.get(name) != getattr(cfg, name):",
         new="        if saved.get(name) == getattr(cfg, name):",
         tests=[T_PF + "test_check_settings_passes_equal_and_refuses_a_difference_word_for_word"] + OLD_FT,
         why="--init-from refuses a run of the same shape and lets a different one through"),
    dict(name="v373-finetune-load-into-compares-itself", file=FINETUNE,
         old="        if theirs[key] != ours[key]:",
         new="        if theirs[key] != theirs[key]:",
         tests=[T_PF + "test_load_into_refuses_another_hidden_size_word_for_word"] + OLD_FT,
         why="a model config of another shape is never refused by name (a bare shape error or a wrong load)"),
    dict(name="v373-finetune-nothing-there-no-fstring", file=FINETUNE,
         old='        raise CheckpointError(f"--init-from {path}: there is nothing there; give the folder of a run "',
         new='        raise CheckpointError("--init-from {path}: there is nothing there; give the folder of a run "',
         tests=[T_PF + "test_read_source_with_nothing_there_names_the_path"] + OLD_FT,
         why="the refusal of a missing --init-from prints '{path}' instead of the path given"),
    # ---- the progress bar: lnrnn/training/progress.py ----
    dict(name="v373-progress-compile-note-no-newline", file=PROGRESS,
         old="""later runs load them from Numba's cache)...\\n")""",
         new="""later runs load them from Numba's cache)...")""",
         tests=[T_PF + "test_compile_note_sentence_word_for_word"] + OLD_PROG,
         why="the compile note runs into the next line of the log"),
    dict(name="v373-progress-parts-joined-by-comma", file=PROGRESS,
         old='        return " ".join(p for p in parts if p)',
         new='        return ", ".join(p for p in parts if p)',
         tests=[T_PF + "test_line_is_its_parts_joined_by_single_spaces"] + OLD_PROG,
         why="every progress line reads 'train [####] 10/10, loss 0.1235, ...'"),
    dict(name="v373-progress-tty-modes-swapped", file=PROGRESS,
         old="        if not self.tty:",
         new="        if self.tty:",
         tests=[T_PF + "test_plain_stream_gets_a_plain_line_per_log_every"] + OLD_PROG,
         why="a log file gets carriage returns and escape codes; a terminal gets a new line each time"),
    dict(name="v373-progress-note-only-when-quiet", file=PROGRESS,
         old='        if self.quiet:\n            return\n        self.stream.write(("\\r" + text',
         new='        if not self.quiet:\n            return\n        self.stream.write(("\\r" + text',
         tests=[T_PF + "test_note_is_a_line_of_its_own_unless_quiet"] + OLD_PROG,
         why="evaluation notes vanish from the log, and appear under --quiet"),
    # ---- the flat buffer: lnrnn/model/flat.py ----
    dict(name="v373-flat-names-sorted", file=FLAT,
         old="        return [name for name, _, _ in self.layout]",
         new="        return sorted(name for name, _, _ in self.layout)",
         tests=[T_FLAT + "test_names_keep_the_layout_order"] + OLD_FLAT,
         why="names no longer follow the buffer's packing order"),
    dict(name="v373-flat-offsets-start-at-one", file=FLAT,
         old="    layout, off, dts = [], 0, set()",
         new="    layout, off, dts = [], 1, set()",
         tests=[T_FLAT + "test_repack_layout_offsets_values_and_views"] + OLD_FLAT,
         why="every offset is one too far and the buffer carries an uninitialized first element"),
    dict(name="v373-flat-dtype-check-inverted", file=FLAT,
         old="    if dtype is None:",
         new="    if dtype is not None:",
         tests=[T_FLAT + "test_repack_layout_offsets_values_and_views",
                T_FLAT + "test_repack_dtype_passed_converts_mixed_and_none_refuses"] + OLD_FLAT,
         why="float32 parameters packed as float64, and a passed dtype refuses mixed arrays"),
    dict(name="v373-flat-views-without-prefix", file=FLAT,
         old="            v = flat.views[prefix + name]",
         new="            v = flat.views[name]",
         tests=[T_FLAT + "test_repack_layout_offsets_values_and_views"] + OLD_FLAT,
         why="repack looks up the unprefixed name (a KeyError for any prefixed leaf)"),
    # ---- the gradcheck utility: lnrnn/gradcheck.py ----
    dict(name="v373-gradcheck-stack-loss-mean", file=GRADCHECK,
         old="        return float(np.sum(y * R))",
         new="        return float(np.mean(y * R))",
         tests=[T_GC + "test_check_stack_sampled_verdicts_within_tolerance"] + OLD_GC,
         why="the numeric loss is not the one whose gradient backward(R) gives: every verdict fails"),
    dict(name="v373-gradcheck-first-elements-compared", file=GRADCHECK,
         old="        results.append((name, rel_error(analytic[name].reshape(-1)[idx], num)))",
         new="        results.append((name, rel_error(analytic[name].reshape(-1)[:len(idx)], num)))",
         tests=[T_GC + "test_check_stack_sampled_verdicts_within_tolerance"] + OLD_GC,
         why="sampled arrays are judged against the wrong analytic elements: correct gradients fail"),
]
