"""Planted bugs, round 385 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the recurrent layer and stack (lnrnn/model/layers.py), twentieth pass, planted before any test was written for
them: a layer's input and hidden sizes taken the other way round; synchronized BatchNorm refused on the CPU
instead of on CUDA; BN statistics grown to one step fewer than a chunk reaches; the default zero state T rows
tall; backward checking dy against (B, T, H); a stack's zero_grad leaving its bottom layer's gradients; a stack's
synchronized BatchNorm set on its top layer only; a skip stack's y joined top layer first; a skip stack checking
x's width against the hidden size; an LSTM layer's (h0, c0) taken as (c0, h0); backward run without the forward's
lengths; the forget-gate bias always 1. 12 mutants. Against the old targeted files alone (the 23 layer, stack and
bidirectional files of tests/model listed in OLD): 10 of 12 caught; missed: the stack's zero_grad and
set_batch_reduce reaching only some layers. test_values385_layers_stacks catches both (checked with their lists
cut to it): zero_grad after a backward clears every layer of a two-deep stack, one-way and bidirectional, and the
optimizer's flat view; each BN layer's forward of a three-deep stack sums its statistics through the group's
callback, None takes it off, and a group of one gives the same y.

    python tests/mutants/run.py --only 'v385-*'
"""
LAYERS = "lnrnn/model/layers.py"
NEW = ["tests/model/test_values385_layers_stacks.py"]
OLD = [
    "tests/model/test_layers_models_bidirectional.py",
    "tests/model/test_cuda_layers.py",
    "tests/model/test_layers.py",
    "tests/model/test_values101_layers.py",
    "tests/model/test_values108_stacks.py",
    "tests/model/test_values13_layers.py",
    "tests/model/test_values148_layers.py",
    "tests/model/test_values163_layers.py",
    "tests/model/test_values193_layers_stacks.py",
    "tests/model/test_values211_layers.py",
    "tests/model/test_values22_layers_cuda.py",
    "tests/model/test_values231_layers.py",
    "tests/model/test_values242_layers_stacks.py",
    "tests/model/test_values24_layers.py",
    "tests/model/test_values257_layers_stacks.py",
    "tests/model/test_values295_layers_stacks.py",
    "tests/model/test_values297_layers_stacks.py",
    "tests/model/test_values313_layers.py",
    "tests/model/test_values33_layers.py",
    "tests/model/test_values341_layers_stacks.py",
    "tests/model/test_values363_layers.py",
    "tests/model/test_values77_layers.py",
    "tests/model/test_values9_layers.py",
]

MUTANTS = [
    dict(name="v385-layers-sizes-input-hidden-swapped", file=LAYERS,
         old="check_sizes(type(self).__name__, input_size=input_size, hidden_size=hidden_size,",
         new="check_sizes(type(self).__name__, input_size=hidden_size, hidden_size=input_size,",
         tests=NEW + OLD,
         why="a layer's input and hidden sizes taken the other way round"),
    dict(name="v385-layers-batch-reduce-device-inverted", file=LAYERS,
         old='            if self.device != "cpu":',
         new='            if self.device == "cpu":',
         tests=NEW + OLD,
         why="synchronized BatchNorm refused on the CPU (and let through on CUDA)"),
    dict(name="v385-layers-grow-one-short", file=LAYERS,
         old="            self.buffers[k] = grown(v, T)",
         new="            self.buffers[k] = grown(v, T - 1)",
         tests=NEW + OLD,
         why="BN statistics grown to one step fewer than the chunk reaches"),
    dict(name="v385-layers-zero-state-from-T", file=LAYERS,
         old="            state = self.zero_state(B)",
         new="            state = self.zero_state(T)",
         tests=NEW + OLD,
         why="the default zero state made T rows tall instead of B"),
    dict(name="v385-layers-backward-T-B-swapped", file=LAYERS,
         old="        x, state, saved, p, lengths = self._saved\n        T, B, _ = x.shape",
         new="        x, state, saved, p, lengths = self._saved\n        B, T, _ = x.shape",
         tests=NEW + OLD,
         why="backward checks dy against (B,T,H)"),
    dict(name="v385-layers-stack-zero-grad-skips-bottom", file=LAYERS,
         old="        for layer in self.layers:\n            layer.zero_grad()",
         new="        for layer in self.layers[1:]:\n            layer.zero_grad()",
         tests=NEW + OLD,
         why="a stack's zero_grad leaves the bottom layer's gradients to accumulate"),
    dict(name="v385-layers-stack-batch-reduce-top-only", file=LAYERS,
         old="        for layer in self.layers:\n            layer.set_batch_reduce(reduce)",
         new="        for layer in self.layers[-1:]:\n            layer.set_batch_reduce(reduce)",
         tests=NEW + OLD,
         why="a stack's synchronized BatchNorm set on its top layer only"),
    dict(name="v385-layers-skip-output-order-reversed", file=LAYERS,
         old="        y = join(ys)  ",
         new="        y = join(ys[::-1])  ",
         tests=NEW + OLD,
         why="a skip stack's y joined top layer first"),
    dict(name="v385-layers-skip-input-checked-against-H", file=LAYERS,
         old="(None, None, self.layers[0].I), device_ok=dev)\n        if dev:\n            x = kn.to_device(x)",
         new="(None, None, self.layers[0].H), device_ok=dev)\n        if dev:\n            x = kn.to_device(x)",
         tests=NEW + OLD,
         why="a skip stack checks x's width against the hidden size"),
    dict(name="v385-layers-state-names-reversed", file=LAYERS,
         old="                      for n, s in zip(self.spec.state_names, state))",
         new="                      for n, s in zip(self.spec.state_names, state[::-1]))",
         tests=NEW + OLD,
         why="an LSTM layer's given (h0, c0) taken as (c0, h0)"),
    dict(name="v385-layers-backward-lengths-dropped", file=LAYERS,
         old="functional.backward(self.setup, dy, saved, x, state, p, lengths)",
         new="functional.backward(self.setup, dy, saved, x, state, p, None)",
         tests=NEW + OLD,
         why="a layer's backward runs without the lengths its forward had"),
    dict(name="v385-layers-forget-bias-ignored", file=LAYERS,
         old="        self.forget_bias = float(forget_bias)",
         new="        self.forget_bias = 1.0",
         tests=NEW + OLD,
         why="a layer's forget-gate bias always the default 1"),
]
