"""Default run folders past powers of ten (lnrnn/training/rundir.py), against the rule written out here (the
first of base, base-2, base-3, ... that holds no run; --resume without --out: the newest checkpoint): runs in
base, -2, -4, -9, -10, -99 and -100 leave -3 free; filled up to -10, the next is -11; a base under a folder
whose name has brackets (sweep[1]/default) finds its numbered folders as any other, and resumes the newest."""
import os

from lnrnn.training.rundir import default_folders, fresh_default, newest_default
from test_values_rundir import make


def test_a_gap_below_runs_past_9_and_99_is_the_next_folder(tmp_path):
    base = str(tmp_path / "default")
    for n in (1, 2, 4, 9, 10, 99, 100):
        make(base, n)
    make(base, 3, run=False)                          # an empty folder holds no run
    assert fresh_default(base) == f"{base}-3"         # 1, 2 taken; 3 free (seven runs, not the eighth)
    for n in (3, 5, 6, 7, 8):
        make(base, n)
    assert fresh_default(base) == f"{base}-11"        # 1..10 taken
    assert [n for n, _ in default_folders(base)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 99, 100]


def test_a_base_under_a_folder_named_with_brackets(tmp_path):
    base = str(tmp_path / "sweep[1]" / "default")
    make(base, 1, mtime=1_000_000)
    make(base, 2, mtime=2_000_000)
    newest = make(base, 10, mtime=3_000_000)
    os.makedirs(str(tmp_path / "sweep1" / "default-5"))   # what the brackets would match as a pattern
    assert default_folders(base) == [(1, base), (2, f"{base}-2"), (10, f"{base}-10")]
    assert fresh_default(base) == f"{base}-3"
    assert newest_default(base) == newest
