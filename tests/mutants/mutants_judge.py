"""Planted bugs in judging written lines with a reader: lnrnn/judge.py and lnrnn sample --judge
(lnrnn/commands/sample.py) (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'judge-*'
"""

T = "tests/commands/test_judge.py"
CER = f"{T}::test_the_cer_is_the_readers_transcription_against_the_text"
SUMMARY = f"{T}::test_summary_means_the_lines_and_totals_the_edits"
TRAVEL = f"{T}::test_travel_is_where_kappa_ends_over_the_texts_length"
STOP = f"{T}::test_stop_at_last_needs_the_rule_and_the_peak_on_the_last_character"
PEAK = f"{T}::test_peak_phi_is_the_largest_weight_on_the_lines_own_text"
CLI = f"{T}::test_cli_prints_the_judged_lines_and_saves_them"
REFUSE = f"{T}::test_a_judge_with_another_alphabet_or_task_or_none_is_refused"

MUTANTS = [
    dict(name="judge-ignores-the-reader", file="lnrnn/judge.py",
         old="    reads = read(reader, [np.asarray(r.points) for r in rows], beam=beam)\n",
         new="    reads = [\"\"] * len(rows)\n",
         tests=[CER, CLI],
         why="the judge never reads the lines: every line scores CER 1 whatever was written"),
    dict(name="judge-cer-over-the-read-text", file="lnrnn/judge.py",
         old="cer=float(cer(r.text, got))",
         new="cer=float(cer(got, r.text)) if got else 1.0",
         tests=[CER],
         why="reference and transcription swapped: edits divided by the read text's length"),
    dict(name="judge-travel-first-gaussian-only", file="lnrnn/judge.py",
         old="    return (alpha * kappa).sum(axis=1) / alpha.sum(axis=1), phi\n",
         new="    return kappa[:, 0], phi\n",
         tests=[TRAVEL],
         why="kappa_T is the first Gaussian's centre, not the alpha-weighted mean of the K"),
    dict(name="judge-travel-not-over-length", file="lnrnn/judge.py",
         old="    travel = (kappa - prime_chars) / np.array([len(r.codes) - r.prime_chars for r in rows])\n",
         new="    travel = kappa - prime_chars\n",
         tests=[TRAVEL],
         why="travel is kappa in characters, not over the text's length: long texts look well walked"),
    dict(name="judge-replay-off-by-one-point", file="lnrnn/judge.py",
         old="        xs.append(np.concatenate([first, np.asarray(r.points)[:-1] / units]))             # (P+N-1,3)\n",
         new="        xs.append(np.asarray(r.points) / units)                                           # (N,3)\n",
         tests=[TRAVEL],
         why="the replay feeds each written point at its own step, not the one after: another window"),
    dict(name="judge-stop-at-last-ignores-the-cap", file="lnrnn/judge.py",
         old="    return (not row.capped) and len(row.points) > 0 and",
         new="    return len(row.points) > 0 and",
         tests=[STOP],
         why="a line the cap ended counts as stopped by the rule at its last character"),
    dict(name="judge-peak-phi-counts-the-prime", file="lnrnn/judge.py",
         old="    phi = np.asarray(row.phi)[:, row.prime_chars:]\n",
         new="    phi = np.asarray(row.phi)\n",
         tests=[PEAK],
         why="the peak of phi includes the prime's characters, which the window reads while writing nothing"),
    dict(name="judge-summary-cer-is-the-mean", file="lnrnn/judge.py",
         old='            "cer": float(error_rates([j.text for j in judged], [j.read for j in judged])["cer"]),\n',
         new='            "cer": float(np.mean([j.cer for j in judged])),\n',
         tests=[SUMMARY],
         why="the test-set CER is the mean of the lines' rates, weighting a short line as much as a long one"),
    dict(name="judge-alphabet-not-checked", file="lnrnn/judge.py",
         old="    missing = list(dict.fromkeys(c for t in texts for c in t if c not in alphabet[1:]))\n",
         new="    missing = []\n",
         tests=[REFUSE],
         why="a reader that never learned a character of the texts judges them (and scores them as errors)"),
    dict(name="judge-out-checked-after-sampling", file="lnrnn/commands/sample.py",
         old='    if judge_out:\n        check_output_file(judge_out, "--judge-out")\n',
         new="",
         tests=[REFUSE],
         why="a --judge-out that cannot be written is found only after the lines were written and judged"),
]
