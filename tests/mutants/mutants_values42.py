"""Planted bugs, round 42 (format: tests/mutants/mutants.py): single-line slips in what drives the writing
sampler's decisions, on lines no earlier round mutates: the stop rule's bookkeeping in lnrnn/sample.py (a
stopped row kept stopped, the loop left only when every row stopped, the step cap run in full, the bias and the
prime's last point reaching the first drawn step, Written.chars holding the prime's characters); the stop
rule's weight just past the text recomputed in NumPy beside the kernel (WindowStack._phi_past_end: the window's
bias, kappa the running sum, alpha); the window kernel's text check (codes past ulen never read), repeated
characters adding into w, kappa's chain at step 1; the mixture's weights (softmax over each row's own
components) and the pen-up draw in lnrnn/kernels/mdn.py; sample_run's least step count and its arguments'
order (bias and seed).

18 mutants. Against the existing targeted tests alone 15 were caught and 3 missed: the stop rule's weight just
past the text computed without the window's bias bp (every older test leaves a_hat's and b_hat's bias at their
initial 0, where alpha = beta = 1 with or without it, and kappa comes from the kernel's state), sample_run
passing the seed as the bias and the bias as the seed (no test compared sample_run with sample_strokes at a bias
and seed that differ), and mdn_sample reading its two normals in the other order (the same mixture, so the
distribution tests pass, and the replays draw through head.sample itself). The new value tests catch every
mutant: test_values42_sampler (a window fixed by its bias alone, Wp = 0, so that phi(t, u) and the stopping
step of each row are worked out by hand: rows of 1 and 3 characters stop after 4 and 8 points under caps of 20
and 8 (the cap and the stop at once: not capped), 7 (capped, every step run) and 1; a prime of 3 points and 2
characters moving kappa and counting in U; the first drawn point after a prime drawn by hand, in the stream's
order, from one whole forward's last prime step at bias 0 and 1.5; sample_run against sample_strokes at bias
0.8 and seed 3, and steps or count 0 refused), test_values42_window (step_end and step_phi over five sampling
steps from a nonzero kappa0, with the window's bias away from 0, against reference.window_phi_at of one whole
forward; the step at which the rule first holds for a fixed window), test_values42_window_text (padding past
ulen that is no code taken and changing nothing, a bad code before ulen refused; w over repeated characters,
kappa the running sum of exp(k_hat) and phi from it, by hand) and test_values42_mdn (each row's weights its own
softmax beside rows 300 and -400 away; x1, x2 from the stream's draws in order; the pen against its uniforms at
e = 1, 0, 0.5 and its rate at 0.1). Two mutants considered were dropped as equivalent before they were written:
the kernel's inference buffers of c and kappa cut to one row (S2 = min(T, 1): each step then updates c and kappa
in place element by element, reading each old value before writing it, the same numbers) and step_phi read from
the last row of the one-step phi instead of the first (the same row, T = 1).

    python tests/mutants/run.py --only 'v42-*'
"""
SAMPLE = "lnrnn/sample.py"
MWIN = "lnrnn/model/window.py"
KWIN = "lnrnn/kernels/window.py"
MDN = "lnrnn/kernels/mdn.py"
API = "lnrnn/api.py"

# existing tests of these modules
SAMPLE_OLD = ["tests/commands/test_sample.py", "tests/commands/test_sample_text.py",
              "tests/commands/test_values10_sample.py", "tests/commands/test_values12_sample.py",
              "tests/commands/test_values14_sample.py", "tests/commands/test_values20_sample.py",
              "tests/commands/test_values21_sample.py", "tests/commands/test_values_sampler_rule.py",
              "tests/commands/test_values_sampling.py"]
MWIN_OLD = ["tests/model/test_values_window.py", "tests/model/test_values10_window.py",
            "tests/model/test_values14_window.py", "tests/model/test_values16_window.py",
            "tests/model/test_values24_window.py", "tests/model/test_synthesis.py",
            "tests/commands/test_values_sampler_rule.py", "tests/commands/test_sample_text.py"]
KWIN_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values11_window.py",
            "tests/kernels/test_values31_window.py"]
MDN_OLD = ["tests/kernels/test_mdn.py", "tests/kernels/test_values35_mdn.py", "tests/model/test_values_heads.py",
           "tests/commands/test_values_sampling.py"]
API_OLD = ["tests/test_values15_api.py", "tests/test_values_api.py", "tests/test_values10_api.py",
           "tests/test_values27_api.py", "tests/commands/test_values39_bad_values.py",
           "tests/commands/test_sample_text.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
S42 = "tests/commands/test_values42_sampler.py"
SAMPLE_NEW = [f"{S42}::test_each_row_stops_at_its_own_step_and_stays_stopped",
              f"{S42}::test_the_rule_firing_at_the_cap_is_not_capped_and_a_smaller_cap_runs_every_step",
              f"{S42}::test_a_prime_moves_kappa_and_its_text_counts",
              f"{S42}::test_the_first_drawn_point_reads_the_primes_last_point_and_takes_the_bias"]
MWIN_NEW = ["tests/model/test_values42_window.py"]
KWIN_NEW = ["tests/kernels/test_values42_window_text.py"]
MDN_NEW = ["tests/kernels/test_values42_mdn.py",
           f"{S42}::test_the_first_drawn_point_reads_the_primes_last_point_and_takes_the_bias"]
API_NEW = [f"{S42}::test_sample_run_passes_bias_and_seed_on",
           f"{S42}::test_sample_run_refuses_zero_steps_or_lines_and_takes_one"]

MUTANTS = [
    # ---- the writing sampler: when a row stops, the cap, the bias, the prime, what a row reports ----
    dict(name="v42-write-stopped-row-runs-again", file=SAMPLE,
         old="        running &= ~ended\n",
         new="        running = ~ended\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a row the rule stopped runs again at the next step (ended is false there): its point count moves "
             "on to the next step at which the rule holds, and the loop never ends early"),
    dict(name="v42-write-loop-ends-at-first-stop", file=SAMPLE,
         old="        if not running.any():\n            break",
         new="        if not running.all():\n            break",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the loop ends as soon as one row stopped: the others come back capped, their points past that "
             "step zeros"),
    dict(name="v42-write-cap-one-step-short", file=SAMPLE,
         old="    for i in range(steps):\n",
         new="    for i in range(steps - 1):\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="the cap's last step is never run: a capped row's last point is (0, 0, 0) and its last phi row zeros"),
    dict(name="v42-write-draws-without-bias", file=SAMPLE,
         old="        p = head.sample(o, rng, bias)                                          # (B,3)",
         new="        p = head.sample(o, rng, 0.0)                                           # (B,3)",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a synthesis model draws from the unbiased mixture whatever bias it is given"),
    dict(name="v42-write-prime-first-point-fed", file=SAMPLE,
         old="        x[:] = pre_pts[-1]\n",
         new="        x[:] = pre_pts[0]\n",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="after the prime, the first drawn step reads the prime's first point instead of its last"),
    dict(name="v42-written-chars-without-prime", file=SAMPLE,
         old="chars=show(full[b])",
         new="chars=show(lines[b])",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="a primed row's chars leave out the prime's text: they no longer name phi's columns"),
    # ---- the stop rule's weight just past the text, recomputed beside the kernel ----
    dict(name="v42-step-end-without-window-bias", file=MWIN,
         old='p = h1 @ L1.params["Wp"].astype(np.float64) + L1.params["bp"]',
         new='p = h1 @ L1.params["Wp"].astype(np.float64)',
         tests=MWIN_NEW + MWIN_OLD,
         why="phi(t, U+1) computed without the window's bias bp: alpha, beta (and the stop rule) wrong"),
    dict(name="v42-step-end-kappa-increment-only", file=MWIN,
         old="kappa = np.asarray(state1[2], np.float64)",
         new="kappa = np.exp(p[:, 2 * K:])",
         tests=MWIN_NEW + MWIN_OLD,
         why="phi(t, U+1) reads this step's increment exp(k_hat) as kappa, not the running sum kappa_t (right at "
             "step 0 from a zero kappa only)"),
    dict(name="v42-step-end-without-alpha", file=MWIN,
         old="return (alpha * np.exp(-beta * (kappa - u) ** 2)).sum(axis=1)",
         new="return np.exp(-beta * (kappa - u) ** 2).sum(axis=1)",
         tests=MWIN_NEW + MWIN_OLD,
         why="phi(t, U+1) leaves out each component's weight alpha"),
    # ---- the window kernel: the text check, w, kappa ----
    dict(name="v42-wkernel-text-check-reads-padding", file=KWIN,
         old="used = chars[np.arange(U)[None, :] < ulen[:, None]]",
         new="used = chars[np.arange(U)[None, :] <= ulen[:, None]]",
         tests=KWIN_NEW + KWIN_OLD,
         why="the code check reads the first padding code of a row shorter than U: padding that is not a code "
             "(never read, the docstring says) is refused"),
    dict(name="v42-wkernel-repeated-character-overwrites", file=KWIN,
         old="wr[cr[u]] += fr[u]",
         new="wr[cr[u]] = fr[u]",
         tests=KWIN_NEW + KWIN_OLD,
         why="w_t's column of a character that occurs twice holds the last occurrence's phi, not the sum"),
    dict(name="v42-wkernel-kappa-step-one-from-kappa0", file=KWIN,
         old="kp = kappa0[bb] if t == 0 else kappa[tp, bb]",
         new="kp = kappa0[bb] if t <= 1 else kappa[tp, bb]",
         tests=KWIN_NEW + KWIN_OLD,
         why="kappa_1 = kappa_0-initial + exp(k_hat_1): step 0's increment is lost from step 1 on"),
    # ---- one step's mixture: weights per row, the pen ----
    dict(name="v42-mdn-softmax-max-over-rows", file=MDN,
         old="p = np.exp(p - p.max(axis=1, keepdims=True))",
         new="p = np.exp(p - p.max(axis=0, keepdims=True))",
         tests=MDN_NEW + MDN_OLD,
         why="the softmax's shift is each component's max over the rows: a row's weights are no longer its "
             "softmax (one row: the same)"),
    dict(name="v42-mdn-weights-normalized-over-all-rows", file=MDN,
         old="pi = p / p.sum(axis=1, keepdims=True)",
         new="pi = p / p.sum()",
         tests=MDN_NEW + MDN_OLD,
         why="the mixture weights are divided by the sum over every row: each row's weights sum to less than 1 "
             "with several rows (one row: the same)"),
    dict(name="v42-mdn-pen-lifts-with-one-minus-e", file=MDN,
         old="pen = (rng.random(N) < e)",
         new="pen = (rng.random(N) > e)",
         tests=MDN_NEW + MDN_OLD,
         why="the pen lifts with probability 1 - e"),
    dict(name="v42-mdn-normals-drawn-in-the-other-order", file=MDN,
         old="u1, u2 = rng.standard_normal(N), rng.standard_normal(N)",
         new="u2, u1 = rng.standard_normal(N), rng.standard_normal(N)",
         tests=MDN_NEW + MDN_OLD,
         why="the step's stream read out of order (the component's uniform, then the normal of x2 before the "
             "normal of x1): the same mixture, but a seed no longer gives the points it gave (saved samples "
             "and the documented order of draws)"),
    # ---- sample_run: the least step count, the arguments passed on ----
    dict(name="v42-api-zero-steps-taken", file=API,
         old="        if int(v) < 1:\n",
         new="        if int(v) < 0:\n",
         tests=API_NEW + API_OLD,
         why="sample_run takes steps = 0 (and count = 0): empty lines, or 'capped' rows of no point"),
    dict(name="v42-api-seed-and-bias-swapped", file=API,
         old="float(bias), int(seed), progress=progress",
         new="float(seed), int(bias), progress=progress",
         tests=API_NEW + API_OLD,
         why="sample_run passes the seed as the bias and the bias (truncated) as the seed"),
]
