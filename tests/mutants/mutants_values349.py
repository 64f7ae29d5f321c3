"""Planted bugs, round 349 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the eval, export, predict, read and plot commands (lnrnn/commands/): eval's sentence counting the
metrics instead of the sequences scored; export's --format without its default; predict forcing by default,
its length refusal and its --batch-size refusal written without the f (the placeholders printed as they are),
--input taken once, a CTC head's outputs called 'predicted labels'; read's --beam refusal without the f and its
--input taken once; plot's run folders made optional, its axis defaulting to epochs, the title read from the
first run's config.json for every run, the head kind read from config.json instead of checkpoint.json, the
'train it on' hint without --resume.

14 mutants. Against the old targeted files alone (each mutant's v349 files taken off its list): 7 of 14 caught;
missed: predict forcing by default, its refusal and read's beam refusal not formatted, the CTC head's outputs
called labels, plot's runs optional, its x axis defaulting to epoch, its resume hint dropped. The new value tests
catch every mutant on
their own (checked with the old files taken off the lists): test_values349_eval_export (eval --split 7/11 counts
11 validation and 7 training sequences, 13/1 one 'sequence', and --json gives lnrnn.api.evaluate_run's loss and
accuracy on that split; export with no --format writes a .safetensors file, read here by the format's definition,
with nn.LSTM's names and the shapes an LSTM of 3 inputs and 5 units has, loaded into torch.nn.LSTM and nn.Linear),
test_values349_predict_read (10-step sequences for a 64-step digits run refused word for word, non-zero exit, no
--out written, unless --force; two --input files counted in the order given and classed as lnrnn.api.predict
classes them; --batch-size -3 and --beam -2 refused naming -3 and -2 with nothing written; 'predicted label
sequences' for a CTC head; two read inputs transcribed as lnrnn.read reads the same lines, by best path and by a
beam of 3), test_values349_plot (click's missing-argument sentence word for word, exit 2, no picture; 'x =
updates' by default and each --x's name; the title written out by hand from config.json, 'learning curves' when
two runs' configs differ in either order; head_kind beside a config.json; the no-metrics and empty-metrics
refusals word for word with nothing written). Left out as equivalent: reordering eval_cmd's, export's, predict's
or read's parameters (click passes options by keyword); export's --format choices (one format, the default);
_kind's head lookup (run.model.head is the only head). Left out as outside the focus: help texts (seen only in
--help).

    python tests/mutants/run.py --only 'v349-*'
"""
EVAL = "lnrnn/commands/eval.py"
EXPORT = "lnrnn/commands/export.py"
PREDICT = "lnrnn/commands/predict.py"
READ = "lnrnn/commands/read.py"
PLOT = "lnrnn/commands/plot.py"

T_EE = "tests/commands/test_values349_eval_export.py::"
T_PR = "tests/commands/test_values349_predict_read.py::"
T_PLOT = "tests/commands/test_values349_plot.py::"
OLD_EVAL = ["tests/commands/test_values125_read_eval.py", "tests/commands/test_values_eval_predict.py"]
OLD_EXPORT = ["tests/interop/test_predict_export.py"]
OLD_PREDICT = ["tests/commands/test_values_eval_predict.py", "tests/interop/test_predict_export.py"]
OLD_READ = ["tests/commands/test_values125_read_eval.py", "tests/commands/test_values62_read.py"]
OLD_PLOT = ["tests/commands/test_values173_plot.py", "tests/commands/test_plot.py"]

MUTANTS = [
    # ---- lnrnn eval ----
    dict(name="v349-eval-counts-the-metrics", file=EVAL,
         old="    n = res.sequences\n",
         new="    n = len(means)\n",
         tests=[T_EE + "test_eval_sentence_counts_the_sequences_of_the_set_scored"] + OLD_EVAL,
         why="eval's sentence counts the metrics (loss, acc: '2 sequences') instead of the sequences scored"),
    # ---- lnrnn export ----
    dict(name="v349-export-format-without-default", file=EXPORT,
         old='type=click.Choice(["safetensors"]), default="safetensors", show_default=True,',
         new='type=click.Choice(["safetensors"]), default=None, show_default=True,',
         tests=[T_EE + "test_export_default_format_is_safetensors_under_pytorch_names"] + OLD_EXPORT,
         why="export without --format hands None on: refused as an unknown format instead of writing safetensors"),
    # ---- lnrnn predict ----
    dict(name="v349-predict-force-by-default", file=PREDICT,
         old='@click.option("--force", is_flag=True, default=False,',
         new='@click.option("--force", is_flag=True, default=True,',
         tests=[T_PR + "test_predict_refuses_another_length_unless_forced"] + OLD_PREDICT,
         why="predict always forces: sequences of another length are predicted with a warning, never refused"),
    dict(name="v349-predict-refusal-not-formatted", file=PREDICT,
         old='            raise UserError(f"{what}; scale or cut them as its training data were, or pass --force',
         new='            raise UserError("{what}; scale or cut them as its training data were, or pass --force',
         tests=[T_PR + "test_predict_refuses_another_length_unless_forced"] + OLD_PREDICT,
         why="the refusal of unlike sequences prints '{what}' instead of which file and how it differs"),
    dict(name="v349-predict-batch-size-refusal-not-formatted", file=PREDICT,
         old='raise UserError(f"--batch-size must be at least 1, not {batch_size}.")',
         new='raise UserError("--batch-size must be at least 1, not {batch_size}.")',
         tests=[T_PR + "test_predict_refuses_a_batch_size_below_one_naming_it"] + OLD_PREDICT,
         why="--batch-size -3 is refused as 'not {batch_size}', the value given never named"),
    dict(name="v349-predict-input-taken-once", file=PREDICT,
         old='@click.option("--input", "--data-dir", "inputs", required=True, multiple=True, type=click.Path(),',
         new='@click.option("--input", "--data-dir", "inputs", required=True, multiple=False, type=click.Path(),',
         tests=[T_PR + "test_predict_reads_every_input_in_order"] + OLD_PREDICT,
         why="--input is one path, not repeatable: two inputs are not both predicted (the path is read as letters)"),
    dict(name="v349-predict-ctc-called-labels", file=PREDICT,
         old='"ctc": "predicted label sequences"}',
         new='"ctc": "predicted labels"}',
         tests=[T_PR + "test_predict_names_a_ctc_heads_outputs_label_sequences"] + OLD_PREDICT,
         why="a CTC head's summary says 'predicted labels' for the label sequences it wrote"),
    # ---- lnrnn read ----
    dict(name="v349-read-beam-refusal-not-formatted", file=READ,
         old='raise UserError(f"--beam must be at least 1 (1: best path), not {beam}.")',
         new='raise UserError("--beam must be at least 1 (1: best path), not {beam}.")',
         tests=[T_PR + "test_read_refuses_a_beam_below_one_naming_it"] + OLD_READ,
         why="--beam -2 is refused as 'not {beam}', the value given never named"),
    dict(name="v349-read-input-taken-once", file=READ,
         old='@click.option("--input", "inputs", required=True, multiple=True, type=click.Path(), metavar="FILE",',
         new='@click.option("--input", "inputs", required=True, multiple=False, type=click.Path(), metavar="FILE",',
         tests=[T_PR + "test_read_transcribes_every_input_in_the_order_given"] + OLD_READ,
         why="read's --input is one path, not repeatable: two inputs are not both transcribed"),
    # ---- lnrnn plot ----
    dict(name="v349-plot-runs-optional", file=PLOT,
         old='@click.argument("runs", nargs=-1, required=True,',
         new='@click.argument("runs", nargs=-1, required=False,',
         tests=[T_PLOT + "test_no_run_folder_is_refused_by_click_and_nothing_drawn"] + OLD_PLOT,
         why="plot with no run folder is not refused by click: it goes on to draw nothing"),
    dict(name="v349-plot-x-defaults-to-epoch", file=PLOT,
         old='type=click.Choice(list(X_AXES)), default="step", show_default=True,',
         new='type=click.Choice(list(X_AXES)), default="epoch", show_default=True,',
         tests=[T_PLOT + "test_the_summary_names_the_horizontal_axis"] + OLD_PLOT,
         why="the horizontal axis defaults to epochs, not updates as documented"),
    dict(name="v349-plot-title-from-first-run", file=PLOT,
         old="            with open(os.path.join(r, CONFIG_FILE)) as f:",
         new="            with open(os.path.join(runs[0], CONFIG_FILE)) as f:",
         tests=[T_PLOT + "test_the_title_is_a_config_only_every_run_shares"] + OLD_PLOT,
         why="the default title reads the first run's config.json for every run: runs of different configs are "
             "titled by the first one's"),
    dict(name="v349-plot-head-kind-from-config", file=PLOT,
         old='        with open(os.path.join(run_dir, "checkpoint.json")) as f:',
         new='        with open(os.path.join(run_dir, "config.json")) as f:',
         tests=[T_PLOT + "test_head_kind_is_the_checkpoints_beside_a_config"] + OLD_PLOT,
         why="the head kind is looked up in config.json (which has no model): runs of different heads share a "
             "loss panel"),
    dict(name="v349-plot-resume-hint-dropped", file=PLOT,
         old='                        f"{run_dir} --resume`, or give --eval-every to evaluate sooner.")',
         new='                        f"{run_dir}`, or give --eval-every to evaluate sooner.")',
         tests=[T_PLOT + "test_a_checkpoint_without_metrics_is_refused_naming_resume"] + OLD_PLOT,
         why="a run stopped before its first evaluation is told to train again into its folder without --resume"),
]
