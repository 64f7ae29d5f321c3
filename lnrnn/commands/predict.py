"""``lnrnn predict``: a trained run's outputs for a user's sequences (MNIST-family IDX images, or a .npy): classes,
per-step classes, regression values or label sequences, as its head gives them (``lnrnn.predict_io``)."""
import click

from lnrnn.commands.options import quiet_option, run_folder_option


@click.command("predict", short_help="Run a trained model on IDX images or a .npy of sequences: classes or values.")
@run_folder_option
@click.option("--input", "--data-dir", "inputs", required=True, multiple=True, type=click.Path(),
              metavar="FILE_OR_FOLDER",
              help="The sequences to predict for (repeatable; --data-dir is its older name): an MNIST-family IDX "
                   "images file "
                   "(gzip or raw), a folder of them, or a .npy of sequences (N,T) or (N,T,I) as the model reads "
                   "them (uint8 values are scaled like the task's own). No pickle.")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="Where to write the outputs: .csv, or .npy (a structured array of the same fields); missing "
                   "folders are created. Fields by the run's head: index, class, probability (a sequence "
                   "classifier); index, step, class, probability (a per-step classifier: one row per step); "
                   "index, value (regression; value_0, value_1, ... for several outputs; with step for every "
                   "step); index, labels (CTC: space-separated).")
@click.option("--batch-size", type=int, default=500, show_default=True,
              help="Sequences per forward pass (affects memory only).")
@click.option("--force", is_flag=True, default=False,
              help="Predict even when the sequences differ from the run's training data in length or value range "
                   "(a one-line warning instead of an error).")
@quiet_option
def predict(path, inputs, out, batch_size, force, quiet):
    """Write what a trained run outputs for every sequence in --input: the predicted class (and its
    probability) of a classifier, per step for a per-step head, the values of a regression, the label
    sequence of a CTC head (--out's help lists the fields). A handwriting (mixture density) run is drawn
    with lnrnn sample instead.

    Images are read the way the run's task reads its own (pixel by pixel, permuted for pmnist, or row by
    row). Sequences of another length than the training data's, or with values outside its range, are
    refused unless --force is given.
    """
    from lnrnn.api import load_run, predict as predict_run, require_predictable
    from lnrnn.errors import UserError
    from lnrnn.predict_io import check_like_training, check_out, read_inputs, training_record, write_predictions
    from lnrnn.training.progress import Progress

    check_out(out)
    if batch_size < 1:
        raise UserError(f"--batch-size must be at least 1, not {batch_size}.")
    run = load_run(path)
    require_predictable(run)  # before the inputs are read
    x, where = read_inputs(inputs, run.task_spec.get("task"), run.config["input_size"])
    differs = check_like_training(x, training_record(run.meta))
    if differs:
        what = (f"the sequences of {where[0][0]}{' and the other inputs' if len(where) > 1 else ''} cannot be what "
                f"the run in {path} was trained on: {'; '.join(differs)}")
        if not force:
            raise UserError(f"{what}; scale or cut them as its training data were, or pass --force to predict "
                            "anyway.")
        click.echo(f"Warning: {what}; predicting anyway (--force).", err=True)
    progress = Progress(len(x), "predict", quiet=quiet, unit="sequences")
    preds = predict_run(run, x, batch_size=batch_size, progress=progress)
    progress.close()
    rows = write_predictions(out, preds)
    counts = "; ".join(f"{f}: {n}" for f, _, n in where)
    per_step = f" ({rows:,} rows, one per step)" if rows != len(x) else ""
    click.echo(f"Wrote the {WHAT[_kind(run)]} of {len(x)} sequence{'s' * (len(x) != 1)} to {out}{per_step} "
               f"({counts}).")


WHAT = {"classifier": "predicted classes", "classifier-step": "predicted classes per step",
        "regression": "predicted values", "regression-step": "predicted values per step",
        "ctc": "predicted label sequences"}


def _kind(run):
    head = run.model.head
    return head.kind + ("-step" if head.per_step and head.kind in ("classifier", "regression") else "")

