"""A run's JSON-lines files (metrics.jsonl, updates.jsonl: lnrnn/training/rundir.read_jsonl) holding bytes that are
not UTF-8: a damaged line is refused in one sentence naming the file and the line, as a line of bad JSON is; a last
line cut short inside a character by a kill is skipped where a torn tail is allowed; lnrnn plot on such a run says
one Error line and writes no picture."""
import json

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import read_jsonl

from test_cli import assert_clean_error, invoke

ROWS = [{"epoch": 1, "step": 5, "val_loss": 1.25, "train_loss": 1.5}, {"epoch": 2, "step": 10, "val_loss": 0.75}]


def lines(rows):
    return b"".join(json.dumps(r).encode() + b"\n" for r in rows)


def test_bytes_that_are_not_utf8_are_a_bad_line(tmp_path):
    path = tmp_path / "metrics.jsonl"
    path.write_bytes(lines(ROWS[:1]) + b'{"epoch": 2, \xff\xfe}\n' + lines(ROWS[1:]))
    for torn_ok in (False, True):                          # not the last line: refused either way
        with pytest.raises(UserError) as e:
            read_jsonl(str(path), torn_tail_ok=torn_ok)
        assert str(e.value).startswith(f"{path} is not valid JSON lines (line 2: 'utf-8' codec can't decode byte 0xff")


def test_a_tail_cut_inside_a_character_is_a_torn_tail(tmp_path):
    path = tmp_path / "updates.jsonl"
    path.write_bytes(lines(ROWS) + '{"step": 15, "note": "\u00e9'.encode()[:-1])   # the first byte of two
    assert read_jsonl(str(path), torn_tail_ok=True) == ROWS
    with pytest.raises(UserError, match="line 3: 'utf-8' codec can't decode"):
        read_jsonl(str(path))


def test_lnrnn_plot_on_a_damaged_metrics_file_says_one_line(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_bytes(lines(ROWS[:1]) + b"\x80\x81\x82\n")
    out = tmp_path / "curves.png"
    assert_clean_error(invoke("plot", run, "--out", out), f"{run / 'metrics.jsonl'} is not valid JSON lines (line 2:")
    assert not out.exists()
