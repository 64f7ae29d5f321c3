"""Which product runs the per-step recurrent products on this host, rgemm or the BLAS's (MKL's packed
GEMM, or np.dot without MKL): measured once per host and install, kept in a small record, read at import.

    rec, why = rec_choice.choose(blas_name, cpu, rule)   # blas.py, before its first kernel is compiled

The choice must be known before any kernel compiles (it is part of every cached kernel's name, blas.py),
so it cannot be measured with the kernels themselves. The first process to ask on a host measures in a
child process (``CHILD``: ``measure`` on blas.py's products, started with LNRNN_REC_GEMM=rgemm so that
its own import of blas.py makes no choice, and with LNRNN_NO_CACHE so that it leaves nothing in the
kernel cache: a process's first kernels compile as they would without the measurement). It times both
products in float32 on the per-step shapes of S1-S3 and the synthesis network (SHAPES, forward W and
backward W^T) and on two products over many rows that follow the choice (ROW_SHAPES: where rgemm runs
the per-step products it runs these too), in turns for ROUNDS rounds; each round's ratio of the two
times (both ran under the same load, so the ratio moves less than either time on a shared machine),
its median per shape, the geometric mean over the shapes: about 9-12 s on a 2-core AMD EPYC, most of
it compiling both. rgemm is chosen where that ratio is under RGEMM_BELOW, the BLAS where it is over
BLAS_ABOVE; between the two the products are level within what a busy machine's noise moves, and the
rule by CPU kind decides (``rule``: blas.py's, no AVX-512 or an Intel CPU with MKL -> the BLAS, else
rgemm), so that a measurement near 1 does not flip the choice, and with it the rounding of every
result, from one host of a kind to the next.

The record (JSON: the ratio, each shape's best times, the key) lives beside the package's own
compiled kernels (kernels/cpu/__pycache__), or in ~/.cache/lnrnn where the package is read-only, under a
name keyed by the CPU model and flags, the BLAS library and the sources of both products (KEY_SOURCES):
another host, another BLAS or a changed rgemm measures again. Processes that start together (MPI ranks,
a test runner's workers) take a lock file first: one measures, the others wait and read its record, so
they all make the same choice. Where the child fails or no record can be written, the rule decides and
``why`` says so. LNRNN_REC_GEMM=rgemm / blas still chooses outright, without measuring.

The same child measures a second choice, which only a host that runs rgemm per step makes: where the LSTM
backward's dWh partial (H,4H) outgrows one core's L2 (config.DWH_L2_BYTES) but not config.DWH_BIG_BYTES
(S3 and the synthesis network: H 400, 2.5 MB in float32), whether its share of each block of gathered rows
is added by rgemm's transposed product in blocks of a quarter of DWH_BIG_BYTES (blas.grad_t_add, the partial
read and written once a block) or by the BLAS's GEMM in blocks of config.DWH_BLOCK_ROWS rows (the gathered
rows go out to memory and come back). ``measure_dwh`` times both on DWH_SHAPES, in turns, as the per-step
products; ``decide_dwh``: rgemm's blocks where they took under RGEMM_BELOW of the BLAS's time, else the BLAS's
(what every host did before: no rule by CPU kind). On the AMD EPYC Zen 5 host the products alone took 0.45-0.5x
and the S3 LN-LSTM training step 0.78-0.83x its time with rgemm's blocks; on a Zen 4 host blocks of one or two
steps on rgemm cost 1.04-1.10x (config.py), so it is measured, not assumed.

A third choice, again only where rgemm runs per step: whether the weight gradients whose partials stay in one
core's L2 (S1's and S2's dWh, the RNN and BN cells' dWh after their loops) take rgemm's transposed product
in L2-sized blocks, as every host did before this was measured, or the BLAS's GEMM in its own blocks (at least
config.DWH_BLAS_MIN_ROWS rows). ``measure_dwh(blas, within_l2=True)`` times both on GRAD_SHAPES; ``decide_grad``:
the BLAS's where rgemm's took over BLAS_ABOVE of its time, rgemm's under RGEMM_BELOW, and between the two
rgemm's on a CPU with AVX-512, the BLAS's without. On the AMD EPYC Zen 3 host (AVX2,
MKL) MKL's sgemm ran these products at 1.1-1.2x rgemm's 256-bit tile's speed, and every cell's step with them
on rgemm took 1.00-1.11x its time with them on the BLAS (bench/ab_weight_grad.py --grad rgemm); on the Zen 4
and Zen 5 hosts rgemm's blocks were the faster. blas.py reads it from the record (``recorded_grad``).
"""
import hashlib
import json
import os
import subprocess
import sys
import time

from lnrnn.compiling import exclusive   # no lock on Windows: processes started together may each measure

SHAPES = ((64, 128, 512), (64, 512, 128),      # S1: B 64, H 128: h Wh (m,K) @ (K,4H), and dg Wh^T
          (128, 256, 1024), (128, 1024, 256),  # S2: B 128, H 256
          (32, 400, 1600), (32, 1600, 400),    # S3: B 32, H 400
          (8, 400, 1600), (8, 1600, 400))      # the synthesis network: B 8, H 400
ROW_SHAPES = ((896, 28, 1024), (256, 1024, 28))  # products over many rows that follow the choice (blas.rows_mul):
                                                 # S2's x Wx over a block's 28 steps of 32 rows, dx of 256 rows
ROUNDS = 9             # rounds of both products in turns; the median of the rounds' ratios counts
ROUND_FLOPS = 2e7      # multiply-adds per product per round (about 1-10 ms on a core)
RGEMM_BELOW = 0.9      # rgemm where its time / the BLAS's is under this...
BLAS_ABOVE = 1.1       # ...the BLAS where it is over this; the rule by CPU kind between them
CHILD_TIMEOUT_S = 300.0
DWH_SHAPES = ((400, 16, 2400), (400, 4, 2000))  # dWh's blocks: H, rows of a chunk m, rows in all (S3: B 32 in
                                                 # 2 chunks; the synthesis network: B 8), float32 (2.5 MB partials)
GRAD_SHAPES = ((128, 32, 1024), (256, 32, 896))  # weight gradients within L2: H, m, R (S1's dWh over 32 steps of
                                                 # a 32-row chunk, S2's over its 28), float32 (256 KB and 1 MB)
KEY_SOURCES = ("rgemm.py", "blas.py", "rec_choice.py")
CHILD = ("import json; from lnrnn.kernels.cpu import blas, rec_choice; "
         "print(json.dumps(rec_choice.measure(blas)))")
HERE = os.path.dirname(os.path.abspath(__file__))


def measure(blas):
    """Time both per-step products (float32) of the module blas (lnrnn.kernels.cpu.blas, passed in: it
    imports this one) on SHAPES -> {"shapes": [[m, K, N, rgemm_s, blas_s], ...] (each product's best
    round), "ratio": the geometric mean over the shapes of the median over rounds of rgemm's time / the
    BLAS's in the same round}. Run in the child (CHILD), whose blas.py was told its choice."""
    import numpy as np
    rng = np.random.default_rng(0)
    rows, logs = [], []
    for m, K, N in SHAPES + ROW_SHAPES:
        A = rng.standard_normal((m, K)).astype(np.float32)     # (m,K) a step's rows (or many rows)
        W = rng.standard_normal((K, N)).astype(np.float32)     # (K,N) the recurrent (or input) weights
        out = np.empty((m, N), np.float32)                      # (m,N)
        if (m, K, N) in ROW_SHAPES:                             # rows_mul's two: rgemm's, or the BLAS's GEMM
            packs = ((blas.rgemm_mul, blas.rgemm_pack(W, m)), (blas.gemm_mul, blas.gemm_pack(W)))  # rows_pack's panels
        else:                                                   # rec_mul's two
            packs = ((blas.rgemm_mul, blas.rgemm_pack(W, m)), (blas.blas_mul, blas.blas_pack(W, m)))
        reps = max(3, int(ROUND_FLOPS / (m * K * N)))
        best, log = in_turns([lambda mul=mul, P=P: [mul(A, W, P, out) for _ in range(reps)] for mul, P in packs])
        rows.append([m, K, N, best[0] / reps, best[1] / reps])  # seconds per product
        logs.append(log)
    dwh_rows, dwh_ratio = measure_dwh(blas)
    grad_rows, grad_ratio = measure_dwh(blas, within_l2=True)
    return {"shapes": rows, "ratio": float(np.exp(np.mean(logs))), "dwh_shapes": dwh_rows, "dwh_ratio": dwh_ratio,
            "grad_shapes": grad_rows, "grad_ratio": grad_ratio}


def in_turns(runs):
    """Two calls, rgemm's and the BLAS's, each run once (compiled, or loaded, before timing) and then ROUNDS
    times in turns, so that a round's two see the same load -> ((rgemm's best round, the BLAS's) in seconds,
    log of the median over rounds of rgemm's time / the BLAS's)."""
    import numpy as np
    for run in runs:
        run()
    times = np.empty((ROUNDS, 2))                               # (rounds, [rgemm, BLAS]) seconds
    for r in range(ROUNDS):
        for i, run in enumerate(runs):
            t0 = time.perf_counter()
            run()
            times[r, i] = time.perf_counter() - t0
    return (float(times[:, 0].min()), float(times[:, 1].min())), float(np.log(np.median(times[:, 0] / times[:, 1])))


def measure_dwh(blas, within_l2=False):
    """Time dWh's share of R gathered rows, float32, per DWH_SHAPES (H, m, R): rgemm's transposed product
    (blas.grad_t_add into dWh^T) in the blocks blas.dwh_blocks cuts with rgemm's blocks chosen, against the
    BLAS's GEMM (blas.gemm_add) in the blocks it cuts without (config.DWH_BLOCK_ROWS rows), each adding into a
    partial of its own -> ([[H, m, R, rgemm_s, blas_s], ...] (each one's best round), the geometric mean over
    the shapes of the median over rounds of rgemm's time / the BLAS's). within_l2: per GRAD_SHAPES instead,
    partials within L2, whose blocks on rgemm are the same whatever DWH says: against the BLAS's GEMM in the
    blocks dwh_blocks cuts where the per-step products run on the BLAS (config.DWH_BLAS_MIN_ROWS rows)."""
    import numpy as np
    rng = np.random.default_rng(1)
    rows, logs = [], []
    for H, m, R in (GRAD_SHAPES if within_l2 else DWH_SHAPES):
        G = 4 * H
        A = rng.standard_normal((R, H)).astype(np.float32)   # (R,H) the gathered h_{t-1} rows
        D = rng.standard_normal((R, G)).astype(np.float32)   # (R,G) their dL/d(h_{t-1} Wh)
        pWhT = np.zeros((G, H), np.float32)                   # (G,H) rgemm's partial of dWh^T
        pWh = np.zeros((H, G), np.float32)                    # (H,G) the BLAS's partial of dWh
        nr, tw = blas.dwh_blocks(H, 0, m, R // m, 4, "rgemm", "rgemm")  # rgemm's blocks
        nb, _ = blas.dwh_blocks(H, 0, m, R // m, 4, "blas" if within_l2 else "rgemm", "blas")  # the BLAS's
        if not tw:
            raise ValueError(f"measure_dwh: H {H}, m {m}: rgemm's blocks would not run on rgemm")
        nr, nb = nr * m, nb * m                               # rows of each one's blocks

        def on_rgemm():
            for r0 in range(0, R, nr):
                blas.grad_t_add(A[r0:r0 + nr], D[r0:r0 + nr], pWhT)

        def on_blas():
            for r0 in range(0, R, nb):
                blas.gemm_add(A[r0:r0 + nb], D[r0:r0 + nb], pWh, True)
        best, log = in_turns([on_rgemm, on_blas])
        rows.append([H, m, R, *best])
        logs.append(log)
    return rows, float(np.exp(np.mean(logs)))


def decide(ratio, rule):
    """rgemm's time / the BLAS's (None: not measured), rule = (choice, why) by CPU kind -> (choice, why)."""
    if ratio is None:
        return rule
    measured = f"measured on this CPU, rgemm took {ratio:.2f}x the BLAS's time on the per-step shapes"
    if ratio < RGEMM_BELOW:
        return "rgemm", measured
    if ratio > BLAS_ABOVE:
        return "blas", measured
    return rule[0], f"{measured}, level within noise, so by CPU kind: {rule[1]}"


def decide_dwh(ratio, rec):
    """rgemm's time / the BLAS's on dWh's blocks (measure_dwh; None: not measured) and the per-step product
    chosen -> ("rgemm" or "blas", why): where large dWh partials take their blocks (module docstring)."""
    if rec != "rgemm":
        return "blas", "the per-step products run on the BLAS"
    if ratio is None:
        return "blas", "not measured"
    measured = f"measured on this CPU, rgemm's blocks took {ratio:.2f}x the BLAS's time"
    return ("rgemm" if ratio < RGEMM_BELOW else "blas"), measured


def decide_grad(ratio, rec, avx512):
    """rgemm's time / the BLAS's on weight-gradient blocks within L2 (measure_dwh with within_l2; None: not
    measured), the per-step product chosen and whether the CPU has AVX-512 -> ("rgemm" or "blas", why): where
    those blocks run (module docstring). Not measured: rgemm's, as before it was measured; level within noise
    (RGEMM_BELOW to BLAS_ABOVE): rgemm's with AVX-512, the BLAS's without (rgemm's 256-bit tile)."""
    choice, why = decide_dwh(ratio, rec)  # the BLAS per step; else the words for what was measured
    if rec != "rgemm":
        return choice, why
    if ratio is None:
        return "rgemm", why
    if RGEMM_BELOW <= ratio <= BLAS_ABOVE:
        tie = "rgemm" if avx512 else "blas"
        return tie, f"{why}, level within noise, so by CPU kind: {'' if avx512 else 'no '}AVX-512"
    return ("blas" if ratio > BLAS_ABOVE else "rgemm"), why


def recorded_grad(blas_name, cpu, rec, avx512):
    """decide_grad on this host's record, read (never measured: ``choose`` has made it, or could not) -> the
    weight gradients' choice within L2, for rec the per-step product chosen; not measured where no record, or
    none with a number for it, is found."""
    want = host_key(blas_name, cpu)
    for folder in record_dirs():
        rec_ = read_record(record_path(folder, want), want)
        if rec_ is not None:
            ratio = rec_.get("grad_ratio")
            return decide_grad(ratio if isinstance(ratio, (int, float)) else None, rec, avx512)
    return decide_grad(None, rec, avx512)


def host_key(blas_name, cpu):
    """The record's key: the CPU (model and flags, a str), the BLAS library, Python, and the sources of
    both products."""
    h = hashlib.sha1()
    for part in (str(cpu), str(blas_name), sys.version.split()[0]):
        h.update(part.encode() + b"\0")
    for name in KEY_SOURCES:
        with open(os.path.join(HERE, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def record_dirs():
    """Where a record may live, first choice first: LNRNN_REC_RECORD_DIR, the package's kernel cache
    folder, the user's cache folder."""
    if os.environ.get("LNRNN_REC_RECORD_DIR"):
        return [os.environ["LNRNN_REC_RECORD_DIR"]]
    user = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "lnrnn")
    return [os.path.join(HERE, "__pycache__"), user]


def record_path(folder, key):
    """The record of the host with this key, in folder."""
    return os.path.join(folder, f"rec-choice-{key}.json")


def read_record(path, key):
    """The record at path if it is whole and has key, else None."""
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    return rec if whole(rec) and rec.get("key") == key else None


def whole(rec):
    """Whether rec (a record read, or the child's output) holds both measured ratios."""
    return isinstance(rec, dict) and all(isinstance(rec.get(k), (int, float)) for k in ("ratio", "dwh_ratio"))


def run_child():
    """Measure in a child process (its blas.py told to choose rgemm, so it measures nothing; its kernels not
    cached) -> measure()'s dict, or None."""
    env = dict(os.environ, LNRNN_REC_GEMM="rgemm", LNRNN_NO_CACHE="1", NUMBA_NUM_THREADS="1")
    try:
        p = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                           text=True, timeout=CHILD_TIMEOUT_S, stdin=subprocess.DEVNULL)
        out = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 and p.stdout.strip() else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return out if whole(out) else None


def recorded(blas_name, cpu):
    """This host's record {"ratio", "shapes", "key", ...}: read, or measured and written (under a lock)
    in the first folder of record_dirs that takes it; None where it can be neither."""
    key = host_key(blas_name, cpu)
    for folder in record_dirs():
        path = record_path(folder, key)
        rec = read_record(path, key)
        if rec is not None:
            return rec
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            continue
        if not os.access(folder, os.W_OK):
            continue
        with exclusive(path + ".lock", CHILD_TIMEOUT_S + 60):
            rec = read_record(path, key)             # another process may have measured while we waited
            if rec is not None:
                return rec
            rec = run_child()
            if rec is None:
                return None
            rec["key"] = key
            tmp = f"{path}.{os.getpid()}.tmp"
            try:
                with open(tmp, "w") as f:
                    json.dump(rec, f)
                os.replace(tmp, path)                 # whole or absent: a reader never sees half a record
            except OSError:
                continue
            return rec
    return None


def choose(blas_name, cpu, rule):
    """(choice, why, dwh, dwh_why) for blas.py: the measured record decides the per-step product (``decide``)
    and where large dWh partials take their blocks (``decide_dwh``); where there is no record, the rule and
    the BLAS's blocks."""
    rec = recorded(blas_name, cpu)
    if rec is None:
        choice = rule[0], f"{rule[1]} (not measured: no record could be made)"
        return (*choice, *decide_dwh(None, choice[0]))
    choice = decide(rec["ratio"], rule)
    return (*choice, *decide_dwh(rec["dwh_ratio"], choice[0]))

