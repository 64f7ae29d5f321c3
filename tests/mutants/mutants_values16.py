"""Planted bugs in the sequence model, the heads, the judge, the data-parallel helpers, the commands predict,
read, export and info, the torch binding and the synthesis window's stop-rule weight (format:
tests/mutants/mutants.py). Each is a single-line slip of a kind that happens: a bound one off, < vs <=, a
dropped condition, a wrong default, a swapped name, a check that lets bad input through, a figure of the
wrong thing in a printed line.

32 mutants; the existing tests caught 13 (the chunk-start last output, batches_of's last row, the heads'
accuracies over padded units, their init bound and a CTC class past the last, the judge's three, the
distributed evaluation's last batch, predict's --batch-size 0, read's --beam 0, info's block counts). New
value tests catch the other 19, 32/32 now: a row of one step scored and the mean over the rows' own losses,
'seqs' without empty rows, ``total`` as the gradients' normaliser, _scatter as the adjoint of _select
(bidirectional too), evaluate's noise key per batch, a 0.1 config's last-step head (test_values16_models);
a mixture of 0 components, the CTC count (test_values16_heads); one row per rank, the split line's shard
sizes from shard() (test_values16_distributed); read --out's lines, export's torch module
(test_values16_commands); eval-mode BatchNorm gradients against central differences, exported tensors in
eval mode (test_values16_torch); dL/dc_n of a row one step short refused, full and empty rows' seeds
against central differences (test_values16_functional); step_end as phi one character past the text
(texts of length 0 too) and BatchNorm steps against one forward (test_values16_window).
Dropped as not a bug: the torch binding seeding dL/dc_n with lengths given (``lengths is None`` dropped from
``ctx.seeds_c``): the kernels then take a full-length row's seed with the right gradient and refuse the rest,
so the bug only widens what is accepted.

    python tests/mutants/run.py --only 'v16-*'
"""

MODELSPY = "lnrnn/model/models.py"
HEADSPY = "lnrnn/model/heads.py"
JUDGEPY = "lnrnn/judge.py"
DISTPY = "lnrnn/training/distributed.py"
PREDICTPY = "lnrnn/commands/predict.py"
READPY = "lnrnn/commands/read.py"
EXPORTPY = "lnrnn/commands/export.py"
INFOPY = "lnrnn/commands/info.py"
TORCHPY = "lnrnn/interop/torch.py"
WINDOWPY = "lnrnn/model/window.py"
FUNCPY = "lnrnn/model/functional.py"

# existing tests of these modules
M_OLD = ["tests/model/test_models.py", "tests/model/test_values10_models.py", "tests/model/test_eval_chunks.py"]
H_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py", "tests/model/test_values12_heads.py"]
J_OLD = ["tests/test_values12_judge.py", "tests/commands/test_values_judge.py"]
D_OLD = ["tests/training/test_values_distributed_options.py", "tests/training/test_values_distributed_options2.py"]
P_OLD = ["tests/commands/test_values_eval_predict.py", "tests/commands/test_values_output_checks.py"]
R_OLD = ["tests/commands/test_values_read.py", "tests/commands/test_values_output_checks.py"]
E_OLD = ["tests/commands/test_values_output_checks.py", "tests/interop/test_values_export.py"]
I_OLD = ["tests/commands/test_values_info.py"]
T_OLD = ["tests/interop/test_values14_torch.py", "tests/interop/test_values_torch.py"]
W_OLD = ["tests/model/test_values_window.py", "tests/model/test_values14_window.py"]

# value tests written for the bugs below
M_NEW = "tests/model/test_values16_models.py"
H_NEW = "tests/model/test_values16_heads.py"
D_NEW = "tests/training/test_values16_distributed.py"
C_NEW = "tests/commands/test_values16_commands.py"
T_NEW = "tests/interop/test_values16_torch.py"
W_NEW = "tests/model/test_values16_window.py"
F_NEW = "tests/model/test_values16_functional.py"

MUTANTS = [
    # ---- model/models.py ----
    dict(name="v16-models-length-one-row-not-scored", file=MODELSPY,
         old="        valid = (last >= 0) & (last < T)                                     # (B,)",
         new="        valid = (last > 0) & (last < T)                                      # (B,)",
         tests=M_OLD + [M_NEW],
         why="a last-step head never scores a row of one step (its last step is step 0)"),
    dict(name="v16-models-seqs-counts-empty-rows", file=MODELSPY,
         old='        sums["seqs"] = float(np.count_nonzero(L > 0))',
         new='        sums["seqs"] = float(B)',
         tests=M_OLD + [M_NEW],
         why="a training batch's sequence count includes rows of length 0 (nats per sequence too small)"),
    dict(name="v16-models-infer-seqs-counts-empty-rows", file=MODELSPY,
         old="seqs = float(B if lengths is None else np.count_nonzero(lengths > 0))",
         new="seqs = float(B if lengths is None else np.count_nonzero(lengths >= 0))",
         tests=M_OLD + [M_NEW],
         why="an evaluation's sequence count includes rows of length 0"),
    dict(name="v16-models-total-ignored", file=MODELSPY,
         old="        total = max(self.last_count if total is None else int(total), 1)",
         new="        total = max(self.last_count, 1)",
         tests=M_OLD + [M_NEW],
         why="a shard's loss is normalized by its own count, not the global batch's: ranks' gradients misweighted"),
    dict(name="v16-models-bidirectional-step0-overwritten", file=MODELSPY,
         old="            dy[0] += np.where(rev, dh, 0)",
         new="            dy[0] = np.where(rev, dh, 0)",
         tests=M_OLD + ["tests/model/test_layers_models_bidirectional.py", M_NEW],
         why="a row of one step loses its forward columns' gradient (step 0 is also its last step)"),
    dict(name="v16-models-last-output-at-chunk-start-missed", file=MODELSPY,
         old="            rows = np.nonzero((last >= t0) & (last < t1))[0]",
         new="            rows = np.nonzero((last > t0) & (last < t1))[0]",
         tests=M_OLD + [M_NEW],
         why="a row whose last step is the first of an inference chunk gets zeros as its last output"),
    dict(name="v16-models-evaluate-one-noise-key", file=MODELSPY,
         old="            sums, c = self.loss_sums(x, targets, lengths, noise_key=i, text=text[0] if text else None)",
         new="            sums, c = self.loss_sums(x, targets, lengths, noise_key=0, text=text[0] if text else None)",
         tests=M_OLD + [M_NEW],
         why="every evaluation batch starts from the same initial-state noise draw"),
    dict(name="v16-models-old-config-per-step-default", file=MODELSPY,
         old='cfg.pop("per_step", False),',
         new='cfg.pop("per_step", True),',
         tests=M_OLD + [M_NEW],
         why="a version 0.1 config without per_step upgrades to a per-step head"),
    dict(name="v16-models-batches-of-drops-last-row", file=MODELSPY,
         old="    for s in range(0, x.shape[1], batch_size):",
         new="    for s in range(0, x.shape[1] - 1, batch_size):",
         tests=M_OLD + [M_NEW],
         why="a last batch of one sequence is never evaluated"),
    # ---- model/heads.py ----
    dict(name="v16-heads-classifier-acc-counts-padded-steps", file=HEADSPY,
         old="        correct = int(np.count_nonzero((logits.argmax(-1) == lab) & mask))",
         new="        correct = int(np.count_nonzero(logits.argmax(-1) == lab))",
         tests=H_OLD + [H_NEW],
         why="a per-step classifier counts correct guesses on padded (unscored) steps"),
    dict(name="v16-heads-regression-acc-counts-padded-units", file=HEADSPY,
         old="        within = int(np.count_nonzero(np.all(np.abs(err) < self.tolerance, axis=-1) & valid))",
         new="        within = int(np.count_nonzero(np.all(np.abs(err) < self.tolerance, axis=-1)))",
         tests=H_OLD + [H_NEW],
         why="padded units (error masked to 0) count as within tolerance: accuracy above 100%"),
    dict(name="v16-heads-init-bound-over-h", file=HEADSPY,
         old="        bound = 1.0 / np.sqrt(self.H)",
         new="        bound = 1.0 / self.H",
         tests=H_OLD + [H_NEW],
         why="the head's W is drawn from U(-1/H, 1/H), not U(-1/sqrt(H), 1/sqrt(H))"),
    dict(name="v16-heads-mdn-zero-components", file=HEADSPY,
         old="        if self.M < 1:",
         new="        if self.M < 0:",
         tests=H_OLD + [H_NEW],
         why="a mixture of 0 components (one output, the pen) is built instead of refused"),
    dict(name="v16-heads-ctc-class-c-accepted", file=HEADSPY,
         old="np.any(labels[inside] >= self.O):",
         new="np.any(labels[inside] > self.O):",
         tests=H_OLD + [H_NEW],
         why="a CTC label equal to the class count (one past the last class) is let through"),
    dict(name="v16-heads-ctc-count-empty-rows", file=HEADSPY,
         old="        return int(np.count_nonzero(np.count_nonzero(valid, axis=0)))",
         new="        return int(valid.shape[1])",
         tests=H_OLD + [H_NEW],
         why="rows of no step count as scored sequences: the loss's normalizer is too large"),
    # ---- judge.py ----
    dict(name="v16-judge-stop-at-last-off-by-one", file=JUDGEPY,
         old="int(np.argmax(row.phi[-1])) == row.phi.shape[1] - 1",
         new="int(np.argmax(row.phi[-1])) == row.phi.shape[1] - 2",
         tests=J_OLD,
         why="'stop at last' asks for the window on the next-to-last character"),
    dict(name="v16-judge-travel-of-the-whole-text", file=JUDGEPY,
         old="np.array([len(r.codes) - r.prime_chars for r in rows])",
         new="np.array([len(r.codes) for r in rows])",
         tests=J_OLD,
         why="a primed line's travel divides by the prime's characters too: it never reaches 1"),
    dict(name="v16-judge-stop-share-as-count", file=JUDGEPY,
         old='"stop_at_last": sum(j.stop_at_last for j in judged) / n,',
         new='"stop_at_last": sum(j.stop_at_last for j in judged),',
         tests=J_OLD,
         why="the summary's stop_at_last is a count of lines, not their share"),
    # ---- training/distributed.py ----
    dict(name="v16-dist-batch-equal-to-ranks-refused", file=DISTPY,
         old="    if cfg.batch_size < size:",
         new="    if cfg.batch_size <= size:",
         tests=D_OLD + [D_NEW],
         why="a batch of exactly one row per rank is refused"),
    dict(name="v16-dist-evaluate-drops-last-batch", file=DISTPY,
         old="    for i in range(group.rank, len(batches), group.size):",
         new="    for i in range(group.rank, len(batches) - 1, group.size):",
         tests=D_OLD + [D_NEW],
         why="the last evaluation batch is never run: its sums and count are zeros"),
    dict(name="v16-dist-split-line-shard-sizes-swapped", file=DISTPY,
         old="    lo, hi = shard(B, size, size - 1), shard(B, size, 0)\n    each",
         new="    lo, hi = shard(B, size, 0), shard(B, size, size - 1)\n    each",
         tests=D_OLD + [D_NEW],
         why="uneven shards are described largest first ('3-2' instead of '2-3')"),
    # ---- commands ----
    dict(name="v16-predict-batch-size-zero-accepted", file=PREDICTPY,
         old="    if batch_size < 1:",
         new="    if batch_size < 0:",
         tests=P_OLD + [C_NEW],
         why="lnrnn predict --batch-size 0 is not refused in one line"),
    dict(name="v16-read-beam-zero-accepted", file=READPY,
         old="    if beam < 1:",
         new="    if beam < 0:",
         tests=R_OLD + [C_NEW],
         why="lnrnn read --beam 0 is not refused in one line"),
    dict(name="v16-read-out-last-line-unterminated", file=READPY,
         old='    text = "".join(t + "\\n" for t in texts)',
         new='    text = "\\n".join(texts)',
         tests=R_OLD + [C_NEW],
         why="the --out file's last transcription has no newline (and an empty last line vanishes)"),
    dict(name="v16-export-note-names-the-other-module", file=EXPORTPY,
         old='("LSTM" if run.config["cell"] == "lstm" else "RNN")',
         new='("LSTM" if run.config["cell"] == "rnn" else "RNN")',
         tests=E_OLD + [C_NEW],
         why="lnrnn export says an LSTM run's tensors load into torch.nn.RNN"),
    dict(name="v16-info-batch-blocks-of-the-wrong-batch", file=INFOPY,
         old="B 128: {batch_blocks(128)}",
         new="B 128: {batch_blocks(64)}",
         tests=I_OLD + [C_NEW],
         why="lnrnn info's line gives B 128 the block count of B 64"),
    # ---- drafts: torch binding and the dL/dc_n seed of a ragged batch ----
    dict(name="v16-torch-eval-bn-backward-as-training", file=TORCHPY,
         old="                                         ctx.cell, ctx.training)",
         new="                                         ctx.cell, True)",
         tests=T_OLD + [T_NEW],
         why="an eval-mode BatchNorm layer's backward differentiates batch statistics it never used"),
    dict(name="v16-functional-c-n-seed-one-step-short-dropped", file=FUNCPY,
         old="        inner = (last > 0) & (last < T) & np.any(dc_n != 0, axis=1)",
         new="        inner = (last > 0) & (last < T - 1) & np.any(dc_n != 0, axis=1)",
         tests=T_OLD + [F_NEW, T_NEW],
         why="dL/dc_n on a row one step short of T is silently dropped (seeded as 0) instead of refused"),
    dict(name="v16-torch-from-run-in-training-mode", file=TORCHPY,
         old="    stack.eval()\n    if head is not None:",
         new="    stack.train()\n    if head is not None:",
         tests=T_OLD + [T_NEW],
         why="from_run / load_exported give a BatchNorm stack in training mode: batch statistics, buffers moved"),
    # ---- drafts: the synthesis window's weight past the text ----
    dict(name="v16-window-step-end-on-last-character", file=WINDOWPY,
         old="        u = (np.asarray(ulen, np.float64) + 1.0)[:, None]",
         new="        u = np.asarray(ulen, np.float64)[:, None]",
         tests=W_OLD + [W_NEW],
         why="step_end is the weight on the last character, not just past it: the stop rule never fires"),
    dict(name="v16-window-step-end-beta-not-exponentiated", file=WINDOWPY,
         old="        alpha, beta = np.exp(p[:, :K]), np.exp(p[:, K:2 * K])",
         new="        alpha, beta = np.exp(p[:, :K]), p[:, K:2 * K]",
         tests=W_OLD + [W_NEW],
         why="step_end uses the raw beta (it may be negative: a weight that grows away from kappa)"),
    dict(name="v16-window-step-reads-bn-rows-of-step-0", file=WINDOWPY,
         old="t0=t, keep=False, text=text)",
         new="t0=0, keep=False, text=text)",
         tests=W_OLD + [W_NEW],
         why="every sampling step reads BatchNorm's running statistics of step 0"),
]
