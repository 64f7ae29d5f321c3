"""A training run's settings, resolved once into what the run needs.

    cfg = TrainConfig(cell="bn-lstm", task="mnist", ...)   # what the user asked (None: the task's default)
    plan = resolve(cfg)          # defaults filled, every setting checked, the cell's registry row, the
                                 # task spec, its shape and the memory estimate (checked against what is free)
    task = load_task(plan.task_spec)
    model = model_for(plan, task)         # the model config from the cell row, the task and its head

The trainer (``lnrnn.training.train``), ``lnrnn eval`` and the Python API read a run's settings through here
alone. Each fact is looked up once, in ``resolve``, and the plan carries it: the cell's registry row
(``plan.cell``; no one looks the cell name up again), the task's defaults (filled into ``plan.cfg``).
"""
import dataclasses
import math
from dataclasses import dataclass
from typing import Optional

from lnrnn.model import cells
from lnrnn.config import BN_STATE_NOISE, WINDOW_DEFAULT, WINDOW_NORM_DEFAULT, task_defaults
from lnrnn.data.tasks import task_shape, task_spec
from lnrnn.errors import UserError
from lnrnn.training.memory import check_fits, estimate
from lnrnn.model.heads import make_head
from lnrnn.model.models import build_model, head_config
from lnrnn.training.optim import OPTIMIZERS
from lnrnn.training.runconfig import TrainConfig


# Fields a resumed run may change; every other field must match the checkpoint. max_steps and
# time_budget are inherited from the run unless given again (lnrnn.training.train: a budget the run reached
# is lifted when it stops there); lr and lr_decay change the schedule from the update it resumes at
# (lnrnn.training.finetune).
RESUME_OVERRIDABLE = {"epochs", "max_steps", "time_budget", "eval_batch_size", "device", "out", "data_dir",
                      "save_every", "save_every_seconds", "keep", "patience", "eval_every", "lr", "lr_decay"}
BEST_METRICS = ("loss", "acc", "cer", "none")  # lowest loss, highest accuracy or lowest character error rate
                                               # (heads that have one), or no best/
HEADS = ("mdn", "ctc")  # --head: the stroke tasks' own (mixture density) or a reader's (CTC)


def resolve_defaults(cfg):
    """cfg with every field left None that has a task default filled in (a new object)."""
    given = {k: v for k, v in dataclasses.asdict(cfg).items() if v is not None}
    return TrainConfig(**{**task_defaults(cfg.task), **given})


def validate(cfg):
    """One-sentence UserError for every nonsensical setting (the task's size is checked later); returns the
    registry row of cfg.cell (``cells.Cell``)."""
    cell = cells.get(cfg.cell)
    checks = [
        (cfg.hidden >= 1, f"--hidden must be at least 1, not {cfg.hidden}."),
        (cfg.layers >= 1, f"--layers must be at least 1, not {cfg.layers}."),
        (cfg.batch_size >= 1, f"--batch-size must be at least 1, not {cfg.batch_size}."),
        (cfg.epochs >= 1, f"--epochs must be at least 1, not {cfg.epochs}."),
        (cfg.lr > 0 and math.isfinite(cfg.lr), f"--lr must be a positive number, not {cfg.lr}."),
        (cfg.lr_decay > 0 and math.isfinite(cfg.lr_decay), f"--lr-decay must be positive, not {cfg.lr_decay}."),
        (cfg.clip >= 0 and math.isfinite(cfg.clip), f"--clip must be 0 (off) or positive, not {cfg.clip}."),
        (cfg.optimizer in OPTIMIZERS, f"unknown optimizer {cfg.optimizer!r}; choose one of {', '.join(OPTIMIZERS)}."),
        (cfg.dtype in ("float32", "float64"), f"--dtype must be float32 or float64, not {cfg.dtype}."),
        (cfg.block_rows >= 1, f"--block-rows must be at least 1, not {cfg.block_rows}."),
        (not (cfg.reproducible and cfg.device != "cpu"),
         f"--reproducible is a property of the CPU kernels; drop it with --device {cfg.device}."),
        (cfg.eval_batch_size >= 1, f"--eval-batch-size must be at least 1, not {cfg.eval_batch_size}."),
        (cfg.max_steps is None or cfg.max_steps >= 1, f"--max-steps must be at least 1, not {cfg.max_steps}."),
        (cfg.time_budget is None or cfg.time_budget > 0, f"--time-budget must be positive, not {cfg.time_budget}."),
        (math.isfinite(cfg.forget_bias), f"--forget-bias must be a finite number, not {cfg.forget_bias}."),
        (cfg.seed >= 0, f"--seed must be 0 or more, not {cfg.seed}."),
    ]
    checks.append((cfg.tbptt is None or cfg.tbptt >= 1, f"--tbptt must be at least 1 step, not {cfg.tbptt}."))
    checks.append((cfg.window is None or cfg.window >= 0,
                   f"--window must be 0 (no attention window) or a number of Gaussians, not {cfg.window}."))
    checks.append((cfg.head is None or cfg.head in HEADS,
                   f"--head must be one of {', '.join(HEADS)}, not {cfg.head!r}."))
    checks.append((not (cfg.head == "ctc" and cfg.tbptt),
                   f"--tbptt {cfg.tbptt}: a CTC head scores each line's whole sequence (a chunk's loss is no part of "
                   "it); drop --tbptt to train a reader."))
    checks.append((cfg.window_norm is None or cfg.window_norm in cells.NORMS,
                   f"--window-norm must be none, ln or bn, not {cfg.window_norm!r}."))
    checks.append((not (cfg.head == "ctc" and cfg.window),
                   f"--window {cfg.window}: the attention window writes a given text and --head ctc reads it; a "
                   "reader has no window: drop --window."))
    checks.append((not (cfg.bidirectional and cfg.tbptt),
                   f"--tbptt {cfg.tbptt}: a bidirectional stack's backward direction starts at each sequence's end, "
                   "so it cannot run in chunks with a carried state; drop --tbptt or --bidirectional."))
    checks.append((not (cfg.bidirectional and cfg.window),
                   f"--window {cfg.window}: the synthesis network writes step by step and cannot be bidirectional; "
                   "drop --bidirectional or use --window 0."))
    checks.append((cfg.log_every >= 1, f"--log-every must be at least 1 update, not {cfg.log_every}."))
    checks.append((cfg.eval_every is None or cfg.eval_every >= 1,
                   f"--eval-every must be at least 1 update, not {cfg.eval_every}."))
    checks.append((cfg.keep >= 0, f"--keep must be 0 (only the latest checkpoint) or more, not {cfg.keep}."))
    checks.append((cfg.patience is None or cfg.patience >= 1,
                   f"--patience must be at least 1 evaluation, not {cfg.patience}."))
    checks.append((cfg.best_metric in BEST_METRICS,
                   f"--best-metric must be one of {', '.join(BEST_METRICS)}, not {cfg.best_metric!r}."))
    checks.append((cfg.patience is None or cfg.best_metric != "none",
                   "--patience counts evaluations without a better --best-metric; it cannot be none."))
    checks.append((cfg.init in cells.RECURRENT_INITS,
                   f"--init must be one of {', '.join(cells.RECURRENT_INITS)}, not {cfg.init!r}."))
    checks.append((cfg.clip_output is None or (cfg.clip_output > 0 and math.isfinite(cfg.clip_output)),
                   f"--clip-output must be a positive number, not {cfg.clip_output}."))
    checks.append((cfg.clip_gates >= 0 and math.isfinite(cfg.clip_gates),
                   f"--clip-gates must be 0 (off) or a positive number, not {cfg.clip_gates}."))
    checks.append((not cfg.clip_gates or cell.gate_clip,
                   f"--clip-gates clips the LSTM gates' derivatives; --cell {cfg.cell} has no gates."))
    checks.append((cfg.save_every is None or cfg.save_every >= 1,
                   f"--save-every must be at least 1 update, not {cfg.save_every}."))
    checks.append((cfg.save_every_seconds >= 0 and math.isfinite(cfg.save_every_seconds),
                   f"--save-every-seconds must be 0 (off) or positive, not {cfg.save_every_seconds}."))
    checks.append((cfg.state_noise is None or (cfg.state_noise >= 0 and math.isfinite(cfg.state_noise)),
                   f"--state-noise must be 0 (off) or a positive standard deviation, not {cfg.state_noise}."))
    for ok, msg in checks:
        if not ok:
            raise UserError(msg)
    from lnrnn import backend
    try:
        backend.check_device(cfg.device)
    except ValueError as e:
        raise UserError(f"{e}.") from None
    except backend.CudaUnavailable:
        raise UserError(f"--device cuda: CUDA is not usable here ({backend.cuda_usable()[1]}); "
                        "train with --device cpu.") from None
    return cell


def task_options(cfg):
    """The task options of the config that its task reads (charset, allow_pickle), for task_spec."""
    from lnrnn.data.tasks import TASKS
    reads = TASKS[cfg.task].reads if cfg.task in TASKS else set()
    if cfg.head == "ctc":
        from lnrnn.data.tasks import check_reading
        check_reading(cfg.task)
    if cfg.head is not None and not str(cfg.task).startswith("strokes"):
        raise UserError(f"--head {cfg.head} chooses a stroke task's head; task {cfg.task} has its own; drop --head.")
    opts = {"charset": cfg.charset, "allow_pickle": cfg.allow_pickle or None, "objective": cfg.objective,
            "head": "ctc" if cfg.head == "ctc" else None}  # the stroke tasks' own head is the spec's default
    for key, val in opts.items():
        if val is not None and key not in reads:
            flag = "--" + key.replace("_", "-")
            raise UserError(f"task {cfg.task} does not take {flag}.")
    return {k: v for k, v in opts.items() if k in reads}


def task_head(task):
    """The head config a task asks for: its own ``head`` when it names one (a density head, say),
    else the one its objective, classes and per-step scoring imply."""
    if getattr(task, "head", None) is not None:
        return dict(task.head)
    return head_config(task.objective, task.num_classes, task.per_step, task.extra.get("tolerance", 0.04))


def state_noise(plan, task):
    """--state-noise, or its default: BN_STATE_NOISE for BN cells on tasks whose sequences all begin
    with the same inputs (their per-step batch variance would be zero there), else 0."""
    if plan.cfg.state_noise is not None:
        return float(plan.cfg.state_noise)
    bn = plan.cell.norm == "bn"
    return BN_STATE_NOISE if bn and task.extra.get("constant_prefix", False) else 0.0


def model_config(plan, task):
    """The model config (``lnrnn.model.models.build_model``'s, saved in checkpoints) of a plan on a built
    task."""
    cfg, spec = plan.cfg, plan.cell
    config = dict(cell=spec.cell, norm=spec.norm, input_size=task.input_size, hidden_size=cfg.hidden,
                  num_layers=cfg.layers, dtype=cfg.dtype, forget_bias=float(cfg.forget_bias), head=task_head(task),
                  state_noise=state_noise(plan, task))
    if cfg.skip:
        config["skip"] = True
    if cfg.bidirectional:
        if config["head"].get("kind") == "mdn":
            raise UserError(f"--bidirectional: task {cfg.task}'s mixture density head predicts each next point, which "
                            "a backward direction has already read; drop --bidirectional.")
        config["bidirectional"] = True
    K = window_size(plan, task)
    if cfg.window_norm is not None and not K:
        raise UserError(f"--window-norm {cfg.window_norm}: the run has no attention window (its task's lines carry "
                        "no text, or --window 0, or --head ctc); drop --window-norm.")
    if K:
        config.update(window=K, alphabet_size=len(task.alphabet), skip=True)
        window_norm = WINDOW_NORM_DEFAULT.get(spec.norm, spec.norm) if cfg.window_norm is None else cfg.window_norm
        if window_norm != spec.norm:
            config["window_norm"] = window_norm
    return config


def window_size(plan, task):
    """K, the attention window's Gaussians of a run (0: none): --window, or WINDOW_DEFAULT on a task whose
    lines carry text (``task.alphabet``) and 0 elsewhere (a reader, --head ctc, too). UserError for a window
    the run cannot have (``validate`` refuses one with --head ctc)."""
    cfg = plan.cfg
    has_text = getattr(task, "alphabet", None) is not None
    K = (WINDOW_DEFAULT if has_text and cfg.head != "ctc" else 0) if cfg.window is None else int(cfg.window)
    if not K:
        return 0
    if cfg.bidirectional:
        raise UserError(f"--window {K}: the synthesis network writes step by step and cannot be bidirectional; "
                        "drop --bidirectional or use --window 0.")
    if not has_text:
        raise UserError(f"--window {K}: the attention window reads each line's text, and the lines of task "
                        f"{cfg.task} have none; use --window 0.")
    if plan.cell.cell != "lstm":
        raise UserError(f"--window {K}: the synthesis network's attention window runs with the LSTM cells "
                        f"(lstm, ln-lstm, bn-lstm), not --cell {cfg.cell}; or use --window 0.")
    if cfg.skip is False:
        raise UserError(f"--window {K}: the synthesis network is Graves's skip-connected stack; drop --no-skip "
                        "or use --window 0.")
    return K


def model_for(plan, task):
    """A fresh model of a plan on a built task: its model config built with the run's seed, device,
    initialization and gate clip, and the head's output clip set."""
    cfg = plan.cfg
    model = build_model(model_config(plan, task), seed=cfg.seed, device=cfg.device, recurrent_init=cfg.init,
                        clip_gates=cfg.clip_gates)
    if cfg.clip_output:
        if not hasattr(model.head, "clip_output"):
            raise UserError(f"--clip-output clips a mixture density head's derivatives; {cfg.task} has a "
                            f"{model.head.kind} head.")
        model.head.clip_output = float(cfg.clip_output)
    return model


@dataclass(frozen=True)
class Plan:
    """What a run needs, resolved once from its TrainConfig (``resolve``)."""
    cfg: "TrainConfig"             # every field filled (the task's defaults where None was given)
    cell: cells.Cell               # the registry row of cfg.cell
    task_spec: dict                # lnrnn.data.tasks.task_spec of the run's task and options
    shape: Optional[object]        # its TaskShape before building, None for the stroke tasks
    memory: Optional[dict]         # lnrnn.training.memory.estimate {part: bytes} where the shape is known


def resolve(cfg):
    """TrainConfig -> Plan: defaults filled, every setting validated (one-sentence UserError), the task spec
    built and, where its shape is known before the data, the memory estimate checked (``check_memory``)."""
    cfg = resolve_defaults(cfg)
    cell = validate(cfg)
    spec = task_spec(cfg.task, cfg.data_dir, cfg.split, cfg.steps, **task_options(cfg))
    shape = task_shape(spec)
    memory = None
    if shape is not None:  # before the data are built: --steps 10000000 would not fit
        memory = estimate(cfg, cell, shape.steps, shape.inputs, shape.outputs, shape.per_step, shape.data_bytes)
        check_fits(memory, steps_option=cfg.steps is not None)
    return Plan(cfg, cell, spec, shape, memory)


def check_memory_built(plan, task):
    """The memory check of a task whose shape is known only once built (the stroke tasks)."""
    if plan.shape is not None:
        return
    head = make_head(task_head(task), hidden_size=1)  # the head says how many outputs it has, on which steps
    check_fits(estimate(plan.cfg, plan.cell, task.steps, task.input_size, head.O, head.per_step),
               steps_option=plan.cfg.steps is not None)
