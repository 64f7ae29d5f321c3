"""``lnrnn sample``: draw handwriting from a trained mixture-density run (see ``lnrnn.sample``)."""
import click

from lnrnn.commands.options import quiet_option, run_folder_option
from lnrnn.config import SAMPLE_MAX_STEPS
from lnrnn.errors import UserError


@click.command("sample", short_help="Draw handwriting samples from a run of a strokes task.")
@run_folder_option
@click.option("--steps", type=int, default=700, show_default=True,
              help=f"Points per sample; at most {SAMPLE_MAX_STEPS:,} unless --no-cap is given.")
@click.option("--no-cap", is_flag=True, default=False,
              help=f"Allow --steps above {SAMPLE_MAX_STEPS:,} (each point is one step of the model: long "
                   "samples take minutes; progress shows on stderr).")
@click.option("--bias", type=float, default=0.0, show_default=True,
              help="Graves's sampling bias b: sigma = exp(sigma_hat - b), weights = softmax(pi_hat (1 + b)); "
                   "0 samples the trained distribution, larger is neater.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same picture.")
@click.option("--count", type=int, default=4, show_default=True, help="Samples, one row each.")
@click.option("--out", type=click.Path(dir_okay=False), default="samples.png", show_default=True,
              help="Picture to write: .png, .svg or .pdf (missing folders are created).")
@click.option("--npz", type=click.Path(dir_okay=False), default=None,
              help="Also save the points (one concatenated (N,3) array plus lengths, no pickle).")
@quiet_option
def sample(path, steps, no_cap, bias, seed, count, out, npz, quiet):
    """Draw COUNT handwriting samples one point at a time and write them as a picture.

    Both destinations are checked before any sampling; Ctrl-C stops with exit 130 and writes nothing."""
    import numpy as np

    from lnrnn.api import load_run, sample_run
    from lnrnn.files import check_output_file, write_output_file
    from lnrnn.sample import FORMATS, draw_strokes
    from lnrnn.training.progress import Progress

    for what, v in (("--steps", steps), ("--count", count)):
        if v < 1:
            raise UserError(f"{what} must be at least 1, not {v}.")
    if steps > SAMPLE_MAX_STEPS and not no_cap:
        raise UserError(f"--steps {steps:,} is more than the {SAMPLE_MAX_STEPS:,} points a sample may have "
                        "(each is one step of the model); pass --no-cap to draw them anyway.")
    if not (bias >= 0 and np.isfinite(bias)):
        raise UserError(f"--bias must be 0 or positive, not {bias}.")
    if not str(out).lower().endswith(FORMATS):
        raise UserError(f"--out must end in {', '.join(FORMATS)}, not {out!r}.")
    check_output_file(out, "--out")
    if npz:
        check_output_file(npz, "--npz")
    run = load_run(path)
    meta = run.meta
    progress = Progress(steps * count, "sample", quiet=quiet, unit="points")
    lines = sample_run(run, steps, count, bias, seed, progress=progress)
    progress.close()
    cell = meta.get("train", {}).get("cell", "?")
    task = (meta.get("task") or {}).get("task", "?")
    draw_strokes(lines, out, title=f"{cell} on {task}, update {meta.get('step')}, bias {bias:g}, seed {seed}")
    if npz:
        flat = np.concatenate(lines).astype(np.float32)
        write_output_file(npz, lambda f: np.savez(f, points=flat, lengths=np.array([len(s) for s in lines])),
                          "--npz")
    click.echo(f"Wrote {count} sample{'s' * (count != 1)} of {steps} points to {out}"
               f"{f' and {npz}' if npz else ''}.")
