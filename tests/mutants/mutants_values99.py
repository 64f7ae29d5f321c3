"""Planted bugs, round 99 (format: tests/mutants/mutants.py): single-line slips in sampling and priming, on
lines no earlier round mutates: the free sampler's loop starting at step 1 and its first input ignoring
``start``; a written row's window reading the line before the prime's text, the text matrix as wide as the
shortest row, each kept point the step's input instead of its draw, phi recorded one step back and the
head's scale applied as (sy, sx); read_stroke3 refusing every NumPy file (its magic check joined by ``or``);
text_inputs naming the prime's points after its text, not checking the prime's text against the alphabet
and scaling the prime's points by (sy, sx); check_text letting float codes through; lnrnn sample checking
the text in the Python names instead of the options' and its capped message naming --count as the cap.

14 mutants. Against the existing targeted tests alone (the most direct old files only, the lists below: the
full set's baseline was too slow to run) 11 were caught and 3 missed: free sampling without ``start`` (no old
test passes a start), the prime's points scaled by (sy, sx) (no old test compares the normalized prime with the
points given) and check_text accepting float codes (the old checks refuse bad
shapes, ranges and lengths, never a float dtype). The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): test_values99_sampler (every step the model is run
is recorded; the drawn points are the same seed's draws replayed here through the head's sampler from the
recorded outputs, times the head's scale; the prime's points are the first inputs, teacher-forced, one per
step; each row's phi is the recorded step_phi over its own characters; each row's length is the first step
Graves's stop rule fires, recomputed from the recorded step_end and step_phi, or the cap; the window's codes
are the prime's codes, then the line's; the prime in data units divided by the scale; files read back as
written; the refusals by the names they must say), test_values99_sample_cli (lnrnn sample's --steps,
--count, --bias and --seed against sample_strokes called here on the loaded model; a capped line's message;
the refusals as one line, exit non-zero and nothing written).

Dropped as equivalent: ``self.step_phi = self.phi[0]`` read as ``self.phi[-1]`` (a step's forward holds one
step) and the step's final state ``states[0]`` read as ``states[-1]`` (the same tuple on a one-layer stack,
an IndexError on any other: a crash, not a realistic slip to count).

    python tests/mutants/run.py --only 'v99-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
CMD = "lnrnn/commands/sample.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/test_values87_sampler.py", "tests/test_values76_sampler.py",
              "tests/commands/test_sample_text.py"]
WINDOW_OLD = ["tests/model/test_values_window.py", "tests/model/test_values52_window.py"]
CMD_OLD = ["tests/commands/test_sample_text.py", "tests/commands/test_values69_sample_errors.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values99_sampler.py"]
WINDOW_NEW = ["tests/test_values99_sampler.py"]
CMD_NEW = ["tests/commands/test_values99_sample_cli.py"]

MUTANTS = [
    # ---- free sampling ----
    dict(name="v99-free-steps-from-one", file=SAMPLE,
         old="    for t in range(steps):",
         new="    for t in range(1, steps):",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the free sampler skips step 0: the first point of every row is left uninitialized and the "
             "model is run one step short"),
    dict(name="v99-free-start-ignored", file=SAMPLE,
         old="    rng, x, state = _start(model, count, seed, start)\n    out = np.empty(",
         new="    rng, x, state = _start(model, count, seed, None)\n    out = np.empty(",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="free sampling drops start: the first input is the origin whatever the caller gave"),
    # ---- writing a text ----
    dict(name="v99-write-prime-text-after-line", file=SAMPLE,
         old="np.concatenate([pre_codes, c])",
         new="np.concatenate([c, pre_codes])",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the window reads the line first and the prime's text after it, while the prime's points were "
             "written for the prime's text"),
    dict(name="v99-write-text-width-shortest", file=SAMPLE,
         old="U = int(ulen.max())",
         new="U = int(ulen.min())",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the (B,U) text matrix is as wide as the shortest row: a batch of lines of different lengths "
             "cannot be written"),
    dict(name="v99-write-points-are-inputs", file=SAMPLE,
         old="        out[:, i] = p\n",
         new="        out[:, i] = x\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a written row keeps each step's input (the point before, the origin or the prime's last first) "
             "instead of the point drawn there"),
    dict(name="v99-write-phi-one-step-back", file=SAMPLE,
         old="phis[:, i] = model.stack.step_phi",
         new="phis[:, i - 1] = model.stack.step_phi",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="each step's window weights are stored a step back (step 0's at the last column): Written.phi "
             "is shifted against its points"),
    dict(name="v99-write-scale-swapped", file=SAMPLE,
         old="    units = np.array([sx, sy, 1.0])",
         new="    units = np.array([sy, sx, 1.0])",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="written points (and the prime handed back) are scaled to data units with x and y swapped"),
    # ---- what a written sample is given ----
    dict(name="v99-read-stroke3-magic-or", file=SAMPLE,
         old='if magic[:4] != b"PK\\x03\\x04" and magic != b"\\x93NUMPY":',
         new='if magic[:4] != b"PK\\x03\\x04" or magic != b"\\x93NUMPY":',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="read_stroke3 refuses every file as 'not a NumPy file': a stroke-3 file is never a zip and a "
             ".npy at once"),
    dict(name="v99-text-inputs-prime-named-as-text", file=SAMPLE,
         old='t, ps = names["text"], names["prime_strokes"]',
         new='t, ps = names["text"], names["prime_text"]',
         tests=SAMPLE_NEW + CMD_NEW + SAMPLE_OLD,
         why="a free run given a prime is told to leave out the prime's text (and the points' checks name "
             "the text) where the points are meant"),
    dict(name="v99-text-inputs-prime-text-unchecked", file=SAMPLE,
         old="    if prime_text is not None:\n        given.append(",
         new="    if prime_text is None:\n        given.append(",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the prime's text is not checked against the alphabet: its unknown characters become code 0 "
             "silently"),
    dict(name="v99-text-inputs-prime-scale-swapped", file=SAMPLE,
         old='sx, sy = getattr(model.head, "scale", (1.0, 1.0))',
         new='sy, sx = getattr(model.head, "scale", (1.0, 1.0))',
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the prime's points are normalized with x and y scales swapped: the model reads a distorted "
             "prime"),
    # ---- the window's text check ----
    dict(name="v99-window-float-codes-accepted", file=WINDOW,
         old="if np.issubdtype(np.asarray(codes).dtype, np.integer) else None",
         new="if np.issubdtype(np.asarray(codes).dtype, np.number) else None",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="check_text lets float codes through (truncated to integers) instead of refusing them"),
    # ---- lnrnn sample ----
    dict(name="v99-cli-text-checked-in-python-names", file=CMD,
         old="prime_text, CLI_NAMES, f\"the run in {path}\")",
         new="prime_text, source=f\"the run in {path}\")",
         tests=CMD_NEW + CMD_OLD,
         why="lnrnn sample's refusals of its text name text= and prime_strokes= (the Python names) instead "
             "of --text and --prime-strokes"),
    dict(name="v99-cli-cap-message-names-count", file=CMD,
         old="reached the {steps}-point cap first",
         new="reached the {count}-point cap first",
         tests=CMD_NEW + CMD_OLD,
         why="the message of a capped line says the cap is --count points"),
]
