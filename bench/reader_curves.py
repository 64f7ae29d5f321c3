"""Does layer normalization speed recognition up? Bidirectional LSTM, LN-LSTM and BN-LSTM readers (a CTC head
over every step) with the same settings and seed, validation character error rate against updates and
against training time, one panel per task.

    python bench/reader_curves.py --task strokes-hershey --updates 2000    # train (or resume) the three runs
    python bench/reader_curves.py --task strokes-kanjivg --updates 2000    # needs the kanjivg extra
    python bench/reader_curves.py --report                                 # figure and tables only

Each cell trains with ``lnrnn train --head ctc --bidirectional`` in its own process, one after another,
in RUNS/<task>_<cell> (default runs/reader_curves; a run already there resumes up to --updates: the
command can be stopped and started again, and a later call with a larger --updates continues every run).
Train with NUMBA_NUM_THREADS=1 when other jobs share the CPU, so the cells' training times are measured
under comparable load. --report draws every task that has runs: writes
bench/results/reader_curves.png (validation CER against updates, top, and against training time, bottom;
one column per task), the runs' metrics as bench/results/reader_<task>_<cell>.jsonl, and prints a table
of the CER at every evaluation.
"""
import argparse
import json
import os
import subprocess
import sys
import time

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
TASKS = ["strokes-hershey", "strokes-kanjivg"]
CELLS = ["lstm", "ln-lstm", "bn-lstm"]
COLOURS = {"lstm": "#444444", "ln-lstm": "#1f77b4", "bn-lstm": "#d62728"}
CER_TICKS = [0.5, 1, 2, 5, 10, 20, 50, 100]


def run_dir(args, task, cell):
    return os.path.join(args.runs, f"{task}_{cell}")


def train_command(args, task, cell):
    out = run_dir(args, task, cell)
    cmd = [sys.executable, "-c", "from lnrnn.cli import main; main()", "train", "--out", out, "-q",
           "--max-steps", str(args.updates), "--eval-every", str(args.eval_every), "--save-every", str(args.eval_every)]
    if os.path.exists(os.path.join(out, "checkpoint.json")):
        return cmd + ["--resume"]
    return cmd + ["--task", task, "--head", "ctc", "--bidirectional", "--cell", cell, "--hidden", str(args.hidden),
                  "--layers", str(args.layers), "--batch-size", str(args.batch_size), "--lr", str(args.lr),
                  "--lr-decay", "1", "--epochs", "1000", "--seed", str(args.seed), "--best-metric", "cer"]


def train(args, task):
    os.makedirs(args.runs, exist_ok=True)
    for cell in args.cells:
        t0, c0 = time.perf_counter(), os.times()
        if subprocess.run(train_command(args, task, cell)).returncode != 0:
            sys.exit(f"training {cell} on {task} failed; see {run_dir(args, task, cell)}")
        c1 = os.times()
        cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
        print(f"{task} {cell}: {time.perf_counter() - t0:.0f} s wall, {cpu:.0f} s CPU", flush=True)


def history(args, task, cell):
    """The run's validation evaluations (metrics.jsonl), or None when the run is not there."""
    path = os.path.join(run_dir(args, task, cell), "metrics.jsonl")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return [r for r in (json.loads(line) for line in f if line.strip()) if "val_cer" in r]


def figure(args, hists):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    tasks = [t for t in TASKS if any((t, c) in hists for c in args.cells)]
    fig, axes = plt.subplots(2, len(tasks), figsize=(5.5 * len(tasks), 7.5), squeeze=False)
    for col, task in enumerate(tasks):
        for cell in args.cells:
            h = hists.get((task, cell))
            if not h:
                continue
            cer = [100 * r["val_cer"] for r in h]
            axes[0, col].plot([r["step"] for r in h], cer, "o-", ms=3, color=COLOURS[cell], label=cell)
            axes[1, col].plot([r["time_s"] / 60 for r in h], cer, "o-", ms=3, color=COLOURS[cell], label=cell)
        axes[0, col].set_title(task)
        axes[0, col].set_xlabel("updates")
        axes[1, col].set_xlabel("training time (wall minutes, one thread of a shared CPU)")
        for ax in axes[:, col]:
            ax.set_ylabel("validation CER, best path (%, log scale)")
            ax.set_yscale("log")     # the blank phase near 100% and the last percent both readable
            ax.set_ylim(0.3, 130)
            ax.set_yticks(CER_TICKS, [f"{t:g}" for t in CER_TICKS])
            ax.minorticks_off()
            ax.grid(alpha=0.3)
            ax.legend()
    fig.suptitle(f"bidirectional CTC readers: {args.layers} x {args.hidden}, batch {args.batch_size}, "
                 f"Adam lr {args.lr:g}, seed {args.seed}")
    fig.tight_layout()
    path = os.path.join(RESULTS, "reader_curves.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", choices=TASKS, help="train the three cells on this task (omit with --report)")
    ap.add_argument("--cells", nargs="+", default=CELLS)
    ap.add_argument("--updates", type=int, default=2000)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--eval-every", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", default=os.path.join("runs", "reader_curves"))
    ap.add_argument("--report", action="store_true", help="no training: figure and tables of the runs there")
    args = ap.parse_args()
    if not args.report:
        if args.task is None:
            ap.error("name a --task to train, or pass --report")
        train(args, args.task)
    os.makedirs(RESULTS, exist_ok=True)
    hists = {}
    for task in TASKS:
        for cell in args.cells:
            h = history(args, task, cell)
            if h:
                hists[task, cell] = h
                with open(os.path.join(RESULTS, f"reader_{task}_{cell}.jsonl"), "w") as f:
                    f.writelines(json.dumps(r) + "\n" for r in h)
    if not hists:
        sys.exit(f"no runs with evaluations under {args.runs}")
    print(figure(args, hists))
    for task in TASKS:
        rows = {c: hists[task, c] for c in args.cells if (task, c) in hists}
        if not rows:
            continue
        steps = sorted({r["step"] for h in rows.values() for r in h})
        print(f"\n{task}: validation CER (%) at each evaluation; training minutes at the last")
        print("| updates | " + " | ".join(rows) + " |")
        print("|---" * (len(rows) + 1) + "|")
        for s in steps:
            cers = [next((f"{100 * r['val_cer']:.1f}" for r in h if r["step"] == s), "") for h in rows.values()]
            print(f"| {s} | " + " | ".join(cers) + " |")
        print("| minutes | " + " | ".join(f"{h[-1]['time_s'] / 60:.1f}" for h in rows.values()) + " |")


if __name__ == "__main__":
    main()
