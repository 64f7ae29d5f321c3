"""Planted bugs, round 37 (format: tests/mutants/mutants.py): single-line slips in the commands, the reader's
judge and text metrics, the diagnostics and the model container: a line's error rate over the reference alone
(not the longer of reference and hypothesis) and error_rates refusing unpaired lines either way; the judge's
replay in the writer's x and y units, its refusal of no lines, its summary's mean peak phi and the peak phi of
a line with no point of its own; what info reports against what it reads (each module's own version, the
machine's cores); predict refusing a handwriting run before it reads the inputs, predict and read counting
sequences and lines (not rows, not files); gradcheck refusing --max-elems below 1 and counting every failed
check; per_step's loss per scored unit and the model's gradients left alone; build_model rebuilding a
synthesis network with its state noise and forget bias, load_arrays taking exactly the model's arrays; data
mnist's damaged gzip header and read-only --dest.

20 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 5 were caught
(the line rate over the longer string, fewer hypotheses than references taken, the replay's scales swapped,
predict's rows said as sequences, the diagnostics' head gradients saved as views) and 15 missed: judging no lines
not refused, the summary's peak phi the largest, the peak phi of an empty line raising, info's numpy version being
scipy's and its cores being Numba's threads, predict reading the inputs before refusing a handwriting run, read
counting files, gradcheck's --max-elems 0 taken and its failures counting the last line only, per_step's loss the
batch's sum, build_model dropping a synthesis network's state noise and forget bias, load_arrays taking extra
arrays, a damaged gzip header as a traceback, and a read-only --dest not checked before the download. The new
value tests catch every mutant: test_values37_textmetrics (a textbook Levenshtein table on empty strings, repeated
characters and long hypotheses; rates above 1; unpaired lines either way), commands/test_values37_judge (the
summary and the report's closing line against the lines' own figures built by hand, peak phi of no points and of
an all-prime text, judging no lines), commands/test_values37_info (versions of patched modules, a patched core
count against patched threads), commands/test_values37_predict_read_gradcheck (a handwriting run with missing, too
wide, NaN and non-array inputs; read of an .npz of three lines and an .npy together; --max-elems 0 and -3 with
checks that must not run; failures counted whether the stack's checks, the model's or both fail),
test_values37_diagnostics (the loss against loss_and_grad's with and without lengths, last-step and per-step
heads; gradients of an update left as they were), model/test_values37_models (five configs through JSON: synthesis
with LN and BN, bidirectional with skip, BN-RNN with noise, CTC; the rebuilt config, dtype and noise equal, the
reloaded figures and noise draws equal; missing, extra, larger-model and misshapen arrays refused),
commands/test_values37_data (four kinds of damaged gzip as DataError, a damaged file in --dest downloaded again, a
damaged download refused with nothing kept, a read-only --dest refused before any download, as root in a child
without the overriding capabilities). No mutant written was dropped; considered and not written as equivalent:
lnrnn train's explicit options counting only the command line (no option of the command reads an environment
variable, so that source never occurs), and read encoding its text with str.encode's default (which is UTF-8
whatever the locale). Found on the way: lnrnn gradcheck took --tolerance NaN (every check ran, then every line
said FAIL) and inf; now refused in one line unless a finite number of at least 0, with a mutant of that check (21
in all).

    python tests/mutants/run.py --only 'v37-*'
"""
TEXT = "lnrnn/textmetrics.py"
JUDGE = "lnrnn/judge.py"
INFO = "lnrnn/commands/info.py"
PREDICT = "lnrnn/commands/predict.py"
READ = "lnrnn/commands/read.py"
GRADCHECK = "lnrnn/commands/gradcheck.py"
DIAG = "lnrnn/diagnostics.py"
MODELS = "lnrnn/model/models.py"
DATA = "lnrnn/commands/data.py"

# existing tests of these modules
TEXT_OLD = ["tests/test_values_textmetrics.py", "tests/test_values10_textmetrics.py",
            "tests/test_values20_metrics.py::test_word_errors_split_on_any_whitespace",
            "tests/kernels/test_ctc.py::test_edit_distance_by_hand_and_against_the_recursion",
            "tests/kernels/test_ctc.py::test_character_and_word_error_rates"]
JUDGE_OLD = ["tests/test_values12_judge.py", "tests/commands/test_judge.py", "tests/test_values20_judge.py",
             "tests/commands/test_values_judge.py"]
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_cli.py::test_info"]
PREDICT_OLD = ["tests/commands/test_values_eval_predict.py",
               "tests/training/test_edges.py::test_predict_sends_a_handwriting_run_to_sample",
               "tests/commands/test_values_output_checks.py"]
READ_OLD = ["tests/commands/test_reading.py::test_read_command_prints_and_writes",
            "tests/commands/test_reading.py::test_read_refuses_bad_options_before_any_work"]
GRADCHECK_OLD = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py",
                 "tests/commands/test_values25_commands.py::test_the_summary_is_the_largest_error_printed"]
DIAG_OLD = ["tests/test_diagnostics.py", "tests/test_values_diagnostics.py", "tests/test_values21_diagnostics.py"]
MODELS_OLD = ["tests/model/test_values16_models.py", "tests/model/test_values10_models.py",
              "tests/model/test_synthesis.py::test_window_norm_sets_the_first_layers_norm_only_and_is_saved",
              "tests/model/test_synthesis.py::test_train_writes_a_text_task_with_the_window_and_eval_reproduces",
              "tests/model/test_state_noise.py::test_noisy_run_resumes_exactly",
              "tests/training/test_checkpoint.py"]
DATA_OLD = ["tests/commands/test_values17_data.py", "tests/commands/test_values_data.py",
            "tests/commands/test_values9_data.py", "tests/commands/test_values21_paths.py",
            "tests/commands/test_cli.py::test_data_mnist_download_and_verify",
            "tests/commands/test_cli.py::test_data_mnist_unreachable_or_missing"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TEXT_NEW = ["tests/test_values37_textmetrics.py"]
JUDGE_NEW = ["tests/commands/test_values37_judge.py"]
INFO_NEW = ["tests/commands/test_values37_info.py"]
PRG = "tests/commands/test_values37_predict_read_gradcheck.py::"   # the commands' value tests (named after all 3)
PREDICT_NEW = [PRG + "test_predict_refuses_a_handwriting_run_whatever_its_inputs"]
READ_NEW = [PRG + "test_read_counts_the_lines_it_wrote_not_the_files"]
GRADCHECK_NEW = [PRG + "test_gradcheck_refuses_max_elems_below_one", PRG + "test_gradcheck_counts_every_failed_check"]
DIAG_NEW = ["tests/test_values37_diagnostics.py"]
MODELS_NEW = ["tests/model/test_values37_models.py"]
DATA_NEW = ["tests/commands/test_values37_data.py"]

MUTANTS = [
    # ---- text metrics: denominators and paired lines ----
    dict(name="v37-textmetrics-line-rate-over-the-longer", file=TEXT,
         old="    return edit_distance(ref, hyp) / len(ref)\n",
         new="    return edit_distance(ref, hyp) / max(len(ref), len(hyp))\n",
         tests=TEXT_NEW + TEXT_OLD,
         why="a line's CER/WER divides by the longer of reference and hypothesis (a normalized edit distance), "
             "not by the reference: a hypothesis with insertions scores too well"),
    dict(name="v37-textmetrics-missing-hypotheses-taken", file=TEXT,
         old="    if len(refs) != len(hyps):\n",
         new="    if len(refs) < len(hyps):\n",
         tests=TEXT_NEW + TEXT_OLD,
         why="error_rates takes fewer hypotheses than references: zip drops the unpaired lines' edits while "
             "their characters stay in the denominator"),
    # ---- judge: replay units, empty input, summary ----
    dict(name="v37-judge-replay-scales-swapped", file=JUDGE,
         old="    units = np.array([sx, sy, 1.0])\n",
         new="    units = np.array([sy, sx, 1.0])\n",
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the replay divides x offsets by the y scale and y by the x one: where the scales differ the "
             "writer replays other points than it fed back, and kappa_T (travel) is another"),
    dict(name="v37-judge-no-lines-not-refused", file=JUDGE,
         old="    if not rows:\n",
         new="    if rows is None:\n",
         tests=JUDGE_NEW + JUDGE_OLD,
         why="judging no written lines is not refused in one line: it fails later inside the replay"),
    dict(name="v37-judge-summary-peak-phi-is-the-largest", file=JUDGE,
         old='"mean_peak_phi": float(np.mean([j.peak_phi for j in judged]))',
         new='"mean_peak_phi": float(np.max([j.peak_phi for j in judged]))',
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the summary's mean peak phi is the largest line's peak"),
    dict(name="v37-judge-peak-phi-of-an-empty-line", file=JUDGE,
         old="    return float(phi.max()) if phi.size else 0.0\n",
         new="    return float(phi.max())\n",
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the peak phi of a line with no points (or a text all prime) raises instead of being 0"),
    # ---- info: what it reports against what it reads ----
    dict(name="v37-info-numpy-version-is-scipys", file=INFO,
         old="numpy {numpy.__version__}, scipy",
         new="numpy {scipy.__version__}, scipy",
         tests=INFO_NEW + INFO_OLD,
         why="info prints scipy's version as numpy's"),
    dict(name="v37-info-cpu-cores-are-the-threads", file=INFO,
         old='        f"CPU cores: {os.cpu_count()}",\n',
         new='        f"CPU cores: {threads}",\n',
         tests=INFO_NEW + INFO_OLD,
         why="info reports Numba's threads in use as the CPU's cores"),
    # ---- predict and read: what they say, and the order of their checks ----
    dict(name="v37-predict-handwriting-run-refused-after-the-inputs", file=PREDICT,
         old="    require_predictable(run)  # before the inputs are read\n",
         new="",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="predict reads the inputs before it refuses a handwriting run: bad inputs to such a run get an "
             "error about the inputs, not the one that says to use lnrnn sample (lnrnn.api.predict refuses "
             "it only after the inputs were read and checked)"),
    dict(name="v37-predict-says-rows-for-sequences", file=PREDICT,
         old="of {len(x)} sequence{'s' * (len(x) != 1)}",
         new="of {rows} sequence{'s' * (rows != 1)}",
         tests=PREDICT_NEW + PREDICT_OLD,
         why="predict's sentence counts a per-step head's rows (one per step) as sequences"),
    dict(name="v37-read-says-files-for-lines", file=READ,
         old="Wrote the transcriptions of {len(texts)} line{'s' * (len(texts) != 1)}",
         new="Wrote the transcriptions of {len(inputs)} line{'s' * (len(inputs) != 1)}",
         tests=READ_NEW + READ_OLD,
         why="read's sentence counts the --input files, not the lines read (an .npz holds several)"),
    # ---- gradcheck: its sizes and its count of failures ----
    dict(name="v37-gradcheck-max-elems-zero-taken", file=GRADCHECK,
         old='("--layers", layers),\n                    ("--max-elems", max_elems)):',
         new='("--layers", layers)):',
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="--max-elems 0 is not refused: every check compares no element and passes"),
    dict(name="v37-gradcheck-failures-count-the-last-line", file=GRADCHECK,
         old="            failed += not ok\n",
         new="            failed = int(not ok)\n",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the count of failed checks is the last line's: the summary undercounts, and a run whose last "
             "check passes exits 0 whatever failed before"),
    # ---- diagnostics: the model left alone, the loss per unit ----
    dict(name="v37-diag-head-grads-saved-as-views", file=DIAG,
         old="saved_grads = {k: np.array(v) for k, v in head.grads.items()}",
         new="saved_grads = {k: v for k, v in head.grads.items()}",
         tests=DIAG_NEW + DIAG_OLD,
         why="the head's gradients are 'saved' as the very arrays its backward adds into: the restore is a "
             "no-op and per_step leaves the head's gradients changed"),
    dict(name="v37-diag-loss-is-the-batchs-sum", file=DIAG,
         old='loss=float(sums["loss"]) / max(count, 1)',
         new='loss=float(sums["loss"])',
         tests=DIAG_NEW + DIAG_OLD,
         why="per_step's loss is the batch's sum, not its mean per scored unit"),
    # ---- the model container: rebuilt from its config, arrays loaded ----
    dict(name="v37-models-synthesis-rebuilt-without-state-noise", file=MODELS,
         old='        return SequenceModel(stack, head, state_noise=cfg["state_noise"], noise_seed=seed)\n',
         new='        return SequenceModel(stack, head, noise_seed=seed)\n',
         tests=MODELS_NEW + MODELS_OLD,
         why="build_model drops a synthesis network's state noise: a saved noisy writer reloads without it"),
    dict(name="v37-models-synthesis-rebuilt-with-the-default-forget-bias", file=MODELS,
         old='seed=seed, forget_bias=cfg["forget_bias"], max_steps=max_steps, device=device,',
         new="seed=seed, max_steps=max_steps, device=device,",
         tests=MODELS_NEW + MODELS_OLD,
         why="build_model gives a synthesis network the default forget bias, not its config's"),
    dict(name="v37-models-extra-arrays-loaded-silently", file=MODELS,
         old="        if set(arrays) != names:\n",
         new="        if not names <= set(arrays):\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="load_arrays takes arrays the model does not have (another, larger model's) and ignores them"),
    # ---- data mnist: a damaged file, a read-only --dest ----
    dict(name="v37-data-bad-gzip-header-traceback", file=DATA,
         old="        except (EOFError, OSError, zlib.error) as e:\n",
         new="        except (EOFError, zlib.error) as e:\n",
         tests=DATA_NEW + DATA_OLD,
         why="a file with the gzip magic and a damaged header (gzip.BadGzipFile, an OSError) escapes as a "
             "traceback instead of 'a damaged gzip file; download it again'"),
    dict(name="v37-data-read-only-dest-not-checked", file=DATA,
         old="    e = write_error(probe)\n",
         new="    e = None\n",
         tests=DATA_NEW + DATA_OLD,
         why="an existing --dest that cannot be written is not refused before the download: the temp file "
             "fails to open with a traceback"),
    dict(name="v37-gradcheck-tolerance-unchecked", file="lnrnn/commands/gradcheck.py",
         old='    if not (tolerance >= 0 and np.isfinite(tolerance)):',
         new='    if not (tolerance >= 0):',
         tests=["tests/commands/test_values37_predict_read_gradcheck.py"],
         why="--tolerance inf (or any infinite bound) runs every check and can fail none: not refused up front"),
]
