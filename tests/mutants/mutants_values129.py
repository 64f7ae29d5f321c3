"""Planted bugs, round 129 (format: tests/mutants/mutants.py): single-line slips in the sequence
models and heads, a fifth pass on lines no earlier round mutates: the initial-state noise read as a variance
(its square root the standard deviation), evaluation drawing its noise from the training updates' stream or
starting from zero states, build_model seeding every model's noise with 0; evaluate dividing by the last
batch's count; num_params leaving the head out, build_model sizing the head by hidden_size instead of the
stack's output width, the saved config without state_noise, load_arrays handing the stack BN statistics
named '.l0.rmx'; the heads' sum keys without 'seqs' (nats per sequence divided by 1 in an evaluation), the
CTC head counting rows without steps, dL/dh multiplying by the head's dW instead of W, the regression
head's config without its tolerance, and a CTC head of the blank and one label (outputs=2) refused.

14 mutants. Against the existing targeted tests alone, measured on the two most direct files per module
(test_models, test_values88_models; test_values_heads, test_values108_heads: the full lists' run was cut
short for time), 5 were caught and 9 missed: the noise read as a variance (the full list's test_state_noise
does catch it), evaluation's noise from the training stream or none, build_model's noise seed of 0, the
config without state_noise, load_arrays' BN names keeping the dot (no old test of these files reloads a
BatchNorm model's statistics), the CTC count of empty rows, the regression config without its tolerance and
the CTC head of two outputs refused. The new value
tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values129_models (a one-layer tanh RNN written here, each row over its own steps, and a last-step
cross-entropy: noise_state against the generator seeded (seed, *key) times state_noise, per layer h0 then
c0, and its spread; loss_sums against the states drawn for (seed, 2, key) and loss_and_grad against those
for (seed, 1, key); evaluate over batches of 2, 2 and 1 rows with an empty row and a one-step row against
the means over rows with steps; every parameter's gradient by central differences in float64; a
bidirectional two-layer stack's parameter names, shapes and count from Wx (I,H) or (2H,H), Wh (H,H), b (H,)
per direction and the head's W (2H,O); the saved config's keys and a BatchNorm model's checkpoint round
trip with statistics of its own; a mixture density model's nats per sequence as its summed loss over the
sequences with steps, counted by hand) and test_values129_heads (the CTC head's loss, count, chars and
dL/dh, dW, db against every one of the C^T paths collapsed by hand, for two and four classes, with an
empty row and a one-step row; the regression head's config and accuracy within its tolerance by hand;
every head's sum keys). Dropped as equivalent or near it: the inference chunks' lengths not shifted by t0
(a row run past its end in a later chunk leaves its earlier outputs unchanged and its padded steps are
masked), the last-step index clipped to -1 (the empty row it picks is masked out of the loss and its
gradient), ll counting labels > 0 instead of >= 0 (a 0 inside a label is refused either way, with another
message). The device paths (loss_and_grad_on_device and the fast last step) were left alone: they need a
GPU.

    python tests/mutants/run.py --only 'v129-*'
"""
MODELS = "lnrnn/model/models.py"
HEADS = "lnrnn/model/heads.py"

# existing tests of these modules (the most direct ones)
MODELS_OLD = ["tests/model/test_models.py", "tests/model/test_state_noise.py",
              "tests/model/test_values51_models.py", "tests/model/test_values73_models.py",
              "tests/model/test_values88_models.py", "tests/model/test_eval_chunks.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values33_heads.py",
             "tests/model/test_values67_heads.py", "tests/model/test_values108_heads.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MODELS_NEW = ["tests/model/test_values129_models.py"]
HEADS_NEW = ["tests/model/test_values129_heads.py"]

MUTANTS = [
    # ---- models: initial-state noise in training and evaluation ----
    dict(name="v129-noise-variance-taken-for-std", file=MODELS,
         old="        return [tuple((self.state_noise * rng.standard_normal((B, layer.H))).astype(self.dtype)",
         new="        return [tuple((np.sqrt(self.state_noise) * rng.standard_normal((B, layer.H))).astype(self.dtype)",
         tests=MODELS_NEW + MODELS_OLD,
         why="state_noise read as a variance: the initial states' standard deviation is its square root"),
    dict(name="v129-evaluation-noise-from-training-stream", file=MODELS,
         old="        state = self.noise_state(B, (2, int(noise_key)))",
         new="        state = self.noise_state(B, (1, int(noise_key)))",
         tests=MODELS_NEW + MODELS_OLD,
         why="evaluation draws its initial states from the training updates' stream (key 1), not its own (key 2)"),
    dict(name="v129-evaluation-without-noise", file=MODELS,
         old="        state = self.noise_state(B, (2, int(noise_key)))",
         new="        state = None",
         tests=MODELS_NEW + MODELS_OLD,
         why="loss_sums starts every row from zero states although the model was trained from noisy ones"),
    dict(name="v129-build-model-noise-seed-zero", file=MODELS,
         old="    return SequenceModel(stack, head, state_noise=cfg[\"state_noise\"], noise_seed=seed)\n\n\ndef Seq",
         new="    return SequenceModel(stack, head, state_noise=cfg[\"state_noise\"], noise_seed=0)\n\n\ndef Seq",
         tests=MODELS_NEW + MODELS_OLD,
         why="build_model ignores its seed for the noise: models of every seed draw the same initial states"),
    # ---- models: evaluation's sums and counts ----
    dict(name="v129-evaluate-count-of-last-batch", file=MODELS,
         old="                tot[m] += sums[m]\n            count += c",
         new="                tot[m] += sums[m]\n            count = c",
         tests=MODELS_NEW + MODELS_OLD,
         why="evaluate divides the sums of every batch by the last batch's count alone"),
    # ---- models: parameter count and checkpoint layout ----
    dict(name="v129-num-params-stack-only", file=MODELS,
         old="        return int(self.flat[0].data.size)",
         new="        return int(sum(p.size for p in self.stack.params.values()))",
         tests=MODELS_NEW + MODELS_OLD,
         why="num_params counts the stack's parameters and leaves the head's W and b out"),
    dict(name="v129-build-model-head-reads-hidden-size", file=MODELS,
         old="    head = make_head(cfg[\"head\"], stack.output_size, dtype=cfg[\"dtype\"], seed=seed)\n    return",
         new="    head = make_head(cfg[\"head\"], cfg[\"hidden_size\"], dtype=cfg[\"dtype\"], seed=seed)\n    return",
         tests=MODELS_NEW + MODELS_OLD,
         why="the head is sized by hidden_size, not the stack's output width (2H for a bidirectional stack)"),
    dict(name="v129-config-drops-state-noise", file=MODELS,
         old="        self.config = {**{k: stack.config[k] for k in STACK_KEYS}, \"head\": head.config(),\n"
             "                       \"state_noise\": self.state_noise}",
         new="        self.config = {**{k: stack.config[k] for k in STACK_KEYS}, \"head\": head.config()}",
         tests=MODELS_NEW + MODELS_OLD,
         why="the saved config has no state_noise: a model rebuilt from a checkpoint evaluates from zero states"),
    dict(name="v129-load-buffers-name-keeps-dot", file=MODELS,
         old="self.stack.load_buffers({k[len(\"rnn.\"):]: arrays[k] for k in own_b})",
         new="self.stack.load_buffers({k[len(\"rnn\"):]: arrays[k] for k in own_b})",
         tests=MODELS_NEW + MODELS_OLD,
         why="load_arrays strips 'rnn' without its dot: the stack is handed '.l0.rmx' for its 'l0.rmx'"),
    # ---- heads: sums, counts, config, gradient ----
    dict(name="v129-sum-keys-without-seqs", file=HEADS,
         old="        return tuple(self.metrics) + (\"seqs\",)",
         new="        return tuple(self.metrics)",
         tests=MODELS_NEW + HEADS_NEW + HEADS_OLD,
         why="the heads' sum keys leave 'seqs' out: evaluate never adds it up and nats per sequence divides by 1"),
    dict(name="v129-ctc-count-includes-empty-rows", file=HEADS,
         old="        return sums, len(rows), (h, saved, labels, il, ll)",
         new="        return sums, len(il), (h, saved, labels, il, ll)",
         tests=HEADS_NEW + HEADS_OLD,
         why="the CTC head's count includes rows without steps: an evaluation's mean loss is too small"),
    dict(name="v129-linear-backward-reads-grads", file=HEADS,
         old="        return (d2 @ self.params[\"W\"].T).reshape(dout.shape[:-1] + (H,))",
         new="        return (d2 @ self.grads[\"W\"].T).reshape(dout.shape[:-1] + (H,))",
         tests=MODELS_NEW + HEADS_NEW + HEADS_OLD,
         why="dL/dh multiplies by the head's gradient dW (just accumulated) instead of its weights W"),
    dict(name="v129-regression-config-drops-tolerance", file=HEADS,
         old="        return {**super().config(), \"tolerance\": self.tolerance}",
         new="        return super().config()",
         tests=MODELS_NEW + HEADS_NEW + HEADS_OLD,
         why="the regression head's config has no tolerance: a rebuilt model scores accuracy at the default 0.04"),
    dict(name="v129-ctc-two-outputs-refused", file=HEADS,
         old="        if int(outputs) < 2:",
         new="        if int(outputs) <= 2:",
         tests=HEADS_NEW + HEADS_OLD,
         why="a CTC head of the blank and one label class (outputs=2), a valid one, is refused"),
]
