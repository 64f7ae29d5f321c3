"""Sequential MNIST comparison: LSTM vs LN-LSTM vs BN-LSTM learning curves from run folders.

Reads each run's ``metrics.jsonl`` (one row per epoch), copies it to ``--results`` as
``seqmnist_<task>_<cell>.jsonl``, draws accuracy and loss against updates and against training time
(``lnrnn.training.plot``: ``seqmnist_<task>.png`` and ``seqmnist_<task>_walltime.png``), and prints a Markdown
table of validation accuracy at chosen updates.

    python bench/seqmnist_curves.py runs/i15/mnist_{lstm,ln-lstm,bn-lstm} runs/i15/pmnist_{lstm,ln-lstm,bn-lstm} \
        --results bench/results
"""
import argparse
import json
import os
import shutil

from lnrnn.training.plot import LOSS_LABELS, Curves, write_learning_curves


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
        title = (f"{'pixel' if task == 'mnist' else 'permuted pixel'} MNIST (8000/2000 of t10k): "
                 f"H{t.get('hidden')}, {t.get('optimizer')} {t.get('lr')}, clip {t.get('clip')}, "
                 f"B{t.get('batch_size')}, Wh {t.get('init')}, seed {t.get('seed')}")
        curves = [Curves(r["cell"], r["rows"]) for r in group]
        out = write_learning_curves(os.path.join(a.results, f"seqmnist_{task}.png"), curves, x="step", title=title,
                                   loss_label=LOSS_LABELS["classifier"])
        wall = write_learning_curves(os.path.join(a.results, f"seqmnist_{task}_walltime.png"), curves, x="time_s",
                                     title=title + "; 6 runs on 2 cores",
                                     loss_label=LOSS_LABELS["classifier"])
        print(f"\n{task}: {out}, {wall}")
        print("| cell | " + " | ".join(f"val acc @ {s}" for s in steps) + " | best val acc | wall time (min) |")
        print("|---|" + "---|" * (len(steps) + 2))
        for r in group:
            accs = [at(r["rows"], s, "val_acc") for s in steps]
            best = max(x["val_acc"] for x in r["rows"])
            print(f"| {r['cell']} | " + " | ".join("-" if v is None else f"{100 * v:.1f}" for v in accs)
                  + f" | {100 * best:.1f} | {r['rows'][-1]['time_s'] / 60:.0f} |")


if __name__ == "__main__":
    main()
