"""Planted bugs, round 278 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the update rules (lnrnn/kernels/optim.py), the optimizers (lnrnn/training/optim.py) and fine-tuning
(lnrnn/training/finetune.py): SGD with momentum keeping its velocity but stepping along the raw gradient; RMSProp
decaying a copy of its second moment (the slot stays zero); RMSProp with momentum adding g instead of g^2 to its
second moment; its centred mean accumulating g^2; its velocity decayed by alpha instead of the momentum; its
velocity subtracted from the parameters; Adam's eps not bias-corrected; Adam's second moment mixed with 1 - beta1;
the clipping kernel scaling a copy of the gradient (the caller's left unclipped); a flat state that does not fit its
layout refused listing the saved names instead of the ones that differ; a source of another layer count refused
naming --num-layers, an option that does not exist; a source differing only in its head's tolerance (a metric
setting) refused; the init record naming the model config's bare cell ('lstm') instead of the run's --cell; a
shape refusal's way out naming --resume instead of --init-from.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values278_optim (SGD with momentum 0.5, RMSProp with eps
0.01, RMSProp with momentum centred and not with alpha 0.95 and momentum 0.9, Adam with eps 0.1 and gradients of a
hundredth: every slot through state_dict and the parameters after updates 1, 2 and 3 against the rules written out
element by element in float64 Python arithmetic, Adam against Kingma & Ba's Algorithm 1 with explicit bias
corrections; a flat state with names a, b, x against a layout a, b, c refused naming ['c', 'x'], and seven odd names
cut to the first five sorted), test_values278_optim_rules (the clipping kernel on a 3-4-12 gradient, norm 13 by hand,
at the bound 13 left alone and at 12.999 scaled in the caller's array by 12.999 / (13 + 1e-6), in float64 and
float32; Adam's folded step size and eps at updates 1, 2, 3 against lr sqrt(1 - beta2^k) / (1 - beta1^k) and
eps sqrt(1 - beta2^k)), test_values278_finetune (a 2-layer source into a 1-layer model refused word for word with
nothing loaded; a BN-LSTM regression source of tolerance 0.04 loaded into a model of tolerance 0.5, every parameter
and running statistic compared array by array; Source.record and describe_record written out by hand, best and
not). Left out as equivalent: clip_scale's trailing `return None` made `return 1.0` (scaling by one changes
nothing); `if momentum:` made `if momentum > 0` (momenta are never negative); int(config.get("window") or 0) made
`or 1` (None and 0 map to one value either way); the flat-array check's `params.ndim != 1` made `> 1` (a 0-d
parameter array is never built). Left out as a crash rather than a value: `if avg is not None` inverted and the
flat step's `return` dropped (both raise at once). Left out of lnrnn/training/update.py: its unmutated lines are the
device update (needs CUDA, or the simulator's slow whole-model run) and the distributed and prewarm plumbing, whose
slips hang an MPI group or change only compile timing, nothing a cheap value test can read. Weight decay: the
optimizers have none. The learning-rate schedule's formulas (decayed_lr, scheduled_lr, schedule_change) and the
clipping condition itself are mutated by earlier rounds.

    python tests/mutants/run.py --only 'v278-*'
"""
RULES = "lnrnn/kernels/optim.py"
OPTIM = "lnrnn/training/optim.py"
FINETUNE = "lnrnn/training/finetune.py"

T_OPTIM = "tests/training/test_values278_optim.py::"
T_RULES = "tests/kernels/test_values278_optim_rules.py::"
T_FINETUNE = "tests/training/test_values278_finetune.py::"
OLD_OPTIM = ["tests/training/test_optim.py", "tests/training/test_values248_optim.py",
             "tests/training/test_values266_optim.py"]
OLD_RULES = ["tests/kernels/test_values159_optim_cuda.py"] + OLD_OPTIM
OLD_FINETUNE = ["tests/training/test_finetune.py", "tests/training/test_values248_evaluation_finetune.py",
                "tests/training/test_values14_finetune.py"]

MUTANTS = [
    # ---- the update rules: lnrnn/kernels/optim.py ----
    dict(name="v278-rules-sgd-steps-along-raw-gradient", file=RULES,
         old="        v += g\n        g = v\n",
         new="        v += g\n        v = g\n",
         tests=[T_OPTIM + "test_sgd_momentum_half_velocity_moves_the_parameters_over_three_updates"] + OLD_RULES,
         why="SGD with momentum keeps its velocity but moves the parameters along the raw gradient (from update 2)"),
    dict(name="v278-rules-rmsprop-decays-a-copy", file=RULES,
         old="def rmsprop_update(p, sq, g, lr, alpha, eps):\n    t = p.dtype.type\n    sq *= t(alpha)\n",
         new="def rmsprop_update(p, sq, g, lr, alpha, eps):\n    t = p.dtype.type\n    sq = sq * t(alpha)\n",
         tests=[T_OPTIM + "test_rmsprop_second_moment_kept_in_its_slot_over_three_updates"] + OLD_RULES,
         why="RMSProp's second moment is decayed into a new array: the slot stays zero, every update is update 1's"),
    dict(name="v278-rules-rmsprop-momentum-sq-adds-g", file=RULES,
         old="    sq += t(1 - alpha) * g * g\n    denom = sq + t(eps)",
         new="    sq += t(1 - alpha) * g\n    denom = sq + t(eps)",
         tests=[T_OPTIM + "test_rmsprop_momentum_slots_over_three_updates_from_graves_equations"] + OLD_RULES,
         why="RMSProp with momentum adds (1 - alpha) g, not g^2, to its second moment"),
    dict(name="v278-rules-centred-mean-of-squares", file=RULES,
         old="        avg += t(1 - alpha) * g\n",
         new="        avg += t(1 - alpha) * g * g\n",
         tests=[T_OPTIM + "test_rmsprop_momentum_slots_over_three_updates_from_graves_equations"] + OLD_RULES,
         why="the centred running mean accumulates g^2 (a second copy of the second moment), not g"),
    dict(name="v278-rules-velocity-decayed-by-alpha", file=RULES,
         old="    v *= t(momentum)\n    v -= t(lr)",
         new="    v *= t(alpha)\n    v -= t(lr)",
         tests=[T_OPTIM + "test_rmsprop_momentum_slots_over_three_updates_from_graves_equations"] + OLD_RULES,
         why="RMSProp with momentum decays its velocity by alpha instead of the momentum (Graves: 0.95 for 0.9)"),
    dict(name="v278-rules-velocity-subtracted", file=RULES,
         old="    p += v\n",
         new="    p -= v\n",
         tests=[T_OPTIM + "test_rmsprop_momentum_slots_over_three_updates_from_graves_equations"] + OLD_RULES,
         why="RMSProp with momentum subtracts its velocity (already -lr g / ...): the parameters climb the loss"),
    dict(name="v278-rules-adam-eps-not-corrected", file=RULES,
         old="    return step, eps_hat\n",
         new="    return step, eps\n",
         tests=[T_RULES + "test_adam_step_size_and_eps_of_update_k",
                T_OPTIM + "test_adam_bias_corrections_at_updates_1_2_3_with_a_large_eps"] + OLD_RULES,
         why="Adam's eps is added to the raw sqrt(v), not the bias-corrected one: too large a damping early on"),
    dict(name="v278-rules-adam-v-mixed-with-beta1", file=RULES,
         old="    v += t(1 - beta2) * g * g\n",
         new="    v += t(1 - beta1) * g * g\n",
         tests=[T_OPTIM + "test_adam_bias_corrections_at_updates_1_2_3_with_a_large_eps"] + OLD_RULES,
         why="Adam's second moment takes (1 - beta1) g^2: a hundred times the weight of the new square"),
    dict(name="v278-rules-clip-scales-a-copy", file=RULES,
         old="        g *= g.dtype.type(scale)\n",
         new="        g = g * g.dtype.type(scale)\n",
         tests=[T_RULES + "test_clip_kernel_at_and_just_past_its_bound"] + OLD_RULES,
         why="the clipping kernel scales a new array: the caller's gradient past the bound is left unclipped"),
    # ---- the optimizers: lnrnn/training/optim.py ----
    dict(name="v278-optim-misfit-lists-saved-names", file=OPTIM,
         old="{sorted(missing)[:5]}",
         new="{sorted(d)[:5]}",
         tests=[T_OPTIM + "test_a_flat_state_whose_names_do_not_fit_is_refused_naming_the_odd_ones"] + OLD_OPTIM,
         why="a state that does not fit the layout is refused listing the saved names, not the ones that differ"),
    # ---- fine-tuning: lnrnn/training/finetune.py ----
    dict(name="v278-finetune-layers-option-misnamed", file=FINETUNE,
         old='"num_layers": "--layers",',
         new='"num_layers": "--num-layers",',
         tests=[T_FINETUNE + "test_another_layer_count_refused_word_for_word"] + OLD_FINETUNE,
         why="a source of another layer count is refused telling the user to give --num-layers, no such option"),
    dict(name="v278-finetune-head-compared-with-tolerance", file=FINETUNE,
         old='    return {**{k: config.get(k) for k in MODEL_KEYS}, "head": head,',
         new='    return {**{k: config.get(k) for k in MODEL_KEYS}, "head": config["head"],',
         tests=[T_FINETUNE + "test_a_source_differing_only_in_tolerance_loads_every_array"] + OLD_FINETUNE,
         why="the heads are compared with their tolerance: a source differing only in a metric setting is refused"),
    dict(name="v278-finetune-record-cell-from-model", file=FINETUNE,
         old='"cell": (m.get("train") or {}).get("cell")',
         new='"cell": (m.get("model") or {}).get("cell")',
         tests=[T_FINETUNE + "test_the_record_names_the_runs_cell_and_task"] + OLD_FINETUNE,
         why="the new run's init record names the model config's bare cell ('lstm'), not the run's --cell"),
    dict(name="v278-finetune-way-out-names-resume", file=FINETUNE,
         old='or start without --init-from.")',
         new='or start without --resume.")',
         tests=[T_FINETUNE + "test_another_layer_count_refused_word_for_word"] + OLD_FINETUNE,
         why="a shape refusal offers starting without --resume as its way out, an option the run was not given"),
]
