"""Planted bugs, round 295 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the recurrent stacks (lnrnn/model/layers.py), the sequence model (lnrnn/model/models.py), the
training loop (lnrnn/training/train.py) and its stop rules (lnrnn/training/stopping.py): a BatchNorm skip stack's
chunk reading the statistics of steps 0.. instead of its absolute steps t0..; a bidirectional stack checking its
lengths against B steps and T rows; a bidirectional skip stack's bottom layer overwriting dx (the layers above
lose their share); a skip stack's layer backward without what the layer above sent through its h input; a
per-step model counting padded steps as scored; a validation loss that diverges at an epoch's end said to come
"in update N + 1" instead of "after update N"; the mid-epoch save skipped at the epoch's second-last update; the
divergence sentence naming the current update as the last good checkpoint; the blow-up sentence writing --lr
with repr instead of :g; the interruption sentence's resume hint without --resume.

10 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values295_layers_stacks (a two-layer BN skip stack in
evaluation run as chunks of 3 and 2 steps from the carried states against lnrnn/reference.py's bn_rnn_forward
composed by hand over all 5 steps with population statistics that differ at every step; a bidirectional stack
over T 5 and B 3 with lengths 5, 2, 4 against the reference composed row by row; the input gradients of a
bidirectional skip stack and of a three-layer skip stack scored on its top layer only, against central
differences in float64; a per-step classifier's count over lengths 4, 1, 3 against their sum, 8),
test_values295_train_stopping (a run whose parameters turn NaN after update 3, the last of epoch 1 of NB = 3 with
--save-every 1: its sentence word for word, "after update 3" and the checkpoint of update 2; the divergence,
blow-up and interruption sentences of a stand-in run that saved at update 4, with --lr 1 written "1").
Left out as equivalent: StopPolicy.reason's "reached --max-steps {cfg.max_steps}" naming t.step (it fires at
step == max_steps exactly: a resume past the limit stops in nothing_left first); RecurrentStack.backward's
on_device or k > 0 made on_device (on the CPU to_host is the identity); the bidirectional forward's
range(0, len(layers), 2) made range(0, len(layers) - 1, 2) (the layer count is even, the same pairs). Left out for
the time a cheap test allows: a training chunk's BatchNorm rows (_buffer_rows' `if training`) and the inference
chunks' per-step targets (they need B * T past config.INFER_CHUNK_ROWS).

    python tests/mutants/run.py --only 'v295-*'
"""
LAYERS = "lnrnn/model/layers.py"
MODELS = "lnrnn/model/models.py"
TRAIN = "lnrnn/training/train.py"
STOP = "lnrnn/training/stopping.py"

T_STACKS = "tests/model/test_values295_layers_stacks.py::"
T_STOP = "tests/training/test_values295_train_stopping.py::"
OLD_STACKS = ["tests/model/test_values257_layers_stacks.py", "tests/model/test_values242_layers_stacks.py",
              "tests/model/test_layers_models_bidirectional.py", "tests/model/test_models.py"]
OLD_STOP = ["tests/training/test_values209_stopping.py", "tests/training/test_values227_stopping.py",
            "tests/training/test_values_train_policies.py", "tests/training/test_values202_train_run.py"]

MUTANTS = [
    # ---- the recurrent stacks: lnrnn/model/layers.py ----
    dict(name="v295-layers-skip-chunk-reads-step-zero-statistics", file=LAYERS,
         old="on_device=dev, lengths=lengths,\n                                 t0=t0, keep=keep)",
         new="on_device=dev, lengths=lengths,\n                                 t0=0, keep=keep)",
         tests=[T_STACKS + "test_a_bn_skip_stack_in_two_chunks_reads_the_statistics_of_its_absolute_steps"]
         + OLD_STACKS,
         why="a skip stack's chunk from a carried state normalizes with the BatchNorm statistics of steps 0.., "
             "not of its absolute steps t0.."),
    dict(name="v295-layers-bidirectional-lengths-against-rows", file=LAYERS,
         old="lengths = check_lengths(lengths, x.shape[0], x.shape[1])",
         new="lengths = check_lengths(lengths, x.shape[1], x.shape[0])",
         tests=[T_STACKS + "test_a_bidirectional_stack_over_more_steps_than_rows"] + OLD_STACKS,
         why="a bidirectional stack checks its lengths against B steps and T rows: ragged rows longer than B are "
             "refused, all-T lengths are not recognised as the unmasked path"),
    dict(name="v295-layers-bidirectional-skip-bottom-overwrites-dx", file=LAYERS,
         old="dstate += [dsb, dsf]\n            if self.skip:",
         new="dstate += [dsb, dsf]\n            if self.skip and k > 0:",
         tests=[T_STACKS + "test_a_bidirectional_skip_stacks_input_gradient_collects_every_layer"] + OLD_STACKS,
         why="a bidirectional skip stack's bottom layer sets dx to its own input gradient: the x columns of the "
             "layers above are lost"),
    dict(name="v295-layers-skip-backward-drops-the-layer-above", file=LAYERS,
         old="d_in, ds = self.layers[k].backward(dyk)",
         new="d_in, ds = self.layers[k].backward(np.ascontiguousarray(dy[:, :, k * H:(k + 1) * H]))",
         tests=[T_STACKS + "test_a_three_layer_skip_stacks_input_gradient_through_the_layers_above"] + OLD_STACKS,
         why="a skip stack's layer runs its backward on its own columns of dy only, without what the layer above "
             "sent back through its h input"),
    # ---- the sequence model: lnrnn/model/models.py ----
    dict(name="v295-models-count-ignores-lengths", file=MODELS,
         old="self.last_count = self.head.count(targets, valid_all)   # scored units of this batch",
         new="self.last_count = self.head.count(targets, np.ones_like(valid_all))   # scored units of this batch",
         tests=[T_STACKS + "test_a_per_step_classifiers_count_is_its_valid_steps"] + OLD_STACKS,
         why="a per-step model counts padded steps as scored: the loss is divided by T * B, not the valid steps"),
    # ---- the training loop: lnrnn/training/train.py ----
    dict(name="v295-train-epoch-end-divergence-not-evaluated", file=TRAIN,
         old='            self._diverged("validation loss", val["loss"], evaluated=True)\n        return val',
         new='            self._diverged("validation loss", val["loss"], evaluated=False)\n        return val',
         tests=[T_STOP + "test_a_validation_loss_that_diverges_at_the_epochs_end_names_the_evaluation_and_the_last_save"]
         + OLD_STOP,
         why="a validation loss that diverges at an epoch's end is said to come in update N + 1, not after update N"),
    dict(name="v295-train-save-skipped-at-second-last-update", file=TRAIN,
         old="elif self.batch_in_epoch < nb and self.recorder.save_due():",
         new="elif self.batch_in_epoch < nb - 1 and self.recorder.save_due():",
         tests=[T_STOP + "test_a_validation_loss_that_diverges_at_the_epochs_end_names_the_evaluation_and_the_last_save"]
         + OLD_STOP,
         why="the periodic save is skipped after the epoch's second-last update: a divergence at the epoch's end "
             "keeps an older checkpoint"),
    # ---- the stop rules: lnrnn/training/stopping.py ----
    dict(name="v295-stopping-divergence-names-current-update", file=STOP,
         old='f"the last good checkpoint (update {t.saved_step}) is kept in {t.cfg.out}; {hint}.")',
         new='f"the last good checkpoint (update {t.step}) is kept in {t.cfg.out}; {hint}.")',
         tests=[T_STOP + "test_a_training_loss_that_diverges_names_the_update_and_the_last_save"] + OLD_STOP,
         why="the divergence sentence names the update reached, not the last checkpoint's, as the one kept"),
    dict(name="v295-stopping-blowup-lr-repr", file=STOP,
         old='f"in {t.cfg.out}; start again with a lower --lr than {t.cfg.lr:g}.")',
         new='f"in {t.cfg.out}; start again with a lower --lr than {t.cfg.lr}.")',
         tests=[T_STOP + "test_the_blow_up_sentence_writes_the_learning_rate_as_g"] + OLD_STOP,
         why="the blow-up sentence writes --lr 1 as 1.0"),
    dict(name="v295-stopping-interruption-hint-without-resume", file=STOP,
         old='f"reached is saved in {out}; continue with `lnrnn train --out {out} --resume`"',
         new='f"reached is saved in {out}; continue with `lnrnn train --out {out}`"',
         tests=[T_STOP + "test_the_interruption_sentence_points_to_a_resume"] + OLD_STOP,
         why="the interruption sentence's hint leaves out --resume: the command it gives refuses the folder"),
]
