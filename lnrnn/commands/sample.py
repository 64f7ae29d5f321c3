"""``lnrnn sample``: draw handwriting from a trained mixture-density run, or write given lines of text with a
synthesis run (see ``lnrnn.sample``)."""
import click
from click.core import ParameterSource

from lnrnn.commands.options import quiet_option, run_folder_option
from lnrnn.config import SAMPLE_MAX_STEPS
from lnrnn.errors import UserError

CLI_NAMES = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}


@click.command("sample", short_help="Draw handwriting samples from a run of a strokes task, or write a text.")
@run_folder_option
@click.option("--steps", type=int, default=700, show_default=True,
              help=f"Points per sample; at most {SAMPLE_MAX_STEPS:,} unless --no-cap is given. With --text, the "
                   "cap of each line, which stops earlier by Graves's rule (the window has passed its last "
                   "character).")
@click.option("--no-cap", is_flag=True, default=False,
              help=f"Allow --steps, and --prime-strokes points, above {SAMPLE_MAX_STEPS:,} (each point is one "
                   "step of the model: long samples take minutes; progress shows on stderr).")
@click.option("--bias", type=float, default=0.0, show_default=True,
              help="Graves's sampling bias b: sigma = exp(sigma_hat - b), weights = softmax(pi_hat (1 + b)); "
                   "0 samples the trained distribution, larger is neater.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Same seed, same picture.")
@click.option("--count", type=int, default=4, show_default=True,
              help="Samples, one row each. With --text, one row per --text line: --count may be left out or "
                   "must equal their number.")
@click.option("--text", "texts", multiple=True, metavar="LINE",
              help="A line for a synthesis run (one trained with --window) to write; repeat for more lines, one "
                   "row each. Every character must be one its training texts used: others are refused by name "
                   "(the run never learned to write them).")
@click.option("--prime-strokes", type=click.Path(dir_okay=False), default=None,
              help="Write in the style of this handwriting (Graves's priming): a stroke-3 file in data units, "
                   ".npz with a points (N,3) array (as --npz writes; its first line) or .npy (N,3); nothing is "
                   "unpickled. Needs --prime-text. Each point is one step of the model: at most "
                   f"{SAMPLE_MAX_STEPS:,} points unless --no-cap is given.")
@click.option("--prime-text", default=None, metavar="TEXT",
              help="The text the --prime-strokes points write; the window reads it, a space, then each line.")
@click.option("--attention", is_flag=True, default=False,
              help="With --text: draw beneath each line where the window read, phi(t, u), points across, "
                   "characters down.")
@click.option("--out", type=click.Path(dir_okay=False), default="samples.png", show_default=True,
              help="Picture to write: .png, .svg or .pdf (missing folders are created).")
@click.option("--npz", type=click.Path(dir_okay=False), default=None,
              help="Also save the points (one concatenated (N,3) array plus lengths, no pickle; with --text, "
                   "the lines' texts too).")
@click.option("--judge", "judge_path", type=click.Path(), default=None, metavar="READER_RUN_FOLDER",
              help="With --text: read each written line with this reader (a run trained with --head ctc on the "
                   "writer's task) and print per line what it read, its character error rate against the line "
                   "asked for, and the window's alignment (travel: where kappa ends over the text's length; whether "
                   "the stop rule fired at the last character; the peak of phi), then their means "
                   "(lnrnn.judge). With --npz, saved there too.")
@click.option("--judge-out", type=click.Path(), default=None, metavar="FILE",
              help="With --judge: also write the judged lines and their summary to FILE as JSON.")
@quiet_option
@click.pass_context
def sample(ctx, path, steps, no_cap, bias, seed, count, texts, prime_strokes, prime_text, attention, out, npz,
           judge_path, judge_out, quiet):
    """Draw COUNT handwriting samples one point at a time and write them as a picture; with --text, write
    those lines (a synthesis run), each ending when its window has passed the line's last character.

    Both destinations are checked before any sampling; Ctrl-C stops with exit 130 and writes nothing."""
    import os

    import numpy as np

    from lnrnn.api import load_run, sample_run
    from lnrnn.files import check_output_file, named_suffix, write_output_file
    from lnrnn.sample import check_prime_pair, draw_strokes, draw_written, read_stroke3, text_inputs
    from lnrnn.training.plot import picture_format
    from lnrnn.training.progress import Progress

    for what, v in (("--steps", steps), ("--count", count)):
        if v < 1:
            raise UserError(f"{what} must be at least 1, not {v}.")
    if steps > SAMPLE_MAX_STEPS and not no_cap:
        raise UserError(f"--steps {steps:,} is more than the {SAMPLE_MAX_STEPS:,} points a sample may have "
                        "(each is one step of the model); pass --no-cap to draw them anyway.")
    if not (bias >= 0 and np.isfinite(bias)):
        raise UserError(f"--bias must be 0 or positive, not {bias}.")
    if texts:
        if ctx.get_parameter_source("count") != ParameterSource.DEFAULT and count != len(texts):
            raise UserError(f"--count {count} does not match the {len(texts)} --text line"
                            f"{'s' * (len(texts) != 1)}: each line is one row; leave --count out.")
        count = len(texts)
    elif attention:
        raise UserError("--attention draws where the window read a --text line; give --text.")
    elif judge_path is not None:
        raise UserError("--judge reads the lines a synthesis run writes; give them with --text.")
    if judge_out is not None and judge_path is None:
        raise UserError("--judge-out writes what --judge measured; give --judge READER_RUN_FOLDER.")
    check_prime_pair(prime_strokes, prime_text, CLI_NAMES)
    # first: a name ending in a separator is a folder, not a name without suffix
    check_output_file(out, "--out")
    picture_format(out)
    prime_points = read_stroke3(prime_strokes, "--prime-strokes") if prime_strokes is not None else None
    if prime_points is not None and len(prime_points) > SAMPLE_MAX_STEPS and not no_cap:
        raise UserError(f"--prime-strokes {prime_strokes} holds {len(prime_points):,} points, more than the "
                        f"{SAMPLE_MAX_STEPS:,} a prime may have (the model reads each as one step); give a shorter "
                        "prime (a line or two of handwriting), or pass --no-cap to read it anyway.")
    if judge_out:
        check_output_file(judge_out, "--judge-out")
    if npz:
        check_output_file(npz, "--npz")
        if named_suffix(npz, (".npz",), "--npz") is None:  # the file is an .npz archive whatever its name says
            raise UserError(f"--npz {npz} would hold an .npz archive under another name (lnrnn read and numpy "
                            f"tell the kind by the suffix); name it {os.path.splitext(str(npz))[0]}.npz.")
    run = load_run(path)
    meta = run.meta
    # the text's checks, in the options' names, before any sampling (sample_run checks them again)
    text_inputs(run.model, meta.get("text"), list(texts), prime_points, prime_text, CLI_NAMES, f"the run in {path}")
    reader = None
    if judge_path is not None:
        from lnrnn.judge import check_judge
        reader = load_run(judge_path)
        check_judge(run, reader, list(texts), f"the run in {path}", f"--judge {judge_path}")
    progress = Progress(steps * count, "sample", quiet=quiet, unit="points")
    lines = sample_run(run, steps, count, bias, seed, progress=progress, text=list(texts) or None,
                       prime_strokes=prime_points, prime_text=prime_text)
    progress.close()
    cell = meta.get("train", {}).get("cell", "?")
    task = (meta.get("task") or {}).get("task", "?")
    title = f"{cell} on {task}, update {meta.get('step')}, bias {bias:g}, seed {seed}"
    if texts:
        draw_written(lines, out, title, attention=attention)
        points = [r.points for r in lines]
    else:
        draw_strokes(lines, out, title=title)
        points = lines
    judged = None
    if reader is not None:
        from lnrnn.judge import judge
        judged = judge(run, reader, lines, seed=seed)
    if npz:
        flat = np.concatenate(points).astype(np.float32)
        extra = {"texts": np.array(list(texts), dtype=str)} if texts else {}
        if judged is not None:
            extra.update(read=np.array([j.read for j in judged], dtype=str),
                         cer=np.array([j.cer for j in judged]), travel=np.array([j.travel for j in judged]),
                         stop_at_last=np.array([j.stop_at_last for j in judged]),
                         peak_phi=np.array([j.peak_phi for j in judged]))
        write_output_file(npz, lambda f: np.savez(f, points=flat, lengths=np.array([len(s) for s in points]),
                                                  **extra), "--npz")
    also = f" and {npz}" if npz else ""
    if not texts:
        click.echo(f"Wrote {count} sample{'s' * (count != 1)} of {steps} points to {out}{also}.")
        return
    capped = [k + 1 for k, r in enumerate(lines) if r.capped]
    if not capped:
        ends = "every line ended by the stop rule" if count > 1 else "it ended by the stop rule"
    else:
        ends = f"line{'s' * (len(capped) > 1)} {', '.join(map(str, capped))} reached the {steps}-point cap first"
    sizes = [len(r.points) for r in lines]
    click.echo(f"Wrote {count} line{'s' * (count != 1)} of text to {out}{also} "
               f"({', '.join(map(str, sizes))} point{'s' * (sizes != [1])}; {ends}).")
    if judged is None:
        return
    from lnrnn.judge import as_record, report_lines
    click.echo(f"Read by the reader in {judge_path}:")
    for line in report_lines(judged):
        click.echo(line)
    if judge_out:
        import json
        record = as_record(judged, writer=str(path), reader=str(judge_path), step=meta.get("step"), bias=bias,
                           seed=seed)
        write_output_file(judge_out, lambda f: f.write(json.dumps(record, indent=1).encode("utf-8")),
                          "--judge-out")
        click.echo(f"Wrote the judged lines to {judge_out}.")
