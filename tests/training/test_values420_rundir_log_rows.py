"""A run's JSON-lines logs (metrics.jsonl, updates.jsonl: lnrnn/training/rundir.read_jsonl) with a line that is
valid JSON but not a row lnrnn writes: before, lnrnn plot ended in a TypeError or ValueError out of the drawing
(a step or a metric that is a text, null or a list; a row that is a number or a list) and lnrnn train --resume in
a TypeError out of UpdateLog.start (a step that is not a number). Each is now one sentence naming the file, the
line (counting the lines that are not blank, as for bad JSON) and what is wrong; a row keeps its other fields
free (a text under "eval", unknown keys), its metrics may be null, NaN or infinite, and numbers may be ints. The
resume refuses before anything is written: the checkpoint and the log keep their bytes, and once the line is
repaired the run goes on."""
import json

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import read_jsonl

from test_cli import assert_clean_error, assert_ok, invoke

GOOD = {"epoch": 1, "step": 5, "time_s": 0.5, "lr": 0.01, "train_loss": 1.5, "val_loss": 1.25, "val_acc": 0.5}


def write(path, rows, blank_after_first=False):
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if blank_after_first:
        first, rest = text.split("\n", 1)
        text = first + "\n\n   \n" + rest
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("key, bad, shown", [
    ("step", "ten", "'ten'"), ("step", None, "None"), ("step", True, "True"), ("epoch", [1], "[1]"),
    ("time_s", {"s": 1}, "{'s': 1}"), ("train_loss", "x", "'x'"), ("val_acc", False, "False"),
    ("val_loss", [0.5, 0.25], "[0.5, 0.25]"), ("val_cer", "7" * 60, "'" + "7" * 24 + "\u2026" + "7" * 11 + "'")])
def test_a_field_lnrnn_writes_as_a_number_is_refused_with_its_line(tmp_path, key, bad, shown):
    path = write(tmp_path / "metrics.jsonl", [GOOD, dict(GOOD, step=10), {**GOOD, "step": 15, key: bad}],
                 blank_after_first=True)
    for torn_ok in (False, True):
        with pytest.raises(UserError) as e:
            read_jsonl(path, torn_tail_ok=torn_ok)
        assert str(e.value) == f"{path} is damaged (line 3: {key} is {shown}, not a number); repair or delete that line."


@pytest.mark.parametrize("row, shown", [(7, "7"), ([1, 2], "[1, 2]"), ("step", "'step'"), (None, "None")])
def test_a_row_that_is_not_an_object_is_refused_with_its_line(tmp_path, row, shown):
    path = write(tmp_path / "updates.jsonl", [GOOD, row])
    with pytest.raises(UserError) as e:
        read_jsonl(path)
    assert str(e.value) == f"{path} is damaged (line 2: {shown} is not a JSON object); repair or delete that line."


def test_rows_as_lnrnn_writes_them_are_read_whole(tmp_path):
    rows = [GOOD, {"step": 10, "epoch": 0.5, "val_loss": None, "val_acc": float("nan"), "train_loss": float("inf"),
                   "eval": "update", "compile_s": 0.0, "note": [1, "x"], "loss": "free"},
            {"step": 2**40, "epoch": 3, "time_s": 7}, {}]
    path = write(tmp_path / "metrics.jsonl", rows)
    got = read_jsonl(path)
    assert len(got) == 4 and got[1]["eval"] == "update" and got[1]["val_loss"] is None and got[2]["step"] == 2**40
    assert got[1]["note"] == [1, "x"] and got[1]["loss"] == "free" and got[3] == {}


def test_lnrnn_plot_on_a_damaged_row_says_one_line_and_draws_nothing(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    write(run / "metrics.jsonl", [GOOD, dict(GOOD, epoch=2, step=10, val_loss=1.0)])
    assert_ok(invoke("plot", run, "--out", tmp_path / "ok.png"))
    for x in ("step", "epoch", "time_s"):
        write(run / "metrics.jsonl", [GOOD, dict(GOOD, epoch=None, step=10)])
        r = invoke("plot", run, "--out", tmp_path / "c.png", "--x", x)
        assert_clean_error(r, f"metrics.jsonl is damaged (line 2: epoch is None, not a number)")
    write(run / "metrics.jsonl", [GOOD])
    write(run / "updates.jsonl", [{"step": 1, "train_loss": 2.0}, {"step": 2, "train_loss": "nan?"}])
    assert_clean_error(invoke("plot", run, "--out", tmp_path / "c.png"),
                       "updates.jsonl is damaged (line 2: train_loss is 'nan?', not a number)")
    assert not (tmp_path / "c.png").exists()


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("logrows") / "run"
    assert_ok(invoke("train", "--task", "digits", "--hidden", 3, "--max-steps", 6, "--log-every", 2, "--out", out,
                     "-q"))
    return out


def test_a_resume_refuses_a_damaged_update_row_before_writing_anything(trained, tmp_path):
    import shutil
    run = tmp_path / "run"
    shutil.copytree(trained, run)
    rows = read_jsonl(str(run / "updates.jsonl"))
    assert [r["step"] for r in rows] == [2, 4, 6]
    for bad in ("four", None, [4]):
        write(run / "updates.jsonl", rows[:1] + [dict(rows[1], step=bad)] + rows[2:])
        before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
        r = invoke("train", "--out", run, "--resume", "--max-steps", 8, "-q")
        assert_clean_error(r, f"updates.jsonl is damaged (line 2: step is {bad!r}, not a number); repair or delete")
        assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before
    write(run / "updates.jsonl", rows)
    assert_ok(invoke("train", "--out", run, "--resume", "--max-steps", 8, "-q"))
    assert [r["step"] for r in read_jsonl(str(run / "updates.jsonl"))] == [2, 4, 6, 8]
