"""Planted bugs, round 163 (format: tests/mutants/mutants.py): single-line slips in the sequence model and the
layers, on lines no earlier round mutates: _select clipping a last-step head's index to the chunk's step
count (a row ending in a later chunk indexes past the chunk), loss_and_grad running a truncation of T-1 steps
as one whole pass, its bidirectional refusal letting a truncation of T-1 steps through to the stack, its
whole-sequence refusal reading a misspelt head attribute, its raw sums recorded as a copy taken before the
chunks add to them; loss_sums' per-step path evaluating from zero states (no evaluation noise) and selecting
every inference chunk's steps as if it started at step 0, the inference chunks stopping one step early;
SequenceClassifier refusing an 'mse' head only when it has several outputs and runs per step; the layer
refusing x only when it has neither a step nor a sequence, a state only when it has too few arrays, and not
checking dy's width; a stack packing its parameters twice instead of its gradients, and refusing a skip
stack's step instead of a bidirectional one's.

14 mutants. Against the existing targeted tests alone (the four model and four layer value-test files listed
below; the CLI, training and structure files that also touch these modules were left out, minutes each) 7 were
caught and 7 missed: a truncation of T-1 steps run whole (no listed test truncates by one step), both
truncated-BPTT refusals (no listed test asks a bidirectional stack or a CTC head for truncated BPTT), the
per-step evaluation without its noise (the noise tests score last-step heads), the 'mse' classifier's
refusal, and the layer's refusals of x with no sequence and of a state of three arrays. The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values163_models (truncated BPTT in chunks of T-1 and of 2 steps over ragged rows with an empty and a
one-step row, every gradient against central differences of the loss with each chunk's initial state held at
the full forward's value, the raw sums counted here; evaluation in inference chunks of 3 steps equal to one
whole pass and to a per-step regression's summed squared error from the evaluation noise seeded (seed, 2,
key); last_outputs over those chunks; a skip stack's step against its two layers by hand; the refusals'
sentences), test_values163_layers (a stack's flat parameter and gradient buffers as views in naming order,
round trips of arange values both ways; a layer's backward against central differences; the layer's
refusals' sentences). Dropped as equivalent: the skip stack joining its input to the top layer's output too
(k < len(layers): the join is never read); truncation written as tbptt > T (chunk = T either way); the
per-step evaluation's chunk lengths unshifted by t0 (a row past its end only runs padding no output reads).
Also left out: the BatchNorm statistics grown one row short or read by the wrong axis (the kernels then read
past the buffers, which Numba does not check: no test could tell it reliably).

    python tests/mutants/run.py --only 'v163-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"

# existing tests of these modules (their most direct value-test files)
MODELS_OLD = ["tests/model/test_values129_models.py", "tests/model/test_values88_models.py",
              "tests/model/test_values73_models.py", "tests/model/test_values51_models.py"]
LAYERS_OLD = ["tests/model/test_values148_layers.py", "tests/model/test_values101_layers.py",
              "tests/model/test_values108_stacks.py", "tests/model/test_values77_layers.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MODELS_NEW = ["tests/model/test_values163_models.py"]
LAYERS_NEW = ["tests/model/test_values163_layers.py"]

# loss_and_grad's bidirectional refusal and the line after it (the device update repeats the lines before)
BIDI_TAIL = ("            raise ValueError(\"a bidirectional stack reads whole sequences; run it without truncated "
             "BPTT\")\n"
             "        L = np.full(B, T, np.int64) if lengths is None else lengths\n        valid_all = running_mask")

MUTANTS = [
    dict(name="v163-select-clip-past-chunk", file=MODELS,
         old="        idx = np.clip(last, 0, T - 1)\n",
         new="        idx = np.clip(last, 0, T)\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head under truncated BPTT: a row ending in a later chunk indexes one step past the chunk"),
    dict(name="v163-tbptt-one-short-runs-whole", file=MODELS,
         old="self._update_noise(B, noise_key)\n        lengths = check_lengths(lengths, T, B)\n"
             "        chunk = T if not tbptt or tbptt >= T else int(tbptt)",
         new="self._update_noise(B, noise_key)\n        lengths = check_lengths(lengths, T, B)\n"
             "        chunk = T if not tbptt or tbptt >= T - 1 else int(tbptt)",
         tests=MODELS_NEW + MODELS_OLD,
         why="a truncation of T-1 steps runs as one whole pass: its gradients flow across the chunk edge"),
    dict(name="v163-bidirectional-tbptt-refusal-off-by-one", file=MODELS,
         old="        if chunk < T and self.reverse_columns is not None:\n"
             + BIDI_TAIL,
         new="        if chunk < T - 1 and self.reverse_columns is not None:\n"
             + BIDI_TAIL,
         tests=MODELS_NEW + MODELS_OLD,
         why="a bidirectional stack under a truncation of T-1 steps is not refused here: the stack's own error "
             "(t0=...) says nothing of truncated BPTT"),
    dict(name="v163-whole-sequence-refusal-misspelt", file=MODELS,
         old="        if chunk < T and getattr(self.head, \"whole_sequence\", False):\n"
             "            raise ValueError(f\"the {self.head.kind} head scores whole sequences; run it without "
             "truncated BPTT\")\n        if chunk < T and self.reverse_columns is not None:\n"
             + BIDI_TAIL,
         new="        if chunk < T and getattr(self.head, \"whole_sequences\", False):\n"
             "            raise ValueError(f\"the {self.head.kind} head scores whole sequences; run it without "
             "truncated BPTT\")\n        if chunk < T and self.reverse_columns is not None:\n"
             + BIDI_TAIL,
         tests=MODELS_NEW + MODELS_OLD,
         why="the attribute's name misspelt with a default: a CTC head under truncated BPTT is let through"),
    dict(name="v163-last-sums-copied-before-the-chunks", file=MODELS,
         old="        self.last_sums = sums  #",
         new="        self.last_sums = dict(sums)  #",
         tests=MODELS_NEW + MODELS_OLD,
         why="the trainer's raw sums are a copy taken before any chunk adds to them: loss and acc read 0"),
    dict(name="v163-eval-per-step-without-noise", file=MODELS,
         old="self._infer_chunks(x, state, lengths, text):\n            h, valid, _ = self._select(y, T, lengths, t0)",
         new="self._infer_chunks(x, None, lengths, text):\n            h, valid, _ = self._select(y, T, lengths, t0)",
         tests=MODELS_NEW + MODELS_OLD,
         why="a per-step head is evaluated from zero states: the evaluation noise is drawn and dropped"),
    dict(name="v163-eval-chunk-select-at-step-zero", file=MODELS,
         old="            h, valid, _ = self._select(y, T, lengths, t0)\n",
         new="            h, valid, _ = self._select(y, T, lengths, 0)\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="every inference chunk's valid steps are taken as if it began at step 0: ragged rows scored wrongly"),
    dict(name="v163-infer-chunks-stop-one-early", file=MODELS,
         old="        for t0 in range(0, max(T, 1), chunk):",
         new="        for t0 in range(0, max(T - 1, 1), chunk):",
         tests=MODELS_NEW + MODELS_OLD,
         why="inference in chunks drops the last chunk when it is one step long"),
    dict(name="v163-mse-classifier-refusal-and", file=MODELS,
         old="    if objective == \"mse\" and (num_classes != 1 or per_step):",
         new="    if objective == \"mse\" and (num_classes != 1 and per_step):",
         tests=MODELS_NEW + MODELS_OLD,
         why="an 'mse' classifier of several outputs on the last step, or of one per step, is let through"),
    dict(name="v163-layer-empty-batch-let-through", file=LAYERS,
         old="        if T < 1 or B < 1:",
         new="        if T < 1 and B < 1:",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="x with no step or no sequence (but not both) reaches the kernels instead of the sentence"),
    dict(name="v163-layer-state-arity-too-many", file=LAYERS,
         old="        if len(state) != self.nstate:",
         new="        if len(state) < self.nstate:",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a state of too many arrays is silently cut to the cell's count"),
    dict(name="v163-layer-dy-width-unchecked", file=LAYERS,
         old="(T, B, self.H), device_ok=True)",
         new="(T, B, None), device_ok=True)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a dy of the wrong width reaches the backward, which reads its first H columns"),
    dict(name="v163-stack-grads-packed-as-params", file=LAYERS,
         old="        self.flat = (repack(self.param_leaves()), repack(self.grad_leaves()))",
         new="        self.flat = (repack(self.param_leaves()), repack(self.param_leaves()))",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="the stack packs its parameters twice: its parameter buffer no longer backs the parameters and no "
             "buffer holds the gradients"),
    dict(name="v163-step-refusal-wrong-flag", file=LAYERS,
         old="        if self.bidirectional:\n            raise ValueError(\"a bidirectional stack reads whole "
             "sequences; it has no step",
         new="        if self.skip:\n            raise ValueError(\"a bidirectional stack reads whole "
             "sequences; it has no step",
         tests=MODELS_NEW + LAYERS_OLD + MODELS_OLD,
         why="the step refusal tests the skip flag: skip stacks cannot sample, bidirectional ones step "
             "through a one-step whole pass"),
]
