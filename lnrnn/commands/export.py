"""``lnrnn export``: a run's weights as safetensors under documented names (``lnrnn.interop.export``)."""
import click

from lnrnn.commands.options import run_folder_option


@click.command("export", short_help="Write a run's weights as safetensors (PyTorch's names for plain cells).")
@run_folder_option
@click.option("--format", "fmt", type=click.Choice(["safetensors"]), default="safetensors", show_default=True,
              help="File format.")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="File to write; its name must end in .safetensors (the format it holds: load it with "
                   "safetensors.torch.load_file, not torch.load), e.g. weights.safetensors.")
def export(path, fmt, out):
    """Write the weights of a run under documented names (see lnrnn/interop/export.py and README) into a
    .safetensors file (another suffix is refused: a weights.pt would not load with torch.load).

    Plain LSTM/RNN runs without skip connections load into torch.nn.LSTM / nn.RNN: the rnn.* tensors are
    weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, ...; the head is head.weight / head.bias (nn.Linear).
    """
    from lnrnn.api import export_run, load_run
    from lnrnn.interop.export import check_suffix, pytorch_compatible
    from lnrnn.files import check_output_file

    check_output_file(out)   # first: a name ending in a separator is a folder, not a name without suffix
    check_suffix(out)
    run = load_run(path)
    shapes = export_run(run, out, fmt)
    note = ("; the rnn.* tensors load into torch.nn." + ("LSTM" if run.config["cell"] == "lstm" else "RNN")
            if pytorch_compatible(run.config) else "")
    click.echo(f"Wrote {len(shapes)} tensors of {run.describe()} to {out}{note}.")
