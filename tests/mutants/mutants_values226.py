"""Planted bugs, round 226 (format: tests/mutants/mutants.py): single-line slips on lines of the sampler and the
window model that no earlier round mutates. The sampler's writing path: the synthesis path handed bias 0
instead of the caller's, an empty list of lines taken for no text (asked for text= instead of being refused for
its 0 lines), the prime's codes checked against one code too few (a prime using the alphabet's last character
refused), the window's text padded with -1 instead of code 0 (lines of unequal length refused by the window's
check), codes shown one character back (Written.text and chars). The window model: every row told it runs
T - 1 steps when no lengths are given (BatchNorm's last training step counts no row, and the backward drops it),
the text checked against one code less, the stop rule's phi(t, U+1) slicing alpha, beta and kappa's step by the
alphabet size instead of K, the initial alpha and beta biases at kappa's -3 instead of 0, a step called
without t reading the running rows of step 1, the refusal of badly shaped codes quoting the lengths' shape,
and a forward with lengths picking each row's final c from kappa's sequence and kappa from c's.

12 mutants. Against the existing targeted tests alone (test_values133/162/213/221_sampler; test_synthesis,
test_values120/204/221_window_model) 7 were caught and 5 missed: the bias (the old synthesis tests replay each
written row's own points through the reference, which holds whatever bias drew them; only free draws were
compared with a biased mixture), the empty list of lines (never given), the prime's last code (old primes use
'ab '), the step without t (every old caller passes t) and the codes' refusal (not read word for word). The new
value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values226_sampler (two lines of 5 and 3 characters written with bias 1.5, every point of each row
Graves's biased mixture drawn here from one default_rng(seed) in the sampler's order with the step's own
output, the texts and chars by the alphabet's index; a prime whose text uses the last code read before the
line, its phi the reference's, a code past the alphabet refused with [0, C) word for word; an empty list of
lines refused for its count), test_values226_window_model (step_end against the kernel's own phi on column U
of the same step run over a text one character longer, over three steps as kappa accumulates; a fresh
window's biases and, with Wp zeroed, kappa_t = (t+1) exp(-3) and phi(t, u) = K exp(-(kappa_t - u)^2) by
hand; BatchNorm training without lengths, outputs and running rows, against the reference; a step without t
against the reference at step 0's running rows; a text using the last code against the reference; each row's
final c and kappa under lengths against the reference run over the row's own steps; the codes' refusal word
for word). Dropped as equivalent: the window's padding value changed to another code in [0, C) (positions past
a row's length are never read); the sampler's out and phis made np.empty or a step longer (each row is cut at
its own n and ulen, and every kept entry is written); the step's phi taken as phi[-1] (a step runs one step);
`if prime is not None` as `if prime` (a pair is truthy) and text_inputs' prime test reading prime_text (the pair
check makes them come together); _codes returning int32 (the codes are copied into int64 arrays). Left out as
not reachable on the CPU: the window layer's device statistics and the stack's crossings counts.

    python tests/mutants/run.py --only 'v226-*'
"""
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"

# existing tests of these modules (the most direct files of each)
SAMPLE_OLD = ["tests/test_values133_sampler.py", "tests/test_values162_sampler.py", "tests/test_values213_sampler.py",
              "tests/test_values221_sampler.py"]
WINDOW_OLD = ["tests/model/test_synthesis.py", "tests/model/test_values120_window_model.py",
              "tests/model/test_values204_window_model.py", "tests/model/test_values221_window_model.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TS = "tests/test_values226_sampler.py::"
TW = "tests/model/test_values226_window_model.py::"

MUTANTS = [
    # ---- the sampler's writing path ----
    dict(name="v226-sample-write-drops-bias", file=SAMPLE,
         old="        return _write(model, steps, count, bias, seed, start, progress, text, prime, alphabet)",
         new="        return _write(model, steps, count, 0.0, seed, start, progress, text, prime, alphabet)",
         tests=[TS + "test_written_rows_are_the_biased_mixture_drawn_here_with_the_same_seed"] + SAMPLE_OLD,
         why="a synthesis model is handed bias 0 instead of the caller's: written lines are drawn unbiased"),
    dict(name="v226-sample-text-none-test-by-truth", file=SAMPLE,
         old="    if text is None:\n",
         new="    if not text:\n",
         tests=[TS + "test_an_empty_list_of_lines_is_refused_for_its_count"] + SAMPLE_OLD,
         why="an empty list of lines is told to pass text= instead of being refused for holding 0 lines"),
    dict(name="v226-sample-prime-codes-one-code-short", file=SAMPLE,
         old="        pre_codes = _codes(prime[1], C, \"the prime's codes\")",
         new="        pre_codes = _codes(prime[1], C - 1, \"the prime's codes\")",
         tests=[TS + "test_a_prime_using_the_alphabets_last_code_is_read_before_the_line"] + SAMPLE_OLD,
         why="the prime's codes are checked against C - 1 codes: a prime using the alphabet's last character "
             "is refused"),
    dict(name="v226-sample-padding-minus-one", file=SAMPLE,
         old="    codes = np.zeros((count, U), np.int64)  ",
         new="    codes = np.full((count, U), -1, np.int64)  ",
         tests=[TS + "test_written_rows_are_the_biased_mixture_drawn_here_with_the_same_seed"] + SAMPLE_OLD,
         why="the window's text is padded with -1 instead of code 0: lines of unequal length are refused by the "
             "window's text check"),
    dict(name="v226-sample-chars-shown-one-code-back", file=SAMPLE,
         old="    show = (lambda cs: [alphabet[k] for k in cs])",
         new="    show = (lambda cs: [alphabet[k - 1] for k in cs])",
         tests=[TS + "test_written_rows_are_the_biased_mixture_drawn_here_with_the_same_seed"] + SAMPLE_OLD,
         why="codes shown as 1-based: Written.text and chars name the character before each code's"),
    # ---- the window model ----
    dict(name="v226-window-kernel-lengths-one-short", file=WINDOW,
         old="        L = np.full(B, T, np.int64) if lengths is None else lengths",
         new="        L = np.full(B, T - 1, np.int64) if lengths is None else lengths",
         tests=[TW + "test_bn_training_without_lengths_is_the_reference_over_every_step"] + WINDOW_OLD,
         why="without lengths every row is told it runs T - 1 steps: BatchNorm's last step in training counts no "
             "row"),
    dict(name="v226-window-text-checked-against-one-code-less", file=WINDOW,
         old="        codes, ulen = check_text(text, B, self.C)",
         new="        codes, ulen = check_text(text, B, self.C - 1)",
         tests=[TW + "test_a_text_using_the_alphabets_last_code_runs_as_the_reference"] + WINDOW_OLD,
         why="the window layer refuses a text using the alphabet's last code"),
    dict(name="v226-window-past-end-slices-by-alphabet", file=WINDOW,
         old="        L1, K = self.layers[0], self.K",
         new="        L1, K = self.layers[0], self.C",
         tests=[TW + "test_step_end_is_the_kernels_phi_one_character_further_as_kappa_accumulates"] + WINDOW_OLD,
         why="the stop rule's phi(t, U+1) slices alpha, beta and kappa's step by the alphabet size, not the "
             "window's K"),
    dict(name="v226-window-bias-init-all-kappa", file=WINDOW,
         old="        bp = np.zeros(3 * K, self.dtype)",
         new="        bp = np.full(3 * K, WINDOW_KAPPA_BIAS, self.dtype)",
         tests=[TW + "test_a_fresh_window_starts_at_alpha_beta_one_and_walks_exp_minus_three_a_step"] + WINDOW_OLD,
         why="the initial alpha and beta biases start at -3 like kappa's instead of 0: the first window is "
             "exp(-3) as high and wide"),
    dict(name="v226-window-step-default-t-one", file=WINDOW,
         old="    def step(self, x_t, state=None, t=0, training=False, text=None):",
         new="    def step(self, x_t, state=None, t=1, training=False, text=None):",
         tests=[TW + "test_a_step_without_t_reads_the_running_rows_of_step_zero"] + WINDOW_OLD,
         why="a step called without t reads BatchNorm's running rows of step 1, not of step 0"),
    dict(name="v226-window-codes-refusal-quotes-lengths-shape", file=WINDOW,
         old="got {np.shape(text[0])}\")",
         new="got {np.shape(text[1])}\")",
         tests=[TW + "test_codes_of_the_wrong_shape_are_refused_with_the_codes_shape"] + WINDOW_OLD,
         why="the refusal of badly shaped codes quotes the lengths' shape instead of the codes'"),
    dict(name="v226-window-masked-final-swaps-c-and-kappa", file=WINDOW,
         old="        c_seq, kappa_seq = self._k.window_sequences(saved)",
         new="        kappa_seq, c_seq = self._k.window_sequences(saved)",
         tests=[TW + "test_a_forward_with_lengths_ends_each_rows_c_and_kappa_at_its_own_last_step"] + WINDOW_OLD,
         why="with lengths, each row's final c is picked from kappa's sequence and kappa from c's"),
]
