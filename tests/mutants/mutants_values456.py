"""Planted bugs, round 456 (format: tests/mutants/mutants.py): the real survivors of a thirty-fourth random sample
(tests/mutants/random_sample.py --seed 34 --count 40 --all-named, on 5645475: 36 of 40 caught) and their neighbours,
fifty-first pass.

Seed 34's 4 missed: 1 equivalent (rnd34-26: describe_split's smallest reproducible share read at rank size + 1
rather than size - 1, both past the first nb % size ranks, so both the smaller share), 1 CUDA-only line caught by
the CUDA model file (rnd34-25: a bidirectional stack on 'cuda' running its layers with the host's arrays;
tests/model/test_values139_models_cuda.py fails), 2 real: dL/dh_n put on the device at step max(L - 1, 1), a row of
one step taking it at step 1 (rnd34-00: the device test's rows had lengths 4, 0 and 2 only), and a skip stack's
backward reading layer 1's width, an IndexError for a skip stack of one layer (rnd34-14).

The planted bugs: dL/dh_n put on the device at step max(L - 1, 1), and given to rows of no step at step 0 besides
dh0; a skip stack's backward reading layer 1's width. 3 mutants. The old files named after the modules (OLD_*) catch
1 (the rows of no step, by test_functional's device test); the new files alone catch 3 of 3.

    python tests/mutants/run.py --only 'v456-*'
"""
FUNCTIONAL = "lnrnn/model/functional.py"
LAYERS = "lnrnn/model/layers.py"
NEW_FUNCTIONAL = ["tests/model/test_values456_functional.py"]
NEW_LAYERS = ["tests/model/test_values456_layers_skip.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_FUNCTIONAL = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
                  "tests/model/test_values148_functional.py", "tests/model/test_values169_functional.py",
                  "tests/model/test_values16_functional.py", "tests/model/test_values204_functional.py",
                  "tests/model/test_values22_functional.py", "tests/model/test_values234_functional.py",
                  "tests/model/test_values252_functional.py", "tests/model/test_values310_functional.py",
                  "tests/model/test_values343_functional.py", "tests/model/test_values364_functional.py",
                  "tests/model/test_values384_functional.py", "tests/model/test_values438_functional.py",
                  "tests/model/test_values440_functional.py", "tests/model/test_values51_functional.py",
                  "tests/model/test_values77_functional.py"]
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
              "tests/model/test_values454_layers_step.py", "tests/model/test_values77_layers.py",
              "tests/model/test_values9_layers.py"]

MUTANTS = [
    dict(name="v456-device-dh-n-at-step-1", file=FUNCTIONAL, old="k.to_device(np.maximum(last - 1, 0)), T))",
         new="k.to_device(np.maximum(last - 1, 1)), T))",
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="rnd34-00: a one-step row takes dL/dh_n at step 1 on the device"),
    dict(name="v456-device-dh-n-for-empty-rows", file=FUNCTIONAL,
         old="rows = np.where((last > 0)[:, None], dh_n, 0).astype(dy.dtype)",
         new="rows = np.where((last >= 0)[:, None], dh_n, 0).astype(dy.dtype)",
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="a row of no step takes dL/dh_n at step 0 besides dh0"),
    dict(name="v456-skip-backward-layer-1-width", file=LAYERS,
         old="        H, I = self.layers[0].H, self.layers[0].I\n        dev = self.device == \"cuda\"\n"
             "        kn = self.layers[0]._k\n        dy = _check_array(\"dy\", dy, 3, self.layers[0].dtype, "
             "(None, None, self.output_size)",
         new="        H, I = self.layers[1].H, self.layers[0].I\n        dev = self.device == \"cuda\"\n"
             "        kn = self.layers[0]._k\n        dy = _check_array(\"dy\", dy, 3, self.layers[0].dtype, "
             "(None, None, self.output_size)",
         tests=NEW_LAYERS + OLD_LAYERS, why="rnd34-14: a skip stack of one layer fails its backward"),
]
