"""Planted bugs, round 244 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the stroke data preparation (lnrnn/data/strokes.py) and the stroke-3 files (lnrnn/data/stroke_files.py): the
glitch check asking whether every step is long (so no glitch is ever dropped); CTC labels right-padded with 0
instead of -1; text_record counting the validation lines; a split's max_steps counting points, not steps; a task's
steps the shorter split's longest line; a reading task's description counting the blank among its characters; the
unseen characters' '...' added at exactly 20; short lines described only when both splits have one; the validation
split fixed from the training lines; the synthetic lines' cut keeping empty strokes once a stroke's end meets the
count; the strokes-npz description counting the training sequences as the file's; an empty folder's refusal listing
nothing instead of 'none'; a file's own split under sketch-rnn's 'valid' name refused as val_strokes; a lone line of
no point in an .npz counted as line 2.

14 mutants. Against the old targeted files alone (the OLD_* lists): 8 caught; missed were the reading description
counting the blank, the '...' at exactly 20, short lines described only when both splits have one, the strokes-npz
description counting the training sequences, the 'valid' split refused as val_strokes and a lone empty line counted
as line 2 (no old file reads a reader's description, an .npz's own 'valid' split or an .npz's lone line). The new
value tests catch every mutant on their own (checked with the old files taken off the lists): test_values244_strokes
(a glitch of length 1001 dropped with its lift moved back and one of exactly 1000 kept, the line normalized by (2,
0.5) by hand; labels of texts of 3, 1, 0 characters written out with their -1 padding and an all-empty batch one
column wide; the text record's 3 training lines beside 1 validation line; steps over lines of 3/5 and 7 points, and
of 9/3 and 3/5, as the longest N - 1, a reader's as the longest N, and the batch's zero padding at 3 and 5 points; a
validation split of its own 2 lines, one glitch, normalized by the training offsets' standard deviation (2, 0.5)
worked out by hand; a reading task's description word for word with 20 and 21 unseen characters, one short training
line and none; _cut at stroke ends over 1..12 points by hand), test_values244_stroke_files (the description of 2, 21
and 1001 pooled sequences with 1/1, 19/2 and 901/100 held out; an empty folder and one of two files refused word for
word; a 'valid' split read and its pen column refused naming valid_strokes; a lone empty line of an .npz and an .npy
as line 1). Left out as equivalent: ctc_steps_needed's labels >= 0 made > 0 (labels are codes + 1, never 0); _cut's
left -= len(out[-1]) made len(s) (they differ only once left reaches 0 or below, when the loop stops either way);
drop_long_steps without .copy() after seq[kept] (fancy indexing copies already). Left out as not cheaply caught by a
hand computation: synthetic_line's total += 2 for a dot made += 1 (the line is cut to the same count; only the
generator's later draws move), SYN_POINTS[1] + 1 made SYN_POINTS[1] (one length in 261 never drawn). Resampling and
augmentation geometry (scale, shear, rotation) live in lnrnn/data/kanjivg.py, outside this round's modules.

    python tests/mutants/run.py --only 'v244-*'
"""
STROKES = "lnrnn/data/strokes.py"
FILES = "lnrnn/data/stroke_files.py"

T_STROKES = "tests/data/test_values244_strokes.py::"
T_FILES = "tests/data/test_values244_stroke_files.py::"
OLD_STROKES = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py",
               "tests/data/test_values232_strokes.py", "tests/data/test_values76_strokes.py"]
OLD_FILES = ["tests/data/test_values_stroke_files.py", "tests/data/test_values232_stroke_files.py",
             "tests/data/test_values53_stroke_files.py", "tests/data/test_strokes_data.py"]

MUTANTS = [
    # ---- stroke-3 helpers, text and tasks: lnrnn/data/strokes.py ----
    dict(name="v244-strokes-glitch-check-all", file=STROKES,
         old="    if not long.any():\n        return seq, 0",
         new="    if not long.all():\n        return seq, 0",
         tests=[T_STROKES + "test_a_glitch_of_1001_is_dropped_with_its_lift_moved_back_and_1000_is_kept",
                T_STROKES + "test_the_validation_split_is_its_own_lines_scaled_by_the_training_std"] + OLD_STROKES,
         why="drop_long_steps returns the line untouched unless every step is long (row 0 never is): no glitch "
             "is ever dropped"),
    dict(name="v244-strokes-labels-padded-with-zero", file=STROKES,
         old="max([1] + [len(c) for c in codes])), -1, np.int64)",
         new="max([1] + [len(c) for c in codes])), 0, np.int64)",
         tests=[T_STROKES + "test_ctc_labels_are_codes_plus_one_padded_with_minus_one"] + OLD_STROKES,
         why="CTC labels are right-padded with 0 (the blank) instead of -1: padding counts as labels"),
    dict(name="v244-strokes-text-record-counts-val", file=STROKES,
         old='"lines": len(task.texts_train)}',
         new='"lines": len(task.texts_val)}',
         tests=[T_STROKES + "test_the_text_record_counts_the_training_lines"] + OLD_STROKES,
         why="what a run keeps of a task's text counts the validation lines as its training lines"),
    dict(name="v244-strokes-max-steps-counts-points", file=STROKES,
         old="return int(np.diff(self.starts).max()) - 1 if len(self) else 0",
         new="return int(np.diff(self.starts).max()) if len(self) else 0",
         tests=[T_STROKES + "test_steps_are_the_longest_line_of_either_split"] + OLD_STROKES,
         why="a split's max_steps is its longest line's N, not N - 1: a stroke task's steps one too many"),
    dict(name="v244-strokes-steps-min-of-splits", file=STROKES,
         old="return max(s.max_steps for s in self.sets.values())",
         new="return min(s.max_steps for s in self.sets.values())",
         tests=[T_STROKES + "test_steps_are_the_longest_line_of_either_split"] + OLD_STROKES,
         why="a stroke task's steps are the shorter split's longest line: the other split's long lines overrun"),
    dict(name="v244-strokes-reading-alphabet-counts-blank", file=STROKES,
         old='labels over {A} "',
         new='labels over {A + 1} "',
         tests=[T_STROKES + "test_a_reading_description_with_20_unseen_characters_and_one_short_training_line",
                T_STROKES + "test_a_reading_description_with_21_unseen_characters_and_no_short_line"] + OLD_STROKES,
         why="a reading task's description counts the blank among the alphabet's characters"),
    dict(name="v244-strokes-unseen-ellipsis-at-20", file=STROKES,
         old="{'...' if len(unseen) > 20 else ''}",
         new="{'...' if len(unseen) >= 20 else ''}",
         tests=[T_STROKES + "test_a_reading_description_with_20_unseen_characters_and_one_short_training_line"]
         + OLD_STROKES,
         why="exactly 20 unseen validation characters, all shown, are described with '...' as if some were cut"),
    dict(name="v244-strokes-short-lines-need-both-splits", file=STROKES,
         old='if short["train"] or short["val"]:',
         new='if short["train"] and short["val"]:',
         tests=[T_STROKES + "test_a_reading_description_with_20_unseen_characters_and_one_short_training_line"]
         + OLD_STROKES,
         why="lines too short for their labels are described only when both splits have some"),
    dict(name="v244-strokes-val-fixed-from-train-lines", file=STROKES,
         old="fixed[which], dropped[which] = _fix_lines(raw.lines)",
         new="fixed[which], dropped[which] = _fix_lines(train.lines)",
         tests=[T_STROKES + "test_the_validation_split_is_its_own_lines_scaled_by_the_training_std"] + OLD_STROKES,
         why="the validation split is built from the training lines: validation scores training data"),
    dict(name="v244-strokes-cut-keeps-empty-strokes", file=STROKES,
         old="        if left <= 0:\n            break",
         new="        if left < 0:\n            break",
         tests=[T_STROKES + "test_the_cut_at_a_strokes_end_leaves_no_empty_stroke"] + OLD_STROKES,
         why="a synthetic line cut exactly at a stroke's end keeps the strokes after it as empty strokes, which "
             "to_stroke3 refuses"),
    # ---- stroke-3 files: lnrnn/data/stroke_files.py ----
    dict(name="v244-files-description-counts-train", file=FILES,
         old='how = f"{len(seqs)} sequences, {S.VAL_FRACTION:.0%} held out"',
         new='how = f"{len(train.lines)} sequences, {S.VAL_FRACTION:.0%} held out"',
         tests=[T_FILES + "test_the_description_counts_the_files_sequences"] + OLD_FILES,
         why="the strokes-npz description gives the training sequences as the file's count"),
    dict(name="v244-files-empty-folder-lists-nothing", file=FILES,
         old="({', '.join(found) or 'none'})",
         new="({', '.join(found)})",
         tests=[T_FILES + "test_a_folder_without_exactly_one_stroke_file_is_refused"] + OLD_FILES,
         why="a folder without a stroke file is refused with '()' where it said '(none)'"),
    dict(name="v244-files-own-split-named-by-split", file=FILES,
         old='path, k + "_strokes")\n',
         new='path, w + "_strokes")\n',
         tests=[T_FILES + "test_the_files_own_split_under_sketch_rnns_valid_name"] + OLD_FILES,
         why="a refusal of a file's valid_strokes names val_strokes, an array the file does not have"),
    dict(name="v244-files-lone-line-counted-from-2", file=FILES,
         old="return [_line(_check_rows(data[name], text, name), text, 0)]",
         new="return [_line(_check_rows(data[name], text, name), text, 1)]",
         tests=[T_FILES + "test_a_lone_line_of_no_point_is_line_1"] + OLD_FILES,
         why="an .npz of points without lengths whose one line is empty is refused as line 2"),
]
