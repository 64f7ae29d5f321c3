"""Planted bugs, round 299 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the data preparation (fifteenth pass): lnrnn/data/strokes.py, lnrnn/data/arrays.py,
lnrnn/data/stroke_files.py, lnrnn/data/splits.py and lnrnn/data/tasks.py. Stroke lengths counted one short in
to_stroke3 (each pen lift one point early, a dot refused); to_strokes reading offsets as integers; the head's
scale naming sx for both axes; an alphabet made when any training line (not every one) has a text; the names and
texts of kept lines taken from the front instead of the kept indices; numpy_kind reading 8 bytes (a .npy no
longer known by its 6-byte magic); lengths cast to integers before their dtype is checked (2.5 read as 2); the
npz sets' list keyed on lengths_val (a file's own x_val without lengths_val never checked); save_npz's lengths one
short; a packed file's refusals naming lengths for strokes; a too-long sequence counted from 1; read_lines naming
an .npz's arrays unsorted; --split's refusal quoting nothing; task_spec writing an option's value unchecked.

14 mutants. Against the old targeted files alone: 9 of 14 caught (missed: an alphabet built when any line has text,
float lengths cast before the dtype check, the --split refusal unquoted, task_spec storing an option unchecked,
read_lines listing an npz's arrays unsorted). The new value tests catch every mutant on their own (checked with the
old files taken off the lists): test_values299_strokes (two strokes of 3 and 2 points and a dot written out as
stroke-3 by hand, pen lifts on each stroke's last point; fractional offsets drawn back at scale (2, 1) without
rounding; the head scale against the standard deviations of offsets 3, -1, 0 and 0, 2, 4 worked out by hand,
sqrt(78/27) and sqrt(8/3), and the normalized lines divided by them; texts ["ab", None] giving no alphabet; the
names and texts of the lines kept past a skipped one-point line), test_values299_arrays (a .npy's six magic bytes
and its refusal word for word with nothing written; float lengths refused word for word; x_val and y_val without
lengths_val read value by value, int16 kept and bool made uint8, and a width mismatch refused in the singular;
--split 3/0 and 0/7 refused quoting the text; task_spec refusing objective 'xyz' before any file is read),
test_values299_stroke_files (save_npz's strokes and lengths read back with numpy.load, lengths 3, 2 and per split 2,
3, 2 / 3; NaN in strokes refused naming strokes; a 10,001-point sequence refused as sequence 1; a pickled train +
valid read into its own splits with allow_pickle; read_lines naming arrays alpha, zeta sorted).

Left out as equivalent: drop_long_steps's seq[kept].copy() without .copy() (fancy indexing copies);
ctc_steps_needed's labels >= 0 made > 0 (a CTC label is never 0); parse_split's split("/") made split("/", 1)
("1/2/3" is refused either way, as int("2/3") fails); check_arrays's `if objective is None` made `if not
objective` (an objective is None or a non-empty name). Left out as too costly to test cheaply: the synthetic
generator's draws (only a full rebuild of the seeded generator tells a changed uniform range apart) and the
TaskShape byte estimates (a test would restate the formula line for line rather than compute it independently).

    python tests/mutants/run.py --only 'v299-*'
"""
STROKES = "lnrnn/data/strokes.py"
ARRAYS = "lnrnn/data/arrays.py"
FILES = "lnrnn/data/stroke_files.py"
SPLITS = "lnrnn/data/splits.py"
TASKS = "lnrnn/data/tasks.py"

T_STROKES = "tests/data/test_values299_strokes.py::"
T_ARRAYS = "tests/data/test_values299_arrays.py::"
T_FILES = "tests/data/test_values299_stroke_files.py::"
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_values244_strokes.py",
               "tests/data/test_values258_strokes.py", "tests/data/test_values_strokes.py"]
OLD_ARRAYS = ["tests/data/test_own_data.py", "tests/data/test_values275_arrays.py",
              "tests/data/test_values240_arrays.py", "tests/data/test_values_splits.py",
              "tests/data/test_values240_tasks.py"]
OLD_FILES = ["tests/data/test_values_stroke_files.py", "tests/data/test_values244_stroke_files.py",
             "tests/data/test_values275_stroke_files.py", "tests/data/test_values232_stroke_files.py"]

MUTANTS = [
    # ---- stroke-3 helpers and the stroke task: lnrnn/data/strokes.py ----
    dict(name="v299-strokes-lengths-one-short", file=STROKES,
         old="    lens = [len(s) for s in strokes]\n",
         new="    lens = [len(s) - 1 for s in strokes]\n",
         tests=[T_STROKES + "test_two_strokes_to_offsets_with_a_lift_on_each_last_point",
                T_STROKES + "test_a_dot_is_a_stroke_of_one_point_lifted_at_once"] + OLD_STROKES,
         why="each stroke's pen lift lands one point early, and a dot (a stroke of one point) is refused"),
    dict(name="v299-strokes-to-strokes-integer-offsets", file=STROKES,
         old="    seq = np.asarray(seq, np.float64)\n    pts = np.cumsum(",
         new="    seq = np.asarray(seq, np.int64)\n    pts = np.cumsum(",
         tests=[T_STROKES + "test_fractional_offsets_drawn_back_without_rounding"] + OLD_STROKES,
         why="a line is drawn back from offsets truncated to integers"),
    dict(name="v299-strokes-head-scale-sx-twice", file=STROKES,
         old='MDN_COMPONENTS, "per_step": True, "scale": list(self.scale)}',
         new='MDN_COMPONENTS, "per_step": True, "scale": [self.scale[0], self.scale[0]]}',
         tests=[T_STROKES + "test_head_scale_is_the_training_offsets_std_by_hand"] + OLD_STROKES,
         why="the mixture head is told sx for both axes: samples are drawn back with the wrong y scale"),
    dict(name="v299-strokes-alphabet-any-text", file=STROKES,
         old="if texts and all(isinstance(t, str) for t in texts) else None",
         new="if texts and any(isinstance(t, str) for t in texts) else None",
         tests=[T_STROKES + "test_training_lines_partly_without_text_give_no_alphabet"] + OLD_STROKES,
         why="a training split with some lines of no text builds an alphabet (a TypeError joining None)"),
    dict(name="v299-strokes-pick-from-the-front", file=STROKES,
         old="    return None if items is None else [items[i] for i in keep]\n",
         new="    return None if items is None else items[:len(keep)]\n",
         tests=[T_STROKES + "test_names_and_texts_follow_the_lines_kept_past_a_skipped_one"] + OLD_STROKES,
         why="past a skipped line, the kept lines carry the names and texts of the lines before them"),
    # ---- the npz task: lnrnn/data/arrays.py, lnrnn/data/splits.py, lnrnn/data/tasks.py ----
    dict(name="v299-arrays-magic-read-eight-bytes", file=ARRAYS,
         old="        head = f.read(6)\n",
         new="        head = f.read(8)\n",
         tests=[T_ARRAYS + "test_npy_known_by_its_six_magic_bytes_and_refused_by_name"] + OLD_ARRAYS,
         why="a .npy file is no longer known by its 6-byte magic and is refused as a binary file of other bytes"),
    dict(name="v299-arrays-lengths-cast-before-check", file=ARRAYS,
         old="    lengths = np.asarray(lengths)\n    if lengths.dtype.kind not in \"iu\" or lengths.shape != (N,):",
         new="    lengths = np.asarray(lengths, np.int64)\n    if lengths.dtype.kind not in \"iu\" or lengths.shape != (N,):",
         tests=[T_ARRAYS + "test_float_lengths_refused_not_truncated"] + OLD_ARRAYS,
         why="lengths stored as floats are truncated (2.5 read as 2) instead of refused"),
    dict(name="v299-arrays-val-set-keyed-on-lengths-val", file=ARRAYS,
         old='([("_val", "validation")] if has_val["x_val"] else [])',
         new='([("_val", "validation")] if has_val["lengths_val"] else [])',
         tests=[T_ARRAYS + "test_own_validation_without_lengths_val_read_value_by_value"] + OLD_ARRAYS,
         why="a file's own x_val, y_val without lengths_val are never checked nor read (a KeyError follows)"),
    dict(name="v299-splits-refusal-unquoted", file=SPLITS,
         old='raise UserError(f"--split needs positive counts, not {text!r}.")',
         new='raise UserError(f"--split needs positive counts, not {text}.")',
         tests=[T_ARRAYS + "test_split_with_a_zero_count_refused_quoting_the_text"] + OLD_ARRAYS,
         why="--split 3/0 is refused without quoting the text given"),
    dict(name="v299-tasks-option-unchecked", file=TASKS,
         old="            spec[key] = check(val)\n",
         new="            spec[key] = val\n",
         tests=[T_ARRAYS + "test_task_spec_checks_the_objective_before_reading_data"] + OLD_ARRAYS,
         why="an option's value is written into the spec unchecked: --objective xyz passes task_spec"),
    # ---- stroke files: lnrnn/data/stroke_files.py ----
    dict(name="v299-files-saved-lengths-one-short", file=FILES,
         old='prefix + "lengths": np.array([len(s) for s in seqs])}',
         new='prefix + "lengths": np.array([len(s) - 1 for s in seqs])}',
         tests=[T_FILES + "test_save_npz_layout_read_back_value_by_value"] + OLD_FILES,
         why="save_npz writes each sequence's length one short: its own files no longer read back"),
    dict(name="v299-files-strokes-refused-as-lengths", file=FILES,
         old='return {"all": _packed(data["strokes"], data["lengths"], path, "strokes")}',
         new='return {"all": _packed(data["strokes"], data["lengths"], path, "lengths")}',
         tests=[T_FILES + "test_nan_in_packed_strokes_refused_naming_strokes"] + OLD_FILES,
         why="a packed file's refusals name the lengths array for the strokes"),
    dict(name="v299-files-sequence-counted-from-one", file=FILES,
         old="    return [_check_length(s, path, name, i) for i, s in enumerate(seqs)]\n",
         new="    return [_check_length(s, path, name, i) for i, s in enumerate(seqs, 1)]\n",
         tests=[T_FILES + "test_too_long_sequence_refused_by_its_index_from_zero"] + OLD_FILES,
         why="a too-long sequence of a packed file is named by its index counted from 1"),
    dict(name="v299-files-read-lines-arrays-unsorted", file=FILES,
         old="raise DataError(f\"{text} has arrays {', '.join(sorted(data.files)) or 'none'}",
         new="raise DataError(f\"{text} has arrays {', '.join(data.files) or 'none'}",
         tests=[T_FILES + "test_read_lines_names_the_arrays_sorted"] + OLD_FILES,
         why="read_lines names an .npz's arrays in the file's order, not sorted"),
]
