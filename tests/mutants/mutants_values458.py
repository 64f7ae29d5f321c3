"""Planted bugs, round 458 (format: tests/mutants/mutants.py): the real survivor of a thirty-eighth random sample
(tests/mutants/random_sample.py --seed 38 --count 40 --all-named, on b0a761c: 37 of 40 caught) and its neighbours,
fifty-third pass.

Seed 38's 3 missed: 1 equivalent (rnd38-22: a Hershey style of no jitter drawing its zero jitter from the generator
anyway, the same points and the same distribution of every line, the stream of draws moved on), 1 CUDA-only line
caught by the CUDA update file (rnd38-07: a device update counting rows of no step as scored for a last-step head;
tests/training/test_device_update_more.py fails), 1 real: grown(v, T) copying v when it has exactly T rows, so a BN
layer trained on as many steps as its statistics have rows replaced them at every forward (rnd38-10).

The planted bugs: grown(v, T) copying v when it has exactly T rows; grown statistics starting at row 1; grow_buffers
copying statistics that are long enough. 3 mutants. The old files named after the module (OLD_*) catch 1 (the rows
from row 1); the new file alone catches 3 of 3.

    python tests/mutants/run.py --only 'v458-*'
"""
FUNCTIONAL = "lnrnn/model/functional.py"
NEW_FUNCTIONAL = ["tests/model/test_values458_functional_grown.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_FUNCTIONAL = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
                  "tests/model/test_values148_functional.py", "tests/model/test_values169_functional.py",
                  "tests/model/test_values16_functional.py", "tests/model/test_values204_functional.py",
                  "tests/model/test_values22_functional.py", "tests/model/test_values234_functional.py",
                  "tests/model/test_values252_functional.py", "tests/model/test_values310_functional.py",
                  "tests/model/test_values343_functional.py", "tests/model/test_values364_functional.py",
                  "tests/model/test_values384_functional.py", "tests/model/test_values438_functional.py",
                  "tests/model/test_values440_functional.py", "tests/model/test_values456_functional.py",
                  "tests/model/test_values51_functional.py", "tests/model/test_values77_functional.py"]

MUTANTS = [
    dict(name="v458-grown-copies-at-t-rows", file=FUNCTIONAL,
         old="return v if v.shape[0] >= T else v[stat_rows(v.shape[0], 0, T)]",
         new="return v if v.shape[0] > T else v[stat_rows(v.shape[0], 0, T)]",
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="rnd38-10: statistics of exactly T rows copied at every forward"),
    dict(name="v458-grown-from-row-one", file=FUNCTIONAL,
         old="return v if v.shape[0] >= T else v[stat_rows(v.shape[0], 0, T)]",
         new="return v if v.shape[0] >= T else v[stat_rows(v.shape[0], 1, T)]",
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="grown statistics start at row 1, their first row lost"),
    dict(name="v458-grow-buffers-always-copies", file=FUNCTIONAL,
         old="return {n: grown(v, T) for n, v in buffers.items()}",
         new="return {n: grown(v.copy(), T) for n, v in buffers.items()}",
         tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL, why="grow_buffers copies statistics that are long enough"),
]
