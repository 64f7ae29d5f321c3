"""Planted bugs, round 272 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sample command (lnrnn/commands/sample.py), the sampler (lnrnn/sample.py), the window model
(lnrnn/model/window.py) and CTC decoding (lnrnn/model/decode.py): --steps defaulting to 70 points instead of the
700 its help shows; --count to 1 sample instead of 4; --bias to 0.5 instead of 0; --out to sample.png instead of
samples.png; --no-cap on by default, so that --steps past 20,000 is never refused; the picture's title reading
the task record's 'name' (absent: '?') instead of its 'task'; the .npz of written lines leaving out each line's
stopping point; the summary's stop-rule check inverted (a line that ended is said to reach the cap, a capped one
to have ended); the sampler's start ignored when given (and NaN when not); the layers above the window reading
their BatchNorm statistics at step 0 whatever the step (a stepped synthesis network drifts from its own
forward); the prefix beam search skipping the last step; its repeat rule applied to every other class instead
of the repeated one; beam_search's labels carrying one padding -1 past their end.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values272_sample_cli (with the stand-ins of
test_values245 and test_values221: the documented defaults at the sampler and in the summary 'Wrote 4 samples of
700 points to samples.png.'; the title 'lstm on strokes-synthetic, update 5, bias 0.25, seed 3' as written out
from the stand-in run's record; --steps 20,001 refused word for word with the run never read, and taken with
--no-cap; one line ended by the stop rule and two lines the second capped, summed up word for word, the .npz's
points and lengths as the stand-in lines written out in the test), test_values272_sampler_window (test_values52's
replay: the mixture drawn by hand from one whole-sequence forward over the sampler's own inputs, for a start with
its pen down away from the origin and for a two-layer bn-lstm synthesis network whose running statistics differ
at every one of six steps), test_values272_decode (a brute-force enumeration of all C^T paths, collapsed by the
definition: every label's summed log-probability from prefix_beam_search wide enough, in order, a doubled class
among them; beam_search's best label of rows of 4 and 2 steps in one batch). Left out as equivalent: collapse's
`prev = None` made CTC_BLANK (a leading blank is dropped either way); the sampler's phi buffer (count, steps, U)
made np.empty (only the rows a line reached are returned, each written); WindowStack.step's `self.phi[0]` made
`self.phi[-1]` (a step's forward has one time step). Left out as crashes every caller meets (not value slips):
the priming check `if prime is not None` inverted, and the stack's per-layer state taken as state[0]. Found
beside the round: the summary of a single written line of one point says '(1 points; ...)'
(test_a_line_of_one_point_is_counted_in_the_singular, marked xfail).

    python tests/mutants/run.py --only 'v272-*'
"""
CMD = "lnrnn/commands/sample.py"
SAMPLE = "lnrnn/sample.py"
WINDOW = "lnrnn/model/window.py"
DECODE = "lnrnn/model/decode.py"

T_CLI = "tests/commands/test_values272_sample_cli.py::"
T_SW = "tests/model/test_values272_sampler_window.py::"
T_DEC = "tests/model/test_values272_decode.py::"
OLD_CLI = ["tests/commands/test_values99_sample_cli.py", "tests/commands/test_values221_sample_cli.py",
           "tests/commands/test_values245_output_checks.py", "tests/commands/test_values237_train_sample.py"]
OLD_SAMPLER = ["tests/commands/test_values52_sampler.py", "tests/commands/test_values256_sampler.py",
               "tests/model/test_values256_window.py", "tests/model/test_values_window.py"]
OLD_DECODE = ["tests/model/test_values_decode.py", "tests/model/test_values223_beam_decode.py",
              "tests/model/test_values235_beam_decode.py"]

MUTANTS = [
    # ---- the sample command: lnrnn/commands/sample.py ----
    dict(name="v272-cmd-steps-default-70", file=CMD,
         old='@click.option("--steps", type=int, default=700, show_default=True,',
         new='@click.option("--steps", type=int, default=70, show_default=True,',
         tests=[T_CLI + "test_the_documented_defaults_reach_the_sampler_and_the_summary"] + OLD_CLI,
         why="a sample without --steps has 70 points, not the 700 of Graves's lines"),
    dict(name="v272-cmd-count-default-1", file=CMD,
         old='@click.option("--count", type=int, default=4, show_default=True,',
         new='@click.option("--count", type=int, default=1, show_default=True,',
         tests=[T_CLI + "test_the_documented_defaults_reach_the_sampler_and_the_summary"] + OLD_CLI,
         why="a picture without --count holds one sample instead of four"),
    dict(name="v272-cmd-bias-default-half", file=CMD,
         old='@click.option("--bias", type=float, default=0.0, show_default=True,',
         new='@click.option("--bias", type=float, default=0.5, show_default=True,',
         tests=[T_CLI + "test_the_documented_defaults_reach_the_sampler_and_the_summary"] + OLD_CLI,
         why="without --bias the sampler draws at bias 0.5, not the trained distribution"),
    dict(name="v272-cmd-out-default-sample", file=CMD,
         old='@click.option("--out", type=click.Path(dir_okay=False), default="samples.png", show_default=True,',
         new='@click.option("--out", type=click.Path(dir_okay=False), default="sample.png", show_default=True,',
         tests=[T_CLI + "test_the_documented_defaults_reach_the_sampler_and_the_summary"] + OLD_CLI,
         why="the picture lands in sample.png, not the samples.png the help names"),
    dict(name="v272-cmd-no-cap-default-on", file=CMD,
         old='@click.option("--no-cap", is_flag=True, default=False,',
         new='@click.option("--no-cap", is_flag=True, default=True,',
         tests=[T_CLI + "test_steps_past_the_cap_are_refused_without_no_cap"] + OLD_CLI,
         why="--steps past 20,000 is never refused: a slip of a digit starts a sample of minutes"),
    dict(name="v272-cmd-title-task-wrong-key", file=CMD,
         old='    task = (meta.get("task") or {}).get("task", "?")',
         new='    task = (meta.get("task") or {}).get("name", "?")',
         tests=[T_CLI + "test_the_title_names_cell_task_update_bias_and_seed",
                T_CLI + "test_the_documented_defaults_reach_the_sampler_and_the_summary"] + OLD_CLI,
         why="the picture's title says 'lstm on ?' whatever task the run learned"),
    dict(name="v272-cmd-npz-drops-stopping-point", file=CMD,
         old="        points = [r.points for r in lines]",
         new="        points = [r.points[:-1] for r in lines]",
         tests=[T_CLI + "test_two_lines_the_second_capped_are_summed_up_and_saved_whole"] + OLD_CLI,
         why="the .npz of written lines leaves out each line's last point (the stopping step's, which is kept): "
             "its lengths disagree with the summary"),
    dict(name="v272-cmd-ends-check-inverted", file=CMD,
         old="    if not capped:\n",
         new="    if capped:\n",
         tests=[T_CLI + "test_one_line_ended_by_the_stop_rule_is_summed_up_in_the_singular",
                T_CLI + "test_two_lines_the_second_capped_are_summed_up_and_saved_whole"] + OLD_CLI,
         why="a line that ended by the stop rule is said to reach the cap ('line  reached...'), a capped one to "
             "have ended"),
    # ---- the sampler: lnrnn/sample.py ----
    dict(name="v272-sample-start-check-inverted", file=SAMPLE,
         old="    if start is not None:\n        x[:] = start",
         new="    if start is None:\n        x[:] = start",
         tests=[T_SW + "test_a_start_pen_down_is_the_first_input_of_every_row"] + OLD_SAMPLER,
         why="a given start is ignored (the rows start at the origin) and none given starts at NaN"),
    # ---- the window model: lnrnn/model/window.py ----
    dict(name="v272-window-upper-layers-step-zero-stats", file=WINDOW,
         old="                                 t0=t0, keep=keep)                        # input (T,B,I+H+C)",
         new="                                 t0=0, keep=keep)                        # input (T,B,I+H+C)",
         tests=[T_SW + "test_a_bn_synthesis_network_steps_at_each_steps_own_statistics"] + OLD_SAMPLER,
         why="stepping a bn-lstm synthesis network, the layers above the window normalize every step with step "
             "0's statistics: the sampler draws from outputs its own forward never gives"),
    # ---- CTC decoding: lnrnn/model/decode.py ----
    dict(name="v272-decode-beam-skips-last-step", file=DECODE,
         old="    for t in range(T):\n",
         new="    for t in range(T - 1):\n",
         tests=[T_DEC + "test_prefix_beam_search_wide_enough_is_the_enumeration"] + OLD_DECODE,
         why="the prefix beam search never reads the row's last step: its labels and probabilities are the "
             "first T - 1 steps'"),
    dict(name="v272-decode-repeat-rule-inverted", file=DECODE,
         old="                if c == last:\n",
         new="                if c != last:\n",
         tests=[T_DEC + "test_prefix_beam_search_wide_enough_is_the_enumeration"] + OLD_DECODE,
         why="every class but the prefix's last is treated as a repeat (merged unless a blank came between), "
             "the repeat itself as a new label"),
    dict(name="v272-decode-labels-one-past-end", file=DECODE,
         old="    labels, n, _ = beam_search_array(logp, width, lengths)\n"
             "    return [labels[b, :n[b]].tolist() for b in range(len(n))]",
         new="    labels, n, _ = beam_search_array(logp, width, lengths)\n"
             "    return [labels[b, :n[b] + 1].tolist() for b in range(len(n))]",
         tests=[T_DEC + "test_beam_search_reads_each_row_over_its_own_steps"] + OLD_DECODE,
         why="beam_search's labels end in the padding's -1 (wherever a label is shorter than its row)"),
]
