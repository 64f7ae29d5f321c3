"""Planted bugs, round 253 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the plumbing of the remaining commands (lnrnn/commands/predict.py, read.py, eval.py, export.py, gradcheck.py,
plot.py): predict reading only the first --input; predict's refusal of sequences unlike the training data inverted
(refusing when they match); its differences joined with ', ' so the list cannot be told from the sentence; lnrnn
read handing the library a batch size of 500 when --batch-size is not given (its help says: the run's evaluation
batch size); lnrnn eval printing JSON by default; lnrnn export taking a missing --out for the name 'None'; gradcheck
checking one layer by default while its help names two; a BN cell's infer check run in training mode; an LSTM's
write check on whole sequences instead of the padded batch; the progress bar counting cells instead of checks; the
result lines' errors printed with three decimals; lnrnn plot reading the run folders before checking --out's format;
a --title given replaced by the runs' config title; the panels' note joined with ', ', which merges the runs of one
head with the next head's label.

14 mutants. Against the old targeted files alone: the measurement was cut short on a loaded host; the first 3
(predict's) were caught, the other 11 not run. The new value tests catch every mutant on their own (checked with the
old files taken off the lists): test_values253_commands (predict with the run, its readers and the model replaced by
recorders: three --input/--data-dir values reaching the reader in order with the run's task and input size; two
differences refused in one exact sentence with the model never run and nothing written, and turned into one exact
warning by --force; read's batch size None, 7 and 1 as given; eval's sentence written out by hand, loss named for a
classifier and accuracy 87.20%, and --json parsed back; export without --out a usage error before the run is
loaded), test_values253_gradcheck (with the checks recorded: the defaults T 5, B 3 (7 for the model checks), I 3, H
4, two layers, 40 elements and seed 0 against the numbers --help shows; training=True then False for a BN cell's
train and infer; the write check's lengths [4, 4, 4, 4, 4, 2, 0] written out by hand; the bar's totals 7, 7, 14 and
6 counted from the docstring's modes; six result lines and the summary word for word with one error above
--tolerance 0.01), test_values253_plot (with the drawing recorded: a .txt --out refused by its format word for word
before a folder that is no run folder is read; --title and the config title written out by hand; a classifier, a CTC
reader and a second classifier told of their panels word for word). Left out as equivalent: export's fmt passed as
the literal 'safetensors' (the only choice click accepts); predict's `head = run.model.head` (one attribute read, no
other head to take). Left out as not cheap or not reachable in-process: gradcheck's clearing of the bar's line
(needs stderr to be a terminal, which CliRunner's is not); lnrnn info's unmutated lines (the threading probe, the
BLAS listing and the thread variables print what the host has, with no value a test can work out independently of
it). The --batch-size and --beam bounds, predict's counts and per-step note, read's plural, eval's sentence and JSON
keys, plot's duplicate-folder check, labels and plural are mutated by earlier rounds.

    python tests/mutants/run.py --only 'v253-*'
"""
PREDICT = "lnrnn/commands/predict.py"
READ = "lnrnn/commands/read.py"
EVAL = "lnrnn/commands/eval.py"
EXPORT = "lnrnn/commands/export.py"
GRAD = "lnrnn/commands/gradcheck.py"
PLOT = "lnrnn/commands/plot.py"

T_CMD = "tests/commands/test_values253_commands.py::"
T_EXPORT = "tests/commands/test_values437_export.py::"   # the export test, moved to a file named after it
T_GRAD = "tests/commands/test_values253_gradcheck.py::"
T_PLOT = "tests/commands/test_values253_plot.py::"
OLD_CMD = ["tests/commands/test_values215_predict_plot.py", "tests/commands/test_values125_read_eval.py",
           "tests/commands/test_values131_predict.py"]
OLD_GRAD = ["tests/commands/test_values215_gradcheck.py", "tests/commands/test_values173_gradcheck_plan.py"]
OLD_PLOT = ["tests/commands/test_values173_plot.py", "tests/commands/test_values131_plot.py"]

MUTANTS = [
    # ---- predict, read, eval, export ----
    dict(name="v253-predict-reads-only-the-first-input", file=PREDICT,
         old="    x, where = read_inputs(inputs, run.task_spec",
         new="    x, where = read_inputs(inputs[:1], run.task_spec",
         tests=[T_CMD + "test_every_input_reaches_predicts_reader_in_order"] + OLD_CMD,
         why="only the first --input is read: the others are silently left out of the predictions"),
    dict(name="v253-predict-differs-check-inverted", file=PREDICT,
         old="    if differs:\n",
         new="    if not differs:\n",
         tests=[T_CMD + "test_sequences_unlike_the_training_data_refused_in_one_sentence",
                T_CMD + "test_no_differences_no_warning"] + OLD_CMD,
         why="sequences like the training data are refused and unlike ones predicted without a word"),
    dict(name="v253-predict-differences-joined-with-commas", file=PREDICT,
         old="""f"the run in {path} was trained on: {'; '.join(differs)}")""",
         new="""f"the run in {path} was trained on: {', '.join(differs)}")""",
         tests=[T_CMD + "test_sequences_unlike_the_training_data_refused_in_one_sentence",
                T_CMD + "test_force_turns_the_refusal_into_one_warning"] + OLD_CMD,
         why="the differences are joined with ', ', which their own commas make unreadable"),
    dict(name="v253-read-batch-size-default-500", file=READ,
         old='@click.option("--batch-size", type=int, default=None, metavar="N",',
         new='@click.option("--batch-size", type=int, default=500, metavar="N",',
         tests=[T_CMD + "test_read_hands_on_no_batch_size_unless_one_is_given"] + OLD_CMD,
         why="without --batch-size lnrnn read uses 500 lines a pass, not the run's evaluation batch size its help "
             "names"),
    dict(name="v253-eval-json-by-default", file=EVAL,
         old='@click.option("--json", "as_json", is_flag=True, default=False,',
         new='@click.option("--json", "as_json", is_flag=True, default=True,',
         tests=[T_CMD + "test_eval_prints_its_sentence_unless_json_is_asked_for"] + OLD_CMD,
         why="lnrnn eval prints JSON even without --json: the sentence is never printed"),
    dict(name="v253-export-out-not-required", file=EXPORT,
         old='@click.option("--out", required=True, type=click.Path(dir_okay=False),',
         new='@click.option("--out", required=False, type=click.Path(dir_okay=False),',
         tests=[T_EXPORT + "test_export_without_out_is_a_usage_error_before_the_run"] + OLD_CMD,
         why="export without --out is no usage error: it is refused as '--out None has no suffix'"),
    # ---- gradcheck ----
    dict(name="v253-gradcheck-one-layer-by-default", file=GRAD,
         old='@click.option("--layers", type=int, default=2,',
         new='@click.option("--layers", type=int, default=1,',
         tests=[T_GRAD + "test_without_options_every_check_gets_the_defaults_help_names"] + OLD_GRAD,
         why="the default checks a single layer: the gradient between stacked layers goes unchecked"),
    dict(name="v253-gradcheck-infer-in-training-mode", file=GRAD,
         old='runs.append(("infer", partial(stack, B=B, training=False)))',
         new='runs.append(("infer", partial(stack, B=B, training=True)))',
         tests=[T_GRAD + "test_a_bn_cells_infer_check_runs_without_training"] + OLD_GRAD,
         why="a BN cell's infer check repeats the train check: the running-statistics backward is never checked"),
    dict(name="v253-gradcheck-write-on-whole-sequences", file=GRAD,
         old='runs.append(("write", partial(model, "mdn", lengths=lengths, window=2)))',
         new='runs.append(("write", partial(model, "mdn", lengths=None, window=2)))',
         tests=[T_GRAD + "test_an_lstms_write_check_gets_the_padded_batch"] + OLD_GRAD,
         why="the synthesis network is checked on whole sequences, not the padded batch its docstring promises"),
    dict(name="v253-gradcheck-bar-counts-cells", file=GRAD,
         old='bar = Progress(len(plan), "gradcheck"',
         new='bar = Progress(len(cells or CELLS), "gradcheck"',
         tests=[T_GRAD + "test_the_bar_counts_checks_not_cells"] + OLD_GRAD,
         why="the progress bar's total is the count of cells, not of checks: its ETA and percentage are wrong"),
    dict(name="v253-gradcheck-errors-with-three-decimals", file=GRAD,
         old="{err:9.2e}  {'ok'",
         new="{err:9.3e}  {'ok'",
         tests=[T_GRAD + "test_result_lines_word_for_word"] + OLD_GRAD,
         why="each result's error is printed with three decimals, one past the column's width"),
    # ---- plot ----
    dict(name="v253-plot-format-checked-after-reading", file=PLOT,
         old="    picture_format(out)\n",
         new="    pass\n",
         tests=[T_PLOT + "test_another_suffix_refused_by_its_format_before_any_folder_is_read"] + OLD_PLOT,
         why="--out's format is checked only when drawing: a bad folder is reported first, the suffix after reading"),
    dict(name="v253-plot-title-given-replaced", file=PLOT,
         old="    if title is None:\n",
         new="    if title is not None:\n",
         tests=[T_PLOT + "test_a_title_given_reaches_the_drawing_and_the_config_titles_the_rest"] + OLD_PLOT,
         why="a --title given is replaced by the runs' config title, and without one the picture has none"),
    dict(name="v253-plot-panels-note-joined-with-commas", file=PLOT,
         old="""                "; ".join(f"{label} ({', '.join(""",
         new="""                ", ".join(f"{label} ({', '.join(""",
         tests=[T_PLOT + "test_two_heads_are_told_of_their_panels_in_one_line"] + OLD_PLOT,
         why="the panels' note joins heads with ', ', the separator of the runs within a head"),
]
