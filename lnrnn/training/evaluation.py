"""Evaluating a model on a task, and models rebuilt from checkpoints: what ``lnrnn eval``, ``predict``,
the Python API and the trainer share (none of them imports the trainer for it).

    model = model_from_checkpoint(meta, arrays)          # or meta, model = model_from_run("runs/x")
    means = evaluate(model, task, "val", batch_size=500)    # {metric: mean} as the head names them
    print(format_metrics(means))                            # 'loss 0.4123 acc 87.20%'
"""
import numpy as np

from lnrnn.model.models import build_model, upgrade_config


def split_arrays(arrays):
    """A checkpoint's arrays -> ({model array name: array}, {slot: {name: array}})."""
    model, slots = {}, {}
    for k, v in arrays.items():
        kind, _, name = k.partition("/")
        if kind == "param" or kind == "buffer":
            model[name] = v
        elif kind == "optim":
            slot, _, pname = name.partition("/")
            slots.setdefault(slot, {})[pname] = v
    return model, slots


def model_from_checkpoint(meta, arrays, device="cpu"):
    """Rebuild the model a checkpoint describes and load its parameters and buffers. The model is built
    with the run's own seed (``meta['train']['seed']``; 0 for a checkpoint that names none): the
    parameters are overwritten by the checkpoint's, but the initial-state noise of every evaluation
    is drawn from that seed, so that ``lnrnn eval`` reproduces the figures the run logged."""
    seed = int((meta.get("train") or {}).get("seed") or 0)
    model = build_model(upgrade_config(meta["model"]), seed=seed, device=device)
    model.load_arrays(split_arrays(arrays)[0])
    return model


def model_from_run(path, device="cpu"):
    """A run folder (``lnrnn train --out DIR``) or its checkpoint.json -> (meta, model): the checkpoint
    verified (hash, names, shapes) and the model rebuilt from its own description (``lnrnn.load_run``
    and ``lnrnn.torch.from_run`` both start here)."""
    from lnrnn.errors import CheckpointError
    from lnrnn.training.checkpoint import load_checkpoint

    meta, arrays = load_checkpoint(str(path))
    try:
        return meta, model_from_checkpoint(meta, arrays, device=device)
    except (TypeError, ValueError, KeyError, OverflowError, MemoryError) as e:  # a damaged description's sizes
        raise CheckpointError(f"checkpoint {path} does not describe a model lnrnn can rebuild ({e}).") from None


def task_batch(task, which, idx, dtype, text=False):
    """-> (x (T,B,I), targets, lengths or None) of samples idx; with text, a fourth item: their texts
    (codes (B,U), lengths (B,)) as a conditioned model reads them (``StrokeTask.text_batch``)."""
    b = task.batch(which, idx, dtype)
    out = (b[0], b[1], b[2] if len(b) > 2 else None)
    return out + (task.text_batch(which, idx),) if text else out


def evaluate(model, task, which="val", batch_size=500, group=None):
    """{metric: mean} of the model on the task's 'train' or 'val' set (training=False); a group of
    several MPI ranks deals the batches out over its ranks (``distributed.evaluate``): the same figures."""
    n = task.size(which)
    if group is not None and group.size > 1:
        from lnrnn.training import distributed
        return distributed.evaluate(group, model, [
            lambda s=s: task_batch(task, which, np.arange(s, min(s + batch_size, n)), model.dtype, model.conditioned)
            for s in range(0, n, batch_size)])
    return model.evaluate(task_batch(task, which, np.arange(s, min(s + batch_size, n)), model.dtype, model.conditioned)
                          for s in range(0, n, batch_size))


def format_metrics(means, long=False, loss_label=None):
    """'loss 0.4123 acc 87.20%' (long: 'loss 0.4123, accuracy 87.20%'). loss_label (long only): what the
    loss measures, 'name (unit)' as ``lnrnn.training.plot.LOSS_LABELS`` has it: 'cross-entropy loss 0.4123 nats'."""
    from lnrnn.model.heads import METRIC_INFO
    parts = []
    for m, v in means.items():
        label, percent = METRIC_INFO.get(m, (m, False))
        name = label.replace(" (%)", "") if long else m
        if long and m == "loss" and loss_label:
            name, _, unit = loss_label.partition(" (")
            parts.append(f"{name} {v:.4f}" + (f" {unit.rstrip(')')}" if unit else ""))
            continue
        parts.append(f"{name} {100 * v:.2f}%" if percent else f"{name} {v:.4f}")
    return (", " if long else " ").join(parts)
