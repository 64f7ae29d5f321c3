"""lnrnn/data/iamondb.py's refusal of task-list entries naming no line file shows at most three of them: exactly
three are all shown with nothing after them, four show the first three and ', ...' (the list's order kept), each
counted against the list's entries (test_values307's task lists, written here with 3 and 4 missing forms)."""
import os

import pytest

from lnrnn.data import iamondb
from test_values135_iamondb import write_form  # a form's line files in IAM-OnDB's XML
from test_values232_iamondb import refused  # the DataError's one-line sentence

MISSING = ["w96-996w", "x97-997x", "y98-998y", "z99-999z"]


@pytest.mark.parametrize("n, shown", [(3, "w96-996w, x97-997x, y98-998y"),
                                      (4, "w96-996w, x97-997x, y98-998y, ...")])
def test_at_most_three_missing_entries_are_shown(tmp_path, n, shown):
    write_form(tmp_path, "a01-000u", 1)
    write_form(tmp_path, "b02-010x", 1)
    (tmp_path / "trainset.txt").write_text("a01-000u\n" + "".join(e + "\n" for e in MISSING[:n]))
    (tmp_path / "testset_v.txt").write_text("b02-010x\n")
    line_root, files = iamondb.find_lines(str(tmp_path))
    path = os.path.join(str(tmp_path), "trainset.txt")
    assert refused(iamondb.official_split, files, str(tmp_path), line_root) == (
        f"{n} of the {n + 1} entries of {path} ({shown}) name no line file under {line_root}; unpack "
        "lineStrokes-all.tar.gz whole, or use the task lists that came with it.")
