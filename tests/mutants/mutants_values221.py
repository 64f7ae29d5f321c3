"""Planted bugs, round 221 (format: tests/mutants/mutants.py): single-line slips on lines of the sampler, the
window model and the sample command that no earlier round mutates. The sampler: the Python names calling the
prime's text 'text', the refusal of a text whose number of lines is not count giving its two numbers swapped, a
synthesis model sampled without text told to pass prime=, a model without a window said to lack a mixture head,
a bytes line let through the str check (a TypeError later instead of the refusal). The window model: a state
shorter than the stack let through its check (an IndexError in the layer loop), the text lengths' bound given
as the batch size instead of the codes' width, the window and alphabet sizes swapped in their refusal. The
sample command: --count against the --text lines refused with its numbers swapped, --judge-out without --judge
told to give --judge-out, the .npz's lengths counting each line's columns instead of its points, two written
lines summed up in the singular, the judge's report headed by the writer's folder.

13 mutants. Against the existing targeted tests alone (the four most direct old files of each module) 5 were
caught and 8 missed: the five sampler refusals (no old test reads them word for word or gives a bytes line),
the short state (no old test gives a state of the wrong length), and the command's --count and --judge-out
refusals (old tests check only words of them). The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): test_values221_sampler (each refusal against the sentence the sampler
documents, with the numbers and names of the call: two lines with count 3, a half prime either way, bytes and
an int as a line), test_values221_window_model (a state of one and of three entries for a two-layer stack is
a ValueError naming both counts; a length past a width U = 3 with a batch of 2; window 0 and alphabet 0 each
refused with the values in the sentence's order), test_values221_sample_cli (the sampler, the drawing and the
judge replaced by stand-ins that record their arguments: the two refusals as one exact 'Error:' line with
nothing written; one line of 3 points and two of 2 and 5 points, each value different, split back out of the
.npz by its lengths and compared with the points the stand-in returned, the texts read back, the summary line
spelled out here; the reader's folder heading the judge's report, the run and the reader loaded in that order).
Dropped as equivalent: the step's phi taken as the last step of the window's phi instead of the first (a step
runs one step, so both are the same row); the command's summary saying 'lines' for count > 1 instead of
count != 1 (count is at least 1). The sampler's drawing lines (the mixture draw, the prime's replay, the stop
rule, rows of several lengths) and the command's options reaching the sampler are all mutated by earlier
rounds, so none is planted here.

    python tests/mutants/run.py --only 'v221-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
COMMAND = "lnrnn/commands/sample.py"

# existing tests of these modules (the most direct files of each)
SAMPLE_OLD = ["tests/test_values213_sampler.py", "tests/test_values198_sampler.py", "tests/test_values162_sampler.py",
              "tests/test_values133_sampler.py"]
WINDOW_OLD = ["tests/model/test_values204_window_model.py", "tests/model/test_values162_window_model.py",
              "tests/model/test_values133_window_model.py", "tests/model/test_values120_window_model.py"]
COMMAND_OLD = ["tests/commands/test_values208_sample_cli.py", "tests/commands/test_values143_sample_cli.py",
               "tests/commands/test_values126_sample_cli.py", "tests/commands/test_values99_sample_cli.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values221_sampler.py"]
WINDOW_NEW = ["tests/model/test_values221_window_model.py"]
COMMAND_NEW = ["tests/commands/test_values221_sample_cli.py"]

MUTANTS = [
    # ---- the sampler's refusals: which names they give, which numbers, what they let through ----
    dict(name="v221-sample-python-name-of-prime-text", file=SAMPLE,
         old='"prime_text": "prime_text"}  # what errors call them',
         new='"prime_text": "text"}  # what errors call them',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the Python names call the prime's text 'text': a half prime is refused as 'text needs "
             "prime_strokes', naming the lines to write instead of prime_text"),
    dict(name="v221-sample-count-refusal-swaps-its-numbers", file=SAMPLE,
         old='f"text holds {len(lines)} line{\'s\' * (len(lines) != 1)} but count is {count}: "',
         new='f"text holds {count} line{\'s\' * (len(lines) != 1)} but count is {len(lines)}: "',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the refusal of a text whose number of lines is not count gives the two numbers the wrong way "
             "round"),
    dict(name="v221-sample-no-text-asks-for-prime", file=SAMPLE,
         old='"pass text=, one array of codes per line."',
         new='"pass prime=, one array of codes per line."',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a synthesis model sampled without text is told to pass prime= instead of text="),
    dict(name="v221-sample-free-model-blames-the-head", file=SAMPLE,
         old='raise UserError("this model was trained without text (it has no attention window): it draws freely and "',
         new='raise UserError("this model was trained without text (it has no mixture head): it draws freely and "',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a model without a window given a text is said to lack a mixture head, the one part it has"),
    dict(name="v221-sample-bytes-line-passes-the-str-check", file=SAMPLE,
         old="        if not isinstance(s, str):",
         new="        if not isinstance(s, (str, bytes)):",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a bytes line passes the str check and fails later with a TypeError inside the alphabet test "
             "instead of the one-sentence refusal"),
    # ---- the window model's checks ----
    dict(name="v221-window-short-state-passes", file=WINDOW,
         old="        if state is not None and len(state) != len(self.layers):",
         new="        if state is not None and len(state) > len(self.layers):",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="a state with fewer entries than layers passes the check and fails as an IndexError in the layer "
             "loop instead of the ValueError that says what state must hold"),
    dict(name="v221-window-lengths-range-names-the-batch", file=WINDOW,
         old='raise ValueError(f"text lengths must lie in [0, {codes.shape[1]}], got {ulen.min()}..{ulen.max()}")',
         new='raise ValueError(f"text lengths must lie in [0, {codes.shape[0]}], got {ulen.min()}..{ulen.max()}")',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the refusal of a text length past the codes' width gives the batch size B as the bound instead of "
             "the width U"),
    dict(name="v221-window-size-refusal-swaps-its-values", file=WINDOW,
         old='f"window and alphabet_size must be positive integers, got {window} and {alphabet_size}")',
         new='f"window and alphabet_size must be positive integers, got {alphabet_size} and {window}")',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the refusal of a bad window or alphabet size gives the two values the wrong way round"),
    # ---- the sample command: its refusals, its .npz, its summary line ----
    dict(name="v221-command-count-refusal-swaps-its-numbers", file=COMMAND,
         old='raise UserError(f"--count {count} does not match the {len(texts)} --text line"',
         new='raise UserError(f"--count {len(texts)} does not match the {count} --text line"',
         tests=COMMAND_NEW + COMMAND_OLD,
         why="--count against a different number of --text lines is refused with the two numbers swapped"),
    dict(name="v221-command-judge-out-asks-for-itself", file=COMMAND,
         old='raise UserError("--judge-out writes what --judge measured; give --judge READER_RUN_FOLDER.")',
         new='raise UserError("--judge-out writes what --judge measured; give --judge-out READER_RUN_FOLDER.")',
         tests=COMMAND_NEW + COMMAND_OLD,
         why="--judge-out without --judge tells the user to give --judge-out, the option already given"),
    dict(name="v221-command-npz-lengths-wrong-axis", file=COMMAND,
         old="lengths=np.array([len(s) for s in points]),",
         new="lengths=np.array([s.shape[1] for s in points]),",
         tests=COMMAND_NEW + COMMAND_OLD,
         why="the .npz's lengths count each line's columns (3) instead of its points: the concatenated points "
             "cannot be split back into lines"),
    dict(name="v221-command-two-lines-said-in-the-singular", file=COMMAND,
         old="""click.echo(f"Wrote {count} line{'s' * (count != 1)} of text to {out}{also} \"""",
         new="""click.echo(f"Wrote {count} line{'s' * (count > 2)} of text to {out}{also} \"""",
         tests=COMMAND_NEW + COMMAND_OLD,
         why="the summary of two written lines says 'Wrote 2 line of text'"),
    dict(name="v221-command-judge-names-the-writer", file=COMMAND,
         old='click.echo(f"Read by the reader in {judge_path}:")',
         new='click.echo(f"Read by the reader in {path}:")',
         tests=COMMAND_NEW + COMMAND_OLD,
         why="the judged report is headed by the writer's run folder instead of the reader's"),
]
