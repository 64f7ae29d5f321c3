"""``lnrnn read``: transcribe handwriting with a reader run (``lnrnn train --head ctc``): one line of text per
line of strokes, by best path or prefix beam search (``lnrnn.api.read``)."""
import click

from lnrnn.commands.options import quiet_option, run_folder_option


@click.command("read", short_help="Transcribe handwriting (stroke-3 .npy/.npz, IAM-OnDB .xml) with a --head ctc run.")
@run_folder_option
@click.option("--input", "inputs", required=True, multiple=True, type=click.Path(), metavar="FILE",
              help="The lines to read (repeatable, read in order): a .npy (N,3) stroke-3 array (one line), a .npz "
                   "with points (or strokes) (S,3) and lengths (n,) (n lines; what lnrnn sample --npz writes), or "
                   "an IAM-OnDB line .xml; in the units of the run's data, before normalization. No pickle.")
@click.option("--beam", type=int, default=1, show_default=True, metavar="N",
              help="1: the best path (each step's most probable class, repeats merged, blanks dropped); N > 1: "
                   "prefix beam search keeping the N most probable prefixes (slower, at least as probable).")
@click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the transcriptions to FILE (UTF-8, one per line, written whole or not at all; missing "
                   "folders are created). When omitted: print them.")
@click.option("--batch-size", type=int, default=None, metavar="N",
              help="Lines per forward pass (memory only). Default: the run's evaluation batch size.")
@quiet_option
def read(path, inputs, beam, out, batch_size, quiet):
    """Transcribe each line of handwriting in --input with a reader: a run trained with --head ctc on a
    stroke task whose lines carry text. Each line is normalized as the run's training lines were (glitch
    steps dropped, offsets divided by the run's scale) and read whole; its text is printed (or written to
    --out), one line per input line, in the order given.
    """
    from lnrnn.api import load_run, read as read_lines, require_reader
    from lnrnn.data.stroke_files import read_lines as load_lines
    from lnrnn.errors import UserError
    from lnrnn.files import check_output_file, write_output_file
    from lnrnn.training.progress import Progress

    if out is not None:
        check_output_file(out)
    if beam < 1:
        raise UserError(f"--beam must be at least 1 (1: best path), not {beam}.")
    if batch_size is not None and batch_size < 1:
        raise UserError(f"--batch-size must be at least 1, not {batch_size}.")
    run = load_run(path)
    require_reader(run)  # before the inputs are read
    lines = [line for f in inputs for line in load_lines(f)]
    progress = Progress(len(lines), "read", quiet=quiet, unit="lines")
    texts = read_lines(run, lines, beam=beam, batch_size=batch_size, progress=progress)
    progress.close()
    if out is None:
        for t in texts:
            click.echo(t)
        return
    text = "".join(t + "\n" for t in texts)
    write_output_file(out, lambda f: f.write(text.encode("utf-8")))
    click.echo(f"Wrote the transcriptions of {len(texts)} line{'s' * (len(texts) != 1)} to {out}.", err=True)
