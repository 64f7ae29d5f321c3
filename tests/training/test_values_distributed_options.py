"""The data-parallel update (lnrnn.training.distributed) with the training options on, in one process:
two "ranks" are two threads whose allreduce sums their buffers at a barrier (the BatchNorm cells'
statistics through the same callback), and their update must be one process's ``loss_and_grad`` of the
whole batch: truncated BPTT, per-step masks with padded and empty rows, the global batch's state noise,
the synthesis network's text, BatchNorm, float64 and float32. The --reproducible update
(``loss_and_grad_blocks``) is checked alike, in one process over several blocks, with truncated BPTT
and text. Shards are uneven (B = 5: rows 3 + 2), so a shard normalized by its own count shows."""
import threading

import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed

T, B, I, H = 6, 5, 3, 4
LENGTHS = np.array([6, 2, 0, 5, 3])            # a full row, short ones, an empty one
ALPHABET_SIZE, K = 5, 2


def thread_group(n):
    """n reduce callbacks summing their buffers over n threads (a barrier-based allreduce)."""
    bar, slots = threading.Barrier(n), [None] * n

    def make(r):
        def reduce(buf):
            slots[r] = buf.copy()
            bar.wait()
            total = slots[0].copy()
            for s in slots[1:]:
                total += s
            bar.wait()
            buf[...] = total
        return reduce
    return [make(r) for r in range(n)]


class ThreadRank:
    """A Group stand-in: rank r of n whose allreduce is the thread group's."""

    def __init__(self, rank, size, reduce):
        self.rank, self.size, self.allreduce = rank, size, reduce
        self.root = rank == 0


def config(cell, head, dtype, text=False):
    norm, kind = cell.split("-")
    cfg = dict(cell=kind, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype=dtype, forget_bias=1.0,
               state_noise=0.2, head=head)
    if text:
        cfg.update(window=K, alphabet_size=ALPHABET_SIZE, skip=True)
    return cfg


def problem(head, text=False, seed=0):
    """x (T,B,I), targets of the head, lengths, text (codes (B,U), ulen (B,)) or None."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    if head["kind"] == "mdn":
        y = rng.standard_normal((B, T, 3))
        y[..., 2] = rng.random((B, T)) < 0.3
    elif head.get("per_step"):
        y = rng.integers(0, head["outputs"], (B, T))
        y[0, 1] = -1                                            # an unscored step
    else:
        y = rng.integers(0, head["outputs"], B)
    tx = None
    if text:
        ulen = np.array([3, 1, 2, 4, 2])
        codes = np.zeros((B, 4), np.int64)
        for b in range(B):
            codes[b, :ulen[b]] = rng.integers(1, ALPHABET_SIZE, ulen[b])
        tx = (codes, ulen)
    return x, y, LENGTHS, tx


PER_STEP = {"kind": "classifier", "outputs": 3, "per_step": True}
LAST = {"kind": "classifier", "outputs": 3, "per_step": False}
MDN = {"kind": "mdn", "components": 2, "per_step": True}

CASES = [  # cell, head, dtype, tbptt, text
    ("ln-lstm", PER_STEP, "float64", 2, False),
    ("bn-lstm", PER_STEP, "float64", 4, False),
    ("bn-rnn", LAST, "float64", 4, False),
    ("none-lstm", LAST, "float64", 3, False),
    ("ln-rnn", PER_STEP, "float32", 2, False),
    ("bn-lstm", PER_STEP, "float32", None, False),
    ("ln-lstm", MDN, "float64", None, True),
    ("ln-lstm", MDN, "float64", 4, True),
]
IDS = [f"{c}-{h['kind']}{'-step' if h.get('per_step') else ''}-{d}-tbptt{t}{'-text' if tx else ''}"
       for c, h, d, t, tx in CASES]


def built(cfg):
    """build_model(cfg, seed=3) with a classifier's biases apart: the BN cells' output is exactly constant at a
    step where one row is left in the batch (BatchNorm of one row), and with the initial zero biases its logits
    tie; one process and the ranks then differ only in the last bit of h, which breaks the tie their own way
    and moves the accuracy by a unit. Apart, every class is decided by a margin."""
    m = build_model(cfg, seed=3)
    if m.head.kind == "classifier":
        m.head.params["b"][...] = np.arange(m.head.params["b"].size) * 0.25
    return m


def close(got, want, dtype, what):
    tol = 1e-9 if dtype == "float64" else 2e-5
    scale = max(np.abs(want).max(), 1e-300)
    assert np.abs(np.asarray(got, np.float64) - want).max() <= tol * scale, what


@pytest.mark.parametrize("cell,head,dtype,tbptt,text", CASES, ids=IDS)
def test_two_thread_ranks_equal_one_process(cell, head, dtype, tbptt, text):
    cfg = config(cell, head, dtype, text)
    x, y, lengths, tx = problem(head, text)
    x = x.astype(dtype)
    one = built(cfg)
    means = one.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=7, text=tx)
    g_one = one.flat[1].data.astype(np.float64)
    assert np.abs(g_one).max() > 0
    reduces, models, out, errors = thread_group(2), [built(cfg) for _ in range(2)], [None] * 2, []

    def work(r):
        try:
            group = ThreadRank(r, 2, reduces[r])
            if cell.startswith("bn"):
                models[r].stack.set_batch_reduce(group.allreduce)
            out[r] = distributed.loss_and_grad(group, models[r], x, y, lengths, tbptt, 7, np.array([0.0, r]),
                                               text=tx)
        except BaseException as e:  # noqa: B036 (reported by the test below)
            errors.append(e)
            raise

    threads = [threading.Thread(target=work, args=(r,)) for r in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for r in range(2):
        assert out[r].keys() == means.keys()
        close([out[r][k] for k in means], [means[k] for k in means], dtype, "means")
        assert models[r].last_count == one.last_count
        close([models[r].last_sums[k] for k in one.last_sums], [one.last_sums[k] for k in one.last_sums], dtype,
              "sums")
        close(models[r].flat[1].data, g_one, dtype, "gradient")
        for k, v in one.buffers.items():
            close(models[r].buffers[k], np.asarray(v, np.float64), dtype, k)


@pytest.mark.parametrize("cell,head,tbptt,text", [
    ("ln-lstm", PER_STEP, 2, False),
    ("bn-lstm", PER_STEP, 4, False),
    ("ln-lstm", MDN, 4, True),
], ids=["ln-lstm-step-tbptt2", "bn-lstm-step-tbptt4", "ln-lstm-mdn-tbptt4-text"])
def test_reproducible_blocks_equal_one_call(cell, head, tbptt, text):
    """B = 5 with block rows 1: several blocks of one or two rows, each normalized by the whole batch."""
    cfg = config(cell, head, "float64", text)
    x, y, lengths, tx = problem(head, text, seed=1)
    model = build_model(cfg, seed=2)
    before = {k: v.copy() for k, v in model.stack.buffers.items()}
    with block_rows(1):
        assert distributed.data_blocks(B) > 1
        want = model.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=9, text=tx)
        g_want, sums_want = model.flat[1].data.copy(), dict(model.last_sums)
        stats_want = {k: v.copy() for k, v in model.stack.buffers.items()}
        model.stack.load_buffers({k: v.copy() for k, v in before.items()})
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, model, x, y, lengths, tbptt, 9, np.zeros(3),
                                               text=tx)
    close(model.flat[1].data, g_want, "float64", "gradient")
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)
    assert all(model.last_sums[k] == pytest.approx(v, rel=1e-12) for k, v in sums_want.items())
    for k, v in stats_want.items():
        close(model.stack.buffers[k], v, "float64", k)


@pytest.mark.parametrize("head", [PER_STEP, LAST, MDN], ids=["per-step", "last-step", "mdn"])
def test_scored_count_is_the_global_normalizer_by_definition(head):
    """The count every rank divides by: per step, the steps t < lengths[b] whose label is not -1 (every
    running step for the mixture head); per sequence, the rows that run at least one step."""
    model = build_model(config("ln-lstm", head, "float64"), seed=0)
    _, y, lengths, _ = problem(head)
    if head is LAST:
        want = int(np.sum(lengths > 0))
    else:
        want = sum(1 for b in range(B) for t in range(lengths[b]) if head is MDN or y[b, t] != -1)
    assert model.scored_count(y, lengths, T, B) == want
    assert model.scored_count(y, None, T, B) == (B if head is LAST else T * B - (head is PER_STEP))
