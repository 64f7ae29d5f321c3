"""Planted bugs, round 460 (format: tests/mutants/mutants.py): the real survivor of a fortieth random sample
(tests/mutants/random_sample.py --seed 40 --count 40 --all-named, on c460645: 35 of 40 caught) and its neighbours,
fifty-fifth pass.

Seed 40's 5 missed: 3 equivalent (rnd40-14: the CTC reference's backward setting beta's second-last position at the
last step also where a row has an empty label, S 1, where S - 2 is -1, the same position 0, already 0; rnd40-15: the
torch binding's backward given zero-filled gradients for its residuals in place of None, which it never reads;
rnd40-38: a torch tensor viewed on the device with sync=True, a wait that changes no value), 1 caught by a file
named after another module (rnd40-11: strokes-hershey's training lines drawn from the validation lines' stream;
tests/data/test_text_strokes.py fails), 1 real: lnrnn.jax taking BatchNorm statistics with no row (rnd40-35).

The planted bugs: lnrnn.jax's check of BatchNorm statistics reading the width axis for the row count, leaving the
row count out, or leaving the number of axes out. 3 mutants. The old files named after the module (OLD_*) catch 0;
the new file alone catches 3 of 3.

    python tests/mutants/run.py --only 'v460-*'
"""
JAX = "lnrnn/interop/jax.py"
NEW_JAX = ["tests/interop/test_values460_jax.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_JAX = ["tests/interop/test_jax_bidirectional.py", "tests/interop/test_jax_refusals_as_passed.py",
           "tests/interop/test_values107_jax.py", "tests/interop/test_values128_jax.py",
           "tests/interop/test_values140_jax.py", "tests/interop/test_values161_jax.py",
           "tests/interop/test_values196_jax.py", "tests/interop/test_values19_jax.py",
           "tests/interop/test_values216_jax.py", "tests/interop/test_values225_jax.py",
           "tests/interop/test_values23_jax.py", "tests/interop/test_values241_jax.py",
           "tests/interop/test_values255_jax.py", "tests/interop/test_values273_jax.py",
           "tests/interop/test_values291_jax.py", "tests/interop/test_values298_jax.py",
           "tests/interop/test_values314_jax.py", "tests/interop/test_values340_jax.py",
           "tests/interop/test_values365_jax.py", "tests/interop/test_values41_jax.py",
           "tests/interop/test_values430_jax.py", "tests/interop/test_values439_jax.py",
           "tests/interop/test_values50_jax.py", "tests/interop/test_values78_jax.py",
           "tests/interop/test_values86_jax.py"]

MUTANTS = [
    dict(name="v460-stats-rows-axis", file=JAX,
         old="or v.shape[0] < 1 or v.dtype != dt:", new="or v.shape[1] < 1 or v.dtype != dt:",
         tests=NEW_JAX + OLD_JAX, why="rnd40-35: BatchNorm statistics of no row taken"),
    dict(name="v460-stats-no-rows-check", file=JAX,
         old="or v.shape[0] < 1 or v.dtype != dt:", new="or v.dtype != dt:",
         tests=NEW_JAX + OLD_JAX, why="BatchNorm statistics of no row taken (no check of the rows at all)"),
    dict(name="v460-stats-no-ndim-check", file=JAX,
         old="if v.ndim != 2 or v.shape[1] != spec.width(H, w)", new="if v.shape[1] != spec.width(H, w)",
         tests=NEW_JAX + OLD_JAX, why="BatchNorm statistics of three axes taken where the second has the width"),
]
