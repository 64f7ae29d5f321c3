"""LSTM vs LN-LSTM vs BN-LSTM on a handwriting task: validation NLL against updates, same budget and
seed, one picture; and samples of the LN-LSTM at three biases.

    python bench/strokes_compare.py --task strokes-synthetic --updates 300
    python bench/strokes_compare.py --task strokes-kanjivg --updates 300     # needs the kanjivg extra

Writes bench/results/<task>_cells.svg (+ .jsonl per cell) and <task>_ln-lstm_bias{0,0.5,2}.png, and
prints a table. Runs go to a scratch folder; the whole thing is a few minutes on 2 cores at the
defaults (a 2 x 128 skip stack: the 3 x 400 of the real task takes hours on a CPU).
"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lnrnn.training.checkpoint import load_checkpoint  # noqa: E402
from lnrnn.training.plot import write_learning_curves  # noqa: E402
from lnrnn.sample import draw_strokes, sample_strokes  # noqa: E402
from lnrnn.training.evaluation import model_from_checkpoint  # noqa: E402
from lnrnn.training.runconfig import TrainConfig  # noqa: E402
from lnrnn.training.train import train  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", default="strokes-synthetic")
    ap.add_argument("--cells", nargs="+", default=["lstm", "ln-lstm", "bn-lstm"])
    ap.add_argument("--updates", type=int, default=300)
    ap.add_argument("--split", default="400/100", help="TRAIN/VAL lines: an epoch is TRAIN/batch updates")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(RESULTS, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="strokes-compare-")
    runs, rows = [], []
    ntrain = int(args.split.split("/")[0])
    epochs = -(-args.updates // -(-ntrain // args.batch_size))
    for cell in args.cells:
        out = os.path.join(scratch, cell)
        cfg = TrainConfig(cell=cell, task=args.task, split=args.split, hidden=args.hidden, layers=args.layers,
                          batch_size=args.batch_size, lr=args.lr, lr_decay=1.0, epochs=epochs,
                          max_steps=args.updates, seed=args.seed, out=out, clip=1.0)
        t0 = time.perf_counter()
        tr = train(cfg, quiet=True, log=lambda m: None)
        wall = time.perf_counter() - t0
        hist = tr.history
        with open(os.path.join(RESULTS, f"{args.task}_{cell}.jsonl"), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in hist)
        runs.append((cell, hist))
        best = min(r["val_loss"] for r in hist)
        rows.append((cell, hist[-1]["step"], hist[-1]["val_loss"], best, hist[-1]["val_nats_seq"], wall))
        if cell == "ln-lstm":
            meta, arrays = load_checkpoint(out)
            model = model_from_checkpoint(meta, arrays)
            for bias in (0.0, 0.5, 2.0):
                lines = sample_strokes(model, 400, count=4, bias=bias, seed=1)
                draw_strokes(lines, os.path.join(RESULTS, f"{args.task}_ln-lstm_bias{bias:g}.png"),
                             title=f"ln-lstm {args.layers} x {args.hidden} skip, {args.updates} updates on "
                                   f"{args.task}, bias {bias:g}")
    title = (f"{args.task}: validation NLL (nats per point), {args.layers} x {args.hidden} skip stack, "
             f"batch {args.batch_size}, adam lr {args.lr:g}, seed {args.seed}")
    write_learning_curves(os.path.join(RESULTS, f"{args.task}_cells.svg"), runs, title=title)
    print(f"{'cell':<8} {'updates':>7} {'val nats/point':>15} {'best':>8} {'val nats/seq':>13} {'wall s':>7}")
    for cell, step, last, best, seq, wall in rows:
        print(f"{cell:<8} {step:>7} {last:>15.4f} {best:>8.4f} {seq:>13.2f} {wall:>7.1f}")


if __name__ == "__main__":
    main()
