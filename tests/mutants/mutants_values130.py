"""Planted bugs, round 130 (format: tests/mutants/mutants.py): single-line slips in evaluation, the training plan's
checks, the optimizers and the host update, a fifth pass on lines no earlier round mutates: the ranks' batch list of
evaluate stopping at the last whole batch, a checkpoint's optimizer slot split at its last '/'; clip_grad_norm
scaling only a dict's first array, Adam's m and v slots swapped, plain SGD keeping a momentum slot, an empty slot
failing the layout check on load, host slots allocated in float64, the dict form counting a step per array,
--optimizer rmsprop-graves building the uncentred momentum RMSProp, state_dict handing out the live slots; --layers
0, --block-rows 0 and --clip-output 0 let through; the host update swallowing a ValueError that is no NaN report.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed: an empty slot failing the layout
check on load (no old test resumes the state of SGD at momentum 0 or of an uncentred RMSProp through a layout), host
slots in float64 (no old test looks at the slots' dtype) and --clip-output 0 let through (no old test passes 0 to the
plan). The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values130_optim (SGD with and without momentum, RMSProp, the centred Graves form and the uncentred one, Adam
with bias-corrected m and v, each written here in float64 NumPy, over six updates in two epochs with the gradient
clipped by its global norm over every array and the rate decayed per epoch; the dict form of three arrays and the
flat form in float64 and float32, float32 keeping float32 slots; the saved slots equal to the rule's quantities under
the rule's names; each kind's defaults from make_optimizer; a state taken unchanged by later steps; no unused slot at
momentum 0 or uncentred; a flat state saved through save_checkpoint and load_checkpoint, taken apart by split_arrays
and loaded with the layout making the same next updates as the uninterrupted run, for every optimizer),
test_values130_evaluation (evaluate on ragged rows of 7 and 5 with batch sizes 2 and 3, a partial last batch, against
each row run alone at its own length, mean over steps or over rows; two coroutine ranks and a group of one giving
those figures; slot names holding '/'), test_values130_plan (--layers and --block-rows at 0 and -2 refused naming the
option, 1 kept; --clip-output 0, -1, inf and NaN refused, 1e-3 kept) and test_values130_update (a stand-in trainer
and model: the flat gradient clipped by its norm over every parameter computed here and stepped by p - lr g, under
and over the clip and with the clip off; a shape ValueError reaching the caller as it was, parameters untouched; NaN
reports named by where they came from, and a NaN batch the data's fault naming batch 5 of epoch 2). The four files
run in about 2 s on one core once the evaluation's kernels are compiled.

Dropped as equivalent: the slot's own name split at its last '/' in split_arrays for names without a '/'
beyond the slot (the same split), RMSPropMomentum's centred flag stored as float(centred) instead of
float(bool(centred)) (the options are booleans, 1.0 and 0.0 either way), state_dict's slot views left uncopied
after layout.split (they are views of a host copy already). Left out: DeviceUpdate's lines (they need a CUDA
device and its tests skip without one) and the plan's numbers of updates per epoch, --eval-every and
--save-every (they are counted in the trainer, lnrnn/training/train.py, not in these modules).

The old lists were measured with the baseline run (old tests pass unmutated); the new lists with --no-baseline
after the four new files passed unmutated.

    python tests/mutants/run.py --only 'v130-*'
"""
EVAL = "lnrnn/training/evaluation.py"
PLAN = "lnrnn/training/plan.py"
OPTIM = "lnrnn/training/optim.py"
UPDATE = "lnrnn/training/update.py"

# existing tests of these modules
EVAL_OLD = ["tests/training/test_values_eval.py", "tests/training/test_values_evaluation.py",
            "tests/training/test_values10_evaluation.py", "tests/training/test_values15_evaluation.py",
            "tests/training/test_values21_evaluation.py", "tests/training/test_values64_evaluation.py",
            "tests/training/test_values112_plan_eval.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py", "tests/training/test_values21_plan.py",
            "tests/training/test_values36_plan.py", "tests/training/test_values54_plan.py",
            "tests/training/test_values80_plan.py", "tests/training/test_values112_plan_eval.py",
            "tests/commands/test_values39_bad_values.py", "tests/commands/test_values125_train_options.py"]
OPTIM_OLD = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
             "tests/training/test_values9_optim.py",
             "tests/training/test_values13_optim.py", "tests/training/test_values19_optim.py",
             "tests/training/test_values36_optim.py", "tests/training/test_values64_optim.py",
             "tests/training/test_values95_optim.py", "tests/training/test_values118_optim.py",
             "tests/training/test_schedule.py"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values33_update.py",
              "tests/training/test_values43_update.py", "tests/training/test_values58_host_update.py",
              "tests/training/test_values64_update.py", "tests/training/test_values95_update.py",
              "tests/training/test_values114_update.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
EVAL_NEW = ["tests/training/test_values130_evaluation.py"]
PLAN_NEW = ["tests/training/test_values130_plan.py"]
OPTIM_NEW = ["tests/training/test_values130_optim.py"]
UPDATE_NEW = ["tests/training/test_values130_update.py"]

MUTANTS = [
    # ---- evaluation: a group's batches, a checkpoint's optimizer slots ----
    dict(name="v130-eval-group-drops-partial-last-batch", file=EVAL,
         old="            for s in range(0, n, batch_size)])",
         new="            for s in range(0, n - batch_size + 1, batch_size)])",
         tests=EVAL_NEW + EVAL_OLD,
         why="the ranks' batch list stops at the last whole batch: the rows of a partial last batch are never scored"),
    dict(name="v130-eval-optim-slot-split-at-last-slash", file=EVAL,
         old='            slot, _, pname = name.partition("/")',
         new='            slot, _, pname = name.rpartition("/")',
         tests=EVAL_NEW + EVAL_OLD,
         why="a slot's parameter name holding '/' (layer0/b) is split at its last slash: slot 'm/layer0', name 'b'"),
    # ---- optimizers: clipping over every array, slots, step counts, state ----
    dict(name="v130-optim-clip-scales-first-array-only", file=OPTIM,
         old="        for g in _arrays(grads):\n            g *=",
         new="        for g in _arrays(grads)[:1]:\n            g *=",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="clip_grad_norm on a dict scales only its first array: the others keep their size, the norm is not "
             "max_norm"),
    dict(name="v130-optim-adam-m-and-v-slots-swapped", file=OPTIM,
         old='rules(p).adam_update(p, self._slot("m", name, p), self._slot("v", name, p), g,',
         new='rules(p).adam_update(p, self._slot("v", name, p), self._slot("m", name, p), g,',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="Adam keeps its first moment under 'v' and its second under 'm': the saved state is mislabelled"),
    dict(name="v130-optim-sgd-keeps-a-slot-at-momentum-0", file=OPTIM,
         old='self._slot("momentum", name, p) if mu else None, g,',
         new='self._slot("momentum", name, p), g,',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="plain SGD (momentum 0) allocates and saves a momentum slot of zeros it never uses (slots_kept says 0)"),
    dict(name="v130-optim-load-checks-empty-slots", file=OPTIM,
         old="                if d:\n",
         new="                if d is not None:\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="an empty slot (SGD at momentum 0, an uncentred RMSProp's avg) fails the layout check on load: "
             "its own state cannot be resumed"),
    dict(name="v130-optim-slot-zeros-in-float64", file=OPTIM,
         old="                buf = self.slots[slot][name] = np.zeros_like(like)",
         new="                buf = self.slots[slot][name] = np.zeros(like.shape)",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="host slots are float64 whatever the parameters' dtype: float32 runs keep and save float64 state"),
    dict(name="v130-optim-dict-step-counted-per-array", file=OPTIM,
         old="        self.step_count += 1\n        for name, p in params.items():\n",
         new="        for name, p in params.items():\n            self.step_count += 1\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the dict form counts one step per array: Adam's bias correction of each array uses the wrong k"),
    dict(name="v130-optim-graves-name-builds-momentum-rmsprop", file=OPTIM,
         old='              "rmsprop-graves": GravesRMSProp, "sgd": SGD}',
         new='              "rmsprop-graves": MomentumRMSProp, "sgd": SGD}',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="--optimizer rmsprop-graves builds the uncentred momentum RMSProp with its own defaults"),
    dict(name="v130-optim-state-dict-aliases-live-slots", file=OPTIM,
         old="    return a.copy_to_host() if _on_device(a) else a.copy()",
         new="    return a.copy_to_host() if _on_device(a) else a",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="state_dict hands out the live host slots of the dict form: later steps rewrite a state already taken"),
    # ---- the plan's checks ----
    dict(name="v130-plan-layers-zero-let-through", file=PLAN,
         old="(cfg.layers >= 1, ",
         new="(cfg.layers >= 0, ",
         tests=PLAN_NEW + PLAN_OLD,
         why="--layers 0 passes validation and fails later inside the model"),
    dict(name="v130-plan-block-rows-zero-let-through", file=PLAN,
         old="(cfg.block_rows >= 1, ",
         new="(cfg.block_rows >= 0, ",
         tests=PLAN_NEW + PLAN_OLD,
         why="--block-rows 0 passes validation"),
    dict(name="v130-plan-clip-output-zero-let-through", file=PLAN,
         old="(cfg.clip_output > 0 and math.isfinite(cfg.clip_output))",
         new="(cfg.clip_output >= 0 and math.isfinite(cfg.clip_output))",
         tests=PLAN_NEW + PLAN_OLD,
         why="--clip-output 0 passes validation and is then read as off (a falsy clip) without a word"),
    # ---- the host update ----
    dict(name="v130-update-other-value-error-swallowed", file=UPDATE,
         old="        raise e\n",
         new="        return\n",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="a ValueError that is no NaN report (a shape mismatch) is dropped: the update goes on with no sums"),
]
