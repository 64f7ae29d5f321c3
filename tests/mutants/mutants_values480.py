"""Planted bugs, round 480 (format: tests/mutants/mutants.py): the real survivors of a sixty-sixth and a sixty-seventh
random sample (tests/mutants/random_sample.py --seed 66 and --seed 67 --count 40 --all-named, on ee91f00 and ad227db:
37 and 39 of 40 caught) and their neighbours, seventy-sixth pass.

Seed 66's 3 missed: 2 equivalent (rnd66-10: a masked final state built in the kernel's final array itself rather
than a copy, and no cell's nor the window's final arrays share memory with anything else; rnd66-19: describe_split's
last rank taken as size + 1 for size - 1, the same shard size, both past the ranks that hold the larger shards), 1
real for the named files: the sampler's memory check dividing by the count (rnd66-26; caught by
tests/commands/test_values419_memory_refusals.py, not among sample's files). Seed 67's 1 missed: CUDA-only and
caught by the CUDA file that runs the line (rnd67-05: the window stack's device BatchNorm rows for a later chunk
read from the wrong entry of its views, tests/model/test_values441_synthesis_cuda.py).

The planted bugs, each in _fits's bytes or words: the count dividing (rnd66-26), the window's weights left out, 4
bytes a value, the steps left out, the window's weights named exactly when there are none. 5 mutants. The old files
named after the module catch 0 of 5 (test_values419_memory_refusals, outside them, catches 5); the new file alone
catches 5 of 5.

    python tests/mutants/run.py --only 'v480-*'
"""
from mutants_values479 import NEW_SAMPLE as NEW_479, OLD_SAMPLE as OLD_479  # the module's files to round 479

SAMPLE = "lnrnn/sample.py"
NEW = ["tests/test_values480_sample_fits.py"]
OLD = OLD_479 + NEW_479
FITS = "    refuse_beyond(8 * count * steps * (3 + U), f\"{count:,} sample"
WORDS = "+ (\" and the window's weights on their characters\" if U else \"\")"

MUTANTS = [
    dict(name="v480-fits-count-divides", file=SAMPLE, old=FITS, new=FITS.replace("8 * count", "8 / count"),
         tests=NEW + OLD, why="samples' bytes divided by their count: many samples pass a check meant to stop them "
         "(rnd66-26)"),
    dict(name="v480-fits-points-only", file=SAMPLE, old=FITS, new=FITS.replace(" * (3 + U)", " * 3"),
         tests=NEW + OLD, why="the window's weights on U characters left out of the bytes"),
    dict(name="v480-fits-float32", file=SAMPLE, old=FITS, new=FITS.replace("(8 * count", "(4 * count"),
         tests=NEW + OLD, why="the float64 points and weights counted at 4 bytes"),
    dict(name="v480-fits-steps-left-out", file=SAMPLE, old=FITS, new=FITS.replace("count * steps * ", "count * "),
         tests=NEW + OLD, why="the samples' bytes without their steps"),
    dict(name="v480-fits-words-without-window", file=SAMPLE, old=WORDS, new=WORDS.replace("if U else", "if not U else"),
         tests=NEW + OLD, why="the refusal names the window's weights exactly when there are none"),
]
