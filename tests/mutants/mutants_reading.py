"""Planted bugs in reading handwriting: --head ctc on the stroke tasks (lnrnn/data/strokes.py, tasks.py,
lnrnn/training/plan.py), the model's whole-sequence head (lnrnn/model/models.py), lnrnn.read and lnrnn read
(lnrnn/api.py, lnrnn/commands/read.py) (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'reading-*'
"""

T = "tests/commands/test_reading.py"
CER = f"{T}::test_read_gives_the_cer_the_run_reported"
KEEPS = f"{T}::test_reader_keeps_alphabet_scale_and_reports_loss_and_cer"
XML = f"{T}::test_iam_line_xml_reads_as_the_task_normalized_it"
CHUNKS = f"{T}::test_evaluation_in_time_chunks_scores_whole_lines"
REFUSE = f"{T}::test_train_refuses_what_a_reader_cannot_be"
OPTIONS = f"{T}::test_read_refuses_bad_options_before_any_work"

MUTANTS = [
    dict(name="reading-class-to-character-unshifted", file="lnrnn/data/strokes.py",
         old='    return "".join(alphabet[int(c) - CTC_SHIFT] for c in classes)',
         new='    return "".join(alphabet[int(c) % len(alphabet)] for c in classes)',
         tests=[CER],
         why="class c reads as alphabet[c] (the blank's shift forgotten): every character one place off"),
    dict(name="reading-blank-is-class-one", file="lnrnn/api.py",
         old="            logp = head.log_probs(y, lengths)                                       # (T,B,C)\n",
         new="            logp = head.log_probs(y, lengths)                                       # (T,B,C)\n"
             "            logp = np.roll(logp, -1, axis=2)\n",
         tests=[CER],
         why="the decoder takes class 1 for the blank (classes rolled by one): the wrong class dropped"),
    dict(name="reading-no-scale", file="lnrnn/data/strokes.py",
         old="    return fixed / np.array([scale[0], scale[1], 1.0])",
         new="    return fixed",
         tests=[CER],
         why="read feeds offsets in the data's units, not divided by the training std as the run saw them"),
    dict(name="reading-glitches-kept", file="lnrnn/data/strokes.py",
         old="    fixed, _ = drop_long_steps(seq)\n",
         new="    fixed = np.asarray(seq, np.float64)\n",
         tests=[XML],
         why="read keeps the glitch steps the task dropped from its training lines"),
    dict(name="reading-last-point-dropped", file="lnrnn/data/strokes.py",
         old="        lengths = s.starts[idx + 1] - first                               # (B,) steps = points\n",
         new="        lengths = s.starts[idx + 1] - first - 1                           # (B,) steps = points\n",
         tests=[CER],
         why="the reader trains and validates on each line without its last point, while read reads it whole"),
    dict(name="reading-window-by-default", file="lnrnn/training/plan.py",
         old="(WINDOW_DEFAULT if has_text and cfg.head != \"ctc\" else 0)",
         new="(WINDOW_DEFAULT if has_text else 0)",
         tests=[KEEPS],
         why="a reader gets the synthesis network's window by default: it is handed the text it should read"),
    dict(name="reading-tbptt-allowed", file="lnrnn/training/plan.py",
         old="    checks.append((not (cfg.head == \"ctc\" and cfg.tbptt),",
         new="    checks.append((True or not (cfg.head == \"ctc\" and cfg.tbptt),",
         tests=[REFUSE],
         why="--tbptt with --head ctc passes the settings' check (and fails later with a traceback)"),
    dict(name="reading-eval-scores-chunks", file="lnrnn/model/models.py",
         old="        if getattr(self.head, \"whole_sequence\", False):  # the chunks' outputs joined, scored at once\n",
         new="        if False:  # the chunks' outputs joined, scored at once\n",
         tests=[CHUNKS],
         why="evaluation scores a CTC head on each inference chunk as if it were a whole line"),
    dict(name="reading-predict-takes-a-reader", file="lnrnn/api.py",
         old="    if head.kind == \"ctc\" and getattr(head, \"scale\", None) is not None:\n",
         new="    if False:\n",
         tests=[OPTIONS],
         why="lnrnn predict runs a reader on unnormalized strokes instead of sending the user to lnrnn read"),
    dict(name="reading-out-checked-late", file="lnrnn/commands/read.py",
         old="    if out is not None:\n        check_output_file(out)\n",
         new="",
         tests=[OPTIONS],
         why="read loads the run and reads the input before it finds that --out cannot be written"),
]
