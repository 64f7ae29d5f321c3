"""lnrnn/training/train.py's Trainer on a tiny float64 run (digits, 40 training samples in batches of 16: 16, 16, 8)
against its docstrings: quiet=True draws nothing; a file in the way of --out is refused before any work, word for
word; a setup that fails hands the run folder back; a folder that gained a run before this one started is refused
word for word; the run's first loss is the blow-up reference; updates.jsonl's window holds only the updates since
its last row; a resume starts from the --time-budget seconds already used; a budget stop right after an
--eval-every evaluation evaluates nothing again; a signal during an epoch's evaluation stops the run before the
next update; and, on a clock stepped by hand, training time counts the updates' and validations' seconds with the
compiling seconds apart, and a resumed run's compile seconds add to those of the earlier invocation."""
import io
import json
import os
import signal
import types

import pytest

from lnrnn.errors import TrainingInterrupted, UserError
from lnrnn.training import train as train_mod
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import LOCK_FILE, UPDATES_FILE, read_jsonl
from lnrnn.training.runconfig import TrainConfig


def tiny(tmp_path, **kw):
    settings = dict(task="digits", split="40/20", cell="rnn", hidden=4, batch_size=16, epochs=2, seed=5,
                    dtype="float64", out=str(tmp_path / "run"), save_every_seconds=0)
    settings.update(kw)
    return TrainConfig(**settings)


def quiet_log(msg):
    pass


# ---- quiet, the run folder's checks, the lock ----
def test_quiet_draws_nothing_on_the_stream_and_a_loud_run_draws_its_bar(tmp_path):
    silent, loud = io.StringIO(), io.StringIO()
    train_mod.train(tiny(tmp_path, epochs=1, out=str(tmp_path / "a")), quiet=True, stream=silent, log=quiet_log)
    train_mod.train(tiny(tmp_path, epochs=1, out=str(tmp_path / "b")), stream=loud, log=quiet_log)
    assert silent.getvalue() == ""
    assert "epoch 1/1" in loud.getvalue()


def test_a_file_in_the_way_of_out_is_refused_before_any_work_word_for_word(tmp_path):
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder\n")
    out = str(blocker / "run")
    with pytest.raises(UserError) as e:
        train_mod.Trainer(tiny(tmp_path, out=out), quiet=True, log=quiet_log)
    assert str(e.value) == f"{blocker} (in the way of {out}) is a file, not a folder; choose another --out."


def test_a_failed_setup_hands_the_existing_folder_back(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    with pytest.raises(UserError) as e:
        train_mod.Trainer(tiny(tmp_path, batch_size=64), quiet=True, log=quiet_log)
    assert str(e.value) == "--batch-size 64 is larger than the 40 training sequences of digits."
    assert not (out / LOCK_FILE).exists()  # released: the lock file goes with it
    trainer = train_mod.train(tiny(tmp_path, epochs=1), quiet=True, log=quiet_log)  # the same folder, same process
    assert trainer.step == 3


def test_a_new_folder_that_gained_a_run_before_this_one_started_is_refused_word_for_word(tmp_path):
    out = str(tmp_path / "run")
    late = train_mod.Trainer(tiny(tmp_path, epochs=1), quiet=True, log=quiet_log)  # no folder yet: not locked
    try:
        assert not os.path.exists(out)
        first = train_mod.train(tiny(tmp_path, epochs=1), quiet=True, log=quiet_log)  # another run takes the name
        assert first.step == 3
        with pytest.raises(UserError) as e:
            late.run()
        assert str(e.value) == f"{out} already holds a run; pass --resume to continue it, or choose another --out."
    finally:
        late.close()
    assert load_checkpoint(out)[0]["step"] == 3  # the other run's checkpoint is left as it was


# ---- the blow-up reference, the updates window, the inherited budget ----
def test_the_first_loss_is_the_blow_up_reference(tmp_path):
    seen = []
    train_mod.train(tiny(tmp_path, epochs=1, log_every=1), quiet=True, log=quiet_log,
                    hook=lambda t: seen.append(t.initial_loss))
    first = read_jsonl(tmp_path / "run" / UPDATES_FILE)[0]
    assert first["step"] == 1
    assert seen == [pytest.approx(first["train_loss"], rel=1e-12)] * 3  # set by update 1, kept after
    meta, _ = load_checkpoint(str(tmp_path / "run"))
    assert meta["blowup"]["initial_loss"] == pytest.approx(first["train_loss"], rel=1e-12)
    assert meta["blowup"]["streak"] == 0


def test_an_updates_row_holds_only_the_updates_since_the_last_row(tmp_path):
    per = []  # each update's loss sum and scored count, as the model reports them

    def hook(t):
        per.append((t.model.last_sums["loss"], t.model.last_count))

    train_mod.train(tiny(tmp_path, epochs=1, log_every=2), quiet=True, log=quiet_log, hook=hook)
    got = read_jsonl(tmp_path / "run" / UPDATES_FILE)
    assert [(r["step"], r["updates"]) for r in got] == [(2, 2)]
    (s1, c1), (s2, c2), (s3, c3) = per
    assert (c1, c2, c3) == (16, 16, 8)  # one scored unit a sequence
    assert got[0]["train_loss"] == pytest.approx((s1 + s2) / (c1 + c2), rel=1e-12)
    epoch = read_jsonl(tmp_path / "run" / "metrics.jsonl")[0]
    assert epoch["train_loss"] == pytest.approx((s1 + s2 + s3) / 40, rel=1e-12)


def test_a_resume_starts_from_the_budget_seconds_already_used(tmp_path):
    out = str(tmp_path / "run")
    train_mod.train(tiny(tmp_path, max_steps=1, time_budget=1000), quiet=True, log=quiet_log)
    desc = os.path.join(out, "checkpoint.json")
    with open(desc) as f:
        meta = json.load(f)
    assert meta["budget"]["max_steps"] is None and meta["budget"]["time_budget"] == 1000
    meta["budget"]["used_s"] = 1000.0  # the run's budget all used (as by a stop at its very end)
    with open(desc, "w") as f:
        json.dump(meta, f)
    logged = []
    trainer = train_mod.train(tiny(tmp_path), resume=True, quiet=True, log=logged.append)
    assert trainer.budget_used == 1000.0
    assert trainer.step == 1  # nothing trained
    assert logged == [f"Nothing to do: the run in {out} has used its --time-budget of 1000 s; pass --time-budget "
                      "again for more time."]


# ---- when a stop evaluates, when a signal stops ----
def test_a_budget_stop_right_after_an_eval_every_evaluation_evaluates_nothing_again(tmp_path):
    # 3 updates an epoch: --eval-every 5 evaluates mid-epoch 2 at update 5, where --max-steps 5 stops the run
    same = train_mod.train(tiny(tmp_path, eval_every=5, max_steps=5), quiet=True, log=quiet_log)
    assert same.stop_eval is None
    assert [(r["step"], r.get("eval")) for r in same.history] == [(3, None), (5, "update")]
    assert "stop_eval" not in load_checkpoint(str(tmp_path / "run"))[0]
    # stopped at update 4, after no evaluation of its own: the state reached is evaluated at the stop
    other = train_mod.train(tiny(tmp_path, eval_every=5, max_steps=4, out=str(tmp_path / "b")), quiet=True,
                            log=quiet_log)
    assert (other.stop_eval["step"], other.stop_eval["eval"]) == (4, "stop")
    assert [r["step"] for r in other.history] == [3]


def test_a_signal_during_an_epochs_evaluation_stops_before_the_next_update(tmp_path, monkeypatch):
    real = train_mod.evaluate
    calls = []

    def evaluate(*a, **kw):
        calls.append(1)
        if len(calls) == 1:  # epoch 1's evaluation: a SIGTERM arrives meanwhile
            signal.raise_signal(signal.SIGTERM)
        return real(*a, **kw)

    monkeypatch.setattr(train_mod, "evaluate", evaluate)
    out = str(tmp_path / "run")
    with pytest.raises(TrainingInterrupted) as e:
        train_mod.train(tiny(tmp_path), quiet=True, log=quiet_log)
    assert str(e.value) == (f"interrupted (SIGTERM) after epoch 1, update 3; the state reached is saved in {out}; "
                            f"continue with `lnrnn train --out {out} --resume`.")
    assert e.value.exit_code == 128 + signal.SIGTERM
    meta, _ = load_checkpoint(out)
    assert (meta["step"], meta["epoch"], meta["batch_in_epoch"]) == (3, 1, 0)


# ---- seconds, on a clock stepped by hand ----
class Clocks:
    """A wall clock and compile clocks that move only when the test says: each invocation compiles 0.5 s in its
    first update (1 s of work besides) and 0.125 s in its first validation (0.25 s of work besides)."""

    def __init__(self):
        self.wall = 0.0
        self.current = None
        self.time = types.SimpleNamespace(perf_counter=lambda: self.wall)
        clocks = self

        class CompileClock:
            busy = False

            def __init__(self):
                self.total, self.updates, self.evaluations = 0.0, 0, 0

            def __enter__(self):
                clocks.current = self
                return self

            def __exit__(self, *exc):
                clocks.current = None

            def seconds(self):
                return self.total

        self.CompileClock = CompileClock

    def work(self, seconds, compiling):
        self.wall += seconds + compiling
        self.current.total += compiling

    def install(self, monkeypatch):
        monkeypatch.setattr(train_mod, "time", self.time)
        monkeypatch.setattr(train_mod, "CompileClock", self.CompileClock)
        real = train_mod.evaluate

        def evaluate(*a, **kw):
            c = self.current
            c.evaluations += 1
            self.work(0.25, 0.125 if c.evaluations == 1 else 0.0)
            return real(*a, **kw)

        monkeypatch.setattr(train_mod, "evaluate", evaluate)

    def trainer(self, cfg, **kw):
        t = train_mod.Trainer(cfg, quiet=True, log=quiet_log, **kw)
        real = t.update
        clocks = self

        class Update:
            def __call__(self, *a):
                real(*a)
                c = clocks.current
                c.updates += 1
                clocks.work(1.0, 0.5 if c.updates == 1 else 0.0)

            def sync_host(self):
                real.sync_host()

        t.update = Update()
        return t


def test_training_time_counts_updates_and_validations_with_compiling_apart(tmp_path, monkeypatch):
    clocks = Clocks()
    clocks.install(monkeypatch)
    t = clocks.trainer(tiny(tmp_path, epochs=1))
    try:
        assert t.run() is None
    finally:
        t.close()
    assert t.first_update_s == 1.5  # the wall seconds to the first update, its compiling included
    # 3 updates of 1 s and one validation of 0.25 s; compiling: 0.5 s (update 1) + 0.125 s (the validation)
    (row,) = read_jsonl(tmp_path / "run" / "metrics.jsonl")
    assert (row["step"], row["time_s"], row["compile_s"]) == (3, 3.25, 0.625)
    meta, _ = load_checkpoint(str(tmp_path / "run"))
    assert (meta["train_time_s"], meta["compile_time_s"]) == (3.25, 0.625)


def test_a_resumed_runs_compile_seconds_add_to_the_earlier_invocations(tmp_path, monkeypatch):
    clocks = Clocks()
    clocks.install(monkeypatch)
    t = clocks.trainer(tiny(tmp_path, epochs=1, max_steps=2))
    try:
        t.run()
    finally:
        t.close()
    # updates 1 and 2 (1 s each, 0.5 s compiling) and the stop's validation (0.25 s, 0.125 s compiling)
    assert (t.stop_eval["step"], t.stop_eval["time_s"], t.stop_eval["compile_s"]) == (2, 2.25, 0.625)
    meta, _ = load_checkpoint(str(tmp_path / "run"))
    assert (meta["train_time_s"], meta["compile_time_s"]) == (2.25, 0.625)
    again = clocks.trainer(tiny(tmp_path, epochs=1), resume=True)
    try:
        assert again.run() is None
    finally:
        again.close()
    # this invocation: update 3 (1 s, 0.5 s compiling) and epoch 1's validation (0.25 s, 0.125 s compiling)
    (row,) = read_jsonl(tmp_path / "run" / "metrics.jsonl")
    assert (row["step"], row["time_s"], row["compile_s"]) == (3, 3.5, 1.25)
    meta, _ = load_checkpoint(str(tmp_path / "run"))
    assert (meta["train_time_s"], meta["compile_time_s"]) == (3.5, 1.25)
    assert again.compile_s == 1.25
