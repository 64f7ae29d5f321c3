"""Planted bugs, round 193 (format: tests/mutants/mutants.py): single-line slips in the sequence model and the
stack, on lines no earlier round mutates: the refusal of a negative state_noise calling 0 refused too;
``model.grads`` naming the head's parameters as its gradients; load_arrays' shape refusal giving the model's
shape where the file's belongs; a per-step head under truncated BPTT scoring a later chunk's padded steps
(its mask unshifted by the chunk's start); updates without a key drawing their noise for keys 1, 2, ...;
scored_count counting rows with no step; loss_and_grad no longer zeroing the gradients first; a last-step
evaluation starting from zero states instead of its noise; per-step targets of a chunk sliced along the batch;
a BatchNorm stack loading the first layer's statistics into every layer; a multi-layer stack starting every
layer from the first layer's given state; a bidirectional stack's refusal of a short state list counting
layers instead of directions; its final states in swapped order; its dL/dx the forward direction's alone.

14 mutants. Against the existing targeted tests alone (the two most direct files per module:
test_values163_models and test_values129_models, test_values163_layers and test_layers_models_bidirectional; the longer
lists took over five minutes for their baseline, so the measurement was cut to these and run without the
baseline) 4 of the 9 model mutants were caught and 5 missed (the state_noise and shape refusals' wording,
the noise counter's start, scored_count with an empty row, the gradients not zeroed between updates); the
measurement of the 5 stack mutants was cut short for time (not counted). The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values193_models (a per-step
regression in chunks of 2 steps over ragged rows against the summed squared error counted here and every
gradient, read through ``model.grads`` after an earlier update, against central differences with each
chunk's initial state held; the noise of updates without a key drawn for keys 0 then 1, seeded (seed, 1,
key); a last-step evaluation from the noise seeded (seed, 2, key); the scored count of rows with a step and
of running steps; the refusals' sentences), test_values193_layers_stacks (a two-layer stack from distinct given
states, whole and in two chunks, by hand; a two-layer bidirectional stack over ragged rows: outputs, final
states in the layers' order, dL/dx and every parameter's gradient against central differences of a
hand-written forward; a BatchNorm stack's statistics loaded per layer; the refusal's sentence). Dropped as
equivalent: t1 = t0 + chunk unclipped in loss_and_grad and _infer_chunks (slicing clips it, and lengths never
exceed T); the detached state copies between chunks dropped (the CPU forward returns new arrays); the
top layer's on_device flag on the CPU (to_host is the identity there); the options' copy into the config
tested with ``in`` instead of truth (the stack stores them only when true).

    python tests/mutants/run.py --only 'v193-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"

# existing tests of these modules (their most direct value-test files)
MODELS_OLD = ["tests/model/test_values163_models.py", "tests/model/test_values129_models.py"]
LAYERS_OLD = ["tests/model/test_values163_layers.py", "tests/model/test_layers_models_bidirectional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MODELS_NEW = ["tests/model/test_values193_models.py"]
LAYERS_NEW = ["tests/model/test_values193_layers_stacks.py"]

MUTANTS = [
    dict(name="v193-state-noise-refusal-says-positive", file=MODELS,
         old='f"state_noise must be a non-negative standard deviation, not {state_noise}"',
         new='f"state_noise must be a positive standard deviation, not {state_noise}"',
         tests=MODELS_NEW + MODELS_OLD,
         why="the refusal of a negative state_noise says 0 is refused too, which the model takes (no noise)"),
    dict(name="v193-model-grads-name-the-head-params", file=MODELS,
         old='                **{"head." + k: v for k, v in self.head.grads.items()}}',
         new='                **{"head." + k: v for k, v in self.head.params.items()}}',
         tests=MODELS_NEW + MODELS_OLD,
         why="model.grads['head.W'] is the head's weight, not its gradient"),
    dict(name="v193-load-arrays-shape-message-swapped", file=MODELS,
         old='raise ValueError(f"{k}: shape {arrays[k].shape} vs {p.shape}")',
         new='raise ValueError(f"{k}: shape {p.shape} vs {arrays[k].shape}")',
         tests=MODELS_NEW + MODELS_OLD,
         why="a checkpoint of the wrong size is reported with the model's shape where the file's belongs"),
    dict(name="v193-per-step-valid-unshifted-by-chunk", file=MODELS,
         old="            valid = running_mask(L - t0, T, bool)                            # (T,B)\n",
         new="            valid = running_mask(L, T, bool)                                 # (T,B)\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="a per-step head under truncated BPTT scores a later chunk's padded steps of a row that ended"),
    dict(name="v193-noise-counter-starts-at-one", file=MODELS,
         old="            noise_key, self._noise_calls = self._noise_calls, self._noise_calls + 1\n",
         new="            noise_key, self._noise_calls = self._noise_calls + 1, self._noise_calls + 1\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="updates without a key draw their noise for keys 1, 2, ... instead of 0, 1, ..."),
    dict(name="v193-scored-count-counts-empty-rows", file=MODELS,
         old='running_mask(L, T, bool) if self.head.steps == "all" else L > 0)',
         new='running_mask(L, T, bool) if self.head.steps == "all" else L >= 0)',
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head's scored count includes rows with no step (the ranks' normalizer too large)"),
    dict(name="v193-loss-and-grad-keeps-old-grads", file=MODELS,
         old="        self._text(text)\n        self.zero_grad()\n",
         new="        self._text(text)\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="a second update adds its gradient to the first's"),
    dict(name="v193-last-step-evaluation-from-zero-state", file=MODELS,
         old="            h = self.last_outputs(x, state, lengths, text)\n",
         new="            h = self.last_outputs(x, None, lengths, text)\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head's evaluation ignores the evaluation noise (starts from zero states)"),
    dict(name="v193-chunk-targets-sliced-by-row", file=MODELS,
         old="        return np.asarray(targets)[:, t0:t1]\n",
         new="        return np.asarray(targets)[t0:t1]\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="per-step targets (B,T,...) of a chunk are sliced along the batch instead of time"),
    dict(name="v193-load-buffers-all-from-layer-0", file=LAYERS,
         old="buffers[self._name(j) + n], dtype=layer.dtype)",
         new="buffers[self._name(0) + n], dtype=layer.dtype)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="every layer of a BatchNorm stack loads the first layer's population statistics"),
    dict(name="v193-stack-every-layer-starts-from-layer-0-state", file=LAYERS,
         old="x, s = layer.forward(x, None if state is None else state[k], training, on_device or k < last,",
         new="x, s = layer.forward(x, None if state is None else state[0], training, on_device or k < last,",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a multi-layer stack given states (a carried chunk's) starts every layer from the first one's"),
    dict(name="v193-stack-state-refusal-counts-layers-not-directions", file=LAYERS,
         old='f"state must hold one entry per layer ({len(self.layers)}), got {len(state)}"',
         new='f"state must hold one entry per layer ({len(self.layers) // self.directions}), got {len(state)}"',
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional stack's refusal asks for one state per layer where it needs one per direction"),
    dict(name="v193-bidirectional-final-states-swapped", file=LAYERS,
         old="            states += [sf, sb]\n",
         new="            states += [sb, sf]\n",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional layer's final states come backward direction first, against layers' order"),
    dict(name="v193-bidirectional-dx-drops-backward-direction", file=LAYERS,
         old="            else:\n                dx = d_in\n",
         new="            else:\n                dx = df\n",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="dL/dx of a bidirectional stack without skip is the forward direction's alone"),
]
