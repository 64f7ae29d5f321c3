"""Planted bugs, round 380 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the stroke tasks (lnrnn/data/strokes.py), twentieth pass, planted before any test was written for them: the unknown
symbol made '?'; the head's 20 mixture components made 10; drop_long_steps' default threshold halved; ctc_steps_needed
counting the -1 padding as labels; a split's length, a line's slice and its step count each off by one; StrokeTask.line,
StrokeTask.batch and ReadingTask.batch reading the training split whatever is asked; make_task keeping validation lines
by the training split's pattern; the reading task chosen by the wrong spec key; the glitch and spike counts starting at
one; a cut synthetic stroke one point too long.

15 mutants. Against the old targeted files alone: 15 of 15 caught (no new test was needed: the stroke-3, task and
synthetic tests written in earlier rounds catch each; the slowest, 33-38 s, are the glitch default, the CTC step
count and the reading batch, caught by the reading-task tests).

    python tests/mutants/run.py --only 'v380-*'
"""
STROKES = "lnrnn/data/strokes.py"

T_ST = "tests/data/test_values380_stroke_tasks.py::"
OLD_ST = ["tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py", "tests/data/test_values_strokes.py",
          "tests/data/test_values12_strokes.py", "tests/data/test_values20_strokes.py",
          "tests/data/test_values21_strokes.py", "tests/data/test_values44_strokes.py",
          "tests/data/test_values53_strokes.py", "tests/data/test_values76_strokes.py",
          "tests/data/test_values89_strokes.py", "tests/data/test_values109_strokes.py",
          "tests/data/test_values126_strokes.py", "tests/data/test_values135_synthetic.py",
          "tests/data/test_values164_strokes.py", "tests/data/test_values200_strokes.py",
          "tests/data/test_values220_strokes.py", "tests/data/test_values232_strokes.py",
          "tests/data/test_values244_strokes.py", "tests/data/test_values258_strokes.py",
          "tests/data/test_values299_strokes.py", "tests/data/test_values311_strokes.py",
          "tests/data/test_values339_strokes.py", "tests/data/test_values366_strokes_text.py",
          "tests/data/test_values_data_counts.py"]

MUTANTS = [
    dict(name="v380-strokes-unknown-question-mark", file=STROKES,
         old='UNKNOWN = "\\ufffd"         #',
         new='UNKNOWN = "?"              #',
         tests=OLD_ST,
         why="the unknown symbol is U+FFFD (module docstring); a '?' collides with a real character of a text"),
    dict(name="v380-strokes-mdn-components-10", file=STROKES,
         old="MDN_COMPONENTS = 20       #",
         new="MDN_COMPONENTS = 10       #",
         tests=OLD_ST,
         why="a stroke task's mixture density head asks for Graves's 20 components"),
    dict(name="v380-strokes-glitch-default-halved", file=STROKES,
         old="def drop_long_steps(seq, threshold=GLITCH_STEP):",
         new="def drop_long_steps(seq, threshold=GLITCH_STEP / 2):",
         tests=OLD_ST,
         why="normalize_line and make_task drop steps longer than GLITCH_STEP, not half of it"),
    dict(name="v380-strokes-ctc-steps-pads-real", file=STROKES,
         old="    real = labels >= 0\n",
         new="    real = labels != 0\n",
         tests=OLD_ST,
         why="the -1 padding counted as labels: a short text of a ragged batch needs as many steps as the longest"),
    dict(name="v380-strokes-set-len-off-by-one", file=STROKES,
         old="        return len(self.starts) - 1\n",
         new="        return len(self.starts)\n",
         tests=OLD_ST,
         why="a split of n lines has n + 1 start offsets"),
    dict(name="v380-strokes-set-line-short", file=STROKES,
         old="        return self.points[self.starts[i]:self.starts[i + 1]]",
         new="        return self.points[self.starts[i]:self.starts[i + 1] - 1]",
         tests=OLD_ST,
         why="a line's last point (the final pen lift) cut off"),
    dict(name="v380-strokes-max-steps-points", file=STROKES,
         old="        return int(np.diff(self.starts).max()) - 1 if len(self) else 0",
         new="        return int(np.diff(self.starts).max()) if len(self) else 0",
         tests=OLD_ST,
         why="a line of N points gives N - 1 prediction steps; steps counted as points"),
    dict(name="v380-strokes-task-line-train", file=STROKES,
         old="        return self.sets[which].line(i)",
         new="        return self.sets[\"train\"].line(i)",
         tests=OLD_ST,
         why="StrokeTask.line('val', i) answers with the training line i"),
    dict(name="v380-strokes-batch-train-set", file=STROKES,
         old="        s = self.sets[which]\n"
             "        idx = np.asarray(idx, np.int64)                                   # (B,)\n"
             "        first = s.starts[idx]                                             # (B,)\n"
             "        lengths = s.starts[idx + 1] - first - 1",
         new="        s = self.sets[\"train\"]\n"
             "        idx = np.asarray(idx, np.int64)                                   # (B,)\n"
             "        first = s.starts[idx]                                             # (B,)\n"
             "        lengths = s.starts[idx + 1] - first - 1",
         tests=OLD_ST,
         why="a validation batch of a prediction task cut from the training lines"),
    dict(name="v380-strokes-reading-batch-train-set", file=STROKES,
         old="        s = self.sets[which]\n"
             "        idx = np.asarray(idx, np.int64)                                   # (B,)\n"
             "        first = s.starts[idx]                                             # (B,)\n"
             "        lengths = s.starts[idx + 1] - first  ",
         new="        s = self.sets[\"train\"]\n"
             "        idx = np.asarray(idx, np.int64)                                   # (B,)\n"
             "        first = s.starts[idx]                                             # (B,)\n"
             "        lengths = s.starts[idx + 1] - first  ",
         tests=OLD_ST,
         why="a validation batch of a reading task: the training lines' points with the validation texts"),
    dict(name="v380-strokes-make-task-keep-from-train", file=STROKES,
         old="        keep = [i for i, ln in enumerate(fixed[which]) if ln is not None]",
         new="        keep = [i for i, ln in enumerate(fixed[\"train\"]) if ln is not None]",
         tests=OLD_ST,
         why="the validation split's lines kept by the training split's short-line pattern"),
    dict(name="v380-strokes-reading-by-task-key", file=STROKES,
         old='    kind = ReadingTask if spec.get("head") == "ctc" else StrokeTask',
         new='    kind = ReadingTask if spec.get("task") == "ctc" else StrokeTask',
         tests=OLD_ST,
         why="--head ctc read from the wrong key: a reading run gets a prediction task"),
    dict(name="v380-strokes-fix-lines-dropped-from-one", file=STROKES,
         old="    out, dropped = [], 0\n",
         new="    out, dropped = [], 1\n",
         tests=OLD_ST,
         why="every split's glitch count one too many (the description and extra's dropped_steps)"),
    dict(name="v380-strokes-synthetic-spikes-from-one", file=STROKES,
         old="    lines, spikes = [], 0\n",
         new="    lines, spikes = [], 1\n",
         tests=OLD_ST,
         why="the spikes planted counted one too many (extra's spikes)"),
    dict(name="v380-strokes-cut-one-past", file=STROKES,
         old="        out.append(s[:left])",
         new="        out.append(s[:left + 1])",
         tests=OLD_ST,
         why="a synthetic line one point longer than the n_points drawn"),
]
