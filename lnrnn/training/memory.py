"""How much memory a training configuration needs, estimated before anything large is allocated, and
the check that refuses a run that cannot fit (``lnrnn train --hidden 1000000`` ends in one sentence,
not in a NumPy allocation traceback half-way through loading data).

The estimate (bytes, ``itemsize`` = 4 for float32, 8 for float64):
    parameters   P params + P grads + the optimizer's slots (as many as it keeps at its defaults:
                 ``Optimizer.slots_kept``; adam 2, rmsprop-graves 3) + one copy for saving; BN population
                 statistics 2 x (T, width) per normalized product
    activations  what forward keeps for BPTT per layer, per (step, row), from the ``saved`` tuples at the
                 top of lnrnn/kernels/lstm.py, rnn.py, bn_lstm.py and bn_rnn.py (each cell's row, ``cells.Cell.activations``,
                 in units of H plus a constant), over T (or --tbptt) steps and B rows, plus backward's largest working set
                 (one layer's dL/d(preactivation) (T,B,G), dL/dy and dL/dx), the batch x (T,B,I) and
                 the head's outputs; times HEADROOM (measured peaks are 1.25-1.34x, README)
    evaluation   the same forward arrays at --eval-batch-size rows over all T steps (inference keeps
                 them too); evaluation and training do not overlap, so the larger of the two counts
    data         the task's sequences and labels (synthetic tasks are built in memory from --steps)
    window       a synthesis network's attention window (--window K, counted only when K > 0): its
                 parameters Wp (H,3K) and bp (3K,) as the others', and per (step, row) of training its
                 parameters p (3K) and kappa (K); the terms of the text (the window vector w (C) the layers
                 read, phi over its U characters) are left out: a synthesis network's estimate runs low by those
It is compared with the memory available now: MemAvailable of /proc/meminfo (else free pages), or what
the process's cgroup still allows, whichever is smaller. For --device cuda the activations live on the
GPU and are not counted. Set LNRNN_NO_MEMORY_CHECK=1 to skip the check.

Other commands' large allocations (``lnrnn read --beam``'s trie, ``lnrnn sample``'s points, ``lnrnn
gradcheck``'s problems) are checked the same way by ``refuse_beyond``, against a lower bound of their size:
a typo's size ends in one sentence, not in an allocation traceback or a long hang.
"""
import os

from lnrnn.errors import UserError

HEADROOM = 1.25            # measured peak / what BPTT must keep (README: 1.25-1.34x)
SKIP_ENV = "LNRNN_NO_MEMORY_CHECK"


def estimate(cfg, spec, T, I, outputs, per_step, n_data_bytes=0):
    """{part: bytes} for a resolved TrainConfig ``cfg`` (its task's defaults filled: ``plan.resolve_defaults``)
    with cell row ``spec`` (``cells.Cell``) on sequences of T steps of I inputs and a head of ``outputs``
    outputs (on every step when ``per_step``)."""
    H, L, Be, skip = cfg.hidden, cfg.layers, cfg.eval_batch_size, cfg.skip
    D = 2 if cfg.bidirectional else 1  # directions: each a layer of its own
    isz = 8 if cfg.dtype == "float64" else 4
    B = cfg.batch_size
    G = spec.blocks * H
    W = D * H                                            # a layer's output width
    params = (W * L if skip else W) * outputs + outputs  # the head reads every layer with skip
    stats = 0
    first, later = (sum(_prod(s) for _, s in spec.param_shapes(n_in, H)) for n_in in (I, I + W if skip else W))
    params += D * (first + (L - 1) * later)             # layers 2..L alike: no loop over a huge --layers
    for _, w in spec.buffers:
        stats += D * L * 2 * T * spec.width(H, w)
    a, c = spec.activations
    per_row_step = D * L * (a * H + c)
    Tc = min(cfg.tbptt or T, T)
    head = outputs * (T if per_step else 1)
    train = Tc * B * per_row_step + Tc * B * (G + H + max(I, H)) + T * B * I + 3 * B * head
    evaluation = T * Be * per_row_step + T * Be * I + 2 * Be * head
    on_host = cfg.device != "cuda"
    parts = {
        "parameters": isz * (params * (3 + slots(cfg.optimizer)) + stats),
        "activations": int(HEADROOM * isz * train) if on_host else isz * T * B * I,
        "evaluation": int(HEADROOM * isz * evaluation) if on_host else isz * T * Be * I,
        "data": int(n_data_bytes),
    }
    K = cfg.window or 0
    if K > 0:
        parts["window"] = isz * (3 * K * (H + 1) * (3 + slots(cfg.optimizer)) + (Tc * B * 4 * K if on_host else 0))
    return parts


def slots(kind):
    """Parameter-sized slots the optimizer ``kind`` keeps at its defaults (2 for a kind it does not know: the
    plan refuses that kind by name elsewhere)."""
    from lnrnn.training.optim import OPTIMIZERS

    return OPTIMIZERS[kind]().slots_kept() if kind in OPTIMIZERS else 2


def _prod(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


def available_bytes():
    """Memory this process can still get: /proc/meminfo's MemAvailable (or free pages), capped by the
    cgroup's limit minus its usage. None when nothing says."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            pass
    for limit, usage in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                         ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit) as f:
                lim = f.read().strip()
            with open(usage) as f:
                used = int(f.read().strip())
        except (OSError, ValueError):
            continue
        if lim.isdigit() and int(lim) < (1 << 60):
            room = max(int(lim) - used, 0)
            avail = room if avail is None else min(avail, room)
        break
    return avail


def refuse_beyond(need, what, advice, available=None):
    """UserError when ``need`` bytes, a lower bound of what is about to be allocated (a beam search's trie, a
    sample's points, gradcheck's problems), exceed the memory available now: "``what`` would take at least
    ...; try ``advice``", before any of it is computed. Nothing otherwise, nor when nothing says what is
    available or SKIP_ENV is set."""
    if os.environ.get(SKIP_ENV):
        return
    avail = available_bytes() if available is None else available
    if avail is not None and need > avail:
        raise UserError(f"{what} would take at least {format_bytes(need)} of memory but only {format_bytes(avail)} "
                        f"is available; try {advice}.")


def format_bytes(n):
    """1023.0 MB, 1.5 GB, 12,345.0 TB (a typo's size: the terabytes' thousands grouped)."""
    if n >= 1 << 40:
        return f"{n / (1 << 40):,.1f} TB"
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{max(n, 0) / (1 << 10):.0f} KB"


WHAT = {
    "parameters": ("parameters, gradients and optimizer state", "a smaller --hidden or --layers"),
    "activations": ("activations kept for backpropagation through time",
                    "a smaller --batch-size, --hidden or --tbptt"),
    "evaluation": ("evaluation batches", "a smaller --eval-batch-size"),
    "data": ("the task's sequences", "a smaller --steps"),
    "window": ("the attention window", "a smaller --window"),
}


def check_fits(parts, available=None, steps_option=False):
    """UserError naming the estimate, its largest parts and the available memory when the parts do not
    fit (suggesting a shorter --steps first when the sequence length came from it); returns the total
    otherwise."""
    if os.environ.get(SKIP_ENV):
        return None
    avail = available_bytes() if available is None else available
    # every part counts, but training and evaluation do not overlap: only the larger of the two
    counted = {k: v for k, v in parts.items() if k != min(("activations", "evaluation"), key=parts.get)}
    train_peak = sum(counted.values())
    if avail is None or train_peak <= avail:
        return train_peak
    big = sorted(counted, key=counted.get, reverse=True)
    shown = ", ".join(f"{WHAT[k][0]} {format_bytes(counted[k])}" for k in big if counted[k] >= 0.01 * train_peak)
    hints = [WHAT[k][1] for k in big if counted[k] >= 0.1 * train_peak]
    if steps_option:
        hints = ["a smaller --steps"] + [h for h in hints if h != "a smaller --steps"]
    raise UserError(f"this run needs about {format_bytes(train_peak)} of memory ({shown}) but only "
                    f"{format_bytes(avail)} is available; try {' or '.join(hints)} (or set {SKIP_ENV}=1 to try anyway).")
