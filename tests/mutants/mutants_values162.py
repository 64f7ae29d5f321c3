"""Planted bugs, round 162 (format: tests/mutants/mutants.py): single-line slips on lines no
earlier round mutates: the sampler checking a line's codes against the window's K instead of the alphabet, the
stop rule reading kappa from the top layer's state, a checked stroke-3 array rounded to float32, a half-given
prime naming the wrong half, a line of spaces refused as empty; the written picture's row centre taken as half
the height, the absolute positions summed across columns, a primed line's ink drawn from the origin, the
attention panel's height following the points and a short caption unquoted; the window layer handing the kernel
eps and momentum swapped, the stack running its window layer in training whatever it is told, and synchronized
BatchNorm refused by the top layer's norm instead of the window layer's.

13 mutants. Against the existing targeted tests alone 8 were caught and 5 missed: the stop rule reading the top
layer's state (every old writing test runs one layer, where the top is the window layer), a line of spaces
(no old test writes one), a primed line's ink origin and the attention panel's height (the old picture tests
check the ink sizes of unprimed rows and the attention labels only), and the window layer always in training
(the old BN inference test calls the layer itself, not the stack). The new value tests catch every mutant on
their own (checked with the old tests taken off the lists): test_values162_sampler (two layers writing lines of
5, 1 and 3 characters in one batch, each row ending at the exact step the NumPy reference's window, replayed
over the row's own inputs, fires, or at the cap; a free draw with bias 0 and 1.5 against Graves's biased mixture
drawn here with the same seed: pi = softmax(pi_hat (1 + b)), sigma = exp(sigma_hat - b), the pen up where a
uniform falls below sigmoid(e_hat); a line of spaces; a half-given prime named by its half; a prime's float64
digits; a written picture's heights, limits, captions and a primed line's ink, by hand) and
test_values162_window_model (an LN window layer with eps 0.3 against the reference's forward and backward and
the stack against central differences; a BN window layer's running rows in training with momentum 0.25; a
two-layer BN stack at inference against the reference's inference, its running rows kept; synchronized
BatchNorm refused by the window layer's norm). Dropped as equivalent: the step's phi taken as phi[-1] instead
of phi[0] (a step runs one step, T = 1), and text_inputs reading the prime when prime_text is given instead of
prime_strokes (check_prime_pair has already required both or neither).

    python tests/mutants/run.py --only 'v162-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/test_values133_sampler.py", "tests/test_values126_sampler.py", "tests/test_values120_sampler.py",
              "tests/test_values109_sampler.py"]
WINDOW_OLD = ["tests/model/test_values120_window_model.py", "tests/model/test_values133_window_model.py",
              "tests/model/test_values103_window_model.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
SAMPLE_NEW = ["tests/test_values162_sampler.py"]
WINDOW_NEW = ["tests/model/test_values162_window_model.py"]

MUTANTS = [
    # ---- the sampler writing a text ----
    dict(name="v162-write-codes-checked-against-window", file=SAMPLE,
         old="    head, C, dt = model.head, model.stack.C, model.dtype",
         new="    head, C, dt = model.head, model.stack.K, model.dtype",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a line's codes are checked against the window's size K instead of the alphabet C: with K < C every "
             "character past the K-th is refused"),
    dict(name="v162-stop-rule-reads-top-layer-state", file=WINDOW,
         old="        self.step_end = self._phi_past_end(y[0], states[0], text[1])",
         new="        self.step_end = self._phi_past_end(y[0], states[-1], text[1])",
         tests=SAMPLE_NEW + SAMPLE_OLD + WINDOW_OLD,
         why="the stop rule reads kappa from the top layer's state, which has no kappa above one layer: a stack "
             "of two layers cannot write"),
    dict(name="v162-prime-points-kept-float32", file=SAMPLE,
         old="    a = a.astype(np.float64)",
         new="    a = a.astype(np.float32)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a checked stroke-3 array is rounded to float32: a prime's points lose their digits"),
    dict(name="v162-prime-pair-names-swapped", file=SAMPLE,
         old="        ps, pt = names[\"prime_strokes\"], names[\"prime_text\"]",
         new="        ps, pt = names[\"prime_text\"], names[\"prime_strokes\"]",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a half-given prime names the wrong half: 'prime_text needs prime_strokes' when the text is missing"),
    dict(name="v162-text-blank-line-refused", file=SAMPLE,
         old="        if not s:",
         new="        if not s.strip():",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a line of spaces, characters the alphabet holds, is refused as empty"),
    # ---- the pictures ----
    dict(name="v162-scale-centre-half-height", file=SAMPLE,
         old="        mid = (y0 + y1) / 2",
         new="        mid = (y1 - y0) / 2",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="each row's vertical centre is half its height, not its middle: ink off the zero line leaves the view"),
    dict(name="v162-absolute-cumsum-across-columns", file=SAMPLE,
         old="    return np.asarray(origin, np.float64) + np.cumsum(pts[:, :2], axis=0)",
         new="    return np.asarray(origin, np.float64) + np.cumsum(pts[:, :2], axis=1)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the absolute positions that size the rows add dx to dy instead of summing over the points"),
    dict(name="v162-line-ink-ignores-prime-end", file=SAMPLE,
         old="            origin = _ink(ax, r.prime, color=\"#a0a0a0\")",
         new="            _ink(ax, r.prime, color=\"#a0a0a0\")",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a primed row's line is drawn from the origin over the prime instead of from where the prime ends"),
    dict(name="v162-attention-height-by-points", file=SAMPLE,
         old="            heights.append(max(1.2, 0.13 * r.phi.shape[1] + 0.6))",
         new="            heights.append(max(1.2, 0.13 * r.phi.shape[0] + 0.6))",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the attention panel's height follows the count of points instead of the line's characters"),
    dict(name="v162-label-text-unquoted", file=SAMPLE,
         old="    text = repr(row.text)",
         new="    text = row.text",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a short caption shows the text unquoted, while a long one shows it quoted (shortened): a trailing "
             "space or an escape is invisible"),
    # ---- the window stack ----
    dict(name="v162-window-eps-momentum-swapped", file=WINDOW,
         old="            *self._bn_rows(bufs), self.norm_code, bool(training), self.momentum, self.eps, L,",
         new="            *self._bn_rows(bufs), self.norm_code, bool(training), self.eps, self.momentum, L,",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer hands the kernel eps for momentum and momentum for eps: its norms divide by "
             "sqrt(var + momentum) and its running rows barely move"),
    dict(name="v162-stack-window-layer-always-training", file=WINDOW,
         old="        h, w, s1 = self.layers[0].forward_text(x, text, st(0), training, lengths, t0, keep, on_device=True)",
         new="        h, w, s1 = self.layers[0].forward_text(x, text, st(0), True, lengths, t0, keep, on_device=True)",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the stack runs its window layer in training mode whatever it is told: a BatchNorm window reads the "
             "batch's statistics at inference and moves its running rows"),
    dict(name="v162-batch-reduce-checks-top-layer", file=WINDOW,
         old="        if reduce is not None and self.layers[0].norm == \"bn\":",
         new="        if reduce is not None and self.layers[-1].norm == \"bn\":",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="synchronized BatchNorm is refused by the top layer's norm instead of the window layer's"),
]
