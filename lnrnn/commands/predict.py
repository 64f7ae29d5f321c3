"""``lnrnn predict``: classify a user's sequences (MNIST-family IDX images, or a .npy) with a trained run."""
import click

from lnrnn.commands.options import quiet_option, run_folder_option


@click.command("predict", short_help="Classify IDX images or a .npy of sequences with a trained run.")
@run_folder_option
@click.option("--input", "--data-dir", "inputs", required=True, multiple=True, type=click.Path(),
              metavar="FILE_OR_FOLDER",
              help="What to classify (repeatable; --data-dir is its older name): an MNIST-family IDX images file "
                   "(gzip or raw), a folder of them, or a .npy of sequences (N,T) or (N,T,I) as the model reads "
                   "them (uint8 values are scaled like the task's own). No pickle.")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="Where to write index, class, probability of every sequence: .csv, or .npy (a structured "
                   "array); missing folders are created.")
@click.option("--batch-size", type=int, default=500, show_default=True,
              help="Sequences per forward pass (affects memory only).")
@click.option("--force", is_flag=True, default=False,
              help="Predict even when the sequences differ from the run's training data in length or value range "
                   "(a one-line warning instead of an error).")
@quiet_option
def predict(path, inputs, out, batch_size, force, quiet):
    """Write the predicted class (and its probability) of every sequence in --input.

    Images are read the way the run's task reads its own (pixel by pixel, permuted for pmnist, or row by
    row); the run must be a sequence classifier (mnist, pmnist, mnist-rows, digits, ...). Sequences of
    another length than the training data's, or with values outside its range, are refused unless
    --force is given.
    """
    from lnrnn.api import load_run, predict as predict_run, require_sequence_classifier
    from lnrnn.errors import UserError
    from lnrnn.predict_io import check_like_training, check_out, read_inputs, training_record, write_predictions
    from lnrnn.training.progress import Progress

    check_out(out)
    if batch_size < 1:
        raise UserError(f"--batch-size must be at least 1, not {batch_size}.")
    run = load_run(path)
    require_sequence_classifier(run)  # before the inputs are read
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
    write_predictions(out, preds)
    counts = "; ".join(f"{f}: {n}" for f, _, n in where)
    click.echo(f"Wrote {len(preds.classes)} prediction{'s' * (len(preds.classes) != 1)} to {out} ({counts}).")

