"""Planted bugs, round 211 (format: tests/mutants/mutants.py): single-line slips in the sequence model and the
stack, on lines no earlier round mutates: model.buffers dropping the 'rnn.' prefix of its names; load_arrays
counting only the parameters as known names (a BatchNorm model's own checkpoint refused); a last-step head's
gradient scattered over T rows instead of B; device_refusal naming the host where the CPU belongs; the state
noise seeded (key..., seed) instead of (seed, key...); scored_count of whole rows one step short; evaluate
drawing batch i's noise for key i+1; head_config building a per-step classifier as a last-step one;
build_model refusing 'skip' as an unknown setting; the objective refusal without the quotes; the layer's
shape refusal written '(?, ?, 3)'; a BatchNorm layer keeping statistics for one step whatever max_steps; the
state-count refusal reporting the expected count as the given one; a bidirectional stack's backward pairing
the wrong layers above layer 0.

14 mutants. Against the existing targeted tests alone (the two most direct files per module:
test_values193_models and test_values163_models, test_values193_layers_stacks and test_values163_layers; run without
the baseline for time) 6 were caught and 8 missed: the buffers' prefix, load_arrays' names, the CPU refusal,
scored_count without lengths, evaluate's noise keys, the per-step classifier's config, the objective
refusal's quotes and the statistics' rows at construction. The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values211_models (a BatchNorm stack with state
noise and a last-step head over ragged rows with T != B, every gradient against central differences and the
noise against the generator seeded (seed, 1, key) here; a per-step classifier from an old-style config on a
two-layer skip stack, its count of running steps and gradients against central differences; parameter and
buffer names and shapes from the cells' definitions, the parameter count summed from them, an .npz
checkpoint's round trip array by array; evaluate over two batches against the tanh RNN and cross-entropy of
test_values129_models from the noise seeded (seed, 2, i); refusals word for word), test_values211_layers (a
BatchNorm layer's statistics (max_steps,H), zeros and ones; a two-layer bidirectional model over ragged rows,
every gradient against central differences; refusals word for word). Dropped before the catalogue as
equivalent: the noise_state early return for state_noise 0 dropped (zero noise is the zero state) and the
skip stack's join also after the top layer (that input is never read).

    python tests/mutants/run.py --only 'v211-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"

# existing tests of these modules (their most direct value-test files)
MODELS_OLD = ["tests/model/test_values193_models.py", "tests/model/test_values163_models.py"]
LAYERS_OLD = ["tests/model/test_values193_layers_stacks.py", "tests/model/test_values163_layers.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MODELS_NEW = ["tests/model/test_values211_models.py"]
LAYERS_NEW = ["tests/model/test_values211_layers.py"]

MUTANTS = [
    dict(name="v211-buffers-lose-their-rnn-prefix", file=MODELS,
         old='        return {"rnn." + k: v for k, v in getattr(self.stack, "buffers", {}).items()}',
         new='        return {k: v for k, v in getattr(self.stack, "buffers", {}).items()}',
         tests=MODELS_NEW + MODELS_OLD,
         why="model.buffers names a BatchNorm stack's statistics without the 'rnn.' of its parameters, so a checkpoint's names no longer match"),
    dict(name="v211-load-arrays-names-params-only", file=MODELS,
         old='        names = set(own_p) | set(own_b)\n',
         new='        names = set(own_p)\n',
         tests=MODELS_NEW + MODELS_OLD,
         why="load_arrays refuses a BatchNorm model's own checkpoint (its statistics counted as unknown names)"),
    dict(name="v211-scatter-rows-along-time", file=MODELS,
         old='        rows = np.arange(y_shape[1])\n',
         new='        rows = np.arange(y_shape[0])\n',
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head's gradient is scattered over the wrong axis's count (T rows, not B): wrong or refused when T != B"),
    dict(name="v211-cpu-refusal-says-host", file=MODELS,
         old='return "the stack runs on the CPU"',
         new='return "the stack runs on the host"',
         tests=MODELS_NEW + MODELS_OLD,
         why="device_refusal names the host where the stack's device belongs"),
    dict(name="v211-noise-seed-key-first", file=MODELS,
         old='rng = np.random.default_rng([self.noise_seed, *key])',
         new='rng = np.random.default_rng([*key, self.noise_seed])',
         tests=MODELS_NEW + MODELS_OLD,
         why='the state noise is seeded (key..., seed) instead of (seed, key...): other draws than the documented ones'),
    dict(name="v211-scored-count-one-step-short", file=MODELS,
         old='        L = np.full(B, T, np.int64) if lengths is None else lengths\n        return self.head.count(',
         new='        L = np.full(B, T - 1, np.int64) if lengths is None else lengths\n        return self.head.count(',
         tests=MODELS_NEW + MODELS_OLD,
         why='scored_count of whole rows (no lengths) counts T-1 steps a row for a per-step head'),
    dict(name="v211-evaluate-keys-start-at-one", file=MODELS,
         old='enumerate(batches):',
         new='enumerate(batches, 1):',
         tests=MODELS_NEW + MODELS_OLD,
         why="evaluate draws batch i's state noise for key i+1"),
    dict(name="v211-ce-head-config-drops-per-step", file=MODELS,
         old='        return {"kind": "classifier", "outputs": int(num_classes), "per_step": bool(per_step)}',
         new='        return {"kind": "classifier", "outputs": int(num_classes), "per_step": False}',
         tests=MODELS_NEW + MODELS_OLD,
         why='a per-step classifier is built as a last-step one'),
    dict(name="v211-skip-is-an-unknown-setting", file=MODELS,
         old='{"head", "state_noise", "skip", "bidirectional"}',
         new='{"head", "state_noise", "bidirectional"}',
         tests=MODELS_NEW + MODELS_OLD,
         why="build_model refuses a skip-connection model's own config"),
    dict(name="v211-objective-refusal-without-repr", file=MODELS,
         old='raise ValueError(f"objective must be \'ce\' or \'mse\', not {objective!r}")',
         new='raise ValueError(f"objective must be \'ce\' or \'mse\', not {objective}")',
         tests=MODELS_NEW + MODELS_OLD,
         why='the refusal of an unknown objective drops the quotes around it'),
    dict(name="v211-shape-refusal-spaced", file=LAYERS,
         old='want = "(" + ",".join(',
         new='want = "(" + ", ".join(',
         tests=LAYERS_NEW + LAYERS_OLD,
         why="the shape refusal writes '(?, ?, 3)' instead of the documented '(?,?,3)'"),
    dict(name="v211-buffers-one-step", file=LAYERS,
         old='        self.buffers = self.spec.init_buffers(self.H, max_steps, self.dtype)\n',
         new='        self.buffers = self.spec.init_buffers(self.H, 1, self.dtype)\n',
         tests=LAYERS_NEW + LAYERS_OLD,
         why='a BatchNorm layer keeps statistics for one step whatever max_steps'),
    dict(name="v211-state-count-refusal-names-nstate", file=LAYERS,
         old='f"array{\'s\' * (self.nstate != 1)}, got {len(state)}")',
         new='f"array{\'s\' * (self.nstate != 1)}, got {self.nstate}")',
         tests=LAYERS_NEW + LAYERS_OLD,
         why='the refusal of a wrong-length state reports the expected count as the given one'),
    dict(name="v211-bidirectional-backward-layer-index", file=LAYERS,
         old='            fwd, bwd = self.layers[2 * k], self.layers[2 * k + 1]\n',
         new='            fwd, bwd = self.layers[k], self.layers[k + 1]\n',
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional stack's backward pairs layer k's gradient with the wrong directions above layer 0"),
]
