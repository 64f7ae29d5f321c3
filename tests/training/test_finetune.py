"""Fine-tuning (lnrnn/training/finetune.py): a new run from another run's checkpoint (--init-from) starts
from exactly its parameters and BatchNorm statistics, with a fresh optimizer; every shape difference and
every checkpoint that is no run's is refused in one line before anything is written; --resume with a new
--lr / --lr-decay changes the update rule from the update it resumes at, says so and keeps it.

One tiny BN-LSTM run on 64 digits (8 updates over 2 epochs) is the source of every test."""
import json
import os
import shutil

import numpy as np
import pytest

from lnrnn.data.tasks import load_task
from lnrnn.training.checkpoint import load_checkpoint, save_checkpoint
from lnrnn.training.evaluation import evaluate, model_from_checkpoint
from lnrnn.training.plan import resolve
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train

from test_cli import TIME_KEYS, assert_clean_error, assert_ok, invoke

SETTINGS = dict(cell="bn-lstm", task="digits", split="64/32", hidden=8, batch_size=16, epochs=2)
ARGS = [a for k, v in SETTINGS.items() for a in ("--" + k.replace("_", "-"), v)] + ["-q"]


def rows(out):
    return [{k: v for k, v in r.items() if k not in TIME_KEYS} for r in read_jsonl(out / "metrics.jsonl")]


def model_arrays(arrays):
    return {k: v for k, v in arrays.items() if k.startswith(("param/", "buffer/"))}


def assert_same_arrays(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """The source run, trained to its end (8 updates), every checkpoint kept."""
    out = tmp_path_factory.mktemp("finetune") / "source"
    assert_ok(invoke("train", *ARGS, "--keep", 20, "--out", out))
    return out


def test_init_from_starts_at_the_sources_parameters_and_evaluation(source, tmp_path):
    out = tmp_path / "tuned"
    r = invoke("train", *ARGS, "--task", "digits-binary", "--epochs", 1, "--max-steps", 2, "--keep", 20,
               "--init-from", source, "--out", out)
    assert_ok(r)
    assert f"starting from {source} (update 8)" in r.output
    src_meta, src_arrays = load_checkpoint(source)
    meta0, arrays0 = load_checkpoint(out / "checkpoints" / "update-000000000")
    assert_same_arrays(model_arrays(arrays0), model_arrays(src_arrays))  # parameters and BN statistics
    assert any(k.startswith("buffer/") for k in arrays0)
    fresh = load_checkpoint(source / "checkpoints" / "update-000000000")[1]  # the seed's own initialization
    assert not np.array_equal(arrays0["param/head.W"], fresh["param/head.W"])
    # the state it starts from, evaluated on the source's validation data, is the source's last evaluation
    task = load_task(resolve(TrainConfig(**src_meta["train"])).task_spec)
    val = evaluate(model_from_checkpoint(meta0, arrays0), task, "val")
    last = src_meta["metrics"][-1]
    assert (val["loss"], val["acc"]) == (last["val_loss"], last["val_acc"])
    # a run of its own: step 0, a fresh optimizer, where it started recorded
    meta, _ = load_checkpoint(out)
    assert meta["step"] == 2 and meta["optimizer"]["step"] == 2 and meta0["optimizer"]["step"] == 0
    assert meta["init_from"] == {"path": str(source), "step": 8, "best": False, "cell": "bn-lstm", "task": "digits"}
    assert json.load(open(out / "config.json"))["init-from"] == str(source)


def test_a_resumed_fine_tuned_run_still_says_where_it_started(source, tmp_path):
    """A resume reads where the run started from its checkpoint (lnrnn.training.setup): the start line and
    every later checkpoint keep it."""
    out = tmp_path / "tuned"
    assert_ok(invoke("train", *ARGS, "--max-steps", 1, "--init-from", source, "--out", out))
    r = invoke("train", *ARGS, "--max-steps", 2, "--resume", "--out", out)
    assert_ok(r)
    assert f"starting from {source} (update 8)" in r.output
    meta, _ = load_checkpoint(out)
    assert meta["step"] == 2 and meta["init_from"]["path"] == str(source) and meta["init_from"]["step"] == 8


def test_init_from_the_best_checkpoint(source, tmp_path):
    r = invoke("train", *ARGS, "--max-steps", 1, "--keep", 5, "--init-from", source / "best", "--out", tmp_path / "b")
    assert_ok(r)
    best = load_checkpoint(source / "best")
    assert f"(its best checkpoint, update {best[0]['step']})" in r.output
    tuned = load_checkpoint(tmp_path / "b" / "checkpoints" / "update-000000000")[1]
    assert_same_arrays(model_arrays(tuned), model_arrays(best[1]))
    assert load_checkpoint(tmp_path / "b")[0]["init_from"]["best"] is True


@pytest.mark.parametrize("args, words", [
    (["--hidden", 9], "its model has --hidden 8, this run 9"),
    (["--cell", "ln-lstm"], "--cell bn-lstm, this run ln-lstm"),
    (["--layers", 2], "--layers 1, this run 2"),
    (["--bidirectional"], "--bidirectional off, this run on"),
    (["--dtype", "float64"], "--dtype float32, this run float64"),
    (["--skip"], "--skip/--no-skip off, this run on"),
    (["--task", "adding", "--steps", 5], "the task's input size (--task) 1, this run 2"),
])
def test_a_model_of_another_shape_is_refused_before_anything_is_written(source, tmp_path, args, words):
    out = tmp_path / "new"
    base = [a for a in ARGS if a not in ("--split", SETTINGS["split"])] if "adding" in args else ARGS
    r = invoke("train", *base, *args, "--init-from", source, "--out", out)
    line = assert_clean_error(r, words)
    assert line.startswith(f"Error: --init-from {source}:")
    assert not out.exists()


def _bad_sources(source, tmp):
    """{name: (folder, words)}: checkpoints a run cannot start from."""
    meta, arrays = load_checkpoint(source)
    empty = tmp / "empty"
    empty.mkdir()
    corrupt = tmp / "corrupt"
    shutil.copytree(source, corrupt, ignore=shutil.ignore_patterns("best", "checkpoints"))
    npz = corrupt / meta["arrays_file"]
    npz.write_bytes(npz.read_bytes()[:-40] + b"x" * 40)
    pickled = tmp / "pickled"
    save_checkpoint(pickled, {**arrays, "param/extra": np.array([{"code": 1}], dtype=object)}, meta)
    foreign = tmp / "foreign"
    save_checkpoint(foreign, {"param/w": np.zeros(3)}, {"model": {"kind": "something else"}, "step": 0})
    return {"missing": (tmp / "nothing", "there is nothing there"), "empty": (empty, "no checkpoint at"),
            "corrupt": (corrupt, "is corrupt"), "pickled": (pickled, "cannot be read"),
            "foreign": (foreign, "not written by `lnrnn train`")}


@pytest.mark.parametrize("name", ["missing", "empty", "corrupt", "pickled", "foreign"])
def test_a_checkpoint_that_is_no_runs_is_refused(source, tmp_path, name):
    folder, words = _bad_sources(source, tmp_path)[name]
    out = tmp_path / "new"
    line = assert_clean_error(invoke("train", *ARGS, "--init-from", folder, "--out", out), words)
    assert line.startswith(f"Error: --init-from {folder}:")
    assert not out.exists()


def test_resume_refuses_another_init_from(source, tmp_path):
    out = tmp_path / "run"
    assert_ok(invoke("train", *ARGS, "--max-steps", 1, "--out", out))
    assert_clean_error(invoke("train", *ARGS, "--resume", "--init-from", source, "--out", out),
                       "drop --init-from to resume it")


def _stopped_at(tmp_path, name, step):
    out = tmp_path / name
    assert_ok(invoke("train", *ARGS, "--max-steps", step, "--out", out))
    return out


def test_resume_with_a_new_lr_changes_the_update_rule_from_there_on(source, tmp_path):
    out = _stopped_at(tmp_path, "resumed", 5)  # update 5: the second epoch's second batch
    r = invoke("train", *ARGS, "--resume", "--lr", 1e-4, "--out", out)
    assert_ok(r)
    assert f"Changing the schedule: learning rate {3e-3 * 0.9:g} -> 0.0001 from update 5." in r.output
    # the same run with the optimizer's rate set by hand after update 5
    def by_hand(trainer):
        if trainer.step == 5:
            trainer.opt.lr = 1e-4
    ref = tmp_path / "by-hand"
    train(TrainConfig(**SETTINGS, out=str(ref)), quiet=True, hook=by_hand, log=lambda msg: None)
    meta, arrays = load_checkpoint(out)
    assert_same_arrays(arrays, load_checkpoint(ref)[1])  # parameters, statistics and the optimizer's slots
    assert rows(out) == rows(ref)
    assert not np.array_equal(arrays["param/head.W"], load_checkpoint(source)[1]["param/head.W"])
    assert meta["lr_changes"] == [{"step": 5, "epoch": 1, "lr": [3e-3 * 0.9, 1e-4], "lr_decay": [0.9, 0.9]}]
    assert json.load(open(out / "config.json"))["lr"] == 1e-4


def test_a_new_decay_counts_from_the_epoch_of_the_change(tmp_path):
    """Stopped in the second epoch (update 6 of 4 per epoch), resumed with --lr-decay 0.5: the rate in effect
    goes on to the epoch's end, the third epoch's is half of it."""
    out = _stopped_at(tmp_path, "decay", 6)
    r = invoke("train", *ARGS, "--epochs", 3, "--resume", "--lr-decay", 0.5, "--out", out)
    assert_ok(r)
    assert f"learning rate {3e-3 * 0.9:g} from update 6, decay 0.9 -> 0.5 per epoch" in r.output
    assert [row["lr"] for row in rows(out)] == [3e-3, 3e-3 * 0.9, 3e-3 * 0.9 * 0.5]


def test_resume_with_the_runs_own_lr_is_the_uninterrupted_run(source, tmp_path):
    out = _stopped_at(tmp_path, "same", 5)
    r = invoke("train", *ARGS, "--resume", "--lr", 3e-3, "--lr-decay", 0.9, "--out", out)
    assert_ok(r)
    assert "Changing the schedule" not in r.output
    meta, arrays = load_checkpoint(out)
    assert_same_arrays(arrays, load_checkpoint(source)[1])
    assert rows(out) == rows(source) and "lr_changes" not in meta
