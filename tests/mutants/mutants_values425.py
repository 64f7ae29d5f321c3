"""Planted bugs, round 425 (format: tests/mutants/mutants.py): a run whose state goes non-finite where only an
evaluation sees it (lnrnn/training/train.py: _validate and _finite, lnrnn/training/update.py: nonfinite), a
checkpoint that holds such state (lnrnn/training/checkpoint.py: load_checkpoint), a resume whose saved settings lost
the learning-rate schedule (lnrnn/training/setup.py: resume_problem), a handwriting run evaluated on data it was not
trained on (lnrnn/data/strokes.py: as_trained, lnrnn/api.py: evaluate_run, lnrnn/sample.py: writer_alphabet) and
lnrnn plot of a damaged config.json (lnrnn/commands/plot.py), twenty-first pass.

Writing this round's plan found real bugs, by training with a learning rate of 2**70, by setting a checkpoint's
arrays to NaN, by evaluating handwriting runs with a list of --split values, by setting each key of a --config file
and each field of a writer's checkpoint.json to bad values and resuming, and by damaging a run's metrics.jsonl,
updates.jsonl and config.json under lnrnn plot: a two-layer model whose parameters went NaN ended its next
evaluation in the layer's traceback; a --max-steps stop saved NaN parameters; NaN checkpoints were evaluated,
predicted from and exported; every handwriting run evaluated on another split was refused in a contradictory
sentence, and its texts were encoded in the new split's alphabet; a train section without lr or lr_decay was a
KeyError in a resume; a config.json that is not an object an AttributeError in lnrnn plot. The planted bugs: the
evaluation's NaN refusal not caught, every ValueError caught, or dated to the next update; the stop's evaluation
unchecked; an infinite loss let through; the arrays' check dropped, for NaN only, for parameters only or for the
first array only; the resume's lr or lr_decay unchecked; the units' ratio inverted or its axes swapped, the pen
scaled, the task's scale not recorded, the description's words added even without a change; the run's alphabet not
adopted; the conversion skipped under --split; a free writer asked for an alphabet; plot's config taken when it is a
list. 20 mutants. The old targeted files alone (per module: OLD_LOOP, OLD_CHECKPOINT, OLD_RESUME, OLD_EVAL,
OLD_PLOT) catch 1 of 20: the infinite validation loss, by an old file's epoch-end case. The new files alone
(test_values425_diverged_state for the trainer, checkpoint and resume, test_values425_other_data for the units, the
alphabet and plot) catch 20 of 20, so NEW + OLD does too (not run separately). A task's head is derived from its
scale and alphabet (no state of its own to leave behind), so a reader's classes left behind cannot happen, and
that planted bug went with it.

    python tests/mutants/run.py --only 'v425-*'
"""
NEW_TRAIN = ["tests/training/test_values425_diverged_state.py"]
NEW_DATA = ["tests/commands/test_values425_other_data.py"]
TRAIN = "lnrnn/training/train.py"
UPDATE = "lnrnn/training/update.py"
CHECKPOINT = "lnrnn/training/checkpoint.py"
STROKES = "lnrnn/data/strokes.py"
API = "lnrnn/api.py"
OLD_LOOP = ["tests/training/test_values236_train_driver.py", "tests/training/test_values295_train_stopping.py",
            "tests/training/test_values124_train_driver.py", "tests/training/test_values80_loop.py"]
OLD_CHECKPOINT = ["tests/training/test_checkpoint.py", "tests/training/test_values418_damaged_description.py",
                  "tests/training/test_values14_checkpoint.py", "tests/commands/test_values424_damaged_meta.py"]
OLD_RESUME = ["tests/training/test_values418_damaged_description.py", "tests/training/test_values236_train_resume.py",
              "tests/training/test_values134_recorder_resume.py"]
OLD_EVAL = ["tests/test_values46_api.py", "tests/commands/test_values125_read_eval.py",
            "tests/commands/test_values349_eval_export.py", "tests/commands/test_values_eval_predict.py",
            "tests/data/test_values200_tasks.py"]
OLD_PLOT = ["tests/commands/test_plot.py", "tests/commands/test_values173_plot.py",
            "tests/commands/test_values253_plot.py", "tests/commands/test_values349_plot.py"]

MUTANTS = [
    dict(name="v425-validate-catches-nothing", file=TRAIN,
         old="        except ValueError as e:\n            nonfinite(self, e)\n",
         new="        except KeyError as e:\n            nonfinite(self, e)\n",
         tests=NEW_TRAIN + OLD_LOOP,
         why="a NaN inside a two-layer stack ends an evaluation in the layer's traceback"),
    dict(name="v425-validate-catches-every-valueerror", file=UPDATE,
         old='    if "NaN or infinite" not in str(e):\n        raise e\n',
         new='    if not str(e):\n        raise e\n',
         tests=NEW_TRAIN + OLD_LOOP,
         why="any error of an evaluation is reported as a diverged run, hiding the real one"),
    dict(name="v425-validate-diverged-as-an-update", file=UPDATE,
         old='trainer._diverged("recurrent activations of the validation", "NaN or infinite", evaluated=True)',
         new='trainer._diverged("recurrent activations of the validation", "NaN or infinite")',
         tests=NEW_TRAIN + OLD_LOOP,
         why="the evaluation's divergence is dated to the update after it ('update 3', not 'after update 2')"),
    dict(name="v425-stop-evaluation-unchecked", file=TRAIN,
         old='self.stop_eval = self.recorder.eval_row(self._finite(self._validate()), nb, "stop")',
         new='self.stop_eval = self.recorder.eval_row(self._validate(), nb, "stop")',
         tests=NEW_TRAIN + OLD_LOOP,
         why="a --max-steps stop saves NaN parameters as the run's checkpoint and reports 'validation loss nan'"),
    dict(name="v425-finite-lets-infinity-through", file=TRAIN,
         old='        if not math.isfinite(val["loss"]):\n            self._diverged("validation loss"',
         new='        if math.isnan(val["loss"]):\n            self._diverged("validation loss"',
         tests=NEW_TRAIN + OLD_LOOP,
         why="an infinite validation loss is recorded as a result"),
    dict(name="v425-checkpoint-finite-unchecked", file=CHECKPOINT,
         old='        if a.dtype.kind in "fc" and not np.all(np.isfinite(a)):',
         new='        if a.dtype.kind in "c" and not np.all(np.isfinite(a)):',
         tests=NEW_TRAIN + OLD_CHECKPOINT,
         why="a checkpoint of NaN parameters is evaluated into the layer's traceback and exported silently"),
    dict(name="v425-checkpoint-nan-only", file=CHECKPOINT,
         old='        if a.dtype.kind in "fc" and not np.all(np.isfinite(a)):',
         new='        if a.dtype.kind in "fc" and np.any(np.isnan(a)):',
         tests=NEW_TRAIN + OLD_CHECKPOINT,
         why="infinite parameters or optimizer slots load"),
    dict(name="v425-checkpoint-parameters-only", file=CHECKPOINT,
         old='        if a.dtype.kind in "fc" and not np.all(np.isfinite(a)):',
         new='        if k.startswith("param/") and not np.all(np.isfinite(a)):',
         tests=NEW_TRAIN + OLD_CHECKPOINT,
         why="NaN BatchNorm statistics or Adam slots load and poison the next evaluation or update"),
    dict(name="v425-checkpoint-first-array-only", file=CHECKPOINT,
         old="    for k, a in arrays.items():  # a run that diverges stops without saving",
         new="    for k, a in list(arrays.items())[:1]:  # a run that diverges stops without saving",
         tests=NEW_TRAIN + OLD_CHECKPOINT,
         why="only the first array is looked at"),
    dict(name="v425-resume-decay-unchecked", file="lnrnn/training/setup.py",
         old='    for key in ("lr", "lr_decay"):  # the schedule a resume continues from',
         new='    for key in ("lr",):  # the schedule a resume continues from',
         tests=NEW_TRAIN + OLD_RESUME,
         why="a saved train section without lr_decay is a KeyError: 'lr_decay' in the resume"),
    dict(name="v425-resume-rate-unchecked", file="lnrnn/training/setup.py",
         old='    for key in ("lr", "lr_decay"):  # the schedule a resume continues from',
         new='    for key in ("lr_decay",):  # the schedule a resume continues from',
         tests=NEW_TRAIN + OLD_RESUME,
         why="a saved train section without lr is a KeyError: 'lr' in the resume"),
    dict(name="v425-units-ratio-inverted", file=STROKES,
         old="            ratio = np.array([self.scale[0] / scale[0], self.scale[1] / scale[1]], np.float32)",
         new="            ratio = np.array([scale[0] / self.scale[0], scale[1] / self.scale[1]], np.float32)",
         tests=NEW_DATA + OLD_EVAL,
         why="other data are read at the square of the wrong size"),
    dict(name="v425-units-axes-swapped", file=STROKES,
         old="            ratio = np.array([self.scale[0] / scale[0], self.scale[1] / scale[1]], np.float32)",
         new="            ratio = np.array([self.scale[0] / scale[1], self.scale[1] / scale[0]], np.float32)",
         tests=NEW_DATA + OLD_EVAL,
         why="dx is divided by the run's dy scale and dy by its dx scale"),
    dict(name="v425-units-pen-scaled", file=STROKES,
         old="                s.points[:, :2] *= ratio                                  # (S, 2) offsets",
         new="                s.points[:, 1:] *= ratio                                  # (S, 2) offsets",
         tests=NEW_DATA + OLD_EVAL,
         why="the pen column is scaled and dx left in the split's units"),
    dict(name="v425-units-scale-not-recorded", file=STROKES,
         old='            self.scale = self.extra["offset_scale"] = scale',
         new='            self.extra["offset_scale"] = scale',
         tests=NEW_DATA + OLD_EVAL,
         why="the task keeps its own scale, and its head with it: the run is still refused on another split"),
    dict(name="v425-units-description-always", file=STROKES,
         old="        if scale != self.scale:\n            ratio",
         new="        if True:\n            ratio",
         tests=NEW_DATA + OLD_EVAL,
         why="every evaluation, even of the run's own data, says its offsets were converted"),
    dict(name="v425-alphabet-not-adopted", file=STROKES,
         old="        if alphabet is not None and self.alphabet is not None and alphabet != self.alphabet:",
         new="        if alphabet is not None and self.alphabet is None:",
         tests=NEW_DATA + OLD_EVAL,
         why="texts are encoded in the new split's alphabet: a writer reads the wrong characters silently"),
    dict(name="v425-eval-units-skipped", file=API,
         old='    if hasattr(task, "as_trained") and "scale" in m["head"]:',
         new='    if hasattr(task, "as_trained") and "scale" in m["head"] and "split" not in spec:',
         tests=NEW_DATA + OLD_EVAL,
         why="a run evaluated on another split is refused as another model"),
    dict(name="v425-eval-free-writer-alphabet", file=API,
         old="                    if run.model.conditioned else None)",
         new="                    if run.model.head.kind == \"mdn\" else None)",
         tests=NEW_DATA + OLD_EVAL,
         why="a free writer, which reads no text, is asked for a writer's alphabet"),
    dict(name="v425-plot-config-unchecked", file="lnrnn/commands/plot.py",
         old="            if not isinstance(c, dict):  # a damaged config.json: no title from it",
         new="            if c is None:  # a damaged config.json: no title from it",
         tests=NEW_DATA + OLD_PLOT,
         why="lnrnn plot of a run whose config.json is a list is an AttributeError"),
]
