"""Options shared by several commands, defined once. Defaults come from ``TrainConfig``."""
import click

from lnrnn.data.tasks import TASKS
from lnrnn.model.cells import CELLS, NORMS
from lnrnn.training.optim import OPTIMIZERS
from lnrnn.training.runconfig import TrainConfig

D = TrainConfig()


def _stack(*decorators):
    def apply(f):
        for d in reversed(decorators):
            f = d(f)
        return f
    return apply


data_dir_option = click.option(
    "--data-dir", type=click.Path(), default=D.data_dir,
    help="Where a task's data live: the folder with the MNIST-family IDX files (train-/t10k-images-idx3-ubyte, "
         "train-/t10k-labels-idx1-ubyte, gzip or raw; get them with `lnrnn data mnist --dest DIR`); for strokes, "
         "the IAM-OnDB folder holding lineStrokes/ (and optionally ascii/); for strokes-kanjivg, a folder of "
         "KanjiVG SVGs (default: the installed kanjivg package); for strokes-npz, the .npz/.npy file; for npz, your .npz of x, y (docs/your_data.md). When omitted: "
         "the tasks that need no files (digits, adding, copy, strokes-synthetic) run; the others say what to pass "
         "(eval, predict: the folder the run was trained from).")
split_option = click.option(
    "--split", metavar="TRAIN/VAL", default=D.split,
    help="Carve TRAIN training and VAL validation images (fixed seed) from the t10k files, e.g. 8000/2000 "
         "when only the 10k test split is at hand; for digits, a split of its 1797 images. When omitted: the "
         "task's own split (MNIST: train files / t10k files; digits: 1437/360; synthetic tasks: 10000/1000; strokes: by form or "
         "2000/200 lines; npz: x_val, y_val from the file, else 10% held out).")
task_options = _stack(
    click.option("--task", type=click.Choice(list(TASKS)), default=D.task, show_default=True,
                 help="Sequence task: " + "; ".join(f"{k}: {v[1]}" for k, v in TASKS.items()) + "."),
    data_dir_option, split_option,
    click.option("--steps", type=int, default=D.steps,
                 help="Sequence length of the synthetic tasks (adding: T; copy: blanks). When omitted: 100 for adding, "
                      "50 for copy; the other tasks have their own lengths."),
    click.option("--charset", type=click.Choice(["latin", "kana", "kanji"]), default=D.charset,
                 help="strokes-kanjivg: the characters written (latin: digits, A-Z, a-z; the default)."),
    click.option("--allow-pickle", is_flag=True, default=D.allow_pickle,
                 help="strokes-npz: read object arrays, which unpickle and can run code: trusted files only."),
)
model_options = _stack(
    click.option("--cell", type=click.Choice(list(CELLS)), default=D.cell, show_default=True,
                 help="Recurrent cell: plain, layer-normalized (ln-) or batch-normalized (bn-) RNN or LSTM."),
    click.option("--hidden", type=int, default=D.hidden,
                 help="Hidden units per layer (H). Default: 64; 400 for the strokes tasks."),
    click.option("--layers", type=int, default=D.layers,
                 help="Stacked recurrent layers. Default: 1; 3 for the strokes tasks."),
    click.option("--init", type=click.Choice(["orthogonal", "identity"]), default=D.init, show_default=True,
                 help="Recurrent weights Wh: an orthogonal block per gate, or identity blocks (Cooijmans et al. "
                      "2016's sequential-MNIST setting)."),
    click.option("--skip/--no-skip", default=D.skip,
                 help="Graves's skip connections: the input feeds every layer and every layer feeds the head. "
                      "Default: on for the strokes tasks, off otherwise."),
    click.option("--bidirectional", is_flag=True, default=D.bidirectional,
                 help="Every layer also reads each sequence backward (its own parameters); a layer's output is "
                      "[forward | backward], 2H wide. Whole sequences only (no --tbptt, no --window)."),
    click.option("--window", type=int, default=D.window, metavar="K",
                 help="Graves's synthesis network: an attention window of K Gaussians over each line's text, so "
                      "the model learns to write a given text. Default: 10 on tasks whose lines carry text "
                      "(strokes-hershey, strokes-kanjivg, IAM-OnDB with its transcriptions), else 0 (none)."),
    click.option("--window-norm", type=click.Choice(list(NORMS)), default=D.window_norm,
                 help="The norm of the window's layer (layer 1 of the synthesis network; the layers above keep "
                      "--cell's). Default: none under --cell ln-lstm (under LN the window does not align: "
                      "docs/results.md), else the cell's own."),
    click.option("--forget-bias", type=float, default=D.forget_bias, show_default=True,
                 help="Initial LSTM forget-gate bias."),
    click.option("--dtype", type=click.Choice(["float32", "float64"]), default=D.dtype, show_default=True,
                 help="Floating-point type of parameters and activations."),
)
eval_batch_option = click.option("--eval-batch-size", type=click.IntRange(min=1), default=D.eval_batch_size,
                                 help="Sequences per evaluation batch (affects memory only). Default: 500; 32 for "
                                      "the strokes tasks.")
quiet_option = click.option("--quiet", "-q", is_flag=True, default=False,
                            help="No progress bar on stderr; only the final summary.")
device_option = click.option("--device", type=click.Choice(["cpu", "cuda"]), default=D.device, show_default=True,
                             help="Where the recurrent kernels run: cpu, or cuda (numba-cuda twins; needs a GPU and the cuda extra).")
optimizer_choice = click.Choice(list(OPTIMIZERS))
RUN_FOLDER = "RUN_FOLDER"  # one spelling for what `lnrnn train --out` makes, in every command's help
run_folder_option = click.option(
    "--checkpoint", "path", required=True, type=click.Path(), metavar=RUN_FOLDER,
    help="A run folder (what `lnrnn train --out` wrote), or the checkpoint.json in it; pretrained:NAME for a "
         "run shipped with lnrnn (pretrained:hershey writes text).")
