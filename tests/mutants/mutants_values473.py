"""Planted bugs, round 473 (format: tests/mutants/mutants.py): the real survivor of a fifty-sixth random sample
(tests/mutants/random_sample.py --seed 56 --count 40 --all-named, on 3a11028 with round 472's files: 37 of 40
caught) and its neighbours, sixty-eighth pass.

Seed 56's 3 missed: 1 equivalent (rnd56-14: the CTC head's labels reshaped to (T, -2) for (T, -1), which NumPy 2
reads as the same unknown dimension), 1 caught by a test not named after its module (rnd56-32: config.ROWS compiled
without nogil, which tests/kernels/test_values444_threads.py fails on, as in rounds 451 and 457), 1 real for the
files named after the api module: lnrnn.api.evaluate_run of a reader on other data taking the reader's offset scale
for its alphabet (rnd56-08), caught only by tests/commands/test_values425_other_data.py.

The planted bugs: a reader evaluated on other data taking its scale for its alphabet (rnd56-08) or read as a writer,
a writer's alphabet dropped, and other data never rebuilt in the run's units and alphabet. 4 mutants. The old files
named after the api module catch none; the new file alone catches 4 of 4
(tests/commands/test_values425_other_data.py, named after the data it reads, catches them too).

    python tests/mutants/run.py --only 'v473-*'
"""
API = "lnrnn/api.py"
NEW = ["tests/test_values473_api_other_data.py"]
OLD_API = ["tests/commands/test_values277_api.py", "tests/commands/test_values305_api.py",
           "tests/test_values101_api.py", "tests/test_values10_api.py", "tests/test_values117_api.py",
           "tests/test_values140_api.py", "tests/test_values15_api.py", "tests/test_values161_api.py",
           "tests/test_values196_api.py", "tests/test_values214_api.py", "tests/test_values234_api.py",
           "tests/test_values252_api.py", "tests/test_values27_api.py", "tests/test_values315_api.py",
           "tests/test_values343_api.py", "tests/test_values364_api.py", "tests/test_values392_api.py",
           "tests/test_values392_api_read.py", "tests/test_values439_api.py", "tests/test_values441_api.py",
           "tests/test_values450_api.py", "tests/test_values463_api.py", "tests/test_values46_api.py",
           "tests/test_values50_api.py", "tests/test_values77_api.py", "tests/test_values83_api.py",
           "tests/test_values_api.py", "tests/test_values_api_read.py"]
READER = '        alphabet = (require_reader(run)[0] if m["head"]["kind"] == "ctc" else'
WRITER = "                    if run.model.conditioned else None)"
REBUILD = '    if hasattr(task, "as_trained") and "scale" in m["head"]:'

MUTANTS = [
    dict(name="v473-reader-alphabet-is-its-scale", file=API, old=READER, new=READER.replace("[0]", "[1]"),
         tests=NEW + OLD_API, why="rnd56-08: a reader evaluated on other data takes its offset scale for its alphabet"),
    dict(name="v473-reader-read-as-a-writer", file=API, old=READER, new=READER.replace('== "ctc"', '== "mdn"'),
         tests=NEW + OLD_API, why="a reader evaluated on other data keeps the new split's alphabet"),
    dict(name="v473-writer-alphabet-dropped", file=API, old=WRITER,
         new="                    if not run.model.conditioned else None)", tests=NEW + OLD_API,
         why="a writer evaluated on other data keeps the new split's alphabet"),
    dict(name="v473-never-rebuilt", file=API, old=REBUILD, new=REBUILD.replace('" in m', '" not in m'),
         tests=NEW + OLD_API, why="other data are never read in the run's units and alphabet"),
]
