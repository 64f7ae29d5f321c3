"""Planted bugs, round 470 (format: tests/mutants/mutants.py): the real survivor of a fifty-second random sample
(tests/mutants/random_sample.py --seed 52 --count 40 --all-named, on 4a4b8c4: 36 of 40 caught) and its neighbours,
sixty-fifth pass.

Seed 52's 4 missed: 3 equivalent (rnd52-01: the prewarm child's layer built with max_steps 3 for 2, where the
backward it compiles takes the same array types whatever the steps; rnd52-08: lnrnn.torch's loader of exported
tensors calling load_state_dict with strict=False, after it has refused any key missing or unexpected itself;
rnd52-09: lnrnn info's threading probe summing from 1 for 0, a value nothing reads), 1 real: the LN-LSTM cell
declared without Graves's gate clip (rnd52-02), so that a layer, a model and lnrnn train refused --clip-gates for
the LN-LSTM as "a cell without gates"; the files named after the cells module build clipped layers of the plain LSTM
only.

Seed 53 (on 4a4b8c4 with this round's files): 37 of 40 caught, the 3 missed equivalent (rnd53-17: a head's targets
reshaped to (-2, O) for (-1, O), which NumPy 2 reads as the same unknown dimension; rnd53-22: a strokes .npz's
train and val arrays recognised when train_strokes and train_lengths are a proper subset of its keys, which they
are whenever the val arrays are there too; rnd53-24: lnrnn plot's title taking 2 layers for 1 where config.json has
no layers, which every config.json lnrnn writes has).

The planted bugs: each LSTM cell (plain, LN, BN) declared without the gate clip; a layer that drops the clip it was
built with (backpropagating unclipped); the refusal of the clip inverted (taken by the RNN cells, refused by the
LSTM cells). 5 mutants. The old files named after the cells, layers and functional modules catch 3 (the plain
LSTM's, whose clipped layer they build; the dropped clip; the inverted refusal); the new file alone catches 5 of 5.

    python tests/mutants/run.py --only 'v470-*'
"""
CELLS = "lnrnn/model/cells.py"
LAYERS = "lnrnn/model/layers.py"
FUNCTIONAL = "lnrnn/model/functional.py"
NEW = ["tests/model/test_values470_cells.py"]
OLD_CELLS = ["tests/kernels/test_bn_cells.py", "tests/kernels/test_values11_bn_cells.py",
             "tests/kernels/test_values154_bn_cells.py", "tests/kernels/test_values177_bn_cells.py",
             "tests/kernels/test_values201_bn_cells.py", "tests/kernels/test_values22_bn_cells.py",
             "tests/kernels/test_values296_bn_cells.py", "tests/kernels/test_values338_bn_cells.py",
             "tests/model/test_values13_cells.py", "tests/model/test_values169_cells.py",
             "tests/model/test_values204_cells.py", "tests/model/test_values282_cells.py",
             "tests/model/test_values313_cells.py", "tests/model/test_values347_cells.py",
             "tests/model/test_values382_cells.py", "tests/model/test_values439_cells.py",
             "tests/model/test_values452_cells.py", "tests/model/test_values67_cells.py",
             "tests/model/test_values88_cells.py", "tests/test_values150_reference_cells.py",
             "tests/test_values176_reference_cells.py", "tests/test_values191_reference_cells.py",
             "tests/test_values288_reference_cells.py", "tests/test_values304_reference_cells.py",
             "tests/test_values330_reference_cells.py", "tests/test_values355_reference_cells.py"]
OLD_LAYERS = ["tests/interop/test_values46_layers_sizes.py", "tests/model/test_layers.py",
              "tests/model/test_layers_models_bidirectional.py", "tests/model/test_values101_layers.py",
              "tests/model/test_values13_layers.py", "tests/model/test_values148_layers.py",
              "tests/model/test_values163_layers.py", "tests/model/test_values193_layers_stacks.py",
              "tests/model/test_values211_layers.py", "tests/model/test_values231_layers.py",
              "tests/model/test_values242_layers_stacks.py", "tests/model/test_values24_layers.py",
              "tests/model/test_values257_layers_stacks.py", "tests/model/test_values295_layers_stacks.py",
              "tests/model/test_values297_layers_stacks.py", "tests/model/test_values313_layers.py",
              "tests/model/test_values33_layers.py", "tests/model/test_values341_layers_stacks.py",
              "tests/model/test_values363_layers.py", "tests/model/test_values385_layers_stacks.py",
              "tests/model/test_values428_layers.py", "tests/model/test_values449_layers.py",
              "tests/model/test_values454_layers_step.py", "tests/model/test_values456_layers_skip.py",
              "tests/model/test_values464_layers_device_check.py", "tests/model/test_values77_layers.py",
              "tests/model/test_values9_layers.py"]
OLD_FUNCTIONAL = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
                  "tests/model/test_values148_functional.py", "tests/model/test_values169_functional.py",
                  "tests/model/test_values16_functional.py", "tests/model/test_values204_functional.py",
                  "tests/model/test_values22_functional.py", "tests/model/test_values234_functional.py",
                  "tests/model/test_values252_functional.py", "tests/model/test_values310_functional.py",
                  "tests/model/test_values343_functional.py", "tests/model/test_values364_functional.py",
                  "tests/model/test_values384_functional.py", "tests/model/test_values438_functional.py",
                  "tests/model/test_values440_functional.py", "tests/model/test_values456_functional.py",
                  "tests/model/test_values458_functional_grown.py", "tests/model/test_values51_functional.py",
                  "tests/model/test_values77_functional.py"]

LSTM = "         saved_y=LSTM_SAVED_Y, gate_clip=True, infer_seqs=False),"
LN_LSTM = ("         backward_loop=lstm._backward_rows, cpu=LSTM_CPU, cuda=lstm_cuda, saved_y=LSTM_SAVED_Y, "
           "gate_clip=True,")
BN_LSTM = "         masked_kernel=True, gate_clip=True, synced=BN_LSTM_SYNCED),"
LAYER_CLIP = "        self.clip_gates = gate_clip(clip_gates, self.spec)"
REFUSAL = "    if bound and not spec.gate_clip:"


def _no_clip(name, old, why):
    return dict(name=name, file=CELLS, old=old, new=old.replace("gate_clip=True", "gate_clip=False"),
                tests=NEW + OLD_CELLS, why=why)


MUTANTS = [
    _no_clip("v470-lstm-without-gate-clip", LSTM, "the plain LSTM cell refuses --clip-gates"),
    _no_clip("v470-ln-lstm-without-gate-clip", LN_LSTM, "rnd52-02: the LN-LSTM cell refuses --clip-gates"),
    _no_clip("v470-bn-lstm-without-gate-clip", BN_LSTM, "the BN-LSTM cell refuses --clip-gates"),
    dict(name="v470-layer-drops-the-clip", file=LAYERS, old=LAYER_CLIP,
         new=LAYER_CLIP.replace("gate_clip(clip_gates,", "gate_clip(0.0 * clip_gates,"), tests=NEW + OLD_LAYERS,
         why="a layer built with a gate clip backpropagates unclipped"),
    dict(name="v470-refusal-inverted", file=FUNCTIONAL, old=REFUSAL, new=REFUSAL.replace("not spec", "spec"),
         tests=NEW + OLD_FUNCTIONAL, why="the gate clip refused for the LSTM cells and taken by the RNN cells"),
]
