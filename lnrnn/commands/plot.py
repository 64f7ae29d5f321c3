"""``lnrnn plot``: learning curves of one or more runs in one SVG."""
import json
import os

import click

from lnrnn.errors import UserError
from lnrnn.plot import X_AXES, write_learning_curves
from lnrnn.train import METRICS_FILE


def read_metrics(run_dir):
    path = os.path.join(run_dir, METRICS_FILE)
    if not os.path.isfile(path):
        raise UserError(f"{run_dir} has no {METRICS_FILE}; point lnrnn plot at `lnrnn train --out` folders.")
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except json.JSONDecodeError as e:
        raise UserError(f"{path} is not valid JSON lines ({e}).") from None


@click.command("plot")
@click.argument("runs", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="SVG file to write.")
@click.option("--x", "x", type=click.Choice(list(X_AXES)), default="step", show_default=True,
              help="Horizontal axis: updates, epochs or training wall time.")
@click.option("--title", default="learning curves", show_default=True, help="Title of the picture.")
def plot(runs, out, x, title):
    """Draw the accuracy and loss curves of one or more run directories into one SVG."""
    data = [(os.path.basename(os.path.normpath(r)), read_metrics(r)) for r in runs]
    write_learning_curves(out, data, x=x, title=title)
    click.echo(f"Wrote {out} ({len(data)} run{'s' * (len(data) > 1)}, x = {X_AXES[x]}).")
