"""Planted bugs, round 370 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the optimizers (lnrnn/training/optim.py), checkpoints (lnrnn/training/checkpoint.py), the distributed
path (lnrnn/training/distributed.py) and the train loop (lnrnn/training/train.py), nineteenth pass: a dict of
gradients' norm (and so its clipping) leaving out the first array; every dict of parameters taken for a device
array, so an optimizer refuses it; a state saved with a layout keeping its flat slots unnamed (and shared with
the optimizer); RMSProp counting and saving an 'avg' slot it never keeps; the arrays file hashed with SHA-1 under
the name arrays_sha256; the description written from the caller's meta without format, version or the arrays'
listing; a save whose folder cannot be made escaping as a bare OSError; --keep's copies written into DIR/best/;
Ctrl-C on a rank of a group reported as a traceback with exit code 1 (and SystemExit as an interruption);
a shard's text rows taken only when there is no text; --reproducible blocks sliced along time instead of rows;
a BatchNorm batch's block models given the update's parameters and statistics only for block 0; the epoch
generator left unseeded; --max-steps (any stop) ignored until the epoch's end.

14 mutants. Against the old targeted files alone (each mutant's v370 files taken off its list): 13 of 14 caught;
missed: Ctrl-C on a rank reported as a traceback with exit code 1 (Group.fail's KeyboardInterrupt branch). The old
targeted files are test_optim and test_values353_optim (optimizers), test_checkpoint and test_values348_checkpoint
(checkpoints), test_values114_distributed and test_values345_distributed_group (the distributed path),
test_values17_train and test_values345_train_loop (the loop). The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values370_optim_checkpoint (the norm of gradients 3, 4 and 12
is 13 and clipping to 6.5 scales each array by 6.5 / (13 + 1e-6); SGD with momentum on a dict over two float64
updates against v = mu v + g, p -= lr v; RMSProp's one slot sq = (1 - alpha) g^2 and its step by hand; Adam's slots
saved with a layout named w and b, each the hand moment of two updates, and a copy; the description's format,
version, arrays file name by step, SHA-256 by hashlib and shape/dtype listing; another model refused word for word;
an object array not unpickled; a folder under a regular file refused word for word; --keep 2 over updates 5, 12, 130
keeping DIR/checkpoints/update-000000012 and update-000000130), test_values370_distributed_group (--reproducible in
one process against one plain call: LayerNorm with truncated BPTT, masks, state noise and text at T = 9 > B = 5,
BatchNorm over two updates stepped by hand; shard_batch's rows for rank 1 of 2 and the empty shard of rank 5 of 6,
with and without text; Group.fail's line and Abort code for a UserError on ranks 0 and 1, Ctrl-C, SystemExit and a
bug, with a stand-in communicator), test_values370_train_loop (the batches the loop asks for against
default_rng(seed)'s permutations cut in 16, 16, 8 over two epochs; --max-steps 2 stopping at update 2 of epoch 1
with its checkpoint, and its --resume ending at the parameters of a run never stopped).

Left out as equivalent: BlockRing.run's ``any(done)`` (a block that ends while another reaches a reduction
already leaves the calls unequal, so the second half of the test raises alike); block_models' list kept on the
model (a new list each update builds the same twins, and their parameters and statistics are copied in before
every update) and its ``made[:n]`` (extra twins are never run); keep_past's temporary name made in DIR instead of
the copy's folder (one file system: the link and the replace end the same); the arrays' ``v.copy()`` in
state_dict (the host array split there is already a copy). Left out as needing several MPI processes or a CUDA
device: init's checks of mpi4py's communicator, Group.allreduce and allgather_rows with a communicator, the
device branches of Optimizer._slot and rules(), the BN stand-in sequence of a rank without blocks.

    python tests/mutants/run.py --only 'v370-*'
"""
OPT = "lnrnn/training/optim.py"
CKPT = "lnrnn/training/checkpoint.py"
DIST = "lnrnn/training/distributed.py"
TRAIN = "lnrnn/training/train.py"

T_OC = "tests/training/test_values370_optim_checkpoint.py::"
T_GROUP = "tests/training/test_values370_distributed_group.py::"
T_LOOP = "tests/training/test_values370_train_loop.py::"
OLD_OPT = ["tests/training/test_optim.py", "tests/training/test_values353_optim.py"]
OLD_CKPT = ["tests/training/test_checkpoint.py", "tests/training/test_values348_checkpoint.py"]
OLD_DIST = ["tests/training/test_values114_distributed.py", "tests/training/test_values345_distributed_group.py"]
OLD_TRAIN = ["tests/training/test_values17_train.py", "tests/training/test_values345_train_loop.py"]

MUTANTS = [
    # ---- optimizers: lnrnn/training/optim.py ----
    dict(name="v370-optim-dict-norm-skips-first", file=OPT,
         old="    return [grads] if isinstance(grads, np.ndarray) else list(grads.values())",
         new="    return [grads] if isinstance(grads, np.ndarray) else list(grads.values())[1:]",
         tests=[T_OC + "test_the_global_norm_of_a_dict_counts_every_array_and_clipping_scales_them_all"] + OLD_OPT,
         why="a dict of gradients' global norm leaves out its first array, which clipping then never scales"),
    dict(name="v370-optim-on-device-or", file=OPT,
         old='    return not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host")',
         new='    return not isinstance(a, np.ndarray) or hasattr(a, "copy_to_host")',
         tests=[T_OC + "test_sgd_with_momentum_on_a_dict_of_parameters_by_the_formula"] + OLD_OPT,
         why="every non-NumPy object counts as a device array: a dict of parameters is refused as a bad flat array"),
    dict(name="v370-optim-state-slots-unsplit", file=OPT,
         old='                "slots": slots}',
         new='                "slots": self.slots}',
         tests=[T_OC + "test_adam_state_saved_with_a_layout_names_every_parameter_slot"] + OLD_OPT,
         why="state_dict(layout) returns the optimizer's own flat slots, unnamed and not copied"),
    dict(name="v370-optim-rmsprop-avg-slot", file=OPT,
         old='    slot_names = ("sq",)',
         new='    slot_names = ("sq", "avg")',
         tests=[T_OC + "test_rmsprop_keeps_one_slot_sq_by_the_formula"] + OLD_OPT,
         why="plain RMSProp counts two parameter-sized slots (the memory estimate) and saves an empty 'avg' slot"),
    # ---- checkpoints: lnrnn/training/checkpoint.py ----
    dict(name="v370-checkpoint-hash-sha1", file=CKPT,
         old="    h = hashlib.sha256()",
         new="    h = hashlib.sha1()",
         tests=[T_OC + "test_the_description_lists_format_hash_and_arrays_and_loads_back"] + OLD_CKPT,
         why="arrays_sha256 holds a SHA-1 digest: a checker with sha256sum finds every checkpoint corrupt"),
    dict(name="v370-checkpoint-description-from-meta", file=CKPT,
         old='json.dumps(record, indent=1) + "\\n")',
         new='json.dumps(meta, indent=1) + "\\n")',
         tests=[T_OC + "test_the_description_lists_format_hash_and_arrays_and_loads_back",
                T_OC + "test_another_model_is_refused_naming_the_field"] + OLD_CKPT,
         why="the description lacks format, version, the arrays file and its hash: no checkpoint loads"),
    dict(name="v370-checkpoint-save-error-escapes", file=CKPT,
         old="    except OSError as e:\n        if os.path.exists(npz_path):",
         new="    except ValueError as e:\n        if os.path.exists(npz_path):",
         tests=[T_OC + "test_a_save_whose_folder_cannot_be_made_is_a_checkpoint_error_in_words"] + OLD_CKPT,
         why="a save that cannot be written escapes as a bare OSError with a traceback, not a CheckpointError"),
    dict(name="v370-checkpoint-past-in-best", file=CKPT,
         old="    past = os.path.join(directory, PAST_DIR)",
         new="    past = os.path.join(directory, BEST_DIR)",
         tests=[T_OC + "test_keep_past_copies_into_checkpoints_update_step_and_keeps_the_newest"] + OLD_CKPT,
         why="--keep's copies go into DIR/best/ beside the best checkpoint, not DIR/checkpoints/"),
    # ---- the distributed path: lnrnn/training/distributed.py ----
    dict(name="v370-distributed-fail-ctrl-c-as-exit", file=DIST,
         old="        elif isinstance(exc, KeyboardInterrupt):",
         new="        elif isinstance(exc, SystemExit):",
         tests=[T_GROUP + "test_fail_prints_one_line_and_aborts_with_the_errors_code"] + OLD_DIST,
         why="Ctrl-C on a rank prints a traceback and aborts with 1, not 'Error: interrupted.' and 130"),
    dict(name="v370-distributed-shard-text-inverted", file=DIST,
         old="    if text is not None:  # the rows' texts (a conditioned model)",
         new="    if text is None:  # the rows' texts (a conditioned model)",
         tests=[T_GROUP + "test_a_ranks_shard_is_its_rows_of_the_global_batch",
                T_GROUP + "test_an_empty_shard_is_one_sequence_of_length_zero"] + OLD_DIST,
         why="a rank keeps the whole batch's text for its rows (and a batch without text fails)"),
    dict(name="v370-distributed-block-rows-time-axis", file=DIST,
         old="        m.loss_and_grad(np.ascontiguousarray(x[:, rows]), targets[rows],",
         new="        m.loss_and_grad(np.ascontiguousarray(x[rows]), targets[rows],",
         tests=[T_GROUP + "test_reproducible_blocks_are_one_plain_update"] + OLD_DIST,
         why="--reproducible's blocks take steps lo:hi of every row instead of rows lo:hi of every step"),
    dict(name="v370-distributed-bn-blocks-first-model-only", file=DIST,
         old="        for m in runners:   # this update's parameters and BN statistics",
         new="        for m in runners[:1]:   # this update's parameters and BN statistics",
         tests=[T_GROUP + "test_reproducible_batchnorm_blocks_follow_the_parameters_over_two_updates"] + OLD_DIST,
         why="a BN batch's blocks after the first run the parameters and statistics they were built with"),
    # ---- the loop: lnrnn/training/train.py ----
    dict(name="v370-train-rng-unseeded", file=TRAIN,
         old="        self.rng = np.random.default_rng(s.cfg.seed)",
         new="        self.rng = np.random.default_rng()",
         tests=[T_LOOP + "test_each_epoch_is_a_permutation_of_one_generator_seeded_by_seed"] + OLD_TRAIN,
         why="each run draws another sample order: --seed no longer reproduces a run, --resume redraws another epoch"),
    dict(name="v370-train-stop-inverted", file=TRAIN,
         old="                    if stop_reason is not None:\n                        if self.batch_in_epoch < nb:",
         new="                    if stop_reason is None:\n                        if self.batch_in_epoch < nb:",
         tests=[T_LOOP + "test_max_steps_stops_mid_epoch_and_a_resume_ends_where_a_whole_run_does"] + OLD_TRAIN,
         why="a stop mid-epoch (--max-steps, a budget, a signal) waits for the epoch's end; every batch saves"),
]
