"""``lnrnn gradcheck``: finite-difference checks of every backward on small random problems."""
from functools import partial

import click

from lnrnn.errors import UserError
import numpy as np

from lnrnn.commands.options import quiet_option
from lnrnn.gradcheck import TOLERANCE, check_model, check_stack
from lnrnn.model.cells import CELLS
from lnrnn.training.memory import refuse_beyond
from lnrnn.training.progress import Progress


@click.command("gradcheck", short_help="Check every backward against float64 central differences.")
@click.option("--cell", "cells", multiple=True, type=click.Choice(list(CELLS)),
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
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Random seed of the problems.")
@quiet_option
def gradcheck(cells, T, B, I, H, layers, max_elems, tolerance, seed, quiet):
    """Check every hand-written gradient against float64 central differences.

    Prints one line per cell x norm x mode x parameter with the max relative error
    |analytic - numeric| / (|analytic| + |numeric|), and exits non-zero if any exceeds --tolerance.
    Modes: train (whole sequences), infer (BN: running statistics), mask (a padded batch: four more
    rows, two full, one shorter, one empty), chunk (steps T..2T-1 from a given state), and the whole model
    with each head: clf (classifier, last step), clf-step (classifier on every step of a padded
    batch), reg (regression, last step); and for the LSTM cells write (Graves's synthesis network: the
    attention window over texts of different lengths, a mixture density head, a padded batch).
    Progress (checks done, ETA) goes to stderr; --quiet silences it.
    """
    for what, v in (("--steps", T), ("--batch", B), ("--input", I), ("--hidden", H), ("--layers", layers),
                    ("--max-elems", max_elems)):
        if v < 1:
            raise UserError(f"{what} must be at least 1, got {v}.")
    if not (tolerance >= 0 and np.isfinite(tolerance)):  # NaN would fail every check after running them all
        raise UserError(f"--tolerance must be a finite number of at least 0, not {tolerance}.")
    if B < 2 and any(n.startswith("bn-") for n in (cells or CELLS)):
        raise UserError("--batch must be at least 2 for BN cells (statistics over the batch).")
    # at least each layer's Wh (H,H) and Wx (I or H, H), and its outputs over the chunk mode's 2T steps of the
    # padded batch's B + 4 rows, in float64: a typo's size is refused before any layer is built
    refuse_beyond(8 * layers * (H * (I + H) + 2 * T * (B + 4) * H),
                  f"gradcheck at --steps {T:,} --batch {B:,} --input {I:,} --hidden {H:,} --layers {layers:,}",
                  "the defaults (central differences need only small problems)")
    worst, failed = 0.0, 0
    # the whole model and padded batches take B + 4 rows: BN over few rows is (nearly) constant, and its
    # curvature (~1/sqrt(eps)) would swamp central differences at the checker's step
    lengths = np.array([T] * (B + 2) + [max(T - 2, 1), 0])
    heads = {"clf": ("classifier", False, None), "clf-step": ("classifier", True, lengths),
             "reg": ("regression", False, None)}
    plan = []  # (cell name, mode, check): every check first (bound to its cell), so that progress can count them
    for name in cells or CELLS:
        cell, norm = CELLS[name].cell, CELLS[name].norm
        stack = partial(check_stack, cell, norm, T=T, I=I, H=H, num_layers=layers, seed=seed, max_elems=max_elems)
        model = partial(check_model, cell, norm, T=T, B=B + 4, I=I, H=H, num_layers=layers, seed=seed,
                        max_elems=max_elems)
        runs = [("train", partial(stack, B=B, training=True))]
        if norm == "bn":
            runs.append(("infer", partial(stack, B=B, training=False)))
        runs.append(("mask", partial(stack, B=B + 4, lengths=lengths)))
        runs.append(("chunk", partial(stack, B=B, t0=T)))
        if CELLS[name].cell == "lstm":
            runs.append(("write", partial(model, "mdn", lengths=lengths, window=2)))
        for mode, (head, per_step, lens) in heads.items():
            runs.append((mode, partial(model, head, per_step, lengths=lens)))
        plan += [(name, mode, run) for mode, run in runs]
    bar = Progress(len(plan), "gradcheck", quiet=quiet, unit="checks")
    for name, mode, run in plan:
        results = run()
        if bar.tty and not quiet:
            click.echo("\r\033[K", err=True, nl=False)  # the bar's line, cleared for the results below it
        for pname, err in results:
            ok = err <= tolerance
            failed += not ok
            worst = max(worst, err)
            click.echo(f"{name:<8} {mode:<8} {pname:<11} {err:9.2e}  {'ok' if ok else 'FAIL'}")
        bar.update(1)
    bar.close()
    click.echo(f"max relative error {worst:.2e}; {failed} above tolerance {tolerance:g}")
    if failed:
        raise SystemExit(1)
