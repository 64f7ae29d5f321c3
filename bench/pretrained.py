"""The runs shipped with the package (``lnrnn/pretrained/NAME/``): trained, packed and judged here.

    python bench/pretrained.py train hershey              # lnrnn train with the recipe below (resumes to --updates)
    python bench/pretrained.py pack hershey               # its best checkpoint -> lnrnn/pretrained/hershey/
    python bench/pretrained.py judge                      # the writer's lines read by the shipped reader

hershey: a synthesis network (Graves 2013, sec. 5) that writes any text of its alphabet: a 2 x 128 skip
stack of LN-LSTM layers whose window layer (layer 1) has no norm (``--window-norm none``: docs/results.md
says why), K = 10 Gaussians, a 20-component mixture head, on strokes-hershey.
hershey-reader: a reader of the same lines (2 x 128 bidirectional LSTM, CTC head), the one of
docs/results.md's reading curves (``bench/reader_curves.py --task strokes-hershey``), the judge of the
writer.

``pack`` copies the run's best/ (the model arrays and the checkpoint's description) and writes the folder's
README.md (what it is, how it was trained, credit and licence). ``judge`` writes TEXTS (none of them a
training line whole) at biases 0.5 and 2 with sampling seeds 0-2, reads every line with the reader, and
writes bench/results/pretrained_hershey.json (every line, its reading and the window's measures) and
bench/results/pretrained_hershey.png (one line and its attention, README's picture).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from synthesis_ablations import TEXTS, judge_texts  # noqa: E402  (bench/: the ablations' texts and judging)

RESULTS = os.path.join(ROOT, "bench", "results")
CREDIT = ("Trained on lines drawn from the Hershey single-stroke fonts (A. V. Hershey, U.S. National Bureau of "
          "Standards; data format by James Hurt), read through the hershey-fonts package (MIT licence). The "
          "fonts' distribution asks that their origin be credited as here; the weights are released under "
          "lnrnn's MIT licence.")
RECIPES = {
    "hershey": dict(
        run="runs/pretrained_hershey",
        args=["--task", "strokes-hershey", "--cell", "ln-lstm", "--window-norm", "none", "--hidden", "128",
              "--layers", "2", "--window", "10", "--batch-size", "8", "--lr", "1e-3", "--lr-decay", "1",
              "--epochs", "1000", "--clip-output", "100", "--clip-gates", "10", "--seed", "0",
              "--eval-every", "100", "--save-every", "100"],
        about="A synthesis network that writes a given text: a 2 x 128 skip stack of LN-LSTM layers whose "
              "window layer has no norm (--window-norm none), an attention window of 10 Gaussians over the "
              "text, a 20-component mixture density head."),
    "hershey-reader": dict(
        run="runs/reader_curves/strokes-hershey_lstm",
        command="NUMBA_NUM_THREADS=1 python bench/reader_curves.py --task strokes-hershey --updates 2000 "
                "--eval-every 100   # the LSTM run of the reading curves",
        about="A reader of Hershey-font lines: a 2 x 128 bidirectional LSTM stack with a CTC head; best-path "
              "decoding. It is the judge of the hershey writer (lnrnn sample --judge pretrained:hershey-reader)."),
}


def package_dir(name):
    return os.path.join(ROOT, "lnrnn", "pretrained", name)


def train_command(name, updates):
    r = RECIPES[name]
    cmd = [sys.executable, "-m", "lnrnn.cli", "train", "--out", r["run"], "-q", "--max-steps", str(updates)]
    if os.path.exists(os.path.join(r["run"], "checkpoint.json")):
        return cmd + ["--resume"]
    return cmd + r["args"]


def shown_command(name, updates):
    r = RECIPES[name]
    if "command" in r:
        return r["command"]
    return " ".join(["lnrnn train --out", r["run"], "--max-steps", str(updates)] + r["args"])


def pack(name, run_folder=None):
    """RUN/best -> lnrnn/pretrained/NAME (checkpoint.json, its arrays file, README.md); RUN: the recipe's
    run folder, or run_folder."""
    from lnrnn.api import load_run

    r = RECIPES[name]
    best = os.path.join(run_folder or r["run"], "best")
    run = load_run(best)                                   # verified before anything is copied
    meta = run.meta
    out = package_dir(name)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    shutil.copy2(os.path.join(best, "checkpoint.json"), out)
    shutil.copy2(os.path.join(best, meta["arrays_file"]), out)
    best_metric = meta.get("best", {})
    n = sum(v.size for v in run.model.params.values())
    text = [f"# pretrained:{name}", "", r["about"], "",
            f"{n:,} parameters ({run.model.config['dtype']}), {meta['step']:,} updates "
            f"({meta['epoch']} epochs); best validation {best_metric.get('metric', '?')} "
            f"{best_metric.get('value', float('nan')):.4f} at update {best_metric.get('step', '?')}.", ""]
    judged = os.path.join(RESULTS, f"pretrained_{name}.json")
    j = json.load(open(judged)) if os.path.exists(judged) else {}
    if j.get("step") == meta["step"]:
        cers = ", ".join(f"{j['biases'][b]['summary']['cer']:.2f} at bias {b}" for b in j["biases"])
        text += [f"Judged by pretrained:hershey-reader (`python bench/pretrained.py judge`): {len(j['texts'])} texts "
                 f"never seen whole in training x {len(j['seeds'])} sampling seeds, character error rate {cers}.", ""]
    text += ["Trained with:", "", "```bash", shown_command(name, meta.get("train", {}).get("max_steps") or meta["step"]),
             "```", "", "then packed (this folder: the run's best checkpoint, model arrays only) with "
            f"`python bench/pretrained.py pack {name}`.", "", "## Credit and licence", "", CREDIT, ""]
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(text))
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print(f"packed {best} -> {os.path.relpath(out, ROOT)} ({size / 1e6:.1f} MB)")


def judge_writer(args):
    from lnrnn.api import load_run
    from lnrnn.data.tasks import load_task
    from lnrnn.judge import check_judge
    from lnrnn.sample import draw_written

    writer, reader = load_run("pretrained:hershey"), load_run(args.reader)
    check_judge(writer, reader, TEXTS)
    seen = set(load_task(writer.task_spec).texts_train)
    if seen & set(TEXTS):
        sys.exit(f"texts the writer saw whole in training: {sorted(seen & set(TEXTS))}; judge unseen texts only")
    biases, written = judge_texts(writer, reader, TEXTS, args.biases, args.sample_seeds, args.steps)
    results = {"texts": TEXTS, "seeds": args.sample_seeds, "step": writer.step, "biases": biases}
    for bias, judged in biases.items():
        s, lines = judged["summary"], judged["lines"]
        print(f"bias {bias}: CER {s['cer']:.3f} (mean line CER {s['mean_cer']:.3f}), travel "
              f"{s['mean_travel']:.2f}, stop at last {s['stop_at_last']:.2f}, peak phi {s['mean_peak_phi']:.2f}, "
              f"{s['lines']} lines", flush=True)
        for d in lines[:len(TEXTS)]:
            print(f"    {d['text']!r:>20} -> {d['read']!r}")
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "pretrained_hershey.json"), "w") as f:
        json.dump(results, f, indent=1)
    pick = [written[args.picture_bias, 0][TEXTS.index(args.picture_text)]]
    print(draw_written(pick, os.path.join(RESULTS, "pretrained_hershey.png"),
                       title=f"pretrained:hershey writes {args.picture_text!r} (bias {args.picture_bias:g}, seed 0)",
                       attention=True))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["train", "pack", "judge"])
    ap.add_argument("name", nargs="?", default="hershey", choices=list(RECIPES))
    ap.add_argument("--updates", type=int, default=6000, help="train: the run's updates in all")
    ap.add_argument("--run", default=None, help="pack: the run folder (default: the recipe's)")
    ap.add_argument("--reader", default="pretrained:hershey-reader", help="judge: the reader run")
    ap.add_argument("--biases", type=float, nargs="+", default=[0.5, 2.0])
    ap.add_argument("--sample-seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--steps", type=int, default=800, help="judge: the cap of each written line")
    ap.add_argument("--picture-text", default="hello world", choices=TEXTS)
    ap.add_argument("--picture-bias", type=float, default=2.0)
    args = ap.parse_args()
    if args.what == "train":
        if "args" not in RECIPES[args.name]:
            sys.exit(f"{args.name} is trained by: {RECIPES[args.name]['command']}")
        sys.exit(subprocess.run(train_command(args.name, args.updates), cwd=ROOT).returncode)
    if args.what == "pack":
        pack(args.name, args.run)
    else:
        judge_writer(args)


if __name__ == "__main__":
    main()
