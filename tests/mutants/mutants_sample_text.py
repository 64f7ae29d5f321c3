"""Planted bugs in writing a given text with a synthesis run: Graves's stop rule, the cap flag, priming,
the alphabet check (format: tests/mutants/mutants.py)."""

TEXT = "tests/commands/test_sample_text.py"

MUTANTS = [
    dict(name="write-stop-rule-last-character-only", file="lnrnn/sample.py",
         old="    return np.all(~on | (end[:, None] > phi), axis=1)",
         new="    return end > phi[np.arange(len(ulen)), ulen - 1]",
         tests=[f"{TEXT}::test_the_stop_rule_compares_with_every_character",
                f"{TEXT}::test_past_the_end_reads_each_rows_own_characters"],
         why="a line stops once the window's weight past the end beats the last character's alone"),
    dict(name="write-stop-rule-never-fires", file="lnrnn/sample.py",
         old="        ended = running & past_the_end(model.stack.step_end, model.stack.step_phi, ulen)",
         new="        ended = running & False",
         tests=[f"{TEXT}::test_lines_follow_the_model_step_by_step_and_stop_by_the_rule",
                f"{TEXT}::test_cli_says_which_lines_hit_the_cap"],
         why="every line runs to the step cap"),
    dict(name="write-capped-flag-inverted", file="lnrnn/sample.py",
         old="capped=bool(running[b])",
         new="capped=not running[b]",
         tests=[f"{TEXT}::test_a_window_that_never_reaches_the_end_hits_the_cap",
                f"{TEXT}::test_cli_says_which_lines_hit_the_cap"],
         why="lines the stop rule ended are reported as capped, and the capped ones as ended"),
    dict(name="write-prime-points-sampled", file="lnrnn/sample.py",
         old="            x[:] = pre_pts[t]\n            _, state = model.step(x, state, t=t, text=txt)\n",
         new=("            o, state = model.step(x, state, t=t, text=txt)\n"
              "            x = head.sample(o, rng, bias).astype(dt)\n"),
         tests=[f"{TEXT}::test_a_prime_is_read_teacher_forced_then_the_line_is_written"],
         why="the prime's points are not fed in: the model reads its own draws while its window reads the "
             "prime's text"),
    dict(name="write-alphabet-not-checked", file="lnrnn/sample.py",
         old="        unknown = list(dict.fromkeys(c for c in s if c not in alphabet))",
         new="        unknown = []",
         tests=[f"{TEXT}::test_every_bad_input_is_one_line_and_writes_nothing"],
         why="characters outside the run's alphabet pass and are written as the unknown code 0"),
    dict(name="write-stopping-point-dropped", file="lnrnn/sample.py",
         old="        n[ended] = i + 1",
         new="        n[ended] = i",
         tests=[f"{TEXT}::test_lines_follow_the_model_step_by_step_and_stop_by_the_rule"],
         why="the point of the step at which the rule fired is dropped (and a line that stops at once is empty)"),
]
