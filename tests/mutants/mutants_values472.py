"""Planted bugs, round 472 (format: tests/mutants/mutants.py): the real survivor of a fifty-fifth random sample
(tests/mutants/random_sample.py --seed 55 --count 40 --all-named, on 3a11028: 35 of 40 caught, one of them by a
worker crash) and its neighbours, sixty-seventh pass.

Seed 55's 5 missed: 2 equivalent (rnd55-02: the clipping's flat gradient reshaped to (-2,) for (-1,), which NumPy 2
reads as the same unknown dimension; rnd55-05: config.json written with an indent of 3 for 2, the same JSON values
for every reader), 2 CUDA-only and caught by the CUDA files (rnd55-25: the window layer's backward refusing a device
dw, caught by tests/model/test_synthesis_cuda.py; rnd55-27: device_refusal inverted, so a model on 'cuda' updated
through the host, caught by tests/training/test_device_batches.py), 1 real: WindowLayer.forward_text defaulting to
training=False (rnd55-39), the inference forward for a user calling the layer without training=; every caller in
lnrnn passes it, and every test named after the window module too.

The planted bugs: forward_text's defaults (training, keep, t0), the zero state it starts from without one, kappa or
w starting at one after a state of (h, c), and the kernel keeping its saved arrays only where lengths are given. 7
mutants. The old files named after the window module catch 6 (all but the sampled one); the new file alone catches 7
of 7.

    python tests/mutants/run.py --only 'v472-*'
"""
WINDOW = "lnrnn/model/window.py"
NEW = ["tests/model/test_values472_window_defaults.py"]
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
              "tests/model/test_values454_window.py", "tests/model/test_values52_window.py",
              "tests/model/test_values67_window.py", "tests/model/test_values_window.py"]
SIGNATURE = ("    def forward_text(self, x, text, state=None, training=True, lengths=None, t0=0, keep=True, "
             "on_device=False):")
ZERO_HC = "            state = (np.zeros((B, H), dt), np.zeros((B, H), dt))"
ZERO_KW = "            state = tuple(state) + (np.zeros((B, K), dt), np.zeros((B, C), dt))"
KEEP = "            bool(keep or lengths is not None))"

MUTANTS = [
    dict(name="v472-default-inference", file=WINDOW, old=SIGNATURE,
         new=SIGNATURE.replace("training=True", "training=False"), tests=NEW + OLD_WINDOW,
         why="rnd55-39: forward_text without training= runs the inference forward (BN: the running statistics)"),
    dict(name="v472-default-keeps-nothing", file=WINDOW, old=SIGNATURE,
         new=SIGNATURE.replace("keep=True", "keep=False"), tests=NEW + OLD_WINDOW,
         why="forward_text without keep= keeps nothing for backward_text"),
    dict(name="v472-default-from-row-one", file=WINDOW, old=SIGNATURE, new=SIGNATURE.replace("t0=0", "t0=1"),
         tests=NEW + OLD_WINDOW, why="forward_text without t0= updates the BN statistics' rows from 1"),
    dict(name="v472-no-state-c-ones", file=WINDOW, old=ZERO_HC,
         new="            state = (np.zeros((B, H), dt), np.ones((B, H), dt))", tests=NEW + OLD_WINDOW,
         why="without a state the cell starts at one"),
    dict(name="v472-two-arrays-kappa-ones", file=WINDOW, old=ZERO_KW,
         new="            state = tuple(state) + (np.ones((B, K), dt), np.zeros((B, C), dt))", tests=NEW + OLD_WINDOW,
         why="a state of (h, c) starts the window's positions kappa at one"),
    dict(name="v472-two-arrays-w-ones", file=WINDOW, old=ZERO_KW,
         new="            state = tuple(state) + (np.zeros((B, K), dt), np.ones((B, C), dt))", tests=NEW + OLD_WINDOW,
         why="a state of (h, c) starts the window vector w at one"),
    dict(name="v472-keep-only-with-lengths", file=WINDOW, old=KEEP,
         new="            bool(keep and lengths is not None))", tests=NEW + OLD_WINDOW,
         why="the kernel keeps its saved arrays only where lengths are given"),
]
