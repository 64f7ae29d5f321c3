"""Planted bugs, round 248 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the optimizers and clipping (lnrnn/training/optim.py), models rebuilt from checkpoints and the
metric line (lnrnn/training/evaluation.py), the run configuration (lnrnn/training/runconfig.py) and runs
started from another run's parameters (lnrnn/training/finetune.py): the global gradient norm summed from 1
instead of 0, so clipping fires at the limit; SGD's momentum argument dropped for 0.9; rmsprop-momentum always
centred; another optimizer's saved state refused with the two kinds swapped; an unknown optimizer named
without quotes; split_arrays keeping the 'param/' prefix on the model's names; a rebuilt model drawing its
state noise from seed 0 instead of the run's; the metric line sorted by name; an unknown --config key quoted
in its underscore form; the default of 20 epochs made 10; a source of another head not compared (a wrong key
in MODEL_KEYS); pretrained:NAME refused as nothing there; a checkpoint of parameters without buffers refused as
holding no parameters; a schedule change's rates and decays swapped in its description.

14 mutants. Against the old targeted files alone (the OLD_* lists): 5 caught (the norm summed from 1,
rmsprop-momentum centred, the metric line sorted, parameters counted as buffers, the schedule change's rates and
decays swapped); missed were SGD's momentum, both optimizer refusals, split_arrays' prefixes, the rebuilt model's
seed, the unknown key's quote, the default of 10 epochs, the misspelt heads key and pretrained:NAME unresolved. The
old targeted files are test_optim, test_values210_optim (optimizers), test_values218_evaluation (evaluation),
test_values209_runconfig (config files) and test_finetune, test_values180_setup_finetune (fine-tuning). The new
value tests catch every mutant on their own (checked with the old files taken off the lists): test_values248_optim
(the global norm of a 3-4 dict is 5, clipping at 5 and 5.001 leaving the gradients alone and at 4.999 scaling them
by 4.999 / (5 + CLIP_EPS); SGD with momentum 0.5 over two steps by hand; rmsprop-momentum not centred and Adam's
bias correction at updates 1 and 2 from their published formulas written out in the test; refusals word for word),
test_values248_evaluation_finetune (a checkpoint's arrays split by prefix into names written out; a rebuilt model's
noise seed 7 from the run's train record, 0 without one; the docstring's 'loss 0.4123 acc 87.20%'; a source with 10
classes refused for a model of 3 naming the task's head, and one of the same shape loaded; pretrained:hershey's
record against its shipped checkpoint.json; parameters without buffers taken and buffers alone refused word for
word; the docstring's two schedule changes word for word; an unknown key 'batch-sise' quoted as written; the
README's default of 20 epochs read back from the command's defaults and config.json).

Left out as equivalent: clip_grad_norm's 'if scale is not None' made 'if scale' (clip_scale never returns 0:
it needs max_norm > 0); apply_config_file's command-line check without ParameterSource.ENVIRONMENT (no option
of lnrnn train reads an environment variable); evaluate's 'group.size > 1' made '>= 1' (distributed.evaluate
over one rank gives the same figures); read_config_file's 'if ext == ".json"' made 'ext != ".toml"' (the
extension is one of the two by then); the record's task read from the train record instead of the task record
(both name the same task). Left out as not observable by a user: finetune's MODEL_KEYS entries for --cell,
--hidden, --layers, --bidirectional and --dtype (check_settings refuses those settings first, from the train
record). Left out for the device: lnrnn/training/update.py's unmutated lines are the DeviceUpdate's (a CUDA
device) or bookkeeping whose slips do not change a result (the host path's clipping, loss checks and step are
mutated by earlier rounds). The learning-rate decay itself (decayed_lr, scheduled_lr, schedule_change) and
the optimizer's step counting are mutated by earlier rounds.

    python tests/mutants/run.py --only 'v248-*'
"""
OPTIM = "lnrnn/training/optim.py"
EVAL = "lnrnn/training/evaluation.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
FINETUNE = "lnrnn/training/finetune.py"

T_OPTIM = "tests/training/test_values248_optim.py::"
T_EF = "tests/training/test_values248_evaluation_finetune.py::"
OLD_OPTIM = ["tests/training/test_optim.py", "tests/training/test_values210_optim.py"]
OLD_EVAL = ["tests/training/test_values218_evaluation.py"]
OLD_RUNCONFIG = ["tests/training/test_values209_runconfig.py"]
OLD_FINETUNE = ["tests/training/test_finetune.py", "tests/training/test_values180_setup_finetune.py"]

MUTANTS = [
    # ---- optimizers and clipping: lnrnn/training/optim.py ----
    dict(name="v248-optim-norm-summed-from-one", file=OPTIM,
         old="    total = 0.0\n",
         new="    total = 1.0\n",
         tests=[T_OPTIM + "test_global_norm_of_a_three_four_dict_is_five",
                T_OPTIM + "test_clipping_fires_only_strictly_above_the_limit"] + OLD_OPTIM,
         why="the global norm is sqrt(1 + sum of squares): a gradient at the limit is clipped, the logged norm "
             "is too large"),
    dict(name="v248-optim-sgd-momentum-not-passed", file=OPTIM,
         old="super().__init__(lr, momentum=float(momentum))",
         new="super().__init__(lr, momentum=0.9)",
         tests=[T_OPTIM + "test_sgd_momentum_half_two_steps_by_hand"] + OLD_OPTIM,
         why="SGD ignores its momentum argument: always 0.9 (momentum 0 is not plain SGD)"),
    dict(name="v248-optim-rmsprop-momentum-always-centred", file=OPTIM,
         old="centred=float(bool(centred)))",
         new="centred=1.0)",
         tests=[T_OPTIM + "test_rmsprop_momentum_not_centred_two_steps_from_the_formula"] + OLD_OPTIM,
         why="rmsprop-momentum (not centred, Cooijmans et al.) subtracts the running mean's square like Graves's"),
    dict(name="v248-optim-load-refusal-kinds-swapped", file=OPTIM,
         old="for {state.get('kind')}, not {self.kind}.",
         new="for {self.kind}, not {state.get('kind')}.",
         tests=[T_OPTIM + "test_another_optimizers_state_refused_word_for_word"] + OLD_OPTIM,
         why="another optimizer's saved state is refused naming this optimizer as the saved one"),
    dict(name="v248-optim-unknown-kind-unquoted", file=OPTIM,
         old='f"unknown optimizer {kind!r}',
         new='f"unknown optimizer {kind}',
         tests=[T_OPTIM + "test_unknown_optimizer_refused_word_for_word"] + OLD_OPTIM,
         why="an unknown optimizer's name is not quoted in its refusal"),
    # ---- evaluation and rebuilt models: lnrnn/training/evaluation.py ----
    dict(name="v248-eval-split-keeps-prefix", file=EVAL,
         old="            model[name] = v",
         new="            model[k] = v",
         tests=[T_EF + "test_split_arrays_by_prefix",
                T_EF + "test_a_rebuilt_model_draws_its_noise_from_the_runs_seed"] + OLD_EVAL,
         why="the model's arrays keep their 'param/' and 'buffer/' prefixes: no checkpoint loads into a model"),
    dict(name="v248-eval-rebuilt-with-seed-zero", file=EVAL,
         old="seed=seed, device=device)",
         new="seed=0, device=device)",
         tests=[T_EF + "test_a_rebuilt_model_draws_its_noise_from_the_runs_seed"] + OLD_EVAL,
         why="a rebuilt model draws its evaluation noise from seed 0, not the run's: lnrnn eval differs from "
             "the figures the run logged"),
    dict(name="v248-eval-metric-line-sorted", file=EVAL,
         old="    for m, v in means.items():",
         new="    for m, v in sorted(means.items()):",
         tests=[T_EF + "test_metrics_line_in_the_heads_order"] + OLD_EVAL,
         why="the metric line is sorted by name ('acc ... loss ...') instead of the head's order"),
    # ---- the run configuration: lnrnn/training/runconfig.py ----
    dict(name="v248-runconfig-unknown-key-underscored", file=RUNCONFIG,
         old="unknown key {key!r}",
         new="unknown key {name!r}",
         tests=[T_EF + "test_an_unknown_config_key_is_quoted_as_written"] + OLD_RUNCONFIG,
         why="an unknown --config key is quoted with underscores for dashes, not as the file wrote it"),
    dict(name="v248-runconfig-default-epochs-ten", file=RUNCONFIG,
         old="    epochs: int = 20 ",
         new="    epochs: int = 10 ",
         tests=[T_EF + "test_the_readmes_default_of_twenty_epochs_read_back"] + OLD_RUNCONFIG,
         why="lnrnn train's default is 10 epochs, not the documented 20"),
    # ---- runs started from another run: lnrnn/training/finetune.py ----
    dict(name="v248-finetune-head-key-misspelt", file=FINETUNE,
         old='              "head": "the task\'s head',
         new='              "heads": "the task\'s head',
         tests=[T_EF + "test_a_model_with_another_head_is_refused_naming_the_tasks_head"] + OLD_FINETUNE,
         why="a source with another head is not compared: the refusal naming the task's head becomes an arrays "
             "mismatch (or a head of the same size loads silently)"),
    dict(name="v248-finetune-pretrained-path-not-resolved", file=FINETUNE,
         old="    if not os.path.exists(where):",
         new="    if not os.path.exists(path):",
         tests=[T_EF + "test_a_pretrained_run_is_a_source"] + OLD_FINETUNE,
         why="--init-from pretrained:NAME is refused as nothing there: the unresolved name is looked for"),
    dict(name="v248-finetune-parameters-counted-as-buffers", file=FINETUNE,
         old='if not any(k.startswith("param/") for k in arrays):',
         new='if not any(k.startswith("buffer/") for k in arrays):',
         tests=[T_EF + "test_parameters_without_buffers_are_a_source_and_buffers_alone_are_not",
                T_EF + "test_a_pretrained_run_is_a_source"] + OLD_FINETUNE,
         why="a checkpoint without BatchNorm buffers is refused as holding no parameters, one of buffers only taken"),
    dict(name="v248-finetune-change-rates-and-decays-swapped", file=FINETUNE,
         old='(a, b), (da, db) = change["lr"], change["lr_decay"]',
         new='(a, b), (da, db) = change["lr_decay"], change["lr"]',
         tests=[T_EF + "test_schedule_changes_described_as_the_docstring_says"] + OLD_FINETUNE,
         why="a schedule change is logged with the decays as the rates and the rates as the decays"),
]
