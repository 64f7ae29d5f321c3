"""Planted bugs, round 432 (format: tests/mutants/mutants.py): the one real survivor left from the fourth random sample
(tests/mutants/random_sample.py --seed 4 --count 40) and its neighbours: how the compiled CTC beam chooses a step's
K most probable label classes and bounds its scans where classes and scores tie exactly (lnrnn/model/beam.py:
_search_row), twenty-eighth pass.

The planted bugs: of two equal label classes the later chosen first, or displacing one already chosen once K are;
the three scans' bounds stopping where an extension only ties the heap's worst. 5 mutants. The old files named after
the module (OLD_BEAM: every file with beam in its name) catch 3 of 5, the bounds, by their rows of equal scores. The
new file alone (test_values432_beam) catches 5 of 5, so NEW + OLD does too (not run separately). How they were
found: the fourth sample's beam tie order (rnd4-32), left last round. The new file's rows full of ties catch the
bounds but neither class-order bug: only a row whose kept prefix has pb and pnb near equal lets the second of K = 2
places decide the prefix kept, and the hand-built row is one.

    python tests/mutants/run.py --only 'v432-*'
"""
NEW_BEAM = ["tests/model/test_values432_beam.py"]
BEAM = "lnrnn/model/beam.py"
# the files named after the module, as a developer who changed it would run them
OLD_BEAM = ["tests/model/test_beam.py", "tests/model/test_values109_beam.py", "tests/model/test_values137_beam.py",
            "tests/model/test_values166_beam.py", "tests/model/test_values198_beam.py",
            "tests/model/test_values250_beam.py", "tests/model/test_values257_beam.py",
            "tests/model/test_values276_beam.py", "tests/model/test_values313_beam.py",
            "tests/model/test_values32_beam.py", "tests/model/test_values337_beam.py",
            "tests/model/test_values368_decode_beam.py", "tests/model/test_values87_beam.py",
            "tests/model/test_values9_beam.py"]

MUTANTS = [
    dict(name="v432-equal-class-passes-the-one-before", file=BEAM,
         old="while i > 0 and topv[i - 1] < v:",
         new="while i > 0 and topv[i - 1] <= v:",
         tests=NEW_BEAM + OLD_BEAM,
         why="of two equal classes the later one is chosen first: at the K-th place the beam extends its prefix "
             "by the later label, where the spec keeps the earlier"),
    dict(name="v432-equal-class-displaces-a-chosen-one", file=BEAM,
         old="(nk == K and not v > cut)",
         new="(nk == K and not v >= cut)",
         tests=NEW_BEAM + OLD_BEAM,
         why="once K classes are chosen, a later class equal to the K-th takes its place"),
    dict(name="v432-class-bound-drops-a-tie-at-the-cut", file=BEAM,
         old="if c == CTC_BLANK or tot0 + v < worst or",
         new="if c == CTC_BLANK or tot0 + v <= worst or",
         tests=NEW_BEAM + OLD_BEAM,
         why="a class whose extension of the best prefix only ties the heap's worst is not chosen, though an "
             "earlier label wins that tie"),
    dict(name="v432-prefix-scan-stops-at-a-tie", file=BEAM,
         old="if nk == 0 or tot + topv[0] < worst:",
         new="if nk == 0 or tot + topv[0] <= worst:",
         tests=NEW_BEAM + OLD_BEAM,
         why="the scan of kept prefixes stops where an extension only ties the heap's worst"),
    dict(name="v432-class-scan-stops-at-a-tie", file=BEAM,
         old="                if tot + lp[c] < worst:",
         new="                if tot + lp[c] <= worst:",
         tests=NEW_BEAM + OLD_BEAM,
         why="a prefix's scan of classes stops where an extension only ties the heap's worst"),
]
