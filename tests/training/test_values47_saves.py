"""When a run saves, and what --keep holds, against the schedule written here: a checkpoint at update 0,
at every epoch end, at every multiple of --save-every inside an epoch, and once --save-every-seconds have
passed since the last save (that second included; every save restarts the count, and so does the start
of an invocation), and when --max-steps stops the run. ``--keep 100`` leaves one checkpoints/update-<step>/
per save, so the folders are the record of the saves. The seconds are a stand-in clock that moves a fixed
step per update. With a small --keep the oldest copies go, by number past powers of ten, and RUN/best/
stays the model of its own update. Arrays files carry the step zero-padded to nine digits."""
import os
import re
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.training import recorder, train
from lnrnn.training.checkpoint import BEST_DIR, DESCRIPTION, PAST_DIR, keep_past, load_checkpoint, save_checkpoint
from lnrnn.training.recorder import RunRecorder
from lnrnn.training.train import Trainer

from test_cli import TINY, assert_ok, invoke

NB = 7        # TINY: 200 training samples in batches of 32
EPOCHS = 2


def saved_steps(out):
    return sorted(int(d.split("-")[1]) for d in os.listdir(os.path.join(out, PAST_DIR)))


def schedule(updates, every=None, seconds=0.0, dt=1.0, stops=()):
    """The updates a run saves at, by the rule: update 0; epoch ends; multiples of ``every`` and
    ``seconds`` passed since the last save (clock: dt a update) inside an epoch; each stop of ``stops``
    (a --max-steps the run was resumed from: its clock restarts there)."""
    saves, last = [0], 0
    for s in range(1, updates + 1):
        if s % NB == 0 or s in stops:
            saves.append(s)
            last = s
        elif (every is not None and s % every == 0) or (seconds > 0 and (s - last) * dt >= seconds):
            saves.append(s)
            last = s
    return saves


@pytest.fixture
def clock(monkeypatch):
    """A stand-in perf_counter for the trainer and the recorder: 1000 s at the start, dt more each update."""
    now = {"t": 1000.0, "dt": 1.0}
    fake = SimpleNamespace(perf_counter=lambda: now["t"])
    monkeypatch.setattr(recorder, "time", fake)
    monkeypatch.setattr(train, "time", fake)
    log_update = RunRecorder.log_update

    def tick(self, nb):
        now["t"] = 1000.0 + self.trainer.step * now["dt"]
        return log_update(self, nb)
    monkeypatch.setattr(RunRecorder, "log_update", tick)
    return now


@pytest.mark.parametrize("every, seconds, dt", [
    (None, 3.0, 1.5),     # exactly 3.0 s after two updates: due at that update
    (3, 5.0, 1.0),        # both: whichever comes first, each save restarting the clock
    (7, 0.0, 1.0),        # multiples at the epoch ends: one save there
])
def test_saves_follow_the_schedule(tmp_path, clock, every, seconds, dt):
    clock["dt"] = dt
    out = tmp_path / "run"
    extra = ["--save-every", every] if every is not None else []
    assert_ok(invoke("train", *TINY, "--keep", 100, "--save-every-seconds", seconds, *extra, "--out", out))
    assert saved_steps(out) == schedule(NB * EPOCHS, every, seconds, dt)


@pytest.mark.parametrize("every, seconds", [(3, 0.0), (None, 3.0)])
def test_a_resumed_run_saves_on_the_same_schedule_from_its_stop(tmp_path, clock, every, seconds):
    """Stopped at update 5 (a save) and resumed: the same saves as the uninterrupted run, plus the stop's;
    the seconds counted from there."""
    out = tmp_path / "cut"
    extra = ["--save-every", every] if every is not None else []
    assert_ok(invoke("train", *TINY, "--keep", 100, "--save-every-seconds", seconds, *extra, "--max-steps", 5,
                     "--out", out))
    assert saved_steps(out) == schedule(5, every, seconds, stops=(5,))
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert saved_steps(out) == schedule(NB * EPOCHS, every, seconds, stops=(5,))


def test_no_save_between_the_epoch_ends_by_default(tmp_path):
    """The real clock and the default --save-every-seconds (600): a tiny run saves at update 0 and its epoch
    ends only, the seconds counted from the start of the invocation."""
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--keep", 100, "--out", out))
    assert saved_steps(out) == [0, NB, 2 * NB]
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 3, "-q"))
    assert saved_steps(out) == [0, NB, 2 * NB, 3 * NB]


def test_a_save_due_while_the_loss_is_high_waits_and_is_done_once_back():
    """Due at update 6 (--save-every 6) with the loss above the blow-up level: not now; not at 7 either
    while it stays high; at the first update back in range, whatever --save-every says, and only then."""
    t = SimpleNamespace(save_pending=False, step=0, last_save_t=0.0, high_streak=0,
                        cfg=SimpleNamespace(save_every=6, save_every_seconds=0.0))
    due = []
    for step, streak in [(5, 0), (6, 1), (7, 2), (8, 0), (9, 0), (10, 0), (11, 0), (12, 0)]:
        t.step, t.high_streak = step, streak
        if RunRecorder(t).save_due():
            due.append(step)
            t.save_pending = False   # what RunRecorder.save does
    assert due == [8, 12]


# ---- --keep: the oldest pruned, by number; RUN/best/ never

VAL = {2: 1.0, 4: 0.6, 6: 0.8, 7: 0.7, 8: 0.6, 10: 0.9, 12: 0.65, 14: 0.61}   # the best at 4; ties and near-misses


def scripted(monkeypatch):
    monkeypatch.setattr(Trainer, "_validate", lambda self: {"loss": VAL[self.step], "acc": 0.5})


def test_keep_prunes_the_oldest_and_best_stays_the_model_of_its_update(tmp_path, monkeypatch):
    scripted(monkeypatch)
    every = tmp_path / "every"   # a copy of every update's model: --save-every 1
    assert_ok(invoke("train", *TINY, "--eval-every", 2, "--save-every", 1, "--keep", 100, "--out", every))
    assert saved_steps(every) == list(range(NB * EPOCHS + 1))
    few = tmp_path / "few"
    assert_ok(invoke("train", *TINY, "--eval-every", 2, "--save-every", 3, "--keep", 2, "--out", few))
    assert saved_steps(few) == schedule(NB * EPOCHS, 3)[-2:]
    meta, arrays = load_checkpoint(str(few / BEST_DIR))
    assert meta["best"] == {"metric": "loss", "value": 0.6, "step": 4, "epoch": round(4 / NB, 6)}
    _, at4 = load_checkpoint(str(every / PAST_DIR / "update-000000004"))
    params = [k for k in arrays if k.startswith("param/")]
    assert params and all(np.array_equal(arrays[k], at4[k]) for k in params)


@pytest.mark.parametrize("keep", [1, 2, 4, 20])
def test_keep_past_powers_of_ten_one_save_at_a_time(tmp_path, keep):
    """Steps 9, 10, 99, 100, 999, 1000, 10000: after each save the newest ``keep`` (all while fewer), each a
    folder named with nine digits holding that step's arrays; RUN/best/ beside them is never touched."""
    run = str(tmp_path / "run")
    save_checkpoint(os.path.join(run, BEST_DIR), {"w": np.full(2, -1.0)}, {"step": 3, "model": {}, "best": {}})
    steps = [9, 10, 99, 100, 999, 1000, 10000]
    for k, s in enumerate(steps):
        save_checkpoint(run, {"w": np.full(2, float(s))}, {"step": s, "model": {}})
        keep_past(run, keep)
        names = sorted(os.listdir(os.path.join(run, PAST_DIR)))
        assert names == [f"update-{n:09d}" for n in steps[:k + 1][-keep:]]
        for name in names:
            meta, arrays = load_checkpoint(os.path.join(run, PAST_DIR, name))
            assert arrays["w"][0] == meta["step"] == int(name[7:])
    meta, arrays = load_checkpoint(os.path.join(run, BEST_DIR))
    assert meta["step"] == 3 and arrays["w"][0] == -1.0


@pytest.mark.parametrize("step", [0, 9, 10, 99, 100, 999, 1000, 123456789])
def test_the_arrays_file_carries_the_step_in_nine_digits(tmp_path, step):
    run = str(tmp_path / "run")
    save_checkpoint(run, {"w": np.zeros(1)}, {"step": step, "model": {}})
    npz = [f for f in os.listdir(run) if f.endswith(".npz")]
    assert len(npz) == 1
    m = re.fullmatch(r"checkpoint-(\d{9})-[0-9a-f]{8}\.npz", npz[0])
    assert m and int(m.group(1)) == step
    assert load_checkpoint(os.path.join(run, DESCRIPTION))[0]["arrays_file"] == npz[0]


def test_arrays_files_of_later_steps_sort_later(tmp_path):
    """The names of successive saves across powers of ten sort in the order of their steps."""
    run = str(tmp_path / "run")
    names = []
    for step in (9, 10, 99, 100, 999, 1000):
        save_checkpoint(run, {"w": np.zeros(1)}, {"step": step, "model": {}})
        names.append(load_checkpoint(run)[0]["arrays_file"])
    assert sorted(names) == names
