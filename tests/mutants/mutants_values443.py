"""Planted bugs, round 443 (format: tests/mutants/mutants.py): the real survivor of a sixteenth random sample
(tests/mutants/random_sample.py --seed 16 --count 40 --all-named, on the tree after round 442: 37 of 40 caught; 1
equivalent, 1 near, 1 real: this) and its neighbours, thirty-eighth pass.

The planted bugs: the mixture density head's mean loss divided by at least 2 points (rnd16-32: wrong only for a
batch of exactly one scored point), its nats per sequence divided by at least 2 sequences, or by the points; the
other heads' means divided by at least 2, or by a count of 0. 5 mutants. The old files named after heads (OLD_HEADS)
catch 2 of 5 (the nats per sequence divided by the points, and by a count of 0); the new file alone catches 5 of 5,
so NEW + OLD does too.

    python tests/mutants/run.py --only 'v443-*'
"""
HEADS = "lnrnn/model/heads.py"
NEW_HEADS = ["tests/model/test_values443_heads.py"]
# every file named after the module (pytest -k heads, as random_sample.py --all-named judges)
OLD_HEADS = ["tests/model/test_values108_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values129_heads.py", "tests/model/test_values12_heads.py",
             "tests/model/test_values151_heads.py", "tests/model/test_values166_heads.py",
             "tests/model/test_values16_heads.py", "tests/model/test_values199_heads.py",
             "tests/model/test_values223_heads.py", "tests/model/test_values235_heads.py",
             "tests/model/test_values250_heads.py", "tests/model/test_values256_heads.py",
             "tests/model/test_values292_heads.py", "tests/model/test_values310_heads.py",
             "tests/model/test_values33_heads.py", "tests/model/test_values343_heads.py",
             "tests/model/test_values364_heads.py", "tests/model/test_values381_heads.py",
             "tests/model/test_values428_heads.py", "tests/model/test_values438_heads.py",
             "tests/model/test_values48_heads.py", "tests/model/test_values57_heads.py",
             "tests/model/test_values67_heads.py", "tests/model/test_values_heads.py",
             "tests/test_values150_reference_heads.py", "tests/test_values176_reference_heads.py",
             "tests/test_values191_reference_heads.py", "tests/test_values288_reference_heads.py",
             "tests/test_values304_reference_heads.py", "tests/test_values330_reference_heads.py",
             "tests/test_values355_reference_heads.py"]

MDN_MEAN = ('        return {"loss": sums["loss"] / max(count, 1), '
            '"nats_seq": sums["nats_seq"] / max(sums.get("seqs", 0), 1)}')
BASE_MEAN = "        c = max(count, 1)"

MUTANTS = [
    dict(name="v443-mdn-mean-over-two-points", file=HEADS, old=MDN_MEAN,
         new=MDN_MEAN.replace('sums["loss"] / max(count, 1)', 'sums["loss"] / max(count, 2)'),
         tests=NEW_HEADS + OLD_HEADS,
         why="the mixture density head's loss halved on a batch of exactly one scored point (rnd16-32)"),
    dict(name="v443-mdn-nats-seq-over-two", file=HEADS, old=MDN_MEAN,
         new=MDN_MEAN.replace('max(sums.get("seqs", 0), 1)', 'max(sums.get("seqs", 0), 2)'),
         tests=NEW_HEADS + OLD_HEADS, why="nats per sequence halved for a batch of one sequence"),
    dict(name="v443-mdn-nats-seq-over-points", file=HEADS, old=MDN_MEAN,
         new=MDN_MEAN.replace('max(sums.get("seqs", 0), 1)', 'max(count, 1)'),
         tests=NEW_HEADS + OLD_HEADS, why="nats per sequence divided by the points: the loss again"),
    dict(name="v443-head-mean-over-two", file=HEADS, old=BASE_MEAN, new="        c = max(count, 2)",
         tests=NEW_HEADS + OLD_HEADS, why="a classifier's or regression's loss and accuracy halved for one sequence"),
    dict(name="v443-head-mean-of-nothing", file=HEADS, old=BASE_MEAN, new="        c = count",
         tests=NEW_HEADS + OLD_HEADS, why="a batch with nothing scored divides by zero"),
]
