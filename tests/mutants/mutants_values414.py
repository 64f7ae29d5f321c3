"""Planted bugs, round 414 (format: tests/mutants/mutants.py): a run's JSON-lines files read back
(lnrnn/training/rundir.read_jsonl: metrics.jsonl for lnrnn plot, updates.jsonl on --resume), twentieth pass.

Looking for other readers that a damaged file could end in a traceback (after round 413's zlib.error) found a real
bug: read_jsonl opened the file as text, so bytes that are not UTF-8 raised UnicodeDecodeError while the lines were
read, outside the try that turns a bad line into one sentence: lnrnn plot on such a run, and a --resume whose
updates.jsonl is damaged, ended in a traceback. The fix reads bytes and decodes each line inside the try; a tail cut
inside a character is a torn tail like any other. The planted bugs: the decode error left out of the except clause
(the traceback back); the torn tail's test made against a str newline (a TypeError on every torn tail). 2 mutants.
The old targeted files alone (the rundir and plot files in OLD) catch 1 of 2 (the torn tail, met by their kill
tests); missed: the decode error. test_values414_jsonl writes a line of bytes that are not UTF-8 (refused naming the
file and line, with or without a torn tail allowed), a tail cut inside a character (skipped as torn), and runs lnrnn
plot on such a run (one Error line, no picture). NEW + OLD catch 2 of 2; the new file alone catches 2 of 2 (each of
its tests fails on the code before the fix). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v414-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
NEW = ["tests/training/test_values414_jsonl.py"]
OLD = [
    "tests/training/test_values_rundir.py",
    "tests/training/test_values15_rundir.py",
    "tests/training/test_values40_rundir.py",
    "tests/training/test_values63_rundir.py",
    "tests/training/test_values91_rundir.py",
    "tests/training/test_values116_rundir.py",
    "tests/training/test_values185_rundir.py",
    "tests/training/test_values209_rundir.py",
    "tests/training/test_values222_rundir.py",
    "tests/training/test_values227_rundir.py",
    "tests/training/test_values251_rundir.py",
    "tests/training/test_values266_rundir.py",
    "tests/training/test_values321_rundir.py",
    "tests/training/test_values348_rundir.py",
    "tests/training/test_values397_rundir.py",
    "tests/commands/test_plot.py",
]

MUTANTS = [
    dict(name="v414-undecodable-line-traceback", file=RUNDIR,
         old="        except (UnicodeDecodeError, json.JSONDecodeError) as e:",
         new="        except json.JSONDecodeError as e:",
         tests=NEW + OLD,
         why="a metrics.jsonl or updates.jsonl holding bytes that are not UTF-8 ends lnrnn plot in a traceback"),
    dict(name="v414-torn-tail-str-newline", file=RUNDIR,
         old='            if torn_tail_ok and i == len(lines) - 1 and not line.endswith(b"\\n"):',
         new='            if torn_tail_ok and i == len(lines) - 1 and not line.endswith("\\n"):',
         tests=NEW + OLD,
         why="a torn last line (a kill mid-write) is tested against a str newline: a TypeError instead of a skip"),
]
