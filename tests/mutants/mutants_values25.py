"""Planted bugs, round 25 (format: tests/mutants/mutants.py): single-line slips in the modules with the fewest
mutants per line so far, on paths users hit: lnrnn train's line for a disk that fills up mid-run, lnrnn
sample's --count beside --text lines and its closing sentence, lnrnn predict's refusal of one input, lnrnn
plot's label of a folder given with a trailing separator and its count of runs, lnrnn gradcheck's modes and
summary, the train loop (RUN/best from a mid-epoch evaluation, a save that waited for the loss at the end of a
run), the update's DataError for a NaN in the data, the run's setup (a resume of RUN/best/, a moved run folder,
a checkpoint holding a setting this lnrnn does not know), config files (not UTF-8; a list or table for a
number), the run folder's lock (released at the end; another host's lock without flock), stroke files
(unsigned lengths, read_lines's point limit), IAM-OnDB (a task folder holding testset_v.txt alone, the plural
of the lines skipped) and lnrnn.torch (an unbatched cell step's state, a stack's forget_bias, lengths of
another count than the batch).

27 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 10 were caught
and 17 missed: one written line reported as 'every line ended by the stop rule', one --input's refusal speaking of
'the other inputs', a run folder given as runs/a/ plotted without its name, '1 runs', gradcheck's summary giving
the last error instead of the largest, a save that waited for the loss dropped at the end of the run, --resume
--out RUN/best/ told to resume RUN/best, a renamed default run resumed into its old path, an unknown setting in a
checkpoint and a config file that is not UTF-8 or gives [32] for a number each a traceback, another host's lock
taken over without flock, unsigned lengths refused, read_lines past the point limit, testset_v.txt without
trainset.txt passed over for a random split, '0 line without one skipped', and LSTM(forget_bias=...) ignored. The
new value tests catch every mutant: test_values25_commands (the full-disk line for each errno with the command that
continues the run, --text lines with --count left out and the sentence for one line and for two, predict's refusal
of one input and of two, plot's label of runs/a/ in the SVG and its count of runs, gradcheck's summary against the
largest error it printed), test_values25_training (the resume of RUN/best/, a copied run resumed where it now is
with the old folder left byte for byte, a renamed runs/default resumed by --resume alone in runs/default-2, an
unknown setting and bad config files as one line, the lock file gone after release and a run, another host's lock
refused and a dead local pid's taken over without flock, the NaN's batch and epoch counted from 1, RUN/best written
by the best of scripted mid-epoch losses, the checkpoint at the last update when its save waited),
test_values25_data (lengths of every integer type, the point limit of read_lines and its edge, the lone
testset_v.txt refused by name, the skipped lines' plural for 0, 1 and 2), test_values25_torch (an unbatched step
against torch.nn.LSTMCell/RNNCell, the forget block of the summed biases per layer and direction, lengths of
another count refused by name). The moved-run mutant needs a resume without --out: with --out given again,
resume_config's overridable --out sets the folder anyway, so its test renames runs/default and resumes it by
--resume alone.

Candidates left out as equivalent, none written: _from_tensors's forget_bias (the loaded weights replace the
initial biases), restoring saved_step when a trainer starts from a checkpoint (run() sets it again before any
save), repr against str for the floats of metrics.csv (the same text in Python 3), and the config file's
ENVIRONMENT source beside COMMANDLINE (no option of lnrnn train reads an environment variable).

    python tests/mutants/run.py --only 'v25-*'
"""

CMD_TRAIN = "lnrnn/commands/train.py"
CMD_SAMPLE = "lnrnn/commands/sample.py"
CMD_PREDICT = "lnrnn/commands/predict.py"
CMD_PLOT = "lnrnn/commands/plot.py"
CMD_GRADCHECK = "lnrnn/commands/gradcheck.py"
TRAIN = "lnrnn/training/train.py"
UPDATE = "lnrnn/training/update.py"
SETUP = "lnrnn/training/setup.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
RUNDIR = "lnrnn/training/rundir.py"
STROKE_FILES = "lnrnn/data/stroke_files.py"
IAMONDB = "lnrnn/data/iamondb.py"
TORCH = "lnrnn/interop/torch.py"

# existing tests of these modules (the ones earlier rounds list for them)
CMD_TRAIN_OLD = ["tests/commands/test_values_train_command.py", "tests/commands/test_values13_train_command.py",
                 "tests/commands/test_cli_train_config.py", "tests/training/test_edges.py"]
CMD_SAMPLE_OLD = ["tests/commands/test_sample_text.py", "tests/commands/test_values21_sample.py",
                  "tests/commands/test_values12_sample.py", "tests/commands/test_values10_sample.py",
                  "tests/commands/test_sample.py"]
CMD_PREDICT_OLD = ["tests/commands/test_values_eval_predict.py", "tests/commands/test_commands_careful.py",
                   "tests/commands/test_values16_commands.py"]
CMD_PLOT_OLD = ["tests/commands/test_plot.py", "tests/commands/test_values_output_checks.py"]
CMD_GRADCHECK_OLD = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py"]
TRAIN_OLD = ["tests/training/test_checkpoints_best.py", "tests/training/test_values_train_policies.py",
             "tests/training/test_values_train.py", "tests/training/test_values17_train.py",
             "tests/training/test_stopping_recorder_parts.py"]
UPDATE_OLD = ["tests/training/test_values_update.py"]
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_finetune.py"]
RUNCONFIG_OLD = ["tests/training/test_values_runconfig.py", "tests/training/test_values13_runconfig.py",
                 "tests/commands/test_cli_train_config.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_runs.py"]
STROKE_FILES_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
                    "tests/data/test_values21_stroke_files.py", "tests/data/test_strokes_data.py"]
IAMONDB_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_iamondb.py",
               "tests/data/test_values9_iamondb.py", "tests/data/test_values15_iamondb.py"]
TORCH_OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_cell.py", "tests/interop/test_values_torch.py",
             "tests/interop/test_values14_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values23_torch.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CMD_NEW = ["tests/commands/test_values25_commands.py"]
TRAINING_NEW = ["tests/training/test_values25_training.py"]
DATA_NEW = ["tests/data/test_values25_data.py"]
TORCH_NEW = ["tests/interop/test_values25_torch.py"]

MUTANTS = [
    # ---- lnrnn train ----
    dict(name="v25-cmdtrain-full-disk-traceback", file=CMD_TRAIN,
         old="(errno.ENOSPC, errno.EDQUOT,",
         new="(errno.EDQUOT,",
         tests=CMD_NEW + CMD_TRAIN_OLD,
         why="a run folder's disk filling up mid-run ends in a traceback instead of the line that says how to go on"),
    dict(name="v25-cmdtrain-write-error-resume-hint-without-resume", file=CMD_TRAIN,
         old="then continue with `lnrnn train --out {out} --resume`",
         new="then continue with `lnrnn train --out {out}`",
         tests=CMD_NEW + CMD_TRAIN_OLD,
         why="a failed write tells the user to go on with `lnrnn train --out DIR`, which refuses a folder "
             "holding a run: --resume is left out"),
    # ---- lnrnn sample ----
    dict(name="v25-sample-count-left-out-with-texts-refused", file=CMD_SAMPLE,
         old='if ctx.get_parameter_source("count") != ParameterSource.DEFAULT and count != len(texts):',
         new="if count != len(texts):",
         tests=CMD_NEW + CMD_SAMPLE_OLD,
         why="--text lines with --count left out are held against --count's default (4): one or two lines refused"),
    dict(name="v25-sample-one-line-said-as-every-line", file=CMD_SAMPLE,
         old='ends = "every line ended by the stop rule" if count > 1 else',
         new='ends = "every line ended by the stop rule" if count >= 1 else',
         tests=CMD_NEW + CMD_SAMPLE_OLD,
         why="one written line is reported as 'every line ended by the stop rule'"),
    # ---- lnrnn predict ----
    dict(name="v25-predict-other-inputs-said-of-one-input", file=CMD_PREDICT,
         old="{' and the other inputs' if len(where) > 1 else ''}",
         new="{' and the other inputs' if len(where) >= 1 else ''}",
         tests=CMD_NEW + CMD_PREDICT_OLD,
         why="a refusal of one --input speaks of 'the other inputs' that were never given"),
    # ---- lnrnn plot ----
    dict(name="v25-plot-label-of-a-trailing-separator", file=CMD_PLOT,
         old="Curves(os.path.basename(os.path.normpath(run_dir)),",
         new="Curves(os.path.basename(run_dir),",
         tests=CMD_NEW + CMD_PLOT_OLD,
         why="a run folder given as runs/a/ (a shell's completion) gets an empty label in the picture"),
    dict(name="v25-plot-title-batch-of-the-field-name", file=CMD_PLOT,
         old="batch {c.get('batch-size')}",
         new="batch {c.get('batch_size')}",
         tests=CMD_NEW + CMD_PLOT_OLD,
         why="the title reads config.json's batch size under the field's name, not the option's: 'batch None'"),
    dict(name="v25-plot-one-run-said-as-runs", file=CMD_PLOT,
         old="({len(data)} run{'s' * (len(data) > 1)}",
         new="({len(data)} run{'s' * (len(data) >= 1)}",
         tests=CMD_NEW + CMD_PLOT_OLD,
         why="one run is reported as '1 runs'"),
    # ---- lnrnn gradcheck ----
    dict(name="v25-gradcheck-infer-mode-for-ln-cells", file=CMD_GRADCHECK,
         old='        if norm == "bn":\n',
         new='        if norm != "none":\n',
         tests=CMD_NEW + CMD_GRADCHECK_OLD,
         why="LN cells get an 'infer' mode too, which has no running statistics to check: a mode listed that "
             "does not exist for them"),
    dict(name="v25-gradcheck-summary-of-the-last-error", file=CMD_GRADCHECK,
         old="            worst = max(worst, err)",
         new="            worst = err",
         tests=CMD_NEW + CMD_GRADCHECK_OLD,
         why="the summary's 'max relative error' is the last check's, not the largest"),
    # ---- the train loop ----
    dict(name="v25-train-mid-epoch-best-not-saved", file=TRAIN,
         old="            self.recorder.save_best()\n        self.recorder.write_metrics(draw=False)",
         new="            pass\n        self.recorder.write_metrics(draw=False)",
         tests=TRAINING_NEW + TRAIN_OLD,
         why="a better --eval-every evaluation mid-epoch is judged (patience resets) but RUN/best is not written"),
    dict(name="v25-train-waiting-save-dropped-at-the-end", file=TRAIN,
         old="                self.save()\n        finally:",
         new="                pass\n        finally:",
         tests=TRAINING_NEW + TRAIN_OLD,
         why="a run whose last epoch ended while the loss was above the blow-up level, and came back, ends "
             "without saving its final state"),
    # ---- the update ----
    dict(name="v25-update-nan-batch-numbered-from-zero", file=UPDATE,
         old="{trainer.batch_in_epoch + 1} of epoch",
         new="{trainer.batch_in_epoch} of epoch",
         tests=TRAINING_NEW + UPDATE_OLD,
         why="the DataError for a NaN in the training data names batch 0 for the first batch"),
    # ---- the run's setup ----
    dict(name="v25-setup-best-folder-parent-of-a-trailing-separator", file=SETUP,
         old="(--out {os.path.dirname(os.path.normpath(out))})",
         new="(--out {os.path.dirname(out)})",
         tests=TRAINING_NEW + SETUP_OLD,
         why="--resume --out RUN/best/ is told to resume --out RUN/best (the folder it gave), not RUN"),
    dict(name="v25-setup-moved-run-resumes-into-the-old-folder", file=SETUP,
         old="    resumed.out = out  # the run may have been moved since it was saved",
         new="    pass  # the run may have been moved since it was saved",
         tests=TRAINING_NEW + SETUP_OLD,
         why="a run folder renamed since it was saved (runs/default -> runs/default-2), resumed by --resume "
             "without --out, writes into the path it was saved under (with --out given, resume_config's "
             "overridable --out sets it anyway)"),
    dict(name="v25-setup-unknown-setting-traceback", file=SETUP,
         old="    except TypeError as e:\n        raise CheckpointError(",
         new="    except ValueError as e:\n        raise CheckpointError(",
         tests=TRAINING_NEW + SETUP_OLD,
         why="resuming a checkpoint whose settings hold a key this lnrnn does not know is a traceback"),
    # ---- config files ----
    dict(name="v25-runconfig-undecodable-json-traceback", file=RUNCONFIG,
         old="        except (UnicodeDecodeError, json.JSONDecodeError) as e:",
         new="        except json.JSONDecodeError as e:",
         tests=TRAINING_NEW + RUNCONFIG_OLD,
         why="a .json config that is not UTF-8 (a latin-1 editor's file) is a traceback"),
    dict(name="v25-runconfig-list-value-traceback", file=RUNCONFIG,
         old="               or isinstance(value, (list, dict))\n",
         new="",
         tests=TRAINING_NEW + RUNCONFIG_OLD,
         why="a config file's list or table for a number option (batch-size = [32]) is a traceback"),
    # ---- the run folder ----
    dict(name="v25-rundir-release-leaves-the-lock-file", file=RUNDIR,
         old="            os.unlink(self.path)  # while still locked",
         new="            pass  # while still locked",
         tests=TRAINING_NEW + RUNDIR_OLD,
         why="a run that ends leaves lnrnn.lock behind: the folder reads as in use (holds_run) and the next "
             "run takes it over with a note"),
    dict(name="v25-rundir-other-hosts-lock-taken-over", file=RUNDIR,
         old="            if not flocked and (host != me or _alive(pid)):",
         new="            if not flocked and host == me and _alive(pid):",
         tests=TRAINING_NEW + RUNDIR_OLD,
         why="without flock, a lock written by a run on another host is taken over (its pid is not ours to test)"),
    # ---- stroke files ----
    dict(name="v25-strokefiles-unsigned-lengths-refused", file=STROKE_FILES,
         old='lengths.dtype.kind not in "iu"',
         new='lengths.dtype.kind != "i"',
         tests=DATA_NEW + STROKE_FILES_OLD,
         why="lengths saved as unsigned integers (np.uint32) are refused as 'not an integer array'"),
    dict(name="v25-strokefiles-read-lines-length-unchecked", file=STROKE_FILES,
         old='    return _check_length(seq, path, "the lines", i)',
         new="    return seq",
         tests=DATA_NEW + STROKE_FILES_OLD,
         why="read_lines takes a line of more than MAX_POINTS points (the reader then runs it whole)"),
    # ---- IAM-OnDB ----
    dict(name="v25-iam-only-the-validation-list-ignored", file=IAMONDB,
         old="        if any(have):",
         new="        if have[0]:",
         tests=DATA_NEW + IAMONDB_OLD,
         why="a folder with testset_v.txt but no trainset.txt is passed over silently: the split falls back to "
             "random forms instead of saying the list is missing"),
    dict(name="v25-iam-skipped-plural", file=IAMONDB,
         old="{'' if skipped == 1 else 's'}",
         new="{'' if skipped <= 1 else 's'}",
         tests=DATA_NEW + IAMONDB_OLD,
         why="the description says '0 line without one skipped'"),
    # ---- lnrnn.torch ----
    dict(name="v25-torch-cell-unbatched-hx-refused", file=TORCH,
         old="            want = (H,) if unbatched else (B, H)",
         new="            want = (B, H)",
         tests=TORCH_NEW + TORCH_OLD,
         why="an unbatched LSTMCell/RNNCell step refuses the (H,) state nn.LSTMCell takes with an (I,) input"),
    dict(name="v25-torch-stack-forget-bias-ignored", file=TORCH,
         old="_add_layer(self, self.spec, rng, I_k, H, forget_bias, dtype, device,",
         new="_add_layer(self, self.spec, rng, I_k, H, 1.0, dtype, device,",
         tests=TORCH_NEW + TORCH_OLD,
         why="LSTM(forget_bias=...) is ignored: every stack starts with forget bias 1"),
    dict(name="v25-torch-lengths-count-unchecked", file=TORCH,
         old="            if lengths.shape != (B,):",
         new="            if lengths.dim() != 1:",
         tests=TORCH_NEW + TORCH_OLD,
         why="lengths of another count than the batch pass the check: a broadcasting error (or a wrong mask "
             "for one length) instead of the ValueError naming lengths"),
]
