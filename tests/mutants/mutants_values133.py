"""Planted bugs, round 133 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sampler and the synthesis window model: an unprimed line's window given a code 0 before its
text, a written line's start point ignored, every row starting as stopped, a prime handed to sample_strokes
left unchecked, text_inputs letting an empty alphabet or an empty list of lines through, strokes_of dropping
the first point or each lift's point; the window layer's LN and BatchNorm codes swapped, the stack's window
and alphabet sizes swapped when it builds its window layer or records its config, synchronized BatchNorm
refused by the top layer's norm instead of the window layer's, a state of (h, c) alone completed with
kappa0 and w0 of each other's widths.

13 mutants. Against the existing targeted tests alone (the four most direct files of each module, listed after
the new ones) 8 were caught and 5 missed: the ignored start point (no written sample is given one), the
unchecked prime (primes reach sample_strokes only through check_stroke3 in the command's path), the empty
alphabet and the empty list of lines in text_inputs (no test gives either), synchronized BatchNorm refused by
the top layer (no test mixes a BN window with LN layers above). The new value tests catch every mutant on their
own (checked with only the new files in the lists): test_values133_sampler replays each written row (its start,
then its own points; a primed row the prime's points first and the prime's codes before its line's) through
lnrnn.reference.window_lstm_forward and requires the row's phi, its length and its capped flag to be what the
reference's window gives (the stop at the first step whose weight at U+1, from the reference's h and its summed
kappa by the definition, beats phi on every character), refusals by their messages, seeds reproducing rows,
strokes_of's strokes by hand; test_values133_window_model compares the window layer given (h, c) alone with the
reference (plain, LN, BatchNorm) over texts of 0, 1 and 4 characters, a two-layer stack's gradients (plain and
LN) with central differences in float64, the parameter shapes and config with K != C, and the batch-reduce
refusal in both mixes. Dropped as equivalent: WindowStack.step's phi[0] or y[0] as phi[-1] or y[-1] (a step
is one time step), the sampler's text padding code (the window reads no column at or past a row's length).

    python tests/mutants/run.py --only 'v133-*'

    python tests/mutants/run.py --only 'v133-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"

# existing tests of these modules (the most direct ones)
SAMPLE_OLD = ["tests/test_values87_sampler.py", "tests/test_values126_sampler.py", "tests/test_values120_sampler.py",
              "tests/test_values109_sampler.py"]
WINDOW_OLD = ["tests/model/test_values120_window_model.py", "tests/model/test_values103_window_model.py",
              "tests/model/test_values84_synthesis.py", "tests/model/test_synthesis.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values133_sampler.py"]
WINDOW_NEW = ["tests/model/test_values133_window_model.py"]

MUTANTS = [
    # ---- the sampler writing a text: its window's text, its first input, its stop rule ----
    dict(name="v133-write-unprimed-text-gets-a-code", file=SAMPLE,
         old="    pre_pts, pre_codes = None, np.zeros(0, np.int64)",
         new="    pre_pts, pre_codes = None, np.zeros(1, np.int64)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="an unprimed line's window reads a code 0 before the line: one character more, the stop one later"),
    dict(name="v133-write-start-ignored", file=SAMPLE,
         old="    _fits(count, steps, U)\n    rng, x, state = _start(model, count, seed, start)",
         new="    _fits(count, steps, U)\n    rng, x, state = _start(model, count, seed, None)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a written line ignores the start point it is given and begins from the origin"),
    dict(name="v133-write-rows-start-stopped", file=SAMPLE,
         old="    running = np.ones(count, bool)",
         new="    running = np.zeros(count, bool)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="every row starts as stopped: the loop breaks after one step and each row is the cap's length, "
             "padded with zero points, marked capped"),
    dict(name="v133-write-prime-points-unchecked", file=SAMPLE,
         old="        pre_pts = check_stroke3(prime[0], \"the prime's points\")",
         new="        pre_pts = np.asarray(prime[0], np.float64)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a prime given to sample_strokes directly is not checked: pen values of 2 or NaN are read as inputs"),
    # ---- what a sample is given ----
    dict(name="v133-text-inputs-empty-alphabet-passes", file=SAMPLE,
         old="    if not isinstance(alphabet, str) or not alphabet:",
         new="    if not isinstance(alphabet, str):",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a checkpoint recording an empty alphabet is not called corrupt: every character is refused as "
             "unknown instead, blaming the user's text"),
    dict(name="v133-text-inputs-no-lines-passes", file=SAMPLE,
         old="    if not lines:",
         new="    if lines is None:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="an empty list of lines is accepted for a text model, which then writes nothing"),
    # ---- pen strokes ----
    dict(name="v133-strokes-of-first-point-dropped", file=SAMPLE,
         old="    paths, start = [], 0",
         new="    paths, start = [], 1",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the first stroke is drawn without its first point"),
    dict(name="v133-strokes-of-lift-point-dropped", file=SAMPLE,
         old="            paths.append(xy[start:e + 1])",
         new="            paths.append(xy[start:e])",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="each stroke loses the point after which the pen lifts (a one-point stroke vanishes)"),
    # ---- the window model ----
    dict(name="v133-window-norm-codes-ln-bn-swapped", file=WINDOW,
         old='NORM_CODES = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN}',
         new='NORM_CODES = {"none": NORM_NONE, "ln": NORM_BN, "bn": NORM_LN}',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer's kernels get the BatchNorm code for an LN layer and the LN code for a BN one"),
    dict(name="v133-window-args-alphabet-window-swapped", file=WINDOW,
         old="        C, K, window_norm = self._window_args",
         new="        K, C, window_norm = self._window_args",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the stack's window layer is built with K = alphabet_size Gaussians over an alphabet of window codes"),
    dict(name="v133-window-config-alphabet-window-swapped", file=WINDOW,
         old="        self.config.update(window=self.K, alphabet_size=self.C)",
         new="        self.config.update(window=self.C, alphabet_size=self.K)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the stack's config (what a checkpoint rebuilds it from) records the window and alphabet swapped"),
    dict(name="v133-window-batch-reduce-top-layer-norm", file=WINDOW,
         old='        if reduce is not None and self.layers[0].norm == "bn":',
         new='        if reduce is not None and self.layers[-1].norm == "bn":',
         tests=WINDOW_NEW + WINDOW_OLD,
         why="synchronized BatchNorm is refused by the top layer's norm: a BN window under LN layers is let through"),
    dict(name="v133-window-two-state-fill-swapped", file=WINDOW,
         old="            state = tuple(state) + (np.zeros((B, K), dt), np.zeros((B, C), dt))",
         new="            state = tuple(state) + (np.zeros((B, C), dt), np.zeros((B, K), dt))",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="a state of (h, c) alone is completed with kappa0 (B,C) and w0 (B,K): refused as the wrong shape"),
]
