"""A run's files and plan against what they must be by definition: a checkpoint's description lists each
array's dtype as numpy's dtype.str and reloads the same arrays bit for bit, names its model or is refused as
corrupt with its sentence, and a checkpoint.json that is a folder is no checkpoint; a --config .json is read
as UTF-8 (a non-ASCII value comes back as written, bytes that are not UTF-8 are refused); a process that has
exited is not alive (a child waited for here), a lock whose holder wrote no pid is named so when another
process holds it (an flock taken here); updates.jsonl holds one JSON row a line; --dtype float16 is refused
with its sentence; --head is a stroke task's, the IAM-OnDB 'strokes' included; a checkpoint saved in its first
epoch (epoch 0, batch 0, no metrics yet) is resumed, one lacking a resumable key is refused naming it."""
import dataclasses
import fcntl
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training import rundir
from lnrnn.training.checkpoint import DESCRIPTION, load_checkpoint, save_checkpoint
from lnrnn.training.plan import resolve_defaults, task_options, validate
from lnrnn.training.runconfig import TrainConfig, read_config_file
from lnrnn.training.setup import RESUMABLE_KEYS, read_resume

from test_values142_setup import whole_records


def arrays():
    return {"w": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.array([1.5, -2.0]), "n": np.int64(7)}


def test_description_lists_dtype_str_and_reloads_the_arrays(tmp_path):
    a = arrays()
    save_checkpoint(str(tmp_path), a, {"step": 3, "model": {"cell": "lstm"}})
    with open(tmp_path / DESCRIPTION) as f:
        desc = json.load(f)
    assert desc["arrays"] == {k: [list(np.shape(v)), np.asarray(v).dtype.str] for k, v in a.items()}
    meta, back = load_checkpoint(str(tmp_path), expected_model={"cell": "lstm"})
    assert meta["step"] == 3 and set(back) == set(a)
    for k, v in a.items():
        assert back[k].dtype == np.asarray(v).dtype and np.array_equal(back[k], v)


def test_description_without_model_is_refused(tmp_path):
    save_checkpoint(str(tmp_path), arrays(), {"step": 1, "model": {"cell": "lstm"}})
    path = tmp_path / DESCRIPTION
    desc = json.loads(path.read_text())
    del desc["model"]
    path.write_text(json.dumps(desc))
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value) == f"checkpoint description {path} lacks field 'model'; it is corrupt."


def test_checkpoint_json_that_is_a_folder_is_no_checkpoint(tmp_path):
    (tmp_path / DESCRIPTION).mkdir()
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path))
    assert str(e.value).startswith(f"no checkpoint at {tmp_path} (expected {tmp_path / DESCRIPTION});")


def test_another_model_is_refused_in_one_line(tmp_path):
    save_checkpoint(str(tmp_path), arrays(), {"step": 1, "model": {"cell": "lstm", "hidden_size": 4}})
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(tmp_path), expected_model={"cell": "lstm", "hidden_size": 5})
    assert "\n" not in str(e.value)
    assert "hidden_size 4 in the checkpoint vs 5 requested" in str(e.value)


def test_config_json_is_read_as_utf8(tmp_path):
    path = tmp_path / "c.json"
    path.write_bytes(json.dumps({"out": "runs/café-Ω"}, ensure_ascii=False).encode("utf-8"))
    assert read_config_file(str(path)) == {"out": "runs/café-Ω"}
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"out": "runs/\xff"}')
    with pytest.raises(UserError) as e:
        read_config_file(str(bad))
    assert str(e.value).startswith(f"--config {bad} is not valid JSON (")


def test_an_exited_process_is_not_alive():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()                                                              # exited and reaped: its pid is free
    assert rundir._alive(child.pid) is False
    assert rundir._alive(os.getpid()) is True


def test_lock_held_by_a_holder_without_pid_is_named_so(tmp_path):
    assert rundir._holder("") == (None, "?", "?")
    assert rundir._holder("12 hostA 2026-01-02T03:04:05") == (12, "hostA", "2026-01-02T03:04:05")
    path = tmp_path / rundir.LOCK_FILE
    path.write_text("not a pid\n")
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)                       # another holder, by its own open file
        with pytest.raises(UserError) as e:
            rundir.RunLock(str(tmp_path)).acquire()
    finally:
        os.close(fd)
    assert str(e.value) == (f"the run folder {tmp_path} is in use by another lnrnn run (a process that wrote no "
                            "pid); wait for it to end, or choose another --out.")


def test_update_log_holds_one_row_a_line(tmp_path):
    rows = [{"step": 1, "loss": 0.5}, {"step": 2, "loss": 0.25}, {"step": 3, "loss": 0.125}]
    log = rundir.UpdateLog(str(tmp_path)).start(0)
    for r in rows:
        log.append(r)
    log.sync()
    log.close()
    lines = (tmp_path / rundir.UPDATES_FILE).read_text().splitlines()
    assert [json.loads(line) for line in lines] == rows
    assert rundir.read_jsonl(str(tmp_path / rundir.UPDATES_FILE)) == rows


def test_dtype_float16_is_refused():
    with pytest.raises(UserError) as e:
        validate(resolve_defaults(TrainConfig(dtype="float16")))
    assert str(e.value) == "--dtype must be float32 or float64, not float16."


def test_head_belongs_to_every_stroke_task_and_no_other():
    # by the tasks' names: the IAM-OnDB task is 'strokes' itself, the others 'strokes-...'
    assert task_options(TrainConfig(task="strokes", head="mdn")) == {"head": None}
    assert task_options(TrainConfig(task="strokes", head="ctc")) == {"head": "ctc"}
    assert task_options(TrainConfig(task="strokes-hershey", head="ctc")) == {"head": "ctc"}
    with pytest.raises(UserError) as e:
        task_options(TrainConfig(task="digits", head="mdn"))
    assert str(e.value) == "--head mdn chooses a stroke task's head; task digits has its own; drop --head."


def first_epoch_meta(out):
    return {"train": dataclasses.asdict(TrainConfig(out=out, hidden=4, layers=1)), **whole_records(0),
            "epoch": 0, "batch_in_epoch": 0, "step": 0, "train_time_s": 0.0, "metrics": [], "model": {"cell": "lstm"}}


def test_a_first_epoch_checkpoint_is_resumed(tmp_path):
    out = str(tmp_path)
    save_checkpoint(out, arrays(), first_epoch_meta(out))
    cfg, meta, back = read_resume(TrainConfig(out=out), set())
    assert (cfg.out, cfg.hidden, cfg.layers) == (out, 4, 1)
    assert (meta["epoch"], meta["batch_in_epoch"], meta["step"]) == (0, 0, 0)
    assert set(back) == set(arrays())


@pytest.mark.parametrize("key", ["rng", "metrics"])
def test_a_checkpoint_lacking_a_resumable_key_is_refused(tmp_path, key):
    out = str(tmp_path)
    meta = first_epoch_meta(out)
    assert key in RESUMABLE_KEYS
    del meta[key]
    save_checkpoint(out, arrays(), meta)
    with pytest.raises(CheckpointError) as e:
        read_resume(TrainConfig(out=out), set())
    assert str(e.value) == f"the checkpoint in {out} lacks {key}; it cannot be resumed."
