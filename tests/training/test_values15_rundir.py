"""lnrnn/training/rundir.py by hand: updates.jsonl with a blank line between its rows reads as its rows, a
lock file of only 'pid host' names that host in the in-use refusal, and check_writable names the file
that is in the way (--out itself, or a file above it)."""
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training import rundir


def test_blank_lines_between_rows_are_skipped(tmp_path):
    p = tmp_path / rundir.UPDATES_FILE
    p.write_text('{"step": 1}\n\n   \n{"step": 2}\n')
    assert rundir.read_jsonl(str(p)) == [{"step": 1}, {"step": 2}]
    assert rundir.read_jsonl(str(p), torn_tail_ok=True) == [{"step": 1}, {"step": 2}]


@pytest.mark.parametrize("text, who", [
    ("12 node7", "pid 12 on host node7, started ?"),
    ("12 node7 2026-01-02T03:04:05", "pid 12 on host node7, started 2026-01-02T03:04:05"),
    ("12", "pid 12 on host ?, started ?"),
])
def test_in_use_names_the_holder_it_read(tmp_path, text, who):
    e = rundir.RunLock(str(tmp_path))._in_use(text)
    assert f"({who})" in str(e)


def test_check_writable_names_the_file_in_the_way(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    with pytest.raises(UserError) as e:
        rundir.check_writable(str(f))
    assert str(e.value).startswith(f"{f} is a file, not a folder") and "in the way" not in str(e.value)
    below = os.path.join(str(f), "run")
    with pytest.raises(UserError) as e:
        rundir.check_writable(below)
    assert str(e.value).startswith(f"{f} (in the way of {below}) is a file, not a folder")
