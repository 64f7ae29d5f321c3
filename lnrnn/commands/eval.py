"""``lnrnn eval``: the metrics (loss, accuracy, ...) of a saved checkpoint on its task's validation (or training) set."""
import json

import click

from lnrnn.checkpoint import load_checkpoint
from lnrnn.commands.options import data_dir_option, eval_batch_option, split_option
from lnrnn.data.tasks import load_task
from lnrnn.errors import CheckpointError


@click.command("eval")
@click.option("--checkpoint", "path", required=True, type=click.Path(),
              help="A run directory (from `lnrnn train --out`) or its checkpoint.json.")
@data_dir_option
@split_option
@click.option("--set", "which", type=click.Choice(["val", "train"]), default="val", show_default=True,
              help="Which part of the task to evaluate on.")
@eval_batch_option
@click.option("--json", "as_json", is_flag=True, default=False, help="Print one JSON object instead of a sentence.")
def eval_cmd(path, data_dir, split, which, eval_batch_size, as_json):
    """Print the loss and accuracy of a checkpoint on the task it was trained on.

    The task is rebuilt from the checkpoint; --data-dir and --split override where its data come from.
    """
    from lnrnn.models import upgrade_config
    from lnrnn.train import evaluate, format_metrics, model_from_checkpoint, task_head
    meta, arrays = load_checkpoint(path)
    spec = dict(meta.get("task") or {})
    if "task" not in spec:
        raise CheckpointError(f"checkpoint {path} does not say which task it was trained on; it is corrupt.")
    if data_dir is not None:
        spec["data_dir"] = data_dir
    if split is not None:
        spec["split"] = split
    task = load_task(spec)  # every option the run was trained with (charset, ...), the overrides applied
    try:
        model = model_from_checkpoint(meta, arrays)
    except (TypeError, ValueError, KeyError) as e:
        raise CheckpointError(f"checkpoint {path} does not describe a model lnrnn can rebuild ({e}).") from None
    m = upgrade_config(meta["model"])
    head, want = m["head"], task_head(task)
    if m["input_size"] != task.input_size or head != want:
        raise CheckpointError(f"checkpoint {path} expects {m['input_size']} inputs and a {head['kind']} head with "
                              f"{head['outputs']} outputs, but {task.spec['task']} has {task.input_size} inputs and "
                              f"needs a {want['kind']} head with {want['outputs']} outputs.")
    from lnrnn.config import task_defaults
    means = evaluate(model, task, which, eval_batch_size or task_defaults(spec["task"])["eval_batch_size"])
    if as_json:
        click.echo(json.dumps({"checkpoint": path, "set": which, **means,
                               **({"accuracy": means["acc"]} if "acc" in means else {}),
                               "sequences": task.size(which), "epoch": meta.get("epoch"), "step": meta.get("step"),
                               "model": m, "task": task.spec}))
        return
    cell = meta.get("train", {}).get("cell", f"{m['norm']}-{m['cell']}")
    click.echo(f"{cell} (hidden {m['hidden_size']}, {m['num_layers']} layer(s)) after {meta.get('epoch')} finished "
               f"epoch(s), {meta.get('step')} updates, on {which} of {task.description}: "
               f"{format_metrics(means, long=True)} ({task.size(which)} sequences).")
