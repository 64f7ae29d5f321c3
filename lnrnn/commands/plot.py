"""``lnrnn plot``: learning curves of one or more run folders in one picture (PNG, SVG or PDF; ``lnrnn.training.plot``)."""
import json
import os

import click

from lnrnn.errors import UserError
from lnrnn.files import check_output_file
from lnrnn.training.plot import FORMATS, X_AXES, Curves, loss_kinds, picture_format, write_learning_curves
from lnrnn.training.rundir import UPDATES_FILE, read_jsonl
from lnrnn.training.rundir import METRICS_FILE


def read_run_curves(run_dir):
    """A run folder's Curves: metrics.jsonl (required) and updates.jsonl (when the run logged one; runs of
    older lnrnn versions did not)."""
    path = _log_path(run_dir, METRICS_FILE)
    records = read_jsonl(path) if os.path.isfile(path) else []
    if not records and os.path.isfile(os.path.join(run_dir, "checkpoint.json")):
        raise UserError(f"the run in {run_dir} has no evaluations yet (it stopped before its first epoch ended, "
                        f"and {METRICS_FILE} holds one row per scheduled evaluation; an evaluation at the stop is "
                        f"kept in checkpoint.json only); train it on with `lnrnn train --out "
                        f"{run_dir} --resume`, or give --eval-every to evaluate sooner.")
    if not os.path.isfile(path):
        raise UserError(f"{run_dir} has no {METRICS_FILE}; point lnrnn plot at run folders (what `lnrnn train "
                        "--out` wrote).")
    if not records:  # a run still before its first evaluation: a picture of empty axes would say nothing
        raise UserError(f"the run in {run_dir} has no evaluations yet ({METRICS_FILE} is empty: it gets one row "
                        "per scheduled evaluation); plot it after its first, or give --eval-every to evaluate sooner.")
    upath = _log_path(run_dir, UPDATES_FILE)
    updates = read_jsonl(upath, torn_tail_ok=True) if os.path.isfile(upath) else []
    return Curves(os.path.basename(os.path.normpath(run_dir)), records, updates, kind=head_kind(run_dir))


def _log_path(run_dir, name):
    """The path of a run's log ``name``, refused when something other than a file is there (a folder would
    otherwise read as a log not written yet)."""
    path = os.path.join(run_dir, name)
    if os.path.lexists(path) and not os.path.isfile(path):
        raise UserError(f"{path} is not a file, where lnrnn train writes the run's {name}; remove or rename it, "
                        "or point lnrnn plot at another run folder.")
    return path


def head_kind(run_dir):
    """The head kind the run's checkpoint.json names, or None."""
    try:
        with open(os.path.join(run_dir, "checkpoint.json")) as f:
            return json.load(f)["model"]["head"]["kind"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


@click.command("plot", short_help="Draw the learning curves of run folders (PNG, SVG or PDF).")
@click.argument("runs", nargs=-1, required=True, type=click.Path(file_okay=False), metavar="RUN_FOLDER...")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help=f"Picture to write; its extension picks the format: {', '.join(FORMATS)}.")
@click.option("--x", "x", type=click.Choice(list(X_AXES)), default="step", show_default=True,
              help="Horizontal axis: updates, epochs or training time.")
@click.option("--title", default=None, help="Title of the picture. Default: the runs' configuration when all "
                                            "share one, else 'learning curves'.")
def plot(runs, out, x, title):
    """Draw the metrics (accuracy, loss, ...) of one or more run folders against updates into one picture:
    validation and training per epoch, and the training metrics every --log-every updates as a thin line."""
    # first: a name ending in a separator is a folder, not a name without suffix
    check_output_file(out)
    picture_format(out)
    seen = {}
    for r in runs:  # one folder twice would draw one run as two, under one label
        key = os.path.realpath(r)
        if key in seen:
            raise UserError(f"{seen[key]} and {r} are the same run folder; give each run once.")
        seen[key] = r
    data = [read_run_curves(r) for r in runs]
    if len({d.label for d in data}) < len(data):  # runs/a/r and runs/b/r: the legend names them by their paths
        for d, r in zip(data, runs):
            d.label = os.path.normpath(r)
    if title is None:
        title = _config_title(runs) or "learning curves"
    write_learning_curves(out, data, x=x, title=title)
    losses = loss_kinds(data)
    note = ""
    if len(losses) > 1:
        note = ("; their losses measure different things, so each has its own panel: " +
                "; ".join(f"{label} ({', '.join(data[k].label for k in idx)})" for label, idx in losses.items()))
    click.echo(f"Wrote {out} ({len(data)} run{'s' * (len(data) > 1)}, x = {X_AXES[x]}){note}.")


def _config_title(runs):
    """'ln-lstm H=64 on digits (1 layer, adam lr 0.003, batch 16, seed 0)' when every run has that config.json."""
    from lnrnn.training.runconfig import CONFIG_FILE
    titles = set()
    for r in runs:
        try:
            with open(os.path.join(r, CONFIG_FILE)) as f:
                c = json.load(f)
            if not isinstance(c, dict):  # a damaged config.json: no title from it
                return None
            layers = c.get("layers", 1)
            titles.add(f"{c['cell']} H={c.get('hidden')} on {c['task']} ({layers} layer{'s' * (layers != 1)}, "
                       f"{c.get('optimizer')} lr {c.get('lr'):g}, batch {c.get('batch-size')}, seed {c.get('seed')})")
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return titles.pop() if len(titles) == 1 else None
