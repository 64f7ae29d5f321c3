"""Planted bugs, round 475 (format: tests/mutants/mutants.py): the real survivor of a sixtieth random sample
(tests/mutants/random_sample.py --seed 60 --count 40 --all-named, on 5c2647e: 36 of 40 caught) and its neighbours,
seventieth pass.

Seed 60's 4 missed: 1 equivalent (rnd60-08: the checkpoint's optimizer slots laid out by the gradients' flat buffer
for the parameters', the same layout), 2 CUDA-only and caught by the CUDA files (rnd60-13: device_refusal refusing
every head whose loss runs on the device, so a model on 'cuda' updated through the host, caught by
tests/training/test_device_batches.py; rnd60-31: the device objective's mask shaped by the hidden width for the
rows, caught by tests/training/test_device_update.py), 1 real: RegressionHead's default seed 1 (rnd60-27), for a
user who builds the head without one; lnrnn's own callers pass it.

The planted bugs: each head class's default seed (rnd60-27 the regression head's), make_head's, and the head's
weights drawn from the seed's plain stream rather than its own. 6 mutants. The old files named after the heads
module catch 1 (the stream); the new file alone catches 6 of 6.

    python tests/mutants/run.py --only 'v475-*'
"""
from mutants_values438 import NEW_HEADS as NEW_438, OLD_HEADS as OLD_438  # the heads module's files up to round 438

HEADS = "lnrnn/model/heads.py"
NEW = ["tests/model/test_values475_heads_seed.py"]
OLD_HEADS = OLD_438 + NEW_438 + ["tests/model/test_values443_heads.py"]
BASE = '    def __init__(self, hidden_size, outputs, per_step=False, dtype="float32", seed=0):'
REGRESSION = ('    def __init__(self, hidden_size, outputs=1, per_step=False, tolerance=0.04, dtype="float32", '
              'seed=0):')
MDN = '                 dtype="float32", seed=0):'
CTC = '    def __init__(self, hidden_size, outputs, per_step=True, dtype="float32", seed=0, scale=None):'
MAKE = 'def make_head(config, hidden_size, dtype="float32", seed=0):'
STREAM = "        rng = np.random.default_rng([seed, 7])  # a stream of its own, apart from the stack's"

MUTANTS = [
    dict(name="v475-regression-default-seed", file=HEADS, old=REGRESSION, new=REGRESSION.replace("seed=0", "seed=1"),
         tests=NEW + OLD_HEADS, why="rnd60-27: a regression head built without a seed takes seed 1's weights"),
    dict(name="v475-classifier-default-seed", file=HEADS, old=BASE, new=BASE.replace("seed=0", "seed=1"),
         tests=NEW + OLD_HEADS, why="a classifier head built without a seed takes seed 1's weights"),
    dict(name="v475-mdn-default-seed", file=HEADS, old=MDN, new=MDN.replace("seed=0", "seed=1"),
         tests=NEW + OLD_HEADS, why="a mixture density head built without a seed takes seed 1's weights"),
    dict(name="v475-ctc-default-seed", file=HEADS, old=CTC, new=CTC.replace("seed=0", "seed=1"),
         tests=NEW + OLD_HEADS, why="a CTC head built without a seed takes seed 1's weights"),
    dict(name="v475-make-head-default-seed", file=HEADS, old=MAKE, new=MAKE.replace("seed=0", "seed=1"),
         tests=NEW + OLD_HEADS, why="make_head without a seed builds seed 1's head"),
    dict(name="v475-stream-not-its-own", file=HEADS, old=STREAM,
         new=STREAM.replace("default_rng([seed, 7])", "default_rng(seed)"), tests=NEW + OLD_HEADS,
         why="the head draws its weights from the seed's plain stream, the one the stack's draws start"),
]
