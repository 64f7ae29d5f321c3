"""Planted bugs, round 289 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the smaller commands (lnrnn/commands/gradcheck.py, eval.py, export.py, predict.py), the log
formats (lnrnn/training/logs.py) and the update (lnrnn/training/update.py): gradcheck's failure count starting
at 1, its clf-step check given no lengths and its whole-model checks a fixed --max-elems of 40; eval printing
its sentence for --json and JSON without it; export writing into the run folder instead of --out; predict's
closing sentence losing its full stop; a missing tensorboard package reported as available, the writer opened
on the run folder itself, an add left unflushed; a fresh device update marked stale, sync_host leaving the
host marked stale, a NaN training loss on the device let through, an infinite gradient norm reported with the loss
in its place; a group of ranks prewarming on its first update.

14 mutants. Against the old targeted files alone: not measured yet. Old targeted files:
test_values281_gradcheck_cli, test_values_eval_predict, test_values125_read_eval, test_values283_logs,
test_values130_update, test_values114_update. The new value tests catch every mutant on their own (checked
with the old files taken off the lists): test_values289_commands (gradcheck's table written out by hand with
columns 8, 8 and 11 wide and errors in 9.2e, an error equal to --tolerance ok and one above it the single
FAIL with exit 1, the lengths of the padded batch [4, 4, 4, 4, 2, 0] worked out from T 4 and B 2, B + 4 rows
and --max-elems 7 in every whole-model check; eval --json's object written out from the stand-in's figures and
the --set, --data-dir, --split and --eval-batch-size received by evaluate_run; export's sentence and the path
export_run received; predict's sentence over inputs of 3 and 1 sequences word for word),
test_values289_logs (tensorboard made unimportable: no log and nothing created; the writer's folder
RUN/tensorboard; a flush after each add's events, counted), test_values289_update (pull_params counted over
sync_host calls before, between and after updates; the loss handed on 1.2 / 4 by hand; NaN and infinite sums
and norms on stand-in kernels; prewarm armed only for a lone process on its first update, over group sizes 1,
2 and 3). Left out as equivalent: --format's default (the only choice is safetensors); the CSV file's and
TensorBoard folder's names read only through these constants; read's progress.close and gradcheck's
bar.close dropped (with --quiet nothing is drawn, and the bar writes nothing a test of stdout reads). Left
out for this round: eval's sequence count and the read/predict --batch-size messages (earlier rounds mutate the
neighbouring lines and the old tests read those sentences).

    python tests/mutants/run.py --only 'v289-*'
"""
GC = "lnrnn/commands/gradcheck.py"
EVAL = "lnrnn/commands/eval.py"
EXPORT = "lnrnn/commands/export.py"
PREDICT = "lnrnn/commands/predict.py"
LOGS = "lnrnn/training/logs.py"
UPDATE = "lnrnn/training/update.py"

T_CMD = "tests/commands/test_values289_commands.py::"
T_LOGS = "tests/training/test_values289_logs.py::"
T_UPD = "tests/training/test_values289_update.py::"
OLD_CMD = ["tests/commands/test_values281_gradcheck_cli.py", "tests/commands/test_values_eval_predict.py",
           "tests/commands/test_values125_read_eval.py"]
OLD_LOGS = ["tests/training/test_values283_logs.py"]
OLD_UPD = ["tests/training/test_values130_update.py", "tests/training/test_values114_update.py"]

MUTANTS = [
    # ---- lnrnn/commands: gradcheck, eval, export, predict ----
    dict(name="v289-gradcheck-failures-start-at-one", file=GC,
         old="    worst, failed = 0.0, 0\n",
         new="    worst, failed = 0.0, 1\n",
         tests=[T_CMD + "test_gradcheck_rows_summary_and_exit_when_every_check_passes",
                T_CMD + "test_gradcheck_counts_the_one_failure_and_exits_1"] + OLD_CMD,
         why="a run where every check passes says 1 above tolerance and exits 1; one failure counts as two"),
    dict(name="v289-gradcheck-clf-step-without-lengths", file=GC,
         old='"clf-step": ("classifier", True, lengths),',
         new='"clf-step": ("classifier", True, None),',
         tests=[T_CMD + "test_gradcheck_model_checks_get_padded_lengths_rows_and_max_elems"] + OLD_CMD,
         why="the per-step classifier check runs on full rows only: the padded batch's masks go unchecked"),
    dict(name="v289-gradcheck-model-max-elems-fixed", file=GC,
         old="                        max_elems=max_elems)\n",
         new="                        max_elems=40)\n",
         tests=[T_CMD + "test_gradcheck_model_checks_get_padded_lengths_rows_and_max_elems"] + OLD_CMD,
         why="--max-elems is ignored by the whole-model checks, which always sample 40 elements"),
    dict(name="v289-eval-json-inverted", file=EVAL,
         old="    if as_json:\n",
         new="    if not as_json:\n",
         tests=[T_CMD + "test_eval_json_object_and_the_options_passed_on",
                T_CMD + "test_eval_without_json_is_one_sentence"] + OLD_CMD,
         why="--json prints the sentence and a plain eval prints the JSON object"),
    dict(name="v289-export-into-the-run-folder", file=EXPORT,
         old="    shapes = export_run(run, out, fmt)\n",
         new="    shapes = export_run(run, path, fmt)\n",
         tests=[T_CMD + "test_export_writes_to_out_and_says_so"] + OLD_CMD,
         why="the weights are written over the --checkpoint path instead of --out, while the sentence names --out"),
    dict(name="v289-predict-sentence-without-stop", file=PREDICT,
         old='               f"({counts}).")\n',
         new='               f"({counts})")\n',
         tests=[T_CMD + "test_predict_sentence_over_two_inputs"] + OLD_CMD,
         why="predict's closing sentence loses its full stop"),
    # ---- lnrnn/training/logs.py ----
    dict(name="v289-logs-missing-tensorboard-available", file=LOGS,
         old="    except Exception:  # not installed, or an install that cannot load (protobuf mismatch): no scalars\n"
             "        return False\n",
         new="    except Exception:  # not installed, or an install that cannot load (protobuf mismatch): no scalars\n"
             "        return True\n",
         tests=[T_LOGS + "test_no_tensorboard_package_means_no_log_and_no_folder"] + OLD_LOGS,
         why="without the tensorboard package the log is still opened, and training fails on its import"),
    dict(name="v289-logs-writer-on-the-run-folder", file=LOGS,
         old="        return cls(os.path.join(out, TENSORBOARD_DIR)) if tensorboard_available() else None\n",
         new="        return cls(out) if tensorboard_available() else None\n",
         tests=[T_LOGS + "test_the_writer_is_opened_on_the_runs_tensorboard_folder"] + OLD_LOGS,
         why="the event files land in the run folder itself, not in RUN/tensorboard"),
    dict(name="v289-logs-add-not-flushed", file=LOGS,
         old="        self.writer.flush()\n",
         new="        pass\n",
         tests=[T_LOGS + "test_every_add_is_flushed_after_its_events"] + OLD_LOGS,
         why="an evaluation's scalars stay in the writer's buffer: TensorBoard shows them only once the run ends"),
    # ---- lnrnn/training/update.py ----
    dict(name="v289-update-fresh-device-update-stale", file=UPDATE,
         old="        self.host_stale = False  # the host parameters are behind the device's\n",
         new="        self.host_stale = True  # the host parameters are behind the device's\n",
         tests=[T_UPD + "test_sync_host_pulls_once_per_update_and_never_before_one"] + OLD_UPD,
         why="a device update pulls the parameters back before it has made any update"),
    dict(name="v289-update-sync-leaves-stale", file=UPDATE,
         old="            self.host_stale = False\n",
         new="            self.host_stale = True\n",
         tests=[T_UPD + "test_sync_host_pulls_once_per_update_and_never_before_one"] + OLD_UPD,
         why="every sync_host copies the parameters back again, even with no update since the last one"),
    dict(name="v289-update-device-nan-loss-let-through", file=UPDATE,
         old='        loss = model.head.mean(model.last_sums, model.last_count)["loss"]\n'
             "        if not math.isfinite(loss):\n",
         new='        loss = model.head.mean(model.last_sums, model.last_count)["loss"]\n'
             "        if math.isinf(loss):\n",
         tests=[T_UPD + "test_a_nan_loss_sum_is_a_diverged_training_loss"] + OLD_UPD,
         why="a NaN training loss on the device is not a diverged run: it goes on to the blow-up watch"),
    dict(name="v289-update-device-norm-reported-as-loss", file=UPDATE,
         old='        if not math.isfinite(norm):\n            t._diverged("gradient norm", norm)\n'
             "        t._blown_up(loss)\n\n    def sync_host",
         new='        if not math.isfinite(norm):\n            t._diverged("gradient norm", loss)\n'
             "        t._blown_up(loss)\n\n    def sync_host",
         tests=[T_UPD + "test_an_infinite_norm_beside_a_finite_loss_is_named_with_the_norm"] + OLD_UPD,
         why="a diverged gradient norm on the device is reported with the (finite) loss as its value"),
    dict(name="v289-update-group-prewarms", file=UPDATE,
         old="                with prewarm.armed(first and t.group.size == 1):\n",
         new="                with prewarm.armed(first):\n",
         tests=[T_UPD + "test_only_a_lone_process_prewarms_on_its_first_update"] + OLD_UPD,
         why="every rank of an MPI group starts a prewarm process on its first update"),
]
