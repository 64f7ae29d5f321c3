"""Why the LN-LSTM synthesis network writes less legibly than the plain LSTM: variants trained with the same
seed and the same number of updates, each judged by a reader (``lnrnn.judge``): the character error rate of
its written lines as the reader reads them, and the window's alignment (travel, stop rule at the last
character, peak phi), beside its validation loss.

    python bench/synthesis_ablations.py --reader READER_RUN --variants lstm ln-lstm     # train, then judge
    python bench/synthesis_ablations.py --reader READER_RUN --variants ln-lstm_kbias-1 --updates 300
    python bench/synthesis_ablations.py --reader READER_RUN --report                   # judge and draw only

READER_RUN: a reader of the same task (``lnrnn train --task strokes-hershey --head ctc --bidirectional``).
Each variant trains with ``lnrnn train`` in its own process in RUNS/<variant> (a run already there resumes
up to --updates), one after another. A variant changes one thing against the plain cell at the common
setting (--hidden x --layers skip stack with the K-Gaussian window, batch --batch-size, Adam --lr without
decay, Graves's clips 100 / 10, --seed): the cell, the window layer's norm (--window-norm: "ln-lstm" is LN
on every layer, "ln-lstm_w1none" LN above a window layer without a norm), the learning rate, or the
window's initial parameters, which are module constants of ``lnrnn.model.window`` (WINDOW_KAPPA_BIAS: the k_hat bias, kappa's first
pace exp(b) characters per point; WINDOW_INIT_STD: the scale of Wp) that the training process sets before
it builds the model. Judging: every variant writes the same TEXTS (none of them a training line whole) at
each --biases, with each of --sample-seeds, and the reader reads every line.

Writes bench/results/synthesis_ablations<TAG>.json (per variant: the validation history, the judged lines and
their summaries), bench/results/synthesis_ablations<TAG>.png (validation NLL against updates; CER and travel
per variant and bias) and prints a table.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
# short lower-case texts of the corpus's words and digits; checked not to be a training line whole
TEXTS = ["hello world", "layer norm", "the quick fox", "small stacks", "read me", "green apples",
         "writing by hand", "lnrnn 2026", "under the sea", "a new line"]
# name -> what changes against the common setting: cell, lr, kappa_bias (k_hat's initial bias), wp_std
VARIANTS = {
    "lstm": dict(cell="lstm"),
    "ln-lstm": dict(cell="ln-lstm", window_norm="ln"),            # LN on every layer, the window's too
    "bn-lstm": dict(cell="bn-lstm"),
    "ln-lstm_kbias-1": dict(cell="ln-lstm", window_norm="ln", kappa_bias=-1.0),
    "ln-lstm_kbias-5": dict(cell="ln-lstm", window_norm="ln", kappa_bias=-5.0),
    "ln-lstm_lr3e-3": dict(cell="ln-lstm", window_norm="ln", lr=3e-3),
    "ln-lstm_lr3e-4": dict(cell="ln-lstm", window_norm="ln", lr=3e-4),
    "ln-lstm_wp0.1": dict(cell="ln-lstm", window_norm="ln", wp_std=0.1),
    "ln-lstm_w1none": dict(cell="ln-lstm", window_norm="none"),   # LN on layers 2..L, none on the window's
    "lstm_w1ln": dict(cell="lstm", window_norm="ln"),              # LN on the window's layer only
    "bn-lstm_w1none": dict(cell="bn-lstm", window_norm="none"),
    "lstm_kbias-1": dict(cell="lstm", kappa_bias=-1.0),
}
COLOURS = {"lstm": "#444444", "ln-lstm": "#1f77b4", "bn-lstm": "#d62728", "ln-lstm_w1none": "#2ca02c"}


def run_dir(args, name):
    return os.path.join(args.runs, name)


def train_command(args, name):
    v = VARIANTS[name]
    out = run_dir(args, name)
    setup = "import lnrnn.model.window as W; "
    if "kappa_bias" in v:
        setup += f"W.WINDOW_KAPPA_BIAS = {v['kappa_bias']!r}; "
    if "wp_std" in v:
        setup += f"W.WINDOW_INIT_STD = {v['wp_std']!r}; "
    cmd = [sys.executable, "-c", setup + "from lnrnn.cli import main; main()", "train", "--out", out, "-q",
           "--max-steps", str(args.updates)]
    if os.path.exists(os.path.join(out, "checkpoint.json")):
        return cmd + ["--resume"]
    return cmd + ["--task", args.task, "--cell", v["cell"], "--hidden", str(args.hidden), "--layers",
                  str(args.layers), *(["--window-norm", v["window_norm"]] if "window_norm" in v else []),
                  "--batch-size", str(args.batch_size), "--lr", str(v.get("lr", args.lr)),
                  "--lr-decay", "1", "--epochs", "1000", "--seed", str(args.seed), "--eval-every",
                  str(args.eval_every), "--window", str(args.window), "--clip-output", "100", "--clip-gates", "10",
                  "--save-every", str(args.eval_every)]


def history(args, name):
    with open(os.path.join(run_dir(args, name), "metrics.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def judge_texts(writer, reader, texts, biases, seeds, steps):
    """The writer writes every text at every bias with every sampling seed, the reader reads every line ->
    ({bias: {'lines': [each line's Judged fields and its seed], 'summary': lnrnn.judge.summary}},
    {(bias, seed): the written rows})."""
    from lnrnn.api import sample_run
    from lnrnn.judge import judge, summary

    out, written = {}, {}
    for bias in biases:
        judged = []
        for seed in seeds:
            written[bias, seed] = sample_run(writer, steps=steps, text=texts, bias=bias, seed=seed)
            judged += [(j, seed) for j in judge(writer, reader, written[bias, seed], seed=seed)]
        out[f"{bias:g}"] = {"lines": [dict(j.__dict__, seed=seed) for j, seed in judged],
                            "summary": summary([j for j, _ in judged])}
    return out, written


def judged(args, name, reader):
    """Every text no training line holds whole, at every bias and sampling seed, read by the reader ->
    ({bias: {'lines': [...], 'summary'}}, the texts)."""
    from lnrnn.api import load_run
    from lnrnn.data.tasks import load_task

    run = load_run(run_dir(args, name))
    seen = set(load_task(run.task_spec).texts_train)
    texts = [t for t in TEXTS if t not in seen]
    return judge_texts(run, reader, texts, args.biases, args.sample_seeds, args.sample_steps)[0], texts


def picture(args, results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = list(results)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    for k, name in enumerate(names):
        h = results[name]["history"]
        colour = COLOURS.get(name, plt.cm.tab10(k % 10))
        style = "-" if name in COLOURS else "--"
        axes[0].plot([r["step"] for r in h], [r["val_loss"] for r in h], style, color=colour, label=name)
    axes[0].set_xlabel("updates")
    axes[0].set_ylabel("validation NLL (nats per point)")
    axes[0].grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    x = np.arange(len(names))
    width = 0.8 / len(args.biases)
    for i, bias in enumerate(args.biases):
        b = f"{bias:g}"
        axes[1].bar(x + i * width, [results[n]["judged"][b]["summary"]["cer"] for n in names], width,
                    label=f"bias {b}")
        axes[2].bar(x + i * width, [results[n]["judged"][b]["summary"]["mean_travel"] for n in names], width,
                    label=f"bias {b}")
    axes[1].set_ylabel("character error rate, read by the reader")
    axes[2].set_ylabel("window travel: kappa at the end / text length")
    axes[2].axhline(1.0, color="#888888", lw=0.8, ls=":")
    for ax in axes[1:]:
        ax.set_xticks(x + width * (len(args.biases) - 1) / 2)
        ax.set_xticklabels(names, rotation=25, ha="right", fontsize=8)
        ax.set_xlabel("variant")
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8)
    fig.suptitle(f"synthesis ablations on {args.task}: {args.layers} x {args.hidden}, K={args.window}, batch "
                 f"{args.batch_size}, {args.updates} updates, seed {args.seed}; {len(TEXTS)} texts x "
                 f"{len(args.sample_seeds)} sampling seeds", fontsize=10)
    fig.tight_layout()
    path = os.path.join(RESULTS, f"synthesis_ablations{args.tag}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def bn_rows(args):
    """How often a BN step's statistics come from one or two lines: random batches of the task's training
    lines at --batch-size and 4x that, the share of a batch's steps with at most 2 active rows and of the
    points those steps hold."""
    import numpy as np
    from lnrnn.data.tasks import load_task, task_spec

    task = load_task(task_spec(args.task))
    L = np.array([len(task.line("train", i)) for i in range(task.size("train"))])
    rng = np.random.default_rng(args.seed)
    print(f"{args.task}: {L.size} training lines of {L.min()}-{L.max()} points (median {np.median(L):g})")
    for B in (args.batch_size, 4 * args.batch_size):
        few_points = points = few_steps = steps = 0
        for _ in range(2000):
            active = (np.arange(L.max())[:, None] < rng.choice(L, B, replace=False)[None, :]).sum(1)
            active = active[active > 0]                                   # the batch's own steps
            few_points += active[active <= 2].sum()
            points += active.sum()
            few_steps += (active <= 2).sum()
            steps += active.size
        print(f"batch {B}: {few_steps / steps:.1%} of a batch's steps have at most 2 active rows; "
              f"they hold {few_points / points:.1%} of its points")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reader", help="a reader run folder of the same task (pretrained:hershey-reader ships)")
    ap.add_argument("--variants", nargs="+", default=["lstm", "ln-lstm"], choices=list(VARIANTS))
    ap.add_argument("--task", default="strokes-hershey")
    ap.add_argument("--updates", type=int, default=300)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--eval-every", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", default=os.path.join("runs", "synthesis_ablations"))
    ap.add_argument("--report", action="store_true", help="no training: judge and draw the runs there")
    ap.add_argument("--biases", type=float, nargs="+", default=[0.5, 2.0])
    ap.add_argument("--sample-seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--sample-steps", type=int, default=800, help="the cap of each written line")
    ap.add_argument("--bn-rows", action="store_true", help="only print how often BN's statistics come from 1-2 lines")
    ap.add_argument("--tag", default="", help="suffix of the results' file names (a budget's own files: _1000)")
    ap.add_argument("--draw", nargs="*", default=[], help="variants whose bias-2 lines (seed 0) to draw")
    args = ap.parse_args()
    if args.bn_rows:
        return bn_rows(args)
    if not args.reader:
        ap.error("--reader is needed to judge the variants")

    from lnrnn.api import load_run
    from lnrnn.judge import check_judge

    os.makedirs(RESULTS, exist_ok=True)
    os.makedirs(args.runs, exist_ok=True)
    reader = load_run(args.reader)
    path = os.path.join(RESULTS, f"synthesis_ablations{args.tag}.json")
    results = json.load(open(path)) if os.path.exists(path) else {}
    for name in args.variants:
        if not args.report:
            t0 = time.perf_counter()
            if subprocess.run(train_command(args, name)).returncode != 0:
                sys.exit(f"training {name} failed; see {run_dir(args, name)}")
            print(f"{name}: trained in {time.perf_counter() - t0:.0f} s", flush=True)
        check_judge(load_run(run_dir(args, name)), reader, TEXTS)
        t0 = time.perf_counter()
        judgement, texts = judged(args, name, reader)
        h = history(args, name)
        results[name] = {"variant": VARIANTS[name], "history": h, "judged": judgement, "texts": texts,
                         "train_s": h[-1]["time_s"], "judge_s": time.perf_counter() - t0,
                         "setting": {k: getattr(args, k) for k in ("task", "updates", "hidden", "layers", "window",
                                                                   "batch_size", "lr", "seed", "sample_steps",
                                                                   "biases", "sample_seeds")}}
        with open(path, "w") as f:
            json.dump(results, f, indent=1)
        print(f"{name}: judged in {results[name]['judge_s']:.0f} s", flush=True)
    shown = [n for n in VARIANTS if n in results]
    print(picture(args, {n: results[n] for n in shown}))
    print(f"{'variant':<18} {'updates':>7} {'val NLL':>8} {'train min':>9}  per bias: CER (mean line CER) "
          "travel stop@last peak-phi")
    for n in shown:
        r = results[n]
        last = r["history"][-1]
        cols = "  ".join(f"b{b}: {s['cer']:.3f} ({s['mean_cer']:.3f}) {s['mean_travel']:.2f} "
                         f"{s['stop_at_last']:.2f} {s['mean_peak_phi']:.2f}"
                         for b, s in ((b, r["judged"][b]["summary"]) for b in r["judged"]))
        print(f"{n:<18} {last['step']:>7} {last['val_loss']:>8.3f} {r['train_s'] / 60:>9.1f}  {cols}")
    for name in args.draw:
        from lnrnn.api import sample_run
        from lnrnn.sample import draw_written
        run = load_run(run_dir(args, name))
        rows = sample_run(run, steps=args.sample_steps, text=results[name]["texts"][:5], bias=2.0, seed=0)
        print(draw_written(rows, os.path.join(RESULTS, f"synthesis_ablations{args.tag}_{name}_bias2.png"),
                           title=f"{name}, {args.updates} updates, bias 2, seed 0", attention=True))


if __name__ == "__main__":
    main()
