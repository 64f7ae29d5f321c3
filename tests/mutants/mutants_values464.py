"""Planted bugs, round 464 (format: tests/mutants/mutants.py): the real survivor of a forty-fourth random sample
(tests/mutants/random_sample.py --seed 44 --count 40 --all-named, on 3dfbc05: 32 of 40 caught) and its neighbours,
fifty-ninth pass.

Seed 44's 8 missed: 2 equivalent (rnd44-01: a Hershey line's inner spike drawn where a uniform draw is at most
rather than below its chance, a tie of probability 0; rnd44-04: lnrnn sample's --judge-out JSON indented by 2 for 1,
the same JSON), 2 caught by files named after other modules (rnd44-08: reference.window_phi_at dividing by the
squared distance, tests/model/test_values42_window.py fails; rnd44-25: a model description's hidden size never
checked against the saved weights, tests/training/test_values418_damaged_description.py and
tests/commands/test_values423_saved_sizes.py fail), 3 CUDA-only lines caught by the CUDA files (rnd44-07: a
skip-connected stack's device backward taking its columns from k / H, test_values22_layers_cuda; rnd44-29: each
row's last step in a chunk read from step 1 up, test_device_update; rnd44-34: the window's device statistics read
from row 0 at t0 1, test_values446_synthesis_cuda), 1 real: a device array of any shape taken by a layer's input
check (rnd44-36).

The planted bugs: a layer's input check on a device array never checking its sizes (a check left open crashing), nor
its number of axes, nor its dtype, or taking a device array where only a numpy array may come. 4 mutants. The old
files named after the module (OLD_*) catch 0; the new file alone catches 4 of 4.

    python tests/mutants/run.py --only 'v464-*'
"""
LAYERS = "lnrnn/model/layers.py"
NEW_LAYERS = ["tests/model/test_values464_layers_device_check.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
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
              "tests/model/test_values77_layers.py", "tests/model/test_values9_layers.py"]

SHAPE_OK = "(shape is not None and any(s is not None and s != d for s, d in zip(shape, a.shape))):\n"
DEV_SHAPE = "            raise ValueError(f\"{name} must have shape {shape}, got {a.shape}\")"
DEV_DTYPE = ("        if a.dtype != dtype:\n"
             "            raise TypeError(f\"{name} must be {np.dtype(dtype).name} like the layer's parameters, got "
             "{a.dtype}\")\n        return a\n")

MUTANTS = [
    dict(name="v464-device-shape-unchecked", file=LAYERS,
         old="        if a.ndim != ndim or " + SHAPE_OK + DEV_SHAPE,
         new="        if a.ndim != ndim or " + SHAPE_OK.replace("shape is not None", "shape is None") + DEV_SHAPE,
         tests=NEW_LAYERS + OLD_LAYERS, why="rnd44-36: a device array's sizes never checked (None shapes crash)"),
    dict(name="v464-device-ndim-unchecked", file=LAYERS,
         old="        if a.ndim != ndim or " + SHAPE_OK + DEV_SHAPE, new="        if " + SHAPE_OK + DEV_SHAPE,
         tests=NEW_LAYERS + OLD_LAYERS, why="a device array with an axis more taken where its first sizes fit"),
    dict(name="v464-device-dtype-unchecked", file=LAYERS,
         old=DEV_DTYPE, new=DEV_DTYPE.replace("if a.dtype != dtype:", "if False:"),
         tests=NEW_LAYERS + OLD_LAYERS, why="a device array of another dtype taken"),
    dict(name="v464-device-without-device-ok", file=LAYERS,
         old='    if device_ok and not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host"):',
         new='    if not isinstance(a, np.ndarray) and hasattr(a, "copy_to_host"):',
         tests=NEW_LAYERS + OLD_LAYERS, why="a device array taken where only a numpy array may come (a CPU layer)"),
]
