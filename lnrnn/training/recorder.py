"""What a run leaves in its folder: checkpoints (the latest, ``best/``, ``--keep``'s past ones), the metrics
files (metrics.jsonl, metrics.csv, TensorBoard), updates.jsonl, config.json and the learning curve.

The loop (``lnrnn.training.train``) calls its ``RunRecorder`` to open the folder's files (``open``), write
a checkpoint (``save``, ``save_best``), a metrics row (``write_metrics``), an update's training metrics
(``log_update``) and the picture (``draw_curve``), and to read a checkpoint back (``restore``, the inverse of
``meta``). The state recorded lives on the trainer; rank 0 of an MPI group alone writes.

A run lives in ``--out DIR``:
    checkpoint.json + checkpoint-*.npz   the latest checkpoint (see ``lnrnn.training.checkpoint``)
    metrics.jsonl                        one JSON object per finished epoch: train_<m>, val_<m> for
                                         every metric m the model's head names (loss, acc, ...)
    updates.jsonl                        every ``log_every`` updates: step, epoch (fractional), lr, time_s,
                                         train_<m> over those updates (``lnrnn.training.rundir.UpdateLog``: exact
                                         across kills and resumes)
    config.json                          the settings it runs with (``lnrnn.training.runconfig``; --config reads it)
    learning_curve.svg                   every metric against updates (matplotlib), redrawn after an epoch
                                         at most every CURVE_REDRAW_S seconds, and when the run returns

A checkpoint (``lnrnn.training.checkpoint``) holds the model's arrays (``param/``, ``buffer/``), the
optimizer's slots (``optim/<slot>/``) and a description (``meta``): the model and task, the settings, the
epoch, step and generator state at the epoch's start, the epoch's running sums, the metrics history, the
best-metric and budget state, where a fine-tuned run started and its schedule's changes
(``lnrnn.training.finetune``).
"""
import contextlib
import dataclasses
import json
import os
import time

from lnrnn.version import __version__ as lnrnn_version
from lnrnn.errors import CheckpointError
from lnrnn.files import atomic_write_text
from lnrnn.model.models import upgrade_config
from lnrnn.training import distributed, finetune
from lnrnn.training.checkpoint import BEST_DIR, keep_past, model_mismatch, save_checkpoint
from lnrnn.training.evaluation import format_metrics, split_arrays
from lnrnn.training.logs import CSV_FILE, TensorBoardLog, write_csv
from lnrnn.training.plot import LOSS_LABELS, write_learning_curves
from lnrnn.training.progress import format_seconds
from lnrnn.training.runconfig import write_run_config
from lnrnn.training.rundir import CURVE_FILE, METRICS_FILE, UPDATES_FILE, UpdateLog, read_jsonl
from lnrnn.training.stopping import stop_place

CURVE_REDRAW_S = 30.0  # redraw learning_curve.svg after an epoch once this many seconds passed since the
                       # last drawing (or the run's start), and when the run returns: a drawing takes
                       # 0.1-0.3 s, 2-6% of a small run's few-second epochs (bench/train_throughput.py)


class RunRecorder:
    """One trainer's run folder (module docstring)."""

    def __init__(self, trainer):
        self.trainer = trainer
        self.update_log = None  # updates.jsonl (lnrnn.training.rundir.UpdateLog; a NullLog on ranks > 0)
        self.tb = None          # TensorBoard's writer, None without the tensorboard package
        self.curve_t = None     # when learning_curve.svg was last drawn (or the run started)
        self.curve_pending = False  # epochs evaluated since, not in the picture

    def open(self):
        """The run folder's files for this invocation: config.json, updates.jsonl, TensorBoard; a new run's
        step-0 checkpoint."""
        t = self.trainer
        cfg = t.cfg
        if t.group.root:  # rank 0 alone writes the run folder
            write_run_config(cfg.out, cfg)
        self.update_log = UpdateLog(cfg.out).start(t.step) if t.group.root else distributed.NullLog()
        if t.group.root:
            self.tb = TensorBoardLog.open(cfg.out)  # None without the tensorboard package
        if t.step == 0 and t.batch_in_epoch == 0 and t.epoch == 0:
            self.save()
        self.curve_t = time.perf_counter()

    def close(self):
        if self.update_log is not None:
            self.update_log.close()
        if self.tb is not None:
            self.tb.close()
            self.tb = None

    # ---- checkpoints ----
    def model_arrays(self):
        """The model's parameters and buffers under their checkpoint names (``evaluation.split_arrays`` reads them)."""
        model = self.trainer.model
        arrays = {"param/" + k: v for k, v in model.params.items()}
        arrays.update({"buffer/" + k: v for k, v in model.buffers.items()})
        return arrays

    def arrays(self):
        """Everything a checkpoint holds: the model's arrays and the optimizer's slots."""
        t = self.trainer
        arrays = self.model_arrays()
        st = t.opt.state_dict(t.model.flat[0])
        for slot, d in st["slots"].items():
            arrays.update({f"optim/{slot}/{k}": v for k, v in d.items()})
        return arrays

    def save(self):
        """Write the checkpoint (and the --keep copy); a second SIGINT/SIGTERM waits until it is complete."""
        t = self.trainer
        t.update.sync_host()
        with (t.flag.saving() if t.flag is not None else contextlib.nullcontext()):
            if self.update_log is not None:
                self.update_log.sync()  # the rows this checkpoint covers are on disk before it is
            meta = self.meta()
            path = save_checkpoint(t.cfg.out, self.arrays(), meta) if t.group.root else None
            if t.group.root and t.cfg.keep > 0:
                keep_past(t.cfg.out, t.cfg.keep)
            t.saved_step, t.save_pending, t.last_save_t = t.step, False, time.perf_counter()
        return path

    def save_due(self):
        """A periodic checkpoint (--save-every, --save-every-seconds), or one that waited, is due now;
        while the loss is above the blow-up level the save waits (the last good checkpoint stays)."""
        t = self.trainer
        c = t.cfg
        due = (t.save_pending or (c.save_every is not None and t.step % c.save_every == 0)
               or (c.save_every_seconds > 0 and time.perf_counter() - t.last_save_t >= c.save_every_seconds))
        if due and t.high_streak > 0:
            t.save_pending = True
            return False
        return due

    def save_best(self):
        """RUN/best/: the model as it is now (arrays of the model only), with the best record in its description."""
        t = self.trainer
        if not t.group.root:
            return
        t.update.sync_host()
        with (t.flag.saving() if t.flag is not None else contextlib.nullcontext()):
            best = {k: t.best[k] for k in ("metric", "value", "step", "epoch")}
            save_checkpoint(os.path.join(t.cfg.out, BEST_DIR), self.model_arrays(), {**self.meta(), "best": best})

    def meta(self):
        """The checkpoint description of the state reached (JSON-able)."""
        t = self.trainer
        st = t.opt.state_dict(t.model.flat[0])
        meta = {"model": t.model.config, "task": t.task.spec, "train": dataclasses.asdict(t.cfg),
                "optimizer": {"kind": st["kind"], "hyper": st["hyper"], "step": st["step"]},
                "epoch": t.epoch, "batch_in_epoch": t.batch_in_epoch, "step": t.step,
                "rng": t.epoch_rng, "epoch_sums": t.sums, "train_time_s": t.train_time,
                "compile_time_s": t.compile_total(),
                "blowup": {"initial_loss": t.initial_loss, "streak": t.high_streak},
                "metrics": t.history, "log_window": t.log_window, "lnrnn_version": lnrnn_version,
                "best_state": t.best, "budget": t.stopping.budget_record()}
        if t.setup.init_record is not None:
            meta["init_from"] = t.setup.init_record
        if t.lr_changes:
            meta["lr_changes"] = t.lr_changes
        if t.stop_eval is not None:
            meta["stop_eval"] = t.stop_eval
        if t.early_stop is not None:
            meta["early_stop"] = t.early_stop
        if t.setup.data_record is not None:
            meta["data"] = t.setup.data_record
        if t.setup.text_record is not None:
            meta["text"] = t.setup.text_record
        meta["ranks"] = t.group.size  # MPI processes the run trains on (lnrnn.training.distributed)
        return meta

    def restore(self, meta, arrays):
        """The trainer's state from a checkpoint it resumes (``meta``'s inverse)."""
        t = self.trainer
        saved = upgrade_config(meta["model"])
        if saved != t.model.config:
            raise CheckpointError(f"the checkpoint in {t.cfg.out} does not match the model its own settings "
                                  f"build ({model_mismatch(saved, t.model.config)}).")
        named, slots = split_arrays(arrays)
        try:
            t.model.load_arrays(named)
            t.opt.load_state_dict({**meta["optimizer"], "slots": slots}, t.model.flat[0])
        except ValueError as e:
            raise CheckpointError(f"the checkpoint in {t.cfg.out} does not fit the model ({e}).") from None
        t.epoch, t.batch_in_epoch, t.step = meta["epoch"], meta["batch_in_epoch"], meta["step"]
        note = distributed.resume_note(int(meta.get("ranks", 1)), t.group.size, t.cfg.batch_size,
                                       t.cfg.reproducible)
        if note:
            t.log(note)
        t.epoch_rng = meta["rng"]
        sums = meta["epoch_sums"]
        if isinstance(sums, list):  # lnrnn 0.1: [loss_sum, correct, count, samples] of a classifier
            sums = {"sums": {"loss": sums[0], "acc": sums[1]}, "count": sums[2], "samples": sums[3]}
        t.sums = {"sums": {**t._new_sums()["sums"], **sums["sums"]}, "count": int(sums["count"]),
                  "samples": int(sums["samples"])}
        t.history, t.train_time = list(meta["metrics"]), float(meta["train_time_s"])
        t.compile_s = float(meta.get("compile_time_s", 0.0))
        window = meta.get("log_window") or {}
        t.log_window = {"sums": {**t._new_sums()["sums"], **window.get("sums", {})},
                        "count": int(window.get("count", 0)), "samples": int(window.get("samples", 0))}
        blowup = meta.get("blowup") or {}
        t.initial_loss, t.high_streak = blowup.get("initial_loss"), int(blowup.get("streak", 0))
        best = meta.get("best_state")
        if best and best.get("metric") == t.cfg.best_metric:
            t.best = dict(best)
        t.early_stop = meta.get("early_stop")
        t.lr_changes = list(meta.get("lr_changes", []))
        t.lr_change = finetune.schedule_change(meta["train"], t.cfg, t.epoch, t.step, t.lr_changes)
        if t.lr_change is not None:
            t.lr_changes.append(t.lr_change)
        p = t.cfg.patience
        if t.early_stop is not None and (p is None or t.best["since"] < p):
            t.early_stop = None  # resumed with a larger --patience: it trains on

    # ---- metrics ----
    def epoch_row(self, val, epoch_wall):
        """The metrics row of the epoch just finished (before the trainer counts it): its training means, the
        validation metrics ``val``, and its samples per second over ``epoch_wall`` seconds."""
        t = self.trainer
        s = t.sums
        train = t.model.head.mean(s["sums"], s["count"])
        return {"epoch": t.epoch + 1, "step": t.step, "samples": (t.epoch + 1) * t.task.size("train"),
                "lr": t.opt.lr, **{f"train_{m}": v for m, v in train.items()},
                **{f"val_{m}": v for m, v in val.items()}, "time_s": round(t.train_time, 3),
                "compile_s": round(t.compile_total(), 3),
                "samples_per_s": round(s["samples"] / max(epoch_wall, 1e-9), 1)}

    def eval_row(self, val, nb, kind):
        """A metrics row of an evaluation outside an epoch end (kind 'update': --eval-every; 'stop'), nb batches
        an epoch."""
        t = self.trainer
        return {"epoch": round(t.epoch + t.batch_in_epoch / nb, 6), "step": t.step,
                "samples": t.epoch * t.task.size("train") + t.sums["samples"], "lr": t.opt.lr,
                **{f"val_{m}": v for m, v in val.items()}, "time_s": round(t.train_time, 3),
                "compile_s": round(t.compile_total(), 3), "eval": kind}

    def write_metrics(self, draw=True):
        """metrics.jsonl and metrics.csv after every evaluation (TensorBoard gets the new row); after an epoch
        (``draw``) the picture too, once CURVE_REDRAW_S have passed since its last drawing."""
        t = self.trainer
        if not t.group.root:
            return
        out = t.cfg.out
        atomic_write_text(os.path.join(out, METRICS_FILE), "".join(json.dumps(r) + "\n" for r in t.history))
        write_csv(os.path.join(out, CSV_FILE), t.history)
        if self.tb is not None:
            self.tb.add(t.history[-1:])
        if draw:
            self.curve_pending = True
            if time.perf_counter() - self.curve_t >= CURVE_REDRAW_S:
                self.draw_curve()

    def draw_curve(self):
        """Redraw learning_curve.svg from the epochs' metrics and updates.jsonl (rank 0)."""
        t = self.trainer
        out, c = t.cfg.out, t.cfg
        label = f"{c.cell} H={c.hidden} on {c.task}"
        path = os.path.join(out, UPDATES_FILE)
        updates = read_jsonl(path, torn_tail_ok=True) if os.path.exists(path) else []
        write_learning_curves(os.path.join(out, CURVE_FILE), [(label, t.history, updates)],
                              title=f"{label} ({c.layers} layer{'s' * (c.layers > 1)}, {c.optimizer} lr {c.lr:g}, "
                                    f"batch {c.batch_size}, seed {c.seed})",
                              loss_label=LOSS_LABELS.get(t.model.head.kind))
        self.curve_t, self.curve_pending = time.perf_counter(), False

    def log_update(self, nb):
        """Add this update's sums to the window; every log_every updates write its means to updates.jsonl."""
        t = self.trainer
        w, m = t.log_window, t.model
        for k in w["sums"]:
            w["sums"][k] += m.last_sums[k]
        w["count"] += m.last_count
        w["samples"] += 1  # updates in the window
        if t.step % t.cfg.log_every == 0:
            means = m.head.mean(w["sums"], w["count"])
            self.update_log.append({"step": t.step, "epoch": round(t.epoch + t.batch_in_epoch / nb, 6),
                                    "lr": t.opt.lr, **{f"train_{k}": v for k, v in means.items()},
                                    "updates": w["samples"], "time_s": round(t.train_time, 3)})
            t.log_window = t._new_sums()

    def summary(self, stop_reason):
        """The run's last line: how it ended, its last and best evaluations, the files written."""
        t = self.trainer
        c = t.cfg
        last = t.history[-1] if t.history else None
        if t.stop_eval is not None and t.stop_eval["step"] == t.step:
            last = t.stop_eval
        # the files written so far: a run stopped within its first epoch has no metrics and no curve yet
        files = (("checkpoint", "checkpoint.json"), ("metrics", METRICS_FILE), ("curve", CURVE_FILE))
        where = ", ".join(f"{what} {os.path.join(c.out, name)}" for what, name in files
                          if os.path.exists(os.path.join(c.out, name)))
        if last is None:
            res = "no evaluation yet"
        else:
            when = (f"after epoch {last['epoch']}" if "eval" not in last
                    else f"at update {last['step']} (epoch {last['epoch']:.2f})")
            if last is t.stop_eval:  # the stop's own evaluation: not a row of metrics.jsonl (a resume goes on as if
                when += " (evaluated at the stop, kept in checkpoint.json only)"  # uninterrupted one)
            res = f"validation {format_metrics({m: last['val_' + m] for m in t.model.metrics}, long=True)} {when}"
        b = t.best
        if b["value"] is not None:
            res += (f"; best checkpoint {os.path.join(c.out, BEST_DIR)} (validation "
                    f"{format_metrics({b['metric']: b['value']}, long=True)} at update {b['step']})")
        done = f"{t.step} update{'s' * (t.step != 1)} in {format_seconds(t.train_time)} of training"
        if getattr(t, "compile_this", 0.0) >= 0.5:
            done += f" (plus {t.compile_this:.1f} s compiling kernels, once per install: later runs load them)"
        if stop_reason is None:
            return f"Done: {c.epochs} epoch{'s' * (c.epochs != 1)}, {done}; {res}; {where}."
        if stop_reason == "early":
            e = t.early_stop
            return (f"Stopped early (--patience {e['patience']}: no better validation {e['metric']} in "
                    f"{e['patience']} evaluation{'s' * (e['patience'] != 1)} since update {e['best_step']}) "
                    f"{stop_place(t)}, {done}; {res}; {where}; to train further, resume with a larger --patience.")
        flag = "--max-steps" if t.reached == "max_steps" else "--time-budget"
        return (f"Stopped ({stop_reason}) {stop_place(t)}, {done}; {res}; {where}; "
                f"continue with `lnrnn train --out {c.out} --resume` (without {flag} it trains on to --epochs "
                f"{c.epochs}; give {flag} again for a new limit).")
