"""Child process of tests/kernels/test_reproducible.py: train every run it is given, in this one process, and
write what each run ended with to one .npz.

    python tests/repro_child.py SPEC.json OUT.npz WORKDIR

Under an MPI launcher (``mpiexec -n N python tests/repro_child.py ...``) every rank trains each run as one
data-parallel group (lnrnn.training.distributed) and rank 0 writes OUT.npz (with "ranks": N).

SPEC.json: {"runs": [{"name": ..., "cfg": {TrainConfig fields}}, ...]}. Each run trains through
``lnrnn.training.train.train`` into WORKDIR/<name> (with ``keep`` large enough to hold every
checkpoint, so the step-0 one is there too). OUT.npz then holds, per run, under "<name>/":

    final/<array>     every array of the run's last checkpoint: param/..., buffer/..., optim/<slot>/...
    initial/<array>   the same arrays of its step-0 checkpoint (before any update)
    past/<step>/<array>  every array of every checkpoint in between (epoch ends), to tell where runs part
    metric/<key>      the training and validation metrics it recorded (float64 scalars), wall-clock fields left out
    compile_s         seconds it spent compiling kernels (0.0: every kernel came from Numba's on-disk cache)

and "threads": numba.get_num_threads() as this process saw it, "package": the lnrnn folder it imported,
so the parent can check that NUMBA_NUM_THREADS reached the child and that it trained the same code.
Run once per thread count; the parent compares the files.
"""
import json
import math
import os
import sys


def _metrics(meta, out):
    """Every number the trainer kept about the run's losses and accuracies -> {key: float}."""
    found = {}
    rows = list(meta.get("metrics") or [])
    if meta.get("stop_eval"):
        rows.append(meta["stop_eval"])
    for row in rows:
        tag = f"{row.get('eval', 'epoch')}@{row['step']}"
        for k, v in row.items():
            if k.startswith(("train_", "val_")) and isinstance(v, (int, float)):
                found[f"{tag}/{k}"] = float(v)
    for k, v in ((meta.get("epoch_sums") or {}).get("sums") or {}).items():
        found[f"epoch_sums/{k}"] = float(v)
    initial = (meta.get("blowup") or {}).get("initial_loss")
    if initial is not None:
        found["initial_loss"] = float(initial)
    with open(os.path.join(out, "updates.jsonl")) as f:  # train metrics every log_every updates
        for line in f:
            row = json.loads(line)
            for k, v in row.items():
                if k.startswith("train_") and isinstance(v, (int, float)):
                    found[f"update@{row['step']}/{k}"] = float(v)
    return found


def main(spec_path, npz_path, workdir):
    import numba
    import numpy as np

    from lnrnn.training import distributed
    from lnrnn.training.checkpoint import PAST_DIR, load_checkpoint
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train

    with open(spec_path) as f:
        spec = json.load(f)
    import lnrnn

    group = distributed.init()
    result = {"threads": np.array(numba.get_num_threads()), "package": np.array(os.path.dirname(lnrnn.__file__)),
              "ranks": np.array(group.size)}
    for run in spec["runs"]:
        name, out = run["name"], os.path.join(workdir, run["name"])
        cfg = TrainConfig(**{**run["cfg"], "out": out})
        with distributed.failing_together(group):
            train(cfg, quiet=True, log=lambda msg: None, group=group)
        if not group.root:
            continue
        meta, arrays = load_checkpoint(out)
        if meta["step"] != cfg.max_steps:
            raise SystemExit(f"{name} stopped at update {meta['step']}, not {cfg.max_steps}")
        result.update({f"{name}/final/{k}": v for k, v in arrays.items()})
        past = os.path.join(out, PAST_DIR)
        for d in sorted(os.listdir(past)):
            step = int(d.split("-")[1])
            if step == meta["step"]:
                continue
            _, a = load_checkpoint(os.path.join(past, d))
            kind = "initial" if step == 0 else f"past/{step}"
            result.update({f"{name}/{kind}/{k}": v for k, v in a.items()})
        result[f"{name}/compile_s"] = np.array(float(meta.get("compile_time_s", np.nan)))
        metrics = _metrics(meta, out)
        result.update({f"{name}/metric/{k}": np.array(v, np.float64) for k, v in metrics.items()})
        loss = metrics.get(f"stop@{meta['step']}/val_loss", math.nan)
        print(f"{name}: {meta['step']} updates, val loss {loss:.6g}", flush=True)
    if group.root:
        np.savez(npz_path, **result)


if __name__ == "__main__":
    main(*sys.argv[1:4])
