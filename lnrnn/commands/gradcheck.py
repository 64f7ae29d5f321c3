"""``lnrnn gradcheck``: finite-difference checks of every backward on small random problems."""
import click

from lnrnn.errors import UserError
from lnrnn.gradcheck import TOLERANCE, check_stack
from lnrnn.layers import CELL_NAMES


@click.command("gradcheck")
@click.option("--cell", "cells", multiple=True, type=click.Choice(list(CELL_NAMES)),
              help="Cell(s) to check (repeatable); all six when omitted.")
@click.option("--steps", "T", type=int, default=5, show_default=True, help="Sequence length T.")
@click.option("--batch", "B", type=int, default=3, show_default=True, help="Batch size B.")
@click.option("--input", "I", type=int, default=3, show_default=True, help="Input features I.")
@click.option("--hidden", "H", type=int, default=4, show_default=True, help="Hidden units H.")
@click.option("--layers", type=int, default=2, show_default=True, help="Stacked layers.")
@click.option("--max-elems", type=int, default=40, show_default=True,
              help="Elements checked per array (a random subset of larger arrays).")
@click.option("--tolerance", type=float, default=TOLERANCE, show_default=True,
              help="Largest accepted max relative error.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of the problems.")
def gradcheck(cells, T, B, I, H, layers, max_elems, tolerance, seed):
    """Check every hand-written gradient against float64 central differences.

    Prints one line per cell x norm x mode x parameter with the max relative error
    |analytic - numeric| / (|analytic| + |numeric|), and exits non-zero if any exceeds --tolerance.
    BN cells are checked in training mode (batch statistics) and inference mode (running statistics).
    """
    for what, v in (("--steps", T), ("--batch", B), ("--input", I), ("--hidden", H), ("--layers", layers),
                    ("--max-elems", max_elems)):
        if v < 1:
            raise UserError(f"{what} must be at least 1, got {v}.")
    if B < 2 and any(n.startswith("bn-") for n in (cells or CELL_NAMES)):
        raise UserError("--batch must be at least 2 for BN cells (statistics over the batch).")
    worst, failed = 0.0, 0
    for name in cells or CELL_NAMES:
        cell, norm = CELL_NAMES[name]
        for training in (True, False) if norm == "bn" else (True,):
            mode = "train" if training else "infer"
            for pname, err in check_stack(cell, norm, T=T, B=B, I=I, H=H, num_layers=layers,
                                          training=training, seed=seed, max_elems=max_elems):
                ok = err <= tolerance
                failed += not ok
                worst = max(worst, err)
                click.echo(f"{name:<8} {mode:<5} {pname:<8} {err:9.2e}  {'ok' if ok else 'FAIL'}")
    click.echo(f"max relative error {worst:.2e}; {failed} above tolerance {tolerance:g}")
    if failed:
        raise SystemExit(1)
