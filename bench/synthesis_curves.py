"""The Layer Normalization paper's handwriting experiment (Ba, Kiros & Hinton 2016, fig. 5) on the data we
have: Graves's synthesis network with LSTM, LN-LSTM and BN-LSTM cells, same settings and seed, validation
NLL against updates and training time; then each cell writes five texts at two biases, with its attention.

    python bench/synthesis_curves.py --task strokes-hershey                  # train (or resume) the three runs
    python bench/synthesis_curves.py --task strokes-kanjivg --updates 2000   # needs the kanjivg extra
    python bench/synthesis_curves.py --task strokes-hershey --report         # pictures and table only

Each cell trains with ``lnrnn train`` in its own process, in RUNS/<task>_<cell> (default runs/synthesis;
its norm on every layer, the window's included: ``--window-norm`` as the cell, where lnrnn's default for
ln-lstm leaves the window layer without one (docs/results.md, "The window under layer norm");
a run already there resumes up to --updates: the command can be stopped and started again). With
--parallel the three run at once, one thread each (their training times are then measured under the same
load); without it, one after another with every thread. Writes bench/results/synthesis_<task>_curves.png
(NLL per point and per line against updates and against training time), the runs' metrics as
bench/results/synthesis_<task>_<cell>.jsonl, and synthesis_<task>_<cell>_bias<b>.png (the five texts,
each with its attention phi(t, u) beneath), and prints a table. The texts are checked not to be any
training line whole.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
TEXTS = ["layer norm", "lnrnn 2026", "the quick brown fox jumps over the lazy dog", "hello world",
         "writing by attention"]
# KanjiVG's lines are 1-5 characters of its alphabet, with no spaces: texts of that kind
TASK_TEXTS = {"strokes-kanjivg": ["LNorm", "lnrnn", "2026", "hello", "Bxyz"]}
CELLS = ["lstm", "ln-lstm", "bn-lstm"]
COLOURS = {"lstm": "#444444", "ln-lstm": "#1f77b4", "bn-lstm": "#d62728"}


def run_dir(args, cell):
    return os.path.join(args.runs, f"{args.task}_{cell}")


def train_command(args, cell):
    from lnrnn.model.cells import parse_cell

    out = run_dir(args, cell)
    resume = os.path.exists(os.path.join(out, "checkpoint.json"))
    cmd = [sys.executable, "-c", "from lnrnn.cli import main; main()", "train", "--out", out, "-q",
           "--max-steps", str(args.updates)]
    if resume:
        return cmd + ["--resume"]
    norm = parse_cell(cell)[1]   # the cell's norm on every layer
    return cmd + ["--task", args.task, "--cell", cell, "--window-norm", norm, "--hidden", str(args.hidden), "--layers", str(args.layers),
                  "--batch-size", str(args.batch_size), "--lr", str(args.lr), "--lr-decay", "1", "--epochs", "1000",
                  "--seed", str(args.seed), "--eval-every", str(args.eval_every), "--window", str(args.window),
                  "--clip-output", "100", "--clip-gates", "10", "--save-every", str(args.eval_every)]


def train_all(args):
    os.makedirs(args.runs, exist_ok=True)
    env = dict(os.environ)
    if args.parallel:
        env["NUMBA_NUM_THREADS"] = "1"
        procs = [(cell, subprocess.Popen(train_command(args, cell), env=env)) for cell in args.cells]
        for cell, p in procs:
            if p.wait() != 0:
                sys.exit(f"training {cell} failed (exit {p.returncode}); see {run_dir(args, cell)}")
        return
    for cell in args.cells:
        t0 = time.perf_counter()
        if subprocess.run(train_command(args, cell), env=env).returncode != 0:
            sys.exit(f"training {cell} failed; see {run_dir(args, cell)}")
        print(f"{cell}: {time.perf_counter() - t0:.0f} s", flush=True)


def history(args, cell):
    path = os.path.join(run_dir(args, cell), "metrics.jsonl")
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def curves(args, hists):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    for cell, h in hists.items():
        steps = [r["step"] for r in h]
        mins = [r["time_s"] / 60 for r in h]
        for row, key in enumerate(("val_loss", "val_nats_seq")):
            vals = [r[key] for r in h]
            axes[row, 0].plot(steps, vals, color=COLOURS.get(cell), label=cell)
            axes[row, 1].plot(mins, vals, color=COLOURS.get(cell), label=cell)
    for row, what in enumerate(("validation NLL (nats per point)", "validation NLL (nats per line)")):
        axes[row, 0].set_xlabel("updates")
        axes[row, 1].set_xlabel("training time (minutes)")
        for ax in axes[row]:
            ax.set_ylabel(what)
            ax.grid(alpha=0.3)
            ax.legend()
    fig.suptitle(f"synthesis network on {args.task}: {args.layers} x {args.hidden}, window K={args.window}, "
                 f"batch {args.batch_size}, Adam lr {args.lr:g}, seed {args.seed}")
    fig.tight_layout()
    path = os.path.join(RESULTS, f"synthesis_{args.task}_curves.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def samples(args, cell):
    from lnrnn.api import load_run, sample_run
    from lnrnn.data.tasks import load_task
    from lnrnn.sample import draw_written

    run = load_run(run_dir(args, cell))
    task = load_task(run.task_spec)
    seen = set(task.texts_train)
    texts = [t for t in TASK_TEXTS.get(args.task, TEXTS) if t not in seen and set(t) <= set(run.meta["text"]["alphabet"])]
    paths = []
    for bias in args.biases:
        written = sample_run(run, steps=args.sample_steps, text=texts, bias=bias, seed=args.seed)
        path = os.path.join(RESULTS, f"synthesis_{args.task}_{cell}_bias{bias:g}.png")
        draw_written(written, path, title=f"{cell} on {args.task}, update {run.meta.get('step')}, bias {bias:g}",
                     attention=True)
        paths.append((path, [w.capped for w in written]))
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", default="strokes-hershey")
    ap.add_argument("--cells", nargs="+", default=CELLS)
    ap.add_argument("--updates", type=int, default=2000)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--eval-every", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", default=os.path.join("runs", "synthesis"))
    ap.add_argument("--parallel", action="store_true", help="train the cells at once, one thread each")
    ap.add_argument("--report", action="store_true", help="no training: pictures and table of the runs there")
    ap.add_argument("--biases", type=float, nargs="+", default=[0.5, 2.0])
    ap.add_argument("--sample-steps", type=int, default=1500)
    args = ap.parse_args()
    os.makedirs(RESULTS, exist_ok=True)
    if not args.report:
        train_all(args)
    hists = {cell: history(args, cell) for cell in args.cells}
    for cell, h in hists.items():
        with open(os.path.join(RESULTS, f"synthesis_{args.task}_{cell}.jsonl"), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in h)
    print(curves(args, hists))
    print(f"{'cell':<8} {'updates':>7} {'val nats/point':>15} {'best':>8} {'val nats/line':>14} {'train min':>9}")
    for cell, h in hists.items():
        last = h[-1]
        print(f"{cell:<8} {last['step']:>7} {last['val_loss']:>15.4f} {min(r['val_loss'] for r in h):>8.4f} "
              f"{last['val_nats_seq']:>14.1f} {last['time_s'] / 60:>9.1f}")
    for cell in args.cells:
        for path, capped in samples(args, cell):
            print(path, "capped:", capped)


if __name__ == "__main__":
    main()
