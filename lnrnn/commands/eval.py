"""``lnrnn eval``: the metrics of a run on its task's validation (or training) set: the loss, named for what
it measures (cross-entropy, negative log-likelihood, ...), and accuracy where the head has one. A thin
wrapper over ``lnrnn.api.evaluate_run``."""
import json

import click

from lnrnn.training.plot import LOSS_LABELS
from lnrnn.commands.options import data_dir_option, eval_batch_option, run_folder_option, split_option


@click.command("eval", short_help="Print the metrics of a run (loss; accuracy for classifiers) on its validation set.")
@run_folder_option
@data_dir_option
@split_option
@click.option("--set", "which", type=click.Choice(["val", "train"]), default="val", show_default=True,
              help="Which part of the task to evaluate on.")
@eval_batch_option
@click.option("--json", "as_json", is_flag=True, default=False, help="Print one JSON object instead of a sentence.")
def eval_cmd(path, data_dir, split, which, eval_batch_size, as_json):
    """Print the metrics of a run on the task it was trained on: its loss (cross-entropy for classifiers,
    negative log-likelihood per point for handwriting, ...) and, where the head has one, its accuracy.

    The task is rebuilt from the run's checkpoint; --data-dir and --split override where its data come from.
    """
    from lnrnn.api import evaluate_run, load_run
    from lnrnn.training.evaluation import format_metrics

    run = load_run(path)
    res = evaluate_run(run, which, data_dir=data_dir, split=split, batch_size=eval_batch_size)
    means, task = res.metrics, res.task
    if as_json:
        click.echo(json.dumps({"checkpoint": path, "set": which, **means,
                               **({"accuracy": means["acc"]} if "acc" in means else {}),
                               "sequences": res.sequences, "epoch": run.epoch, "step": run.step,
                               "model": run.config, "task": task.spec}))
        return
    # the loss named for what it measures: its head's name and unit
    summary = format_metrics(means, long=True, loss_label=LOSS_LABELS.get(run.config["head"].get("kind")))
    n = res.sequences
    click.echo(f"{run.describe()}, on {which} of {task.description}: {summary} ({n} sequence{'s' * (n != 1)}).")
