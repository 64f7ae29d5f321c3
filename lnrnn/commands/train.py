"""``lnrnn train``: train (or resume) a sequence model; see ``lnrnn.training.train`` for the loop, ``lnrnn.training.runconfig`` for
--config files, ``lnrnn.training.rundir`` for the folder a run gets when --out is not given."""
import click
from click.core import ParameterSource

from lnrnn.commands.options import (D, device_option, eval_batch_option, model_options, optimizer_choice,
                                    quiet_option, task_options)
from lnrnn.training.rundir import fresh_default, newest_default
from lnrnn.training.runconfig import apply_config_file
from lnrnn.training import distributed
from lnrnn.errors import UserError
from lnrnn.training.runconfig import TrainConfig


@click.command("train", short_help="Train (or --resume) a recurrent model on a sequence task.")
@model_options
@task_options
@click.option("--batch-size", type=int, default=D.batch_size, show_default=True, help="Sequences per update (B).")
@click.option("--epochs", type=int, default=D.epochs, show_default=True, help="Passes over the training set.")
@click.option("--lr", type=float, default=D.lr, show_default=True, help="Learning rate.")
@click.option("--lr-decay", type=float, default=D.lr_decay, show_default=True,
              help="Multiply the learning rate by this after every epoch (1: constant).")
@click.option("--optimizer", type=optimizer_choice, default=D.optimizer, show_default=True,
              help="Update rule (sgd uses momentum 0.9).")
@click.option("--clip", type=float, default=D.clip, show_default=True,
              help="Global gradient-norm limit; 0 turns clipping off.")
@click.option("--clip-output", type=float, default=D.clip_output, metavar="V",
              help="Mixture density head only: clip each point's derivatives with respect to the head's outputs "
                   "to [-V, V] before averaging (Graves 2013 used 100). Default: off.")
@click.option("--clip-gates", type=float, default=D.clip_gates, metavar="V",
              help="LSTM cells only: clip the derivatives with respect to the gate preactivations to [-V, V] at "
                   "every step of backpropagation through time (Graves 2013 used 10). Default: 0 (off).")
@click.option("--block-rows", type=int, default=D.block_rows, show_default=True, metavar="N",
              help="Rows a batch block holds at least. The CPU kernels split every batch into fixed blocks and "
                   "threads take whole blocks, so a run gives the same bits on any number of threads; a batch "
                   "of B runs on at most about B/N threads. Smaller N: more cores for small batches; another N "
                   "gives other bits (the run keeps its N on --resume).")
@click.option("--reproducible", is_flag=True, default=D.reproducible,
              help="The same bits on any number of MPI processes (mpiexec -n N), as on any number of threads: "
                   "every batch block runs as its own forward and backward and their gradients are added in block "
                   "order (BN cells: the blocks share each step's statistics, about 2-2.6x slower). On the CPU; "
                   "plain and LN cells cost a little speed in one process (the run keeps it on --resume).")
@click.option("--seed", type=int, default=D.seed, show_default=True, help="Seed of initialization and shuffling.")
@click.option("--out", type=click.Path(file_okay=False), default=None, metavar="RUN_FOLDER",
              help="Run folder to write: checkpoint, config.json, metrics.jsonl, updates.jsonl, learning_curve.svg. "
                   "When omitted: runs/default, or runs/default-2, -3, ... (the first that holds no run); with "
                   "--resume, the newest of those.")
@click.option("--resume", is_flag=True, default=False,
              help="Continue the run saved in --out exactly where it stopped (its settings are reused; "
                   "--epochs, --max-steps, --time-budget, --save-every[-seconds], --keep, --patience, --eval-every "
                   "may be changed, and --lr, --lr-decay: the new schedule from the update it resumes at, said in "
                   "the log and kept in the checkpoint).")
@click.option("--init-from", type=click.Path(), default=D.init_from, metavar="RUN_FOLDER",
              help="Start a new run (in --out) from the parameters and BatchNorm statistics of this run's latest "
                   "checkpoint (RUN_FOLDER/best: its best; RUN_FOLDER/checkpoints/update-N: a kept one). The model's "
                   "shape options must match the run's (--cell, --hidden, --layers, ...) and the task's input and "
                   "output sizes; the optimizer, schedule, epochs and updates start fresh.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Read options from a TOML or JSON file of option names and values (batch-size = 32; a run "
                   "folder's config.json works); options given on the command line override it.")
@click.option("--max-steps", type=int, default=D.max_steps,
              help="Stop after this many updates in total, evaluating and saving a checkpoint. --resume keeps the "
                   "limit until the run reaches it; resuming a run that reached it trains on. When omitted: no "
                   "limit (--epochs decides).")
@click.option("--time-budget", type=float, default=D.time_budget, metavar="SECONDS",
              help="Stop after this many seconds of training, evaluating and saving a checkpoint. --resume without "
                   "it gets what is left of the run's budget (given again: this many seconds more). When omitted: "
                   "no limit.")
@click.option("--log-every", type=int, default=D.log_every, show_default=True, metavar="UPDATES",
              help="Log the training metrics (mean of the last UPDATES updates) to updates.jsonl every this many "
                   "updates, besides metrics.jsonl's row per epoch.")
@click.option("--save-every", type=int, default=D.save_every, metavar="UPDATES",
              help="Also save a checkpoint every this many updates, mid-epoch too (exactly resumable). "
                   "Default: only at epoch ends and every --save-every-seconds.")
@click.option("--save-every-seconds", type=float, default=D.save_every_seconds, show_default=True,
              metavar="SECONDS", help="Also save a checkpoint when this many seconds passed since the last one "
                                      "(long epochs lose at most this much work); 0 turns it off.")
@click.option("--state-noise", type=float, default=D.state_noise, metavar="STD",
              help="Start every sequence from Gaussian initial states h0, c0 with this std (per example, "
                   "fresh each batch, in training and evaluation; Cooijmans et al. 2016). Default: 0.1 for "
                   "bn- cells on tasks whose sequences begin alike (mnist, mnist-rows, digits, digits-binary), "
                   "else 0 (off).")
@click.option("--tbptt", "--bptt", "tbptt", type=int, default=D.tbptt, metavar="STEPS",
              help="Truncated backpropagation through time: run each batch in chunks of this many steps, "
                   "carrying the state forward; no gradient crosses a chunk boundary. Default: whole sequences.")
@click.option("--head", type=click.Choice(["mdn", "ctc"]), default=D.head,
              help="Stroke tasks: mdn predicts each next point (the mixture density head; with text, the synthesis "
                   "network); ctc reads: each whole line in, its text out (a CTC head over the task's alphabet and a "
                   "blank; metrics loss and cer), for lnrnn read. ctc needs lines with text (strokes-hershey, "
                   "strokes-kanjivg, strokes with ascii/), whole sequences (no --tbptt) and no --window. Default: mdn.")
@click.option("--objective", type=click.Choice(["ce", "mse"]), default=D.objective,
              help="npz task: ce (classes, softmax cross-entropy) or mse (regression, squared error). When omitted: "
                   "by the labels' dtype (integers: classes; floats: regression).")
@click.option("--eval-every", type=int, default=D.eval_every, metavar="UPDATES",
              help="Also evaluate on the validation set every this many updates (a row in metrics.jsonl each). "
                   "When omitted: at epoch ends only (and when --max-steps or --time-budget stops the run).")
@click.option("--best-metric", type=click.Choice(["loss", "acc", "cer", "none"]), default=D.best_metric,
              show_default=True,
              help="Keep RUN_FOLDER/best/, the checkpoint with the lowest validation loss, the highest accuracy or "
                   "the lowest character error rate (heads that have one), updated at every evaluation; none: no "
                   "best checkpoint.")
@click.option("--keep", type=int, default=D.keep, show_default=True, metavar="N",
              help="Also keep the last N checkpoints in RUN_FOLDER/checkpoints/update-<step>/ (0: only the latest).")
@click.option("--patience", type=int, default=D.patience, metavar="EVALS",
              help="Stop early after this many evaluations without a better --best-metric (recorded in "
                   "metrics.jsonl and the summary). When omitted: no early stopping.")
@eval_batch_option
@device_option
@quiet_option
@click.pass_context
def train(ctx, quiet, resume, config_file, **options):
    """Train a recurrent model (a stack of cells plus the task's head) on a sequence task.

    With no options it trains an LN-LSTM (64 units) on scikit-learn's bundled 8x8 digits read pixel
    by pixel, each pixel ink or not (--task digits-binary, no download): 20 epochs, about 86% validation
    accuracy (a plain LSTM, --cell lstm: about 73%) in about 10 s on 2 cores (the first run also compiles
    the kernels and times the per-step product: 20-45 s). Ctrl-C or SIGTERM saves a checkpoint (so do
    --save-every and --save-every-seconds); --resume continues it. One run at a time holds a run folder.
    """
    explicit = {k for k in options if ctx.get_parameter_source(k) in
                (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)}
    if config_file is not None:
        explicit |= apply_config_file(ctx, config_file, options, settable=set(options))
    if options["out"] is None:
        options["out"] = newest_default() if resume else fresh_default()
    cfg = TrainConfig(**options)
    group = _group()
    with distributed.failing_together(group):  # under mpiexec/srun: one rank's error ends every rank
        from lnrnn.training.train import train as run_training  # the trainer loads for this command alone
        try:
            run_training(cfg, resume=resume, explicit=explicit, quiet=quiet, log=click.echo, group=group)
        except OSError as e:
            raise _write_error(e, cfg.out) from None


def _write_error(e, out):
    """A write into the run folder failed mid-run (a full disk: the logs, metrics, picture): one line
    saying where, what is needed, and how to go on; anything but a file system's refusal stays a bug."""
    import errno
    from lnrnn.files import space_hint

    if e.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EACCES, errno.EPERM, errno.EROFS, errno.EIO):
        raise e
    return UserError(f"cannot write {e.filename or 'into the run folder ' + str(out)} ({e.strerror or e}): "
                     f"{space_hint(e)}, then continue with `lnrnn train --out {out} --resume` (its last checkpoint "
                     "is kept).")


def _group():
    """The MPI ranks when an MPI launcher started this command (``lnrnn.training.distributed``), else one process.
    Without mpi4py under a launcher, rank 0 says what to install and the other ranks exit quietly."""
    try:
        return distributed.init()
    except UserError:
        if distributed.launched_rank() > 0:
            raise SystemExit(2) from None
        raise
