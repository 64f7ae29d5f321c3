"""`lnrnn train` end to end against the bare training step of its layer, and how long a run takes to
its first update, cold (empty kernel cache) and cached.

    python bench/train_throughput.py                      # LN-LSTM, pixel MNIST B64 H128 (S1's shape)
    python bench/train_throughput.py --cell bn-lstm --epochs 4
    python bench/train_throughput.py --cold-start         # every cell: first update cold and cached
    python bench/train_throughput.py --task strokes-synthetic --hidden 400 --batch-size 32 --split 512/64

Throughput. A real pixel-MNIST run trains on 60000 sequences and evaluates 10000 after every epoch;
here the same proportions on fewer sequences from the t10k file (--split 1536/256: 24 updates of B64,
then an evaluation of 256 sequences and a checkpoint, every epoch), through lnrnn.training.train.train, the
function behind `lnrnn train`, with every phase in: data batches, forward + BPTT, loss, gradient
clipping, optimizer, update log, progress, evaluation, checkpoints, metrics.jsonl and the
learning-curve picture (redrawn at most every lnrnn.training.recorder.CURVE_REDRAW_S). A warm-up run first loads (or
compiles) every kernel, the evaluation's included. Measured window: from the last update of epoch 1
to the last update of the last epoch, so it holds E-1 epochs of updates and E-1 evaluations and
checkpoints. The bare step is RecurrentLayer.forward + backward of the same cell at the same shape
(T784 B64 I1 H128), timed after every update of the run (from train's hook; its time is taken out of
the run's window), so that both see the same load on a shared machine; the ratio compares the means
over the window (the median, the figure before, is printed beside it: on a busy machine the bare step
flips between two levels and its median sits on one of them). The
run is profiled (cProfile: one entry per Python call, a few hundred per update, against 100+ ms of
compiled work) to say where an update's time goes. With --device cuda the trainer runs the whole update
on the device (stack, head, loss, clipping, optimizer; one copy of the metrics back), and the host
parameters are fetched once per update for the hook (a copy of the P parameters, inside the window).

First update (--cold-start): each cell in a fresh process, `lnrnn train --task mnist` with
--max-steps 1, once on an empty NUMBA_CACHE_DIR (everything compiles) and once more on the same
directory (everything loads). Printed: seconds from the process's start (imports included) to its
first update, and the trainer's own first_update_s (from the start of the loop) with compile_s.

A benchmark, not a test: it prints figures and asserts nothing about time.
"""
import time

T_PROCESS = time.perf_counter()  # before the imports: --cold-start counts them

import argparse  # noqa: E402
import cProfile  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import lnrnn  # noqa: E402,F401
import numba  # noqa: E402
import numpy as np  # noqa: E402

from lnrnn.kernels.cpu.blas import BLAS  # noqa: E402
from lnrnn.model.layers import RecurrentLayer  # noqa: E402
from lnrnn.training.runconfig import TrainConfig  # noqa: E402
from lnrnn.training.train import train  # noqa: E402

DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "mnist")
CELLS = {"lstm": ("lstm", "none"), "ln-lstm": ("lstm", "ln"), "bn-lstm": ("lstm", "bn"),
         "rnn": ("rnn", "none"), "ln-rnn": ("rnn", "ln"), "bn-rnn": ("rnn", "bn")}
T, I = 784, 1
# Where an update's time goes: (label, pstats function names whose cumulative time it is)
# (label, ((function, module file under lnrnn/), ...)): where each phase of the trainer's loop is defined
# (--device cuda: the model's update on the device, SequenceModel.loss_and_grad_on_device, and the clipping
# kernels of kernels/optim_cuda.py; launches return at once, so the device's time shows where the host
# waits for it: the metrics copy at the end of lnrnn.training.update.DeviceUpdate, in the loop's rest)
PHASES = [("forward + BPTT + loss (model)", (("loss_and_grad", "training/update.py"),
                                             ("loss_and_grad_on_device", "model/models.py"))),
          ("data batches", (("task_batch", "training/evaluation.py"),)),
          ("gradient clipping", (("clip_grad_norm", "training/optim.py"), ("clip_grad_norm", "kernels/optim_cuda.py"))),
          ("optimizer", (("step", "training/optim.py"),)),
          ("update log + progress", (("log_update", "training/recorder.py"), ("update", "training/progress.py"))),
          ("evaluation", (("evaluate", "training/evaluation.py"),)),
          ("checkpoints", (("save", "training/train.py"),)),
          ("learning-curve drawings", (("draw_curve", "training/recorder.py"),))]
LOOP = ("_run", "training/train.py")  # the trainer's loop (Trainer._run)


def config(args, out, **kw):
    base = dict(cell=args.cell, task=args.task, data_dir=args.data_dir if args.task == "mnist" else None,
                split=args.split, hidden=args.hidden, batch_size=args.batch_size, epochs=args.epochs, seed=0, out=out,
                device=args.device)
    base.update(kw)
    return TrainConfig(**base)


class BareStep:
    """RecurrentLayer forward + backward of the cell at (T, B, I, H): the step without the trainer."""

    def __init__(self, cell, H, B, device="cpu"):
        self.layer = RecurrentLayer(*CELLS[cell], I, H, dtype=np.float32, seed=0, max_steps=T, device=device)
        self.device = device
        rng = np.random.default_rng(0)
        self.x = rng.random((T, B, I)).astype(np.float32)
        self.dy = (rng.standard_normal((T, B, H)) * 0.01).astype(np.float32)
        self.time()  # warm-up

    def time(self):
        t0, c0 = time.perf_counter(), time.process_time()
        self.layer.forward(self.x)
        self.layer.backward(self.dy)  # parameter gradients come back to the host: the GPU's work is done
        self.cpu = time.process_time() - c0  # process CPU seconds, all threads
        return time.perf_counter() - t0


class BareModelStep:
    """A stroke task's bare step: the run's recurrent stack (its model config: every layer, the same cells)
    forward + backward over B of the task's training lines (padded to the longest, with their lengths), without
    the head, the loss, the clipping and the optimizer."""

    def __init__(self, trainer, B, device="cpu"):
        from lnrnn.model.models import build_model
        self.model = build_model(trainer.model.config, seed=0, device=device)
        self.x, _, self.lengths = trainer.task.batch("train", np.arange(B), np.float32)[:3]
        self.T = self.x.shape[0]
        rng = np.random.default_rng(0)
        self.dy = (rng.standard_normal((self.T, B, self.model.stack.output_size)) * 0.01).astype(np.float32)
        self.time()  # warm-up

    def time(self):
        t0, c0 = time.perf_counter(), time.process_time()
        self.model.stack.forward(self.x, lengths=self.lengths)
        self.model.stack.backward(self.dy)  # parameter gradients come back to the host: the GPU's work is done
        self.cpu = time.process_time() - c0
        return time.perf_counter() - t0


def profile_phases(prof):
    """Cumulative seconds of each PHASES entry, from the profile of the measured run."""
    st = pstats.Stats(prof)
    return {label: sum(_cumulative(st, fn, where) for fn, where in places) for label, places in PHASES}


def _cumulative(st, fn, where):
    """Cumulative seconds of function fn defined in lnrnn/<where>, from pstats st."""
    suffix = os.path.join("lnrnn", *where.split("/"))
    return sum(ct for (path, _, name), (_, _, _, ct, _) in st.stats.items() if name == fn and path.endswith(suffix))


def run_loop_seconds(prof):
    """Cumulative seconds of the trainer's loop (Trainer._run), from the profile."""
    return _cumulative(pstats.Stats(prof), *LOOP)


def throughput(args):
    quiet = dict(quiet=True, log=lambda msg: None)
    with tempfile.TemporaryDirectory(prefix="lnrnn-tp-") as tmp:
        warm = train(config(args, os.path.join(tmp, "warm"), split="128/64", epochs=1), **quiet)  # load/compile all
        bare = (BareStep(args.cell, args.hidden, args.batch_size, args.device) if args.task == "mnist"
                else BareModelStep(warm, args.batch_size, args.device))
        stamps = []  # (perf_counter after the update, epoch, step, seconds of bare step inside the hook,
        #            process CPU seconds after the update, CPU seconds of that bare step)

        def hook(trainer):
            t, c = time.perf_counter(), time.process_time()
            wall = bare.time() if trainer.step > 1 else 0.0
            stamps.append((t, trainer.epoch, trainer.step, wall, c, bare.cpu if wall else 0.0))

        prof = cProfile.Profile()
        prof.enable()
        trainer = train(config(args, os.path.join(tmp, "run")), hook=hook, **quiet)
        prof.disable()
    # the hook runs before the epoch's end is counted: the last update of epoch 1 is the last stamp with epoch 0
    first = max(i for i, s in enumerate(stamps) if s[1] == 0)
    t0, _, step0, _, c0, _ = stamps[first]
    t1, _, step1, _, c1, _ = stamps[-1]
    updates = step1 - step0
    in_hooks = sum(s[3] for s in stamps[first:-1])  # bare steps run between the window's two ends
    e2e_ms = (t1 - t0 - in_hooks) / updates * 1e3
    bare_ts = [s[3] for s in stamps if s[3] > 0]
    step_ms = statistics.median(bare_ts) * 1e3
    phases = profile_phases(prof)
    n_all = trainer.step
    hook_s = sum(s[3] for s in stamps)
    loop_s = run_loop_seconds(prof)
    shape = (f"T{T}" if args.task == "mnist"
             else f"T{bare.T} (the bare step's batch; ragged lines), {trainer.model.head.kind} head")
    print(f"{args.cell} on {args.device}, task {args.task} --split {args.split}, B{args.batch_size} {shape} "
          f"H{args.hidden}, "
          f"{args.epochs} epochs, "
          f"float32, {numba.get_num_threads()} threads, {BLAS}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs")
    in_window = [s[3] for s in stamps[first:-1]]  # the bare steps run inside the window, one per update
    mean_ms = statistics.fmean(in_window) * 1e3
    what = "RecurrentLayer" if args.task == "mnist" else "the run's stack,"
    print(f"bare step ({what} forward + backward), taken after each of the run's updates: mean of the "
          f"window's {len(in_window)} {mean_ms:.1f} ms ({args.batch_size / mean_ms * 1e3:.0f} samples/s); median of "
          f"all {len(bare_ts)} {step_ms:.1f} (fastest {min(bare_ts) * 1e3:.1f}, slowest {max(bare_ts) * 1e3:.1f})")
    print(f"lnrnn train end to end, {updates} updates (epochs 2-{args.epochs}, their evaluations and checkpoints "
          f"included): {e2e_ms:.1f} ms per update ({args.batch_size / e2e_ms * 1e3:.0f} samples/s)")
    # means over the same window: a load that comes and goes reaches both alike (the median of a bare step
    # time that flips between two levels on a shared machine does not average like the end-to-end time)
    print(f"end to end / bare step, in samples/s: {mean_ms / e2e_ms:.2f}x  (against the median bare step: "
          f"{step_ms / e2e_ms:.2f}x)")
    # process CPU time moves less with the load (it leaves out the time other processes held the cores),
    # but counts a single-threaded phase at half the weight of the 2-thread kernels that wall time gives it
    e2e_cpu = (c1 - c0 - sum(s[5] for s in stamps[first:-1])) / updates * 1e3
    bare_cpu = statistics.fmean(s[5] for s in stamps[first:-1]) * 1e3
    print(f"  process CPU time (all threads) per update: bare step {bare_cpu:.1f} ms, end to end {e2e_cpu:.1f} ms: "
          f"{bare_cpu / e2e_cpu:.2f}x")
    # each interval between two hooks, less its bare step: an update, plus the epoch's end when one came between
    inner, ends = [], []
    for a, b in zip(stamps[first:], stamps[first + 1:]):
        (inner if a[1] == b[1] else ends).append((b[0] - a[0] - a[3]) * 1e3)
    print(f"  an update inside an epoch {statistics.fmean(inner):.1f} ms (mean of {len(inner)}); an update and the "
          f"epoch's end (evaluation, checkpoint, metrics) {', '.join(f'{e:.0f}' for e in ends)} ms")
    if loop_s <= 0:  # the throughput above stands; the breakdown cannot be read (seen under Python 3.12 on a GPU host)
        print(f"  where the time went: the trainer's loop ({LOOP[0]} in lnrnn/{LOOP[1]}) is not in the profile, so no "
              "breakdown (LOOP and PHASES name where the trainer's functions are defined)")
        return
    print(f"where the whole run's time went (cProfile, cumulative, all {n_all} updates and {args.epochs} epochs; "
          "ms per update):")
    for label, _ in PHASES:
        print(f"  {label:<32} {phases[label] / n_all * 1e3:8.1f}")
    rest = loop_s - hook_s - sum(phases.values())
    print(f"  {'rest of the loop (Python, epochs)':<32} {rest / n_all * 1e3:8.1f}")
    print(f"  (the bare steps in the hook, left out above: {hook_s / n_all * 1e3:.1f})")


def first_update_worker(args):
    """One `lnrnn train` run of --max-steps 1 in this process; prints one JSON line."""
    seen = {}

    def hook(trainer):
        seen.setdefault("from_start_s", time.perf_counter() - T_PROCESS)

    with tempfile.TemporaryDirectory(prefix="lnrnn-cold-") as tmp:
        tr = train(config(args, os.path.join(tmp, "run"), split="128/64", max_steps=1), hook=hook, quiet=True,
                   log=lambda msg: None)
    print(json.dumps({"from_start_s": seen["from_start_s"], "first_update_s": tr.first_update_s,
                      "compile_s": tr.compile_total()}))


def cold_start(args):
    print(f"first update of `lnrnn train --task mnist --max-steps 1` (B{args.batch_size} H{args.hidden}), each in a "
          f"fresh process; {BLAS}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'cell':<8} {'cold: s from start':>19} {'(loop, compile)':>16} {'cached: s from start':>21} "
          f"{'(loop, compile)':>16}")
    for cell in CELLS:
        with tempfile.TemporaryDirectory(prefix="lnrnn-cache-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env.pop("LNRNN_NO_CACHE", None)
            res = []
            for _ in ("cold", "cached"):
                cmd = [sys.executable, os.path.abspath(__file__), "--first-update-worker", "--cell", cell,
                       "--data-dir", args.data_dir, "--hidden", str(args.hidden), "--batch-size", str(args.batch_size)]
                r = subprocess.run(cmd, capture_output=True, text=True, env=env)
                if r.returncode != 0:
                    sys.exit(f"{cell}: worker failed:\n{r.stderr[-2000:]}")
                res.append(json.loads(r.stdout.strip().splitlines()[-1]))
        c, w = res
        print(f"{cell:<8} {c['from_start_s']:19.1f} ({c['first_update_s']:5.1f}, {c['compile_s']:5.1f}) "
              f"{w['from_start_s']:21.2f} ({w['first_update_s']:5.2f}, {w['compile_s']:5.2f})", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cell", default="ln-lstm", choices=list(CELLS))
    ap.add_argument("--task", default="mnist", choices=["mnist", "strokes-synthetic"],
                    help="pixel MNIST (S1's shape; the bare step one layer), or generated stroke lines (the mixture "
                         "density head, ragged batches; the bare step the run's whole stack)")
    ap.add_argument("--data-dir", default=DATA, help="folder with MNIST's t10k IDX files")
    ap.add_argument("--split", default="1536/256", help="train/val sequences (a real epoch's 6:1)")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"], help="where the run and the bare step run")
    ap.add_argument("--cold-start", action="store_true", help="time every cell's first update, cold and cached")
    ap.add_argument("--first-update-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.first_update_worker:
        return first_update_worker(args)
    if args.cold_start:
        return cold_start(args)
    return throughput(args)


if __name__ == "__main__":
    main()
