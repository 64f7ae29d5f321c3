"""``lnrnn sample``: draw handwriting from a trained mixture-density run (see ``lnrnn.sample``)."""
import click

from lnrnn.commands.options import run_folder_option
from lnrnn.errors import UserError


@click.command("sample", short_help="Draw handwriting samples from a run of a strokes task.")
@run_folder_option
@click.option("--steps", type=int, default=700, show_default=True, help="Points per sample.")
@click.option("--bias", type=float, default=0.0, show_default=True,
              help="Graves's sampling bias b: sigma = exp(sigma_hat - b), weights = softmax(pi_hat (1 + b)); "
                   "0 samples the trained distribution, larger is neater.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same picture.")
@click.option("--count", type=int, default=4, show_default=True, help="Samples, one row each.")
@click.option("--out", type=click.Path(dir_okay=False), default="samples.png", show_default=True,
              help="Picture to write: .png, .svg or .pdf.")
@click.option("--npz", type=click.Path(dir_okay=False), default=None,
              help="Also save the points (one concatenated (N,3) array plus lengths, no pickle).")
def sample(path, steps, bias, seed, count, out, npz):
    """Draw COUNT handwriting samples one point at a time and write them as a picture."""
    import numpy as np

    from lnrnn.api import load_run, sample_run
    from lnrnn.files import check_output_file, write_output_file
    from lnrnn.sample import FORMATS, draw_strokes

    for what, v in (("--steps", steps), ("--count", count)):
        if v < 1:
            raise UserError(f"{what} must be at least 1, not {v}.")
    if not (bias >= 0 and np.isfinite(bias)):
        raise UserError(f"--bias must be 0 or positive, not {bias}.")
    if not str(out).lower().endswith(FORMATS):
        raise UserError(f"--out must end in {', '.join(FORMATS)}, not {out!r}.")
    check_output_file(out, "--out")
    if npz:
        check_output_file(npz, "--npz")
    run = load_run(path)
    meta = run.meta
    lines = sample_run(run, steps, count, bias, seed)
    cell = meta.get("train", {}).get("cell", "?")
    task = (meta.get("task") or {}).get("task", "?")
    draw_strokes(lines, out, title=f"{cell} on {task}, update {meta.get('step')}, bias {bias:g}, seed {seed}")
    if npz:
        flat = np.concatenate(lines).astype(np.float32)
        write_output_file(npz, lambda f: np.savez(f, points=flat, lengths=np.array([len(s) for s in lines])),
                          "--npz")
    click.echo(f"Wrote {count} sample{'s' * (count != 1)} of {steps} points to {out}"
               f"{f' and {npz}' if npz else ''}.")
