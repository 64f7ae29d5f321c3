"""Per-time-step diagnostics of trained runs, as one picture: why normalization helps.

For each run folder (from ``lnrnn train --out``), the checkpoint's model and a batch of its task's
validation sequences go through ``lnrnn.diagnostics.per_step`` (NumPy reference, float64), at the
trained parameters and (``--init``) at the run's initial ones, and four panels are drawn against the
time step: ||dL/dh_t|| (log scale: how far back from the loss the signal reaches), the spread of the
gate pre-activations, the fraction of saturated gates (|a| > 3), and the spread of h_t.

    python bench/diagnostics.py runs/mnist_lstm runs/mnist_ln-lstm runs/mnist_bn-lstm --init \
        --out bench/results/seqmnist_mnist_diagnostics.png

Prints, per run, the ratio of ||dL/dh_t|| at the first and the last step (the gradient's reach).
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lnrnn.training.checkpoint import load_checkpoint  # noqa: E402
from lnrnn.data.tasks import load_task  # noqa: E402
from lnrnn.diagnostics import per_step  # noqa: E402
from lnrnn.model.models import build_model, upgrade_config  # noqa: E402
from lnrnn.training.evaluation import model_from_checkpoint, task_batch  # noqa: E402

PANELS = [("grad_h", "mean ||dL/dh_t||", True), ("pre_std", "std of gate pre-activations", False),
          ("pre_sat", "fraction of gates with |a| > 3", False), ("h_std", "std of h_t", False)]


def diagnose(run, batch, data_dir=None, at_init=False):
    meta, arrays = load_checkpoint(run)
    spec = dict(meta["task"])
    if data_dir:
        spec["data_dir"] = data_dir
    task = load_task(spec)
    cfg = upgrade_config(meta["model"])
    x, y, lengths = task_batch(task, "val", np.arange(min(batch, task.size("val"))), np.float64)
    out = {"label": meta.get("train", {}).get("cell", f"{cfg['norm']}-{cfg['cell']}"), "step": meta.get("step"),
           "task": spec["task"]}
    out["trained"] = per_step(model_from_checkpoint(meta, arrays), x, y, lengths)
    if at_init:
        tr = meta.get("train", {})
        init = build_model(cfg, seed=tr.get("seed", 0), max_steps=x.shape[0], recurrent_init=tr.get("init") or "orthogonal")
        out["init"] = per_step(init, x, y, lengths)
    return out


def draw(results, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(12, 7.5), constrained_layout=True)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for (key, ylabel, log), ax in zip(PANELS, axes.flat):
        for i, r in enumerate(results):
            for when, style in (("trained", "-"), ("init", ":")):
                if when not in r:
                    continue
                v = r[when][key][-1]                                   # the top layer
                lab = f"{r['label']} ({'after ' + str(r['step']) + ' updates' if when == 'trained' else 'at init'})"
                ax.plot(np.arange(len(v)), v, style, color=colors[i % len(colors)], lw=1.2, label=lab)
        ax.set_xlabel("time step t (pixel)")
        ax.set_ylabel(ylabel)
        if log:
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="run folders (lnrnn train --out)")
    ap.add_argument("--batch", type=int, default=64, help="validation sequences in the batch")
    ap.add_argument("--data-dir", default=None, help="override the task's data folder")
    ap.add_argument("--init", action="store_true", help="also at the run's initial parameters (dotted)")
    ap.add_argument("--out", required=True, help="picture (.png, .svg, .pdf)")
    ap.add_argument("--json", default=None, help="also write the (L,T) arrays here")
    a = ap.parse_args()
    results = [diagnose(r, a.batch, a.data_dir, a.init) for r in a.runs]
    for r in results:
        for when in ("init", "trained"):
            if when in r:
                g = r[when]["grad_h"][-1]
                print(f"{r['label']:>8} {when:>7}: ||dL/dh_0|| / ||dL/dh_T-1|| = {g[0] / g[-1]:.3g}; "
                      f"pre-activation std {r[when]['pre_std'][-1].min():.3g}..{r[when]['pre_std'][-1].max():.3g}; "
                      f"saturated {100 * r[when]['pre_sat'][-1].mean():.1f}% of gates (mean over t)")
    task = results[0]["task"]
    draw(results, a.out, f"Per-step diagnostics on {task}: {a.batch} validation sequences, top layer "
                         f"(solid: trained, dotted: at init)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"label": r["label"], "step": r["step"], **{w: {k: np.asarray(r[w][k]).tolist() for k, _, _ in PANELS}
                                                                 for w in ("init", "trained") if w in r}}
                       for r in results], f)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
