"""What a run is made of, built once before its loop (``lnrnn.training.train``) starts:

    setup = build(cfg, resume, explicit, group)   # RunSetup: settings, plan, task, model, optimizer, records

``build`` reads a resumed run's checkpoint (its settings, with the options a resume may change), resolves
the plan (``lnrnn.training.plan``: defaults, checks, and the memory the run needs against what the machine
has, ``lnrnn.training.memory``), reads an ``--init-from`` source and checks its shape before any data,
builds the task and the model, checks what only a built task and model can say, and decides where the
update runs (``on_device``). Every refusal is one ``UserError`` sentence; nothing is written. The loop's
own state (epoch, step, sums, best metric, ...) lives on the trainer, which restores it from
``RunSetup.checkpoint`` (``lnrnn.training.recorder``).
"""
import math
import os
from dataclasses import dataclass
from typing import Optional

import numpy as np

from lnrnn.data.strokes import text_record
from lnrnn.data.tasks import load_task
from lnrnn.errors import SHOWN, CheckpointError, UserError
from lnrnn.predict_io import describe_task_data
from lnrnn.training import distributed, finetune
from lnrnn.training.checkpoint import checkpoint_exists, load_checkpoint
from lnrnn.training.optim import hyper_problem, make_optimizer
from lnrnn.training.plan import RESUME_OVERRIDABLE, Plan, check_memory_built, model_for, resolve
from lnrnn.training.runconfig import TrainConfig, mistyped

# what a checkpoint must describe to be resumed
RESUMABLE_KEYS = ("train", "optimizer", "epoch", "batch_in_epoch", "step", "rng", "epoch_sums", "train_time_s",
                  "metrics")


# what a resume reads from the description besides "train" (runconfig.mistyped) and the model, and the kind of each
# value: a COUNT is an integer of 0 or more, SECONDS a finite number of 0 or more, SUMS a table of finite numbers,
# ROWS a list of tables. A record named in OPTIONAL may be absent, and so may its fields (lnrnn 0.1 wrote none of
# them); only the fields in NONE_MEANS_UNSET may hold None ("none yet").
COUNT, SECONDS, NUMBER, TEXT, SUMS, ROWS = "count", "seconds", "number", "text", "sums", "rows"
RESUMED = {
    "epoch": COUNT, "batch_in_epoch": COUNT, "step": COUNT, "train_time_s": SECONDS, "compile_time_s": SECONDS,
    "optimizer.step": COUNT, "epoch_sums.sums": SUMS, "epoch_sums.count": COUNT, "epoch_sums.samples": COUNT,
    "log_window.sums": SUMS, "log_window.count": COUNT, "log_window.samples": COUNT, "blowup.initial_loss": NUMBER,
    "blowup.streak": COUNT, "metrics": ROWS, "budget.used_s": SECONDS, "budget.max_steps": COUNT,
    "budget.time_budget": SECONDS, "best_state.metric": TEXT, "best_state.value": NUMBER, "best_state.step": COUNT,
    "best_state.epoch": SECONDS, "best_state.since": COUNT, "ranks": COUNT, "lr_changes": ROWS,
}
OPTIONAL = ("compile_time_s", "log_window", "blowup", "budget", "best_state", "ranks", "lr_changes")
NONE_MEANS_UNSET = ("blowup.initial_loss", "budget.max_steps", "budget.time_budget", "best_state.value",
                    "best_state.step", "best_state.epoch")


def _kind_problem(value, kind):
    if kind == ROWS:
        return None if isinstance(value, list) and all(isinstance(r, dict) for r in value) else "not a list of rows"
    if kind == SUMS:
        ok = isinstance(value, dict) and all(_kind_problem(v, NUMBER) is None for v in value.values())
        return None if ok else "not a table of finite numbers"
    if kind == TEXT:
        return None if isinstance(value, str) else "not a text"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return "not a finite number"
    if kind == COUNT and not (isinstance(value, int) and value >= 0):
        return "not an integer of 0 or more"
    if kind == SECONDS and value < 0:
        return "negative"
    return None


def damaged(out, what):
    """The refusal of a resume whose checkpoint.json holds ``what`` (resume_problem's or mistyped's words)."""
    return CheckpointError(f"the checkpoint in {out} holds {what}; its checkpoint.json is damaged: resume a whole "
                           "copy of the run, or start a new one.")


def resume_problem(meta):
    """What makes a checkpoint's description unfit to resume (a damaged or hand-edited checkpoint.json), as
    "step 'x' (not a finite number)", or None; the training settings are runconfig.mistyped's."""
    from lnrnn.sample import shortened  # the sampler's module, not imported on a new run's way in

    for path, kind in RESUMED.items():
        top, *inner = path.split(".")
        if (top in OPTIONAL and top not in meta) or (top == "epoch_sums" and isinstance(meta[top], list)):
            continue  # the required records are there (RESUMABLE_KEYS)
        value = meta[top]
        for key in inner:
            if not isinstance(value, dict) or (key not in value and top not in OPTIONAL):
                return f"{top} {shortened(meta[top], SHOWN)} (not a table with {key})"
            value = value.get(key, ...)
        if value is ... or (value is None and path in NONE_MEANS_UNSET):
            continue  # a field an optional record leaves out, or one that is not set yet
        why = _kind_problem(value, kind)
        if why:
            return f"{path} {shortened(value, SHOWN)} ({why})"
    if isinstance(meta.get("epoch_sums"), list):
        sums = meta["epoch_sums"]
        if len(sums) != 4 or any(_kind_problem(v, NUMBER) for v in sums):
            return f"epoch_sums {shortened(sums, SHOWN)} (not four finite numbers)"
    hyper = (meta.get("optimizer") or {}).get("hyper")
    if not isinstance(hyper, dict):
        return f"optimizer.hyper {shortened(hyper, SHOWN)} (not a table)"
    if "lr" not in hyper:          # the rate a resume continues with; other names left out keep the run's own
        return "optimizer.hyper without lr (the learning rate every optimizer saves)"
    why = hyper_problem(hyper)
    if why:
        return f"optimizer.hyper {why}"
    for key in ("lr", "lr_decay"):  # the schedule a resume continues from (finetune.schedule_change)
        if key not in meta["train"]:
            return f"train without {key} (the learning-rate schedule every run saves)"
    try:
        np.random.Generator(np.random.PCG64()).bit_generator.state = meta["rng"]
    except (TypeError, ValueError, OverflowError, KeyError) as e:
        return f"rng (not a PCG64 state numpy takes: {e})"
    return None


@dataclass
class RunSetup:
    """One run's parts, fixed for the life of the trainer (``build``)."""
    cfg: TrainConfig                 # the settings it runs with: every field filled (a resume's: the checkpoint's,
                                     # with the options RESUME_OVERRIDABLE that were given again)
    plan: Plan                       # resolved once: cell row, task spec, shape, memory (lnrnn.training.plan)
    task: object                     # the built task (lnrnn.data.tasks.load_task): batches, sizes, head config
    model: object                    # the stack + head (lnrnn.model.models.SequenceModel), from cfg.seed or the
                                     # --init-from source (a resume's arrays come in with ``checkpoint``)
    opt: object                      # the optimizer over the model's flat parameters (lnrnn.training.optim)
    on_device: bool                  # --device cuda and the model takes the whole update on the device
    data_record: dict                # the training data's length and value range: predict refuses input unlike it
    text_record: Optional[dict]      # a text task's alphabet, kept with the run; None elsewhere
    init_record: Optional[dict]      # where the run started from (--init-from; a resume: the checkpoint's), or None
    checkpoint: Optional[tuple]      # (meta, arrays) of the checkpoint a resume continues, None for a new run
    budget_used: float               # seconds already counted against an inherited --time-budget (0: a new budget)


def resume_config(saved, given, explicit, budget=None):
    """The checkpoint's config, with the options the user gave explicitly where that is allowed."""
    try:
        cfg = TrainConfig(**saved)
    except TypeError as e:
        raise CheckpointError(f"the checkpoint in {given.out} holds training settings this lnrnn does not "
                              f"know ({e}).") from None
    wrong = mistyped(cfg)
    if wrong:
        raise damaged(given.out, f"the training setting {wrong}")
    # the run's budget as its last invocation left it (one it reached is lifted); None before budgets were kept
    budget = budget or {}
    cfg.max_steps, cfg.time_budget = budget.get("max_steps"), budget.get("time_budget")
    for name in explicit:
        new, old = getattr(given, name), saved.get(name)
        if name in RESUME_OVERRIDABLE:
            setattr(cfg, name, new)
        elif new != old:
            flag = "--" + name.replace("_", "-")
            raise CheckpointError(f"the run in {given.out} was trained with {flag} {old}, not {new}; "
                                  f"drop {flag} to resume it, or start a new run with another --out.")
    return cfg


def read_resume(cfg, explicit):
    """(config, meta, arrays) of the run in cfg.out that --resume continues; CheckpointError/UserError when
    there is none or it cannot be resumed."""
    out = cfg.out
    if not checkpoint_exists(out):
        raise CheckpointError(f"--resume: there is no checkpoint in {out} to resume; "
                              "drop --resume to start a new run there.")
    meta, arrays = load_checkpoint(out)
    missing = [k for k in RESUMABLE_KEYS if k not in meta]
    if missing:
        raise CheckpointError(f"the checkpoint in {out} lacks {', '.join(missing)}; it cannot be resumed.")
    wrong = resume_problem(meta)
    if wrong:
        raise damaged(out, wrong)
    if meta.get("best"):
        raise CheckpointError(f"{out} holds the best checkpoint of a run, not a run to resume; resume "
                              f"the run folder above it (--out {os.path.dirname(os.path.normpath(out))}).")
    if "init_from" in explicit and cfg.init_from != meta["train"].get("init_from"):
        raise UserError(f"--init-from starts a new run from another run's checkpoint; {out} holds a run "
                        "of its own: drop --init-from to resume it, or choose another --out.")
    resumed = resume_config(meta["train"], cfg, explicit, meta.get("budget"))
    resumed.out = out  # the run may have been moved since it was saved
    return resumed, meta, arrays


def build(cfg, resume, explicit, group):
    """The RunSetup of a TrainConfig (``resume``: continue the run in cfg.out; ``explicit``: the options the user
    gave; ``group``: the MPI ranks, ``lnrnn.training.distributed``)."""
    meta = arrays = None
    if resume:
        cfg, meta, arrays = read_resume(cfg, explicit)
    elif group.root and checkpoint_exists(cfg.out):
        raise UserError(f"{cfg.out} already holds a run; pass --resume to continue it, or choose another --out.")
    plan = resolve(cfg)  # defaults, checks, cell row, task spec, memory (lnrnn.training.plan)
    cfg = plan.cfg
    source = None  # --init-from: the checkpoint a new run starts from, its shape checked before any data
    if cfg.init_from is not None and not resume:
        source = finetune.read_source(cfg.init_from)
        finetune.check_settings(source, cfg)
    distributed.check_config(cfg, group.size)
    task = load_task(plan.task_spec)
    n = task.size("train")
    if cfg.batch_size > n:
        raise UserError(f"--batch-size {cfg.batch_size} is larger than the {n} training sequences of {cfg.task}.")
    check_memory_built(plan, task)
    data_record, texts = describe_task_data(task), text_record(task)
    model = model_for(plan, task)
    if source is not None:
        finetune.load_into(model, source)
    if model.conditioned and plan.cell.norm == "bn" and (group.size > 1 or cfg.reproducible):
        raise UserError(f"the synthesis network's {cfg.cell} layers keep their BatchNorm statistics to one "
                        "process and one block: train it without --reproducible and without an MPI launcher, "
                        "or use --cell ln-lstm.")
    if group.size > 1:  # BatchNorm statistics of the global batch (LN and plain cells ignore it)
        model.stack.set_batch_reduce(group.allreduce)
    opt = make_optimizer(cfg.optimizer, cfg.lr)
    # --device cuda: the whole update on the device where the model allows it (lnrnn.training.update)
    on_device = cfg.device == "cuda" and group.size == 1 and not cfg.reproducible and model.device_refusal() is None
    if cfg.best_metric != "none" and cfg.best_metric not in model.metrics:
        raise UserError(f"--best-metric {cfg.best_metric}: the {model.head.kind} head of {cfg.task} "
                        f"reports {', '.join(model.metrics)}; choose one of them, or none.")
    if resume:
        init_record = meta.get("init_from")
        # an inherited budget: what is left of it; a budget given again starts afresh
        used = 0.0 if "time_budget" in explicit else float((meta.get("budget") or {}).get("used_s", 0.0))
    else:
        init_record, used = (source.record if source is not None else None), 0.0
    return RunSetup(cfg=cfg, plan=plan, task=task, model=model, opt=opt, on_device=on_device,
                    data_record=data_record, text_record=texts, init_record=init_record,
                    checkpoint=(meta, arrays) if resume else None, budget_used=used)


def describe(setup):
    """The run's start line: the model, the task, the optimizer and schedule, where it started and writes."""
    c, m = setup.cfg, setup.model
    graves = "".join(f" {flag} {v:g}" for flag, v in (("clip-output", c.clip_output), ("clip-gates", c.clip_gates))
                     if v)  # Graves's derivative clips, when on
    window = m.config.get("window")
    writes = (f", writing each line's text through an attention window of {window} Gaussians over "
              f"{m.config['alphabet_size']} characters" if window else "")
    if m.config.get("window_norm"):
        writes += f" (its layer with norm {m.config['window_norm']})"
    return (f"Training {c.cell} (hidden {c.hidden}, {c.layers}{' bidirectional' * c.bidirectional} "
            f"layer{'s' * (c.layers > 1)}, "
            f"{m.num_params():,} parameters, {c.dtype}{writes}) on {setup.task.description}; {c.optimizer} lr {c.lr:g}"
            f"{f' decay {c.lr_decay:g}/epoch' if c.lr_decay != 1 else ''}, clip {c.clip:g}{graves}, "
            f"batch {c.batch_size}, "
            f"{c.epochs} epoch{'s' * (c.epochs != 1)}, seed {c.seed}; "
            + (f"starting from {finetune.describe_record(setup.init_record)}; " if setup.init_record else "")
            + f"writing to {c.out}.")
