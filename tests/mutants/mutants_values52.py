"""Planted bugs, round 52 (format: tests/mutants/mutants.py): single-line slips in the writing sampler, the
synthesis window model and lnrnn sample, on lines no earlier round mutates: the free sampler's generator not
seeded, its start given to the first row only, its bias not passed to the draws and its x and y scales
swapped; the writing sampler naming a bad line from 0, padding a shorter row's codes on the left and feeding
back the drawn offsets without the pen; check_stroke3 checking only the offsets for NaN, read_stroke3 taking
every line of an --npz, check_prime_pair naming the halves the wrong way round, text_inputs letting a prime
through to a model without a window, multiplying the prime's points by the scale and leaving out the space
after the prime's text; check_text letting a (B,0) text through, a window of 0 Gaussians accepted, the
initial Wp ten times wider and kappa's initial pace exp(-1) instead of exp(-3), window_norm ignored, dstate0
listed top layer first; lnrnn sample drawing at bias 0 whatever --bias says, its progress total one row's
points, its summary numbering the capped lines from 0.

22 mutants. Against the existing targeted tests alone 15 were caught and 7 missed: the free sampler's start in
row 0 only (no test gave a start to more than one row), the NaN pen reported as a bad pen (no test put NaN in
the pen column), window=0 accepted, the tenfold Wp (no test reads the initial Wp's spread), dstate0 in the
backward's order (no test reads dstate0 of a window stack), lnrnn sample's --bias not passed on and its
progress total (no test compares the command's points with sample_run's at a bias, or counts its progress).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values52_sampler (every point sample_strokes draws, free or writing, equals the mixture drawn here by
Graves's definitions with the bias, from one whole-sequence forward over the sampler's own inputs: the start
in every row, the drawn points in the model's units with their pens, each text row alone over its own
characters, a prime's points first; one generator seeded as the sampler's; the points in data units; the
stroke-3, npz, prime-pair and prime checks and their messages by hand), test_values52_window (layer 1 and its
window against a NumPy LSTM-and-window recurrence for rows of 4, 1 and 2 characters whose padding holds real
codes; each row alone equals its row in the batch; the documented Wp spread and kappa pace; check_text and
window size refusals; dstate0 of a 3-layer stack against central differences of each layer's initial state),
test_values52_sample_cli (lnrnn sample's --npz points against lnrnn.sample_run at --bias 1.5 and apart from
bias 0's, a counting stand-in for Progress, the summary's capped lines and point counts from kappa's pace
worked out by hand, one-line refusals before any sampling). Dropped as equivalent: step_phi read from the last
step of the one-step forward instead of the first (the same step); strokes_of's pen threshold > 0.5 as > 0 or
>= 1 (pens are 0 or 1: check_stroke3 refuses others and the mixture draws only those); phis started as
np.empty (every kept row's entries are written before they are returned).

    python tests/mutants/run.py --only 'v52-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
CMD = "lnrnn/commands/sample.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values42_sampler.py", "tests/commands/test_values_sampler_rule.py",
              "tests/commands/test_values_sampling.py", "tests/commands/test_values10_sample.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values14_sample.py",
              "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py"]
WINDOW_OLD = ["tests/model/test_values_window.py", "tests/model/test_values10_window.py",
              "tests/model/test_values14_window.py", "tests/model/test_values16_window.py",
              "tests/model/test_values24_window.py", "tests/model/test_values42_window.py",
              "tests/model/test_synthesis.py"]
CMD_OLD = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
           "tests/commands/test_values_sampling.py", "tests/commands/test_values10_sample.py",
           "tests/commands/test_values12_sample.py", "tests/commands/test_values14_sample.py",
           "tests/commands/test_values20_sample.py", "tests/commands/test_values21_sample.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/commands/test_values52_sampler.py"]
WINDOW_NEW = ["tests/model/test_values52_window.py"]
CMD_NEW = ["tests/commands/test_values52_sample_cli.py"]

MUTANTS = [
    # ---- the free sampler: its generator, first input, bias and units ----
    dict(name="v52-free-seed-not-used", file=SAMPLE,
         old="    rng = np.random.default_rng(seed)",
         new="    rng = np.random.default_rng()",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the draws' generator is seeded from the system: the same seed no longer gives the same samples"),
    dict(name="v52-free-start-in-row-0-only", file=SAMPLE,
         old="        x[:] = start",
         new="        x[0] = start",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="start is the first input of the first row only; every other row starts at the origin"),
    dict(name="v52-free-bias-not-passed", file=SAMPLE,
         old="        p = head.sample(o, rng, bias)                       # (count,3)",
         new="        p = head.sample(o, rng)                       # (count,3)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the free sampler draws from the trained distribution whatever bias it is given"),
    dict(name="v52-free-scale-swapped", file=SAMPLE,
         old="    sx, sy = getattr(head, \"scale\", (1.0, 1.0))\n    out[:, :, 0] *= sx",
         new="    sy, sx = getattr(head, \"scale\", (1.0, 1.0))\n    out[:, :, 0] *= sx",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the free samples' dx is scaled by the data's y scale and dy by its x scale"),
    # ---- the writing sampler: its text, padding, feedback ----
    dict(name="v52-write-line-named-from-0", file=SAMPLE,
         old="f\"line {b + 1} of text\"",
         new="f\"line {b} of text\"",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a bad code in the second line is reported as line 1's (the first line as 'line 0')"),
    dict(name="v52-write-codes-left-padded", file=SAMPLE,
         old="        codes[b, :len(c)] = c",
         new="        codes[b, U - len(c):] = c",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a shorter row's codes are padded on the left: its window reads the padding as its first "
             "characters and its own text past its length"),
    dict(name="v52-write-pen-not-fed-back", file=SAMPLE,
         old="        x = p.astype(dt)",
         new="        x[:, :2] = p[:, :2]",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the next input takes the drawn offsets but keeps the first input's pen: the model never sees "
             "its own pen lifts"),
    # ---- what a sample is given: stroke-3, files, primes ----
    dict(name="v52-stroke3-nan-pen-let-through-finite-check", file=SAMPLE,
         old="    if not np.isfinite(a).all():",
         new="    if not np.isfinite(a[:, :2]).all():",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="only the offsets are checked for NaN: a NaN pen is reported as a pen other than 0 and 1"),
    dict(name="v52-read-stroke3-lengths-ignored", file=SAMPLE,
         old="                a, lengths = f[\"points\"], (f[\"lengths\"] if \"lengths\" in f.files else None)",
         new="                a, lengths = f[\"points\"], None",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a prime read from an --npz of several lines takes every line's points, not its first line"),
    dict(name="v52-prime-pair-names-swapped", file=SAMPLE,
         old="        given, needed = (ps, pt) if prime_text is None else (pt, ps)",
         new="        given, needed = (ps, pt) if prime_strokes is None else (pt, ps)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a prime given half is refused with the names the wrong way round ('--prime-text needs "
             "--prime-strokes' when the text is the missing half)"),
    dict(name="v52-free-model-prime-let-through", file=SAMPLE,
         old="        if lines or prime_strokes is not None:",
         new="        if lines:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a model without a window given a prime and no text returns no prime: the prime is dropped "
             "silently instead of refused"),
    dict(name="v52-prime-scaled-up", file=SAMPLE,
         old="        pts = check_stroke3(prime_strokes, ps) / np.array([sx, sy, 1.0])",
         new="        pts = check_stroke3(prime_strokes, ps) * np.array([sx, sy, 1.0])",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the prime's points are multiplied by the scale instead of divided: the model reads them in "
             "the wrong units"),
    dict(name="v52-prime-text-without-space", file=SAMPLE,
         old="        prime = (pts, encode_text(prime_text + sep, alphabet))",
         new="        prime = (pts, encode_text(prime_text, alphabet))",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the window reads the prime's text run into each line, without the space between them"),
    # ---- the window model: checks, initial parameters, window norm, dstate0 ----
    dict(name="v52-check-text-empty-codes-let-through", file=WINDOW,
         old="codes.shape[0] != B or codes.shape[1] < 1:",
         new="codes.shape[0] != B or codes.shape[1] < 0:",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="a (B,0) text (no characters at all) passes check_text"),
    dict(name="v52-window-of-zero-gaussians-let-through", file=WINDOW,
         old="if int(window) != window or window < 1 or",
         new="if int(window) != window or window < 0 or",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="window=0 builds a window of no Gaussians (phi and w always 0) instead of being refused"),
    dict(name="v52-window-init-std-tenfold", file=WINDOW,
         old="WINDOW_INIT_STD = 0.01 ",
         new="WINDOW_INIT_STD = 0.1 ",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the initial Wp is ten times wider than documented (std 0.1, not 0.01)"),
    dict(name="v52-window-kappa-bias-minus-one", file=WINDOW,
         old="WINDOW_KAPPA_BIAS = -3.0 ",
         new="WINDOW_KAPPA_BIAS = -1.0 ",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="kappa starts moving exp(-1) = 0.37 characters a point, not exp(-3) = 0.05"),
    dict(name="v52-window-norm-ignored", file=WINDOW,
         old="self._window_args = (alphabet_size, window, window_norm or norm)",
         new="self._window_args = (alphabet_size, window, norm)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="window_norm is ignored: layer 1 takes the stack's norm, and the config records none"),
    dict(name="v52-dstate0-in-backward-order", file=WINDOW,
         old="        self.dstate0 = dstate[::-1]",
         new="        self.dstate0 = dstate",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="dstate0 lists the layers' initial-state gradients top layer first"),
    # ---- lnrnn sample ----
    dict(name="v52-cli-bias-not-passed", file=CMD,
         old="    lines = sample_run(run, steps, count, bias, seed,",
         new="    lines = sample_run(run, steps, count, 0.0, seed,",
         tests=CMD_NEW + CMD_OLD,
         why="lnrnn sample draws at bias 0 whatever --bias says (the title still names it)"),
    dict(name="v52-cli-progress-over-steps-only", file=CMD,
         old="    progress = Progress(steps * count, \"sample\"",
         new="    progress = Progress(steps, \"sample\"",
         tests=CMD_NEW + CMD_OLD,
         why="the progress bar's total is one sample's points while every row's points are counted"),
    dict(name="v52-cli-capped-lines-numbered-from-0", file=CMD,
         old="    capped = [k + 1 for k, r in enumerate(lines) if r.capped]",
         new="    capped = [k for k, r in enumerate(lines) if r.capped]",
         tests=CMD_NEW + CMD_OLD,
         why="the summary names the capped lines counting from 0: line 2 is called line 1"),
]
