"""Training is bit-identical whatever the number of Numba threads, and whether its kernels were just
compiled or loaded from Numba's on-disk cache.

For a given seed, batch size and dtype, the CPU kernels split a batch into fixed row blocks and threads
take whole blocks (lnrnn.config.BLOCK_ROWS), so training must give the same bits on 1, 2 or 3 threads.
This is checked end to end: every cell (plain, LN and BN; LSTM and RNN) in float64 and float32 trains
UPDATES updates on the digits task through the trainer, in one child process per thread count
(NUMBA_NUM_THREADS is read once, when Numba starts, so it cannot change within one process; each child
does all twelve runs, tests/repro_child.py), and the parent compares every parameter, buffer (BN running
statistics) and optimizer slot (Adam's m and v) of the final checkpoint byte for byte, then every
recorded loss and accuracy.

Compiled or cached. The children use a compile cache of their own (NUMBA_CACHE_DIR in pytest's tmp
folder), empty at first: a first child ("cold", on 3 threads) compiles every kernel as a first
``lnrnn train`` on a fresh install does, and fills the cache; the children on 1 and 2 threads then
load every kernel from it, and must compile nothing. The cold child on 3 threads is compared with the
warm one on 1 thread: one comparison for two promises, a user's first run trains like every later one
(before lnrnn kept the helpers linked into a kernel private to it, lnrnn.compiling.private_helpers, the
BN cells and LN-RNN float32 did not) and 3 threads train like 1. (A warm child on 3 threads would tell
the two apart when they fail; it would cost a fourth child and reach no other code.)

Sizes. B = 128 rows are 4 blocks of 32 (config.BLOCK_ROWS): 3 threads cannot share
them evenly (1 + 1 + 2), and 2 and 3 threads split the rows at different places. The hidden size makes
every step of a BN cell at least config.BN_PAR_MIN_WORK elements (B*G, G = 4H for the LSTM, H for the
RNN), so the BN cells really split their time loop over threads: H 32 for the LSTMs, 64 for the RNNs.
SPLIT trains on 285 of the digits (3 batches an epoch, the last of 29 rows, as the 1437 of the default
split end) and validates on 360 (one evaluation batch of 8 blocks, as without --split). UPDATES = 8 crosses
two epoch ends and goes on two updates into the third epoch, so the epochs' shuffles, the partial last
batch, learning-rate decay and evaluations are part of what must match; a row of training metrics every
LOG_EVERY updates is compared too. (More updates reach no other code: the default split's 1437 images
need 26 updates for the same, about a CPU-second more a run in each child.)

Time: the cold child compiles every kernel, and that is most of the time (AMD EPYC, 2 cores).
"""
import json
import os
import subprocess
import sys
import testpaths

import numpy as np
import pytest

import lnrnn
from lnrnn import config

HERE, ROOT = testpaths.TESTS, testpaths.ROOT  # the helpers' folder; the repository
CHILD = os.path.join(HERE, "repro_child.py")

THREADS = (1, 2)  # the children that load every kernel from the cache
COLD_THREADS = 3  # the thread count of the child that compiles (the one whose kernels split the most)
CELLS = ("rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm")
DTYPES = ("float64", "float32")
BATCH = 128
SPLIT = "285/360"  # digits: train/validation images (2 x 128 + 29 rows an epoch; 360 as without --split)
UPDATES = 8  # two epoch ends of 3 batches, then 2 updates of the third epoch
LOG_EVERY = 2  # updates.jsonl: a row of training metrics every this many updates
SEED = 3
CHILD_TIMEOUT_S = 600
ORDER = ("param/", "buffer/", "optim/")  # parameters first, then BN running statistics, then optimizer slots


def gate_width(cell, H):
    return 4 * H if cell.endswith("lstm") else H


def hidden_for(cell):
    """The smallest H from 32 up (a multiple of 32) at which a BN step of BATCH rows is split over threads."""
    H = 32
    while BATCH * gate_width(cell, H) < config.BN_PAR_MIN_WORK:
        H += 32
    return H


def run_name(cell, dtype):
    return f"{cell}-{dtype}"


def run_cfg(cell, dtype):
    """TrainConfig fields of one run: UPDATES updates, every checkpoint kept (epoch ends: where runs part),
    no best/ folder, no time-driven saves."""
    return dict(cell=cell, dtype=dtype, task="digits", split=SPLIT, hidden=hidden_for(cell), batch_size=BATCH,
                seed=SEED, max_steps=UPDATES, log_every=LOG_EVERY, best_metric="none", keep=10,
                save_every_seconds=0.0)


def run_child(root, tag, threads, spec, cache):
    """One child: every run of spec on ``threads`` Numba threads, compile cache ``cache`` -> its arrays."""
    npz, work = root / f"{tag}.npz", root / tag
    work.mkdir()
    # this checkout's lnrnn first, as pytest's pythonpath gives the parent (pyproject.toml)
    path = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads), "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": path}
    r = subprocess.run([sys.executable, CHILD, str(spec), str(npz), str(work)], env=env, capture_output=True,
                       text=True, timeout=CHILD_TIMEOUT_S, cwd=ROOT)
    assert r.returncode == 0, f"the {tag} child failed:\n{r.stdout}\n{r.stderr[-4000:]}"
    with np.load(npz, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    assert int(arrays["threads"]) == threads, f"NUMBA_NUM_THREADS={threads} did not reach the {tag} child"
    assert str(arrays["package"]) == os.path.dirname(lnrnn.__file__), f"the {tag} child imported another lnrnn"
    return arrays


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """{"cold": the arrays of the child that compiled (on COLD_THREADS), 1, 2: those of the children on that
    many threads that loaded every kernel from the cache the cold one filled}."""
    root = tmp_path_factory.mktemp("reproducible")
    spec = root / "spec.json"
    spec.write_text(json.dumps({"runs": [{"name": run_name(c, d), "cfg": run_cfg(c, d)}
                                         for c in CELLS for d in DTYPES]}))
    cache = root / "numba-cache"
    cache.mkdir()
    # one child after the other: several at once on 2 cores would crawl at the BN cells' barriers
    results = {"cold": run_child(root, "cold", COLD_THREADS, spec, cache)}
    for n in THREADS:
        results[n] = run_child(root, f"threads-{n}", n, spec, cache)
    return results


def of_run(arrays, name, kind):
    """{array name: array} of one run's part: kind 'final', 'initial', 'metric' or 'past/<step>'."""
    prefix = f"{name}/{kind}/"
    return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}


def past_steps(arrays, name):
    return sorted({int(k.split("/")[2]) for k in arrays if k.startswith(f"{name}/past/")})


def same_bits(a, b):
    return (a.dtype == b.dtype and a.shape == b.shape
            and np.array_equal(np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8)))


def first_difference(got, want):
    """'name: max |diff| d (...)' of the first array whose bytes differ (ORDER, then by name), or None."""
    assert sorted(got) == sorted(want), f"different arrays: {sorted(set(got) ^ set(want))}"
    names = sorted(want, key=lambda k: (next((i for i, p in enumerate(ORDER) if k.startswith(p)), len(ORDER)), k))
    bad = [k for k in names if not same_bits(got[k], want[k])]
    if not bad:
        return None
    k = bad[0]
    a, b = got[k], want[k]
    assert a.dtype == b.dtype and a.shape == b.shape, f"{k}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
    diff = np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)), initial=0.0)
    return (f"{k}: max |diff| {diff:.3g} ({np.count_nonzero(a != b)} of {a.size} elements), "
            f"{len(bad)} of {len(names)} arrays differ")


def run_difference(got, want, name):
    """Where two children's runs ``name`` differ, in words (None: the same bits): the final checkpoint's
    first differing array and the earliest checkpoint (epoch ends) that differs already, else a metric."""
    bad = first_difference(of_run(got, name, "final"), of_run(want, name, "final"))
    if bad is not None:
        steps = [s for s in past_steps(want, name)
                 if first_difference(of_run(got, name, f"past/{s}"), of_run(want, name, f"past/{s}"))]
        where = f"already at the checkpoint of update {steps[0]}" if steps else "not yet at the last epoch end"
        return f"after {UPDATES} updates {bad}; {where}"
    bad = first_difference(of_run(got, name, "metric"), of_run(want, name, "metric"))
    if bad is not None:
        return f"the arrays agree but a recorded metric differs: {bad}"
    return None


def test_sizes_exercise_the_thread_splits():
    """The sizes above mean what the module docstring says (a guard against a changed constant)."""
    for cell in CELLS:
        assert BATCH * gate_width(cell, hidden_for(cell)) >= config.BN_PAR_MIN_WORK
    from lnrnn.kernels.cpu.threads import batch_blocks
    blocks = batch_blocks(BATCH)  # several fixed blocks, not a multiple of 3
    assert blocks >= 3 and blocks % 3 != 0, blocks
    assert BATCH % 3 != 0
    n_train, n_val = (int(v) for v in SPLIT.split("/"))
    per_epoch = -(-n_train // BATCH)
    assert n_train % BATCH != 0 and batch_blocks(n_train % BATCH) >= 2  # a partial last batch, still split
    assert UPDATES > 2 * per_epoch, (UPDATES, per_epoch)  # two epoch ends, and updates after the second
    assert UPDATES % LOG_EVERY == 0 and UPDATES // LOG_EVERY >= 3  # several rows of training metrics
    assert batch_blocks(n_val) >= 3 and batch_blocks(n_val) % 3 != 0, n_val  # the evaluation splits too


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cell", CELLS)
def test_training_is_bit_identical_on_1_and_2_threads(trained, cell, dtype):
    name = run_name(cell, dtype)
    one = trained[1]
    final, initial, metrics = (of_run(one, name, kind) for kind in ("final", "initial", "metric"))
    # not a trivial run: it trained, every parameter moved, and every loss it recorded is finite
    assert any(k.startswith("optim/") for k in final) and any(k.startswith("param/") for k in final)
    still = [k for k in final if k.startswith("param/") and np.array_equal(final[k], initial[k])]
    assert not still, f"{name}: parameters that {UPDATES} updates left at their initial values: {still}"
    losses = {k: float(v) for k, v in metrics.items() if k.endswith("_loss") or k == "initial_loss"}
    assert len(losses) >= 3 and all(np.isfinite(v) for v in losses.values()), losses
    # all on the kernels the cold child compiled: none of these children compiled any
    compiled = {n: float(trained[n][f"{name}/compile_s"]) for n in THREADS}
    assert all(s == 0.0 for s in compiled.values()), f"{name}: children compiled kernels (s by threads): {compiled}"
    # the same bits on 2 threads as on 1
    bad = run_difference(trained[2], one, name)
    assert bad is None, f"{name}: 2 threads vs 1: {bad}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cell", CELLS)
def test_first_run_on_3_threads_compiling_kernels_trains_like_1_thread_on_the_cache(trained, cell, dtype):
    """The cold child compiled its kernels (a first run) on 3 threads, the warm one loaded them from the
    cache the cold one wrote and ran on 1: the same run must give the same bits."""
    name = run_name(cell, dtype)
    cold = trained["cold"]
    assert sum(float(v) for k, v in cold.items() if k.endswith("/compile_s")) > 0, "the cold child compiled nothing"
    bad = run_difference(cold, trained[1], name)
    assert bad is None, (f"{name}: on {COLD_THREADS} threads with kernels compiled in the process vs on 1 thread "
                         f"with kernels loaded from the cache: {bad}")
