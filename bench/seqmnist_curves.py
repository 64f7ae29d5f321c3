"""Sequential MNIST comparison (issue 15): LSTM vs LN-LSTM vs BN-LSTM learning curves from run folders.

Reads each run's ``metrics.jsonl`` (one row per epoch), copies it to ``--results`` as
``seqmnist_<task>_<cell>.jsonl``, draws validation accuracy and loss against updates and against wall
time (one picture per task), and prints a Markdown table of validation accuracy at chosen updates.

    python bench/seqmnist_curves.py runs/i15/mnist_{lstm,ln-lstm,bn-lstm} runs/i15/pmnist_{lstm,ln-lstm,bn-lstm} \
        --results bench/results
"""
import argparse
import json
import os
import shutil

import numpy as np


def read_run(folder):
    rows = [json.loads(line) for line in open(os.path.join(folder, "metrics.jsonl")) if line.strip()]
    rows = [r for r in rows if r.get("kind", "epoch") == "epoch" and "val_acc" in r]
    meta = json.load(open(os.path.join(folder, "checkpoint.json")))
    task, cell = meta["task"]["task"], meta.get("train", {}).get("cell")
    return {"folder": folder, "task": task, "cell": cell, "rows": rows, "train": meta.get("train", {})}


def at(rows, step, key):
    """The value of ``key`` at the last evaluation at or before ``step`` updates (None if none)."""
    best = None
    if not rows or rows[-1]["step"] < step:
        return None                                        # the run has not got that far
    for r in rows:
        if r["step"] <= step:
            best = r[key]
    return best


def draw(runs, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(12, 7.5), constrained_layout=True)
    for r in runs:
        s = np.array([x["step"] for x in r["rows"]])
        w = np.array([x["time_s"] for x in r["rows"]]) / 60
        acc = 100 * np.array([x["val_acc"] for x in r["rows"]])
        loss = np.array([x["val_loss"] for x in r["rows"]])
        axes[0, 0].plot(s, acc, "-o", ms=2.5, label=r["cell"])
        axes[0, 1].plot(w, acc, "-o", ms=2.5, label=r["cell"])
        axes[1, 0].plot(s, loss, "-o", ms=2.5, label=r["cell"])
        axes[1, 1].plot(w, loss, "-o", ms=2.5, label=r["cell"])
    for ax in axes[0]:
        ax.set_ylabel("validation accuracy (%)")
    for ax in axes[1]:
        ax.set_ylabel("validation loss (nats per image)")
        ax.set_yscale("log")
    for ax in axes[:, 0]:
        ax.set_xlabel("updates (batch 100)")
    for ax in axes[:, 1]:
        ax.set_xlabel("wall time (minutes, training only; six runs sharing 2 cores)")
    for ax in axes.flat:
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--results", default="bench/results")
    ap.add_argument("--at", default="500,1000,2000,3000", help="updates at which the table reports")
    a = ap.parse_args()
    runs = [read_run(f) for f in a.runs]
    steps = [int(s) for s in a.at.split(",")]
    for task in sorted({r["task"] for r in runs}):
        group = [r for r in runs if r["task"] == task]
        for r in group:
            shutil.copyfile(os.path.join(r["folder"], "metrics.jsonl"),
                            os.path.join(a.results, f"seqmnist_{task}_{r['cell']}.jsonl"))
        t = group[0]["train"]
        title = (f"{'pixel' if task == 'mnist' else 'permuted pixel'} MNIST, 8000/2000 split of the MNIST test set: "
                 f"hidden {t.get('hidden')}, {t.get('optimizer')} lr {t.get('lr')}, clip {t.get('clip')}, "
                 f"batch {t.get('batch_size')}, Wh init {t.get('init')}, seed {t.get('seed')}")
        out = os.path.join(a.results, f"seqmnist_{task}.png")
        draw(group, out, title)
        print(f"\n{task}: {out}")
        print("| cell | " + " | ".join(f"val acc @ {s}" for s in steps) + " | best val acc | wall time (min) |")
        print("|---|" + "---|" * (len(steps) + 2))
        for r in group:
            accs = [at(r["rows"], s, "val_acc") for s in steps]
            best = max(x["val_acc"] for x in r["rows"])
            print(f"| {r['cell']} | " + " | ".join("-" if v is None else f"{100 * v:.1f}" for v in accs)
                  + f" | {100 * best:.1f} | {r['rows'][-1]['time_s'] / 60:.0f} |")


if __name__ == "__main__":
    main()
