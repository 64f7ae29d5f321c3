"""Planted bugs, round 454 (format: tests/mutants/mutants.py): the real survivors of a thirty-first random sample
(tests/mutants/random_sample.py --seed 31 --count 40 --all-named, on b99b111: 35 of 40 caught) and their neighbours,
forty-ninth pass.

Seed 31's 5 missed: 1 equivalent (rnd31-16: the torch binding's shared stack constructor defaulting to 2 layers, a
default LSTM and RNN never use: each passes its own num_layers of 1), 2 CUDA-only lines caught by the CUDA model
file (rnd31-14: _fast_last taken for conditioned models only; rnd31-33: a device update's sums under truncated BPTT
starting at 1; tests/model/test_values139_models_cuda.py fails on both), 2 real: the sequence kernels off by default
(rnd31-05: the tests set config.CUDA_SEQUENCE_KERNELS both ways, none read the default) and the synthesis window
refusing an alphabet of one character (rnd31-22).

Seed 32 (on 0f8a7ae: 35 of 40 caught), 5 missed: 3 equivalent (rnd32-06: the JAX binding's _suffix defaulting to 2
directions, a default both callers override; rnd32-17: the exported norm_hh_weight, a 1-D vector, "transposed";
rnd32-38: a device update's chunk of T steps taken when tbptt > T rather than >= T, T either way), 1 CUDA-only line
caught by the CUDA layer file (rnd32-34: a stack's lower layers handing y to the host between layers;
tests/model/test_cuda_layers.py fails), 1 caught by a test not named after its module (rnd32-20: RecurrentStack.step
keeping its activations; tests/model/test_infer_path.py counts the kernels): the new layers file checks it where a
developer of layers.py looks.

The planted bugs: the sequence kernels off by default and the time loop pinned to the per-step launches;
lnrnn.torch's LSTM of two layers by default, its RNN batch-normalized, its stacks batch-first and its LSTMCell's
forget bias 0; the synthesis window refusing an alphabet of one character or a window of one Gaussian;
RecurrentStack.step keeping its activations, or reading step 0's population statistics at every step. 10 mutants.
The old files named after the modules (OLD_*) catch 6 (the four torch defaults, the window of one Gaussian, the step
at step 0); the new files alone catch 10 of 10.

    python tests/mutants/run.py --only 'v454-*'
"""
CONFIG = "lnrnn/config.py"
TORCH = "lnrnn/interop/torch.py"
WINDOW = "lnrnn/model/window.py"
LAYERS = "lnrnn/model/layers.py"
NEW_CONFIG = ["tests/kernels/test_values454_config_loop.py"]
NEW_TORCH = ["tests/interop/test_values454_torch_defaults.py"]
NEW_WINDOW = ["tests/model/test_values454_window.py"]
NEW_LAYERS = ["tests/model/test_values454_layers_step.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_CONFIG = ["tests/commands/test_cli_train_config.py", "tests/commands/test_values142_runconfig.py",
              "tests/commands/test_values236_runconfig.py", "tests/commands/test_values421_config_numbers.py",
              "tests/commands/test_values426_runconfig.py", "tests/kernels/test_values439_config.py",
              "tests/test_values186_config.py", "tests/test_values_config.py",
              "tests/training/test_values102_runconfig.py", "tests/training/test_values122_runconfig.py",
              "tests/training/test_values13_runconfig.py", "tests/training/test_values209_runconfig.py",
              "tests/training/test_values266_runconfig.py", "tests/training/test_values283_runconfig.py",
              "tests/training/test_values321_runconfig.py", "tests/training/test_values348_runconfig.py",
              "tests/training/test_values371_runconfig_setup.py", "tests/training/test_values427_runconfig.py",
              "tests/training/test_values_runconfig.py"]
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_torch_refusals_as_passed.py",
             "tests/interop/test_values107_torch.py", "tests/interop/test_values121_torch.py",
             "tests/interop/test_values132_torch.py", "tests/interop/test_values14_torch.py",
             "tests/interop/test_values160_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values192_torch.py", "tests/interop/test_values212_torch.py",
             "tests/interop/test_values224_torch.py", "tests/interop/test_values23_torch.py",
             "tests/interop/test_values241_torch.py", "tests/interop/test_values255_torch.py",
             "tests/interop/test_values25_torch.py", "tests/interop/test_values273_torch.py",
             "tests/interop/test_values290_torch.py", "tests/interop/test_values298_torch.py",
             "tests/interop/test_values309_torch.py", "tests/interop/test_values334_torch.py",
             "tests/interop/test_values359_torch.py", "tests/interop/test_values39_torch_lengths.py",
             "tests/interop/test_values41_torch.py", "tests/interop/test_values433_torch.py",
             "tests/interop/test_values449_torch.py", "tests/interop/test_values450_torch.py",
             "tests/interop/test_values49_torch.py", "tests/interop/test_values49_torch_cell.py",
             "tests/interop/test_values74_torch_modules.py", "tests/interop/test_values74_torch_ops.py",
             "tests/interop/test_values86_torch.py", "tests/interop/test_values98_torch.py",
             "tests/interop/test_values_torch.py"]
OLD_WINDOW = ["tests/kernels/test_values103_window.py", "tests/kernels/test_values11_window.py",
              "tests/kernels/test_values120_window.py", "tests/kernels/test_values146_window.py",
              "tests/kernels/test_values167_window.py", "tests/kernels/test_values189_window.py",
              "tests/kernels/test_values22_window_graphs.py", "tests/kernels/test_values261_window.py",
              "tests/kernels/test_values285_window.py", "tests/kernels/test_values293_window.py",
              "tests/kernels/test_values303_window.py", "tests/kernels/test_values318_window.py",
              "tests/kernels/test_values31_window.py", "tests/kernels/test_values333_window.py",
              "tests/kernels/test_values42_window_text.py", "tests/kernels/test_values45_window.py",
              "tests/kernels/test_values57_window.py", "tests/kernels/test_values73_window.py",
              "tests/kernels/test_values84_window.py", "tests/kernels/test_window.py",
              "tests/model/test_values103_window_model.py", "tests/model/test_values10_window.py",
              "tests/model/test_values120_window_model.py", "tests/model/test_values133_window_model.py",
              "tests/model/test_values14_window.py", "tests/model/test_values162_window_model.py",
              "tests/model/test_values16_window.py", "tests/model/test_values204_window_model.py",
              "tests/model/test_values221_window_model.py", "tests/model/test_values226_window_model.py",
              "tests/model/test_values238_window_model.py", "tests/model/test_values24_window.py",
              "tests/model/test_values256_window.py", "tests/model/test_values272_sampler_window.py",
              "tests/model/test_values292_window.py", "tests/model/test_values308_window.py",
              "tests/model/test_values333_window_model.py", "tests/model/test_values360_window.py",
              "tests/model/test_values378_window.py", "tests/model/test_values42_window.py",
              "tests/model/test_values52_window.py", "tests/model/test_values67_window.py",
              "tests/model/test_values_window.py"]
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
              "tests/model/test_values77_layers.py", "tests/model/test_values9_layers.py"]

MUTANTS = [
    dict(name="v454-sequence-kernels-off", file=CONFIG, old="CUDA_SEQUENCE_KERNELS = True",
         new="CUDA_SEQUENCE_KERNELS = False",
         tests=NEW_CONFIG + OLD_CONFIG, why="rnd31-05: every CUDA LSTM and RNN takes one launch pair a step"),
    dict(name="v454-loop-path-step", file=CONFIG, old='CUDA_LOOP_PATH = "auto"', new='CUDA_LOOP_PATH = "step"',
         tests=NEW_CONFIG + OLD_CONFIG, why="the time loop pinned to the per-step launches by default"),
    dict(name="v454-torch-lstm-two-layers", file=TORCH,
         old='def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", proj_size=0, **kw):',
         new='def __init__(self, input_size, hidden_size, num_layers=2, norm="ln", proj_size=0, **kw):',
         tests=NEW_TORCH + OLD_TORCH, why="lnrnn.torch.LSTM(I, H) a stack of two, not nn.LSTM's one"),
    dict(name="v454-torch-rnn-bn-default", file=TORCH,
         old='def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", nonlinearity="tanh", **kw):',
         new='def __init__(self, input_size, hidden_size, num_layers=1, norm="bn", nonlinearity="tanh", **kw):',
         tests=NEW_TORCH + OLD_TORCH, why="lnrnn.torch.RNN(I, H) batch-normalized, not layer-normalized"),
    dict(name="v454-torch-batch-first-default", file=TORCH, old='norm="ln", batch_first=False, forget_bias=1.0,',
         new='norm="ln", batch_first=True, forget_bias=1.0,',
         tests=NEW_TORCH + OLD_TORCH, why="a stack reading (B,T,I) unless told, unlike nn.LSTM"),
    dict(name="v454-torch-cell-forget-bias-0", file=TORCH,
         old='bias=True, norm="ln", forget_bias=1.0, device=None, dtype=None):',
         new='bias=True, norm="ln", forget_bias=0.0, device=None, dtype=None):',
         tests=NEW_TORCH + OLD_TORCH, why="the LSTMCell's forget gates start at bias 0, not the documented 1"),
    dict(name="v454-window-one-character-refused", file=WINDOW, old="alphabet_size < 1", new="alphabet_size <= 1",
         tests=NEW_WINDOW + OLD_WINDOW, why="rnd31-22: a one-character alphabet refused"),
    dict(name="v454-window-one-gaussian-refused", file=WINDOW, old="window < 1", new="window <= 1",
         tests=NEW_WINDOW + OLD_WINDOW, why="a window of one Gaussian refused"),
    dict(name="v454-stack-step-keeps", file=LAYERS,
         old="y, states = self.forward(x_t[None], state, training=training, t0=t, keep=False)",
         new="y, states = self.forward(x_t[None], state, training=training, t0=t, keep=True)",
         tests=NEW_LAYERS + OLD_LAYERS, why="rnd32-20: a sampling step saves its activations for no backward"),
    dict(name="v454-stack-step-at-step-0", file=LAYERS,
         old="y, states = self.forward(x_t[None], state, training=training, t0=t, keep=False)",
         new="y, states = self.forward(x_t[None], state, training=training, t0=0, keep=False)",
         tests=NEW_LAYERS + OLD_LAYERS, why="every step reads BN's population statistics of step 0"),
]
