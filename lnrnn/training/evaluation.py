"""Evaluating a model on a task, and models rebuilt from checkpoints: what ``lnrnn eval``, ``predict``,
the Python API and the trainer share (none of them imports the trainer for it).

    model = model_from_checkpoint(meta, arrays)          # or meta, model = model_from_run("runs/x")
    means = evaluate(model, task, "val", batch_size=500)    # {metric: mean} as the head names them
    print(format_metrics(means))                            # 'loss 0.4123 acc 87.20%'
"""
import numpy as np

from lnrnn.errors import whole_number
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
    config = upgrade_config(meta["model"])
    check_saved_sizes(config, arrays)
    model = build_model(config, seed=seed, device=device)
    model.load_arrays(split_arrays(arrays)[0])
    return model


def check_saved_sizes(config, arrays):
    """ValueError unless a model description's num_layers, hidden_size and input_size (those that are whole
    numbers: build_model refuses the rest) and dtype (when it names one) are those of the arrays saved with it:
    param/rnn.l{k}.Wh (H, G) for k = 0 .. L-1 and no more, param/rnn.l0.Wx (I, G) (I + C for the synthesis
    network, which reads [x | window]). Checked before anything is built: a description damaged to 2**70 layers
    would build layers until the memory ran out, a hidden size of 100000 would draw gigabytes of weights, a dtype of
    null would rebuild a float32 run in float64."""
    L, H, I = config.get("num_layers"), config.get("hidden_size"), config.get("input_size")
    saved = 0                                                 # l0, l1, ... up to the first missing
    while f"param/rnn.l{saved}.Wh" in arrays:
        saved += 1
    if whole_number(L) and L != saved:
        raise ValueError(f"its description says num_layers {L}, but it holds the weights of {saved}")
    Wh, Wx = arrays.get("param/rnn.l0.Wh"), arrays.get("param/rnn.l0.Wx")
    if whole_number(H) and Wh is not None and Wh.shape[:1] != (H,):
        raise ValueError(f"its description says hidden_size {H}, but rnn.l0.Wh has shape {Wh.shape}")
    D = config.get("dtype")                                   # np.dtype(None) would build a float64 model
    if Wh is not None and "dtype" in config and D != Wh.dtype.name:
        raise ValueError(f"its description says dtype {D!r}, but rnn.l0.Wh holds {Wh.dtype.name} values")
    C = config.get("alphabet_size", 0) if config.get("window") else 0
    if whole_number(I) and whole_number(C) and Wx is not None and Wx.shape[:1] != (I + C,):
        raise ValueError(f"its description says input_size {I}{f' (and {C} characters)' if C else ''}, but "
                         f"rnn.l0.Wx has shape {Wx.shape}")


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
