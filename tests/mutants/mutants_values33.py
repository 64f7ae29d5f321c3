"""Planted bugs, round 33 (format: tests/mutants/mutants.py): single-line slips in the model's heads, cells and
layers, the update, the loop, the data-parallel update and the sampler, where a value is counted or routed beside
the kernels: the CTC head's label count over rows with no step (the CER's normalizer) and its log_probs past each
row's end, the classifier's and regression head's counts at unscored and padded steps; the LN-LSTM and BN-RNN
backward adapters' gains; BN inference chunks from t0 > 0, the order of a plain and a skip stack's dstate0; the
host update's clipping, its --reproducible path in one process and its noise key; the loop's running count of an
epoch; an empty shard's stand-in row, the stop votes and the count a rank holds after the Allreduce, the block
bounds of a rank other than 0; a capped written row's last point, a primed row's prime_chars and strokes_of's
split after a lift.

20 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 13 were caught
and 7 missed: the CTC head counting the labels of rows without a step, CTC log_probs over all T steps of every
row, the skip stack's dstate0 top layer first (the plain stack's is caught by the stack gradient check), the host
update running the plain path under --reproducible in one process, the host update's noise keyed by the batch's
index within the epoch, the epoch's running count adding sequences instead of scored units, and the stop votes not
read back from the update's Allreduce. The new value tests catch every one of them:
test_values33_heads (a CTC batch with an empty row that has labels: loss from lnrnn.reference's recursion, the
best path's edit distances with a Levenshtein written here, chars over the rows with a step, host_sums equal;
log_probs equal to the log-softmax over each row's steps and 0 past them), test_values33_layers (every layer's
dstate0 entry against central differences, plain, skip, bidirectional and bidirectional-skip stacks of three
layers, LN-LSTM and plain RNN, ragged), test_values33_update (a stand-in trainer around a real model: the host
update's gradient is, to the bit, loss_and_grad_blocks' under --reproducible and the plain call's otherwise,
both with the update number as noise key; the two paths are checked to differ in their bits, and the keys to
matter), test_values33_train (a tiny npz run with ragged lengths and unscored steps: the running count after each
update, the epoch's count equal to the training set's scored steps counted by hand, train_loss and train_acc over
it), test_values33_distributed (2 and 3 thread ranks, plain and --reproducible: every rank holds the group's sum of
the votes, one process's count and sums). One mutant first written was replaced before the run: a free sample's dx
scaled by sy, whose twin on the dy line the catalogue already holds (sample-scale-swapped). Considered and not
written as equivalent: the LN-LSTM forward adapter's bx and bh swapped (both biases add into the same gate
preactivation, and their gradients are the same array's), and a plain stack's forward keeping every layer's output
on the device (k <= last) on the CPU, where to_host is the identity. A sampler test written for the capped row and
strokes_of was not kept: the existing tests caught both mutants.

    python tests/mutants/run.py --only 'v33-*'
"""
HEADS = "lnrnn/model/heads.py"
CELLS = "lnrnn/model/cells.py"
LAYERS = "lnrnn/model/layers.py"
UPDATE = "lnrnn/training/update.py"
TRAIN = "lnrnn/training/train.py"
DIST = "lnrnn/training/distributed.py"
SAMPLE = "lnrnn/sample.py"

# existing tests of these modules (the ones earlier rounds list for them)
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values12_heads.py", "tests/model/test_values16_heads.py"]
CELLS_OLD = ["tests/model/test_layers.py", "tests/model/test_functional.py", "tests/model/test_values_bn.py",
             "tests/model/test_values13_cells.py"]
LAYERS_OLD = ["tests/model/test_layers.py","tests/model/test_layers_models_bidirectional.py",
              "tests/model/test_values9_layers.py",
              "tests/model/test_values13_layers.py", "tests/model/test_values24_layers.py",
              "tests/model/test_eval_chunks.py"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/model/test_state_noise.py"]
TRAIN_OLD = ["tests/training/test_checkpoints_best.py", "tests/training/test_values_train_policies.py",
             "tests/training/test_values_train.py", "tests/training/test_values17_train.py",
             "tests/training/test_stopping_recorder_parts.py"]
DIST_OLD = ["tests/training/test_values_distributed_options.py", "tests/training/test_values_distributed_options2.py",
            "tests/training/test_values20_distributed.py", "tests/training/test_values16_distributed.py"]
SAMPLE_OLD = ["tests/commands/test_sample.py", "tests/commands/test_values_sampling.py",
              "tests/commands/test_values12_sample.py", "tests/commands/test_values20_sample.py",
              "tests/commands/test_values_sampler_rule.py", "tests/commands/test_sample_text.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
HEADS_NEW = ["tests/model/test_values33_heads.py"]
LAYERS_NEW = ["tests/model/test_values33_layers.py"]
UPDATE_NEW = ["tests/training/test_values33_update.py"]
TRAIN_NEW = ["tests/training/test_values33_train.py"]
DIST_NEW = ["tests/training/test_values33_distributed.py"]

MUTANTS = [
    # ---- heads: what is scored at masked steps and rows without a step ----
    dict(name="v33-ctc-chars-count-rows-without-steps", file=HEADS,
         old='"chars": float(ll[rows].sum())}',
         new='"chars": float(ll.sum())}',
         tests=HEADS_NEW + HEADS_OLD,
         why="the CTC head's label count (the CER's normalizer) includes the labels of rows with no input step, "
             "which it scores nowhere: the CER of a batch with an empty row comes out low (and differs from the "
             "device path's host_sums)"),
    dict(name="v33-ctc-log-probs-past-each-rows-end", file=HEADS,
         old="        _, saved = ctc_forward(logits, np.full((B, 1), -1, np.int64), np.asarray(lengths, np.int64),",
         new="        _, saved = ctc_forward(logits, np.full((B, 1), -1, np.int64), np.full(B, h.shape[0], np.int64),",
         tests=HEADS_NEW + HEADS_OLD,
         why="log_probs reads every row over all T steps: a decoder gets log-probabilities at a short row's padded "
             "steps where the docstring promises 0"),
    dict(name="v33-classifier-count-includes-unlabelled-steps", file=HEADS,
         old='return {"loss": loss, "acc": float(correct)}, int(mask.sum()), (h, logp, safe, mask)',
         new='return {"loss": loss, "acc": float(correct)}, int(valid.sum()), (h, logp, safe, mask)',
         tests=HEADS_NEW + HEADS_OLD,
         why="the classifier's forward counts running steps whose label is -1 (unscored): an evaluation's mean "
             "loss and accuracy are divided by too many units"),
    dict(name="v33-regression-count-includes-padded-units", file=HEADS,
         old='return {"loss": loss, "acc": float(within)}, int(np.count_nonzero(valid)), (h, err)',
         new='return {"loss": loss, "acc": float(within)}, int(valid.size), (h, err)',
         tests=HEADS_NEW + HEADS_OLD,
         why="the regression head's forward counts padded steps (and rows with no step) as scored: an "
             "evaluation's means over a ragged batch come out low"),
    # ---- cells: the adapters' parameters ----
    dict(name="v33-ln-lstm-backward-unit-cell-gain", file=CELLS,
         old='    gc = p["gc"] if ln else c["1H"]\n',
         new='    gc = c["1H"]\n',
         tests=CELLS_OLD,
         why="the LN-LSTM backward takes the cell LayerNorm's gain as 1: every gradient through c_t is wrong once "
             "gc has moved from its initial 1"),
    dict(name="v33-bn-rnn-backward-gains-swapped", file=CELLS,
         old='    dx, dh0, *dp = kern.backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["gx"], p["gh"])',
         new='    dx, dh0, *dp = kern.backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["gh"], p["gx"])',
         tests=CELLS_OLD,
         why="the BN-RNN backward gets the input side's BatchNorm gain for the recurrent side and back: equal at "
             "initialization (both BN_GAIN_INIT), wrong once training has moved them apart"),
    # ---- layers: BN statistics of a chunk, the stack's initial-state gradients ----
    dict(name="v33-bn-inference-chunk-reads-step-0-statistics", file=LAYERS,
         old="        rows = stat_rows(Ts, t0, T)\n",
         new="        rows = stat_rows(Ts, 0, T)\n",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="an inference chunk (or a sampling step) from step t0 > 0 reads the BN statistics of steps 0.., not "
             "of its own steps t0.."),
    dict(name="v33-stack-dstate0-top-layer-first", file=LAYERS,
         old="            dstate.append(ds)\n        self.dstate0 = dstate[::-1]\n        return dy\n",
         new="            dstate.append(ds)\n        self.dstate0 = dstate\n        return dy\n",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a plain stack's dstate0 lists the layers top first: layer 0's initial-state gradient is the top "
             "layer's"),
    dict(name="v33-skip-stack-dstate0-top-layer-first", file=LAYERS,
         old="            dh_above = np.ascontiguousarray(d_in[:, :, I:]) if k > 0 else None\n"
             "        self.dstate0 = dstate[::-1]\n",
         new="            dh_above = np.ascontiguousarray(d_in[:, :, I:]) if k > 0 else None\n"
             "        self.dstate0 = dstate\n",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="Graves's skip stack's dstate0 lists the layers top first"),
    # ---- the update: clipping, --reproducible in one process, the noise key ----
    dict(name="v33-update-clips-a-copy", file=UPDATE,
         old="        norm = clip_grad_norm(grads, t.cfg.clip)",
         new="        norm = clip_grad_norm(grads.copy(), t.cfg.clip)",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="the host update clips a copy of the gradient: the norm is measured, but the optimizer steps on the "
             "unclipped gradient"),
    dict(name="v33-update-reproducible-ignored-in-one-process", file=UPDATE,
         old="            if t.group.size > 1 or c.reproducible:",
         new="            if t.group.size > 1:",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="--reproducible in one process runs the plain update: its bits then differ from the same run on 2 "
             "or N ranks, which the option promises equal"),
    dict(name="v33-update-noise-keyed-by-batch-in-epoch", file=UPDATE,
         old="tbptt=c.tbptt, noise_key=t.step, text=text)",
         new="tbptt=c.tbptt, noise_key=t.batch_in_epoch, text=text)",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="the host update draws its initial-state noise for the batch's index within the epoch: every epoch "
             "redraws the first one's noise, and the distributed path (keyed by the update) parts from it"),
    # ---- the loop: the epoch's running count ----
    dict(name="v33-train-epoch-count-by-sequences", file=TRAIN,
         old='                    s["count"] += model.last_count  # scored units (sequences or steps) of this batch',
         new='                    s["count"] += len(idx)  # scored units (sequences or steps) of this batch',
         tests=TRAIN_NEW + TRAIN_OLD,
         why="the epoch's running count adds the batch's sequences, not its scored units: a per-step head's "
             "training means (bar, metrics.jsonl) are divided by the wrong number"),
    # ---- distributed: one process standing for a rank of a group ----
    dict(name="v33-dist-empty-shard-runs-one-step", file=DIST,
         old="        ls = np.zeros(1, np.int64)\n",
         new="        ls = np.ones(1, np.int64)\n",
         tests=DIST_NEW + DIST_OLD,
         why="a rank with an empty shard runs its stand-in row for one step: it adds row 0's first step to the "
             "group's loss and gradient"),
    dict(name="v33-dist-votes-not-summed-back", file=DIST,
         old="    votes[...] = buf[K:]\n",
         new="",
         tests=DIST_NEW + DIST_OLD,
         why="the stop votes ride the Allreduce but are not read back: a signal that reaches one rank stops that "
             "rank alone, and the others wait in the next collective"),
    dict(name="v33-dist-last-count-of-the-shard", file=DIST,
         old="    model.last_count = total\n    return model.head.mean(model.last_sums, total)\n\n\ndef data_blocks",
         new="    return model.head.mean(model.last_sums, total)\n\n\ndef data_blocks",
         tests=DIST_NEW + DIST_OLD,
         why="after the Allreduce the model keeps its shard's count beside the group's sums: the trainer's "
             "epoch means divide the global sums by one rank's units"),
    dict(name="v33-dist-block-bounds-by-local-index", file=DIST,
         old="        lo, hi = chunk_bounds(B, nb, k)\n",
         new="        lo, hi = chunk_bounds(B, nb, j)\n",
         tests=DIST_NEW + DIST_OLD,
         why="--reproducible: a rank runs the rows of blocks 0.. (its own index j) instead of its blocks k0 + j: "
             "rank 0's rows twice and rank 1's never (the same on one process, k0 = 0)"),
    # ---- the sampler ----
    dict(name="v33-sample-capped-row-loses-its-last-point", file=SAMPLE,
         old="    n = np.full(count, steps, np.int64)  ",
         new="    n = np.full(count, steps - 1, np.int64)  ",
         tests=SAMPLE_OLD,
         why="a written row that reaches the step cap keeps steps - 1 points: its last drawn point is dropped"),
    dict(name="v33-sample-prime-chars-without-the-space", file=SAMPLE,
         old="codes=full[b], prime=prime_units, prime_chars=len(pre_codes))",
         new="codes=full[b], prime=prime_units, prime_chars=len(pre_codes) - 1)",
         tests=SAMPLE_OLD,
         why="a primed line's prime_chars leaves out the space after the prime's text: the attention picture "
             "draws that column's label as the line's"),
    dict(name="v33-strokes-lift-point-starts-next-stroke", file=SAMPLE,
         old="        start = e + 1\n",
         new="        start = e\n",
         tests=SAMPLE_OLD,
         why="strokes_of starts the next stroke at the pen-lift point itself: a line is drawn across every lift"),
]
