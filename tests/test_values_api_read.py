"""``lnrnn.read`` (lnrnn/api.py) against a best-path reading written here: a bidirectional reader with
initial-state noise reads ragged lines in batches of two; by hand, each batch's lines are divided by the
run's offset scale (sx != sy), padded, run through the stack with the noise of evaluation's batch i and
each row's length (the backward direction starts at the row's own end), and every row's most probable
class per step is collapsed (repeats merged, blanks dropped) and mapped to the alphabet (class c is
character c - 1). The noise and the lengths are checked to change what is read, so a reader that
dropped either shows."""
import numpy as np
import pytest

import lnrnn
from lnrnn.model.models import build_model
from lnrnn.training.checkpoint import save_checkpoint

ALPHABET = "?abcde"            # character 0 stands for the unknown one
SCALE = (2.0, 0.5)
LENGTHS = (7, 3, 6, 5, 2)      # batches of two: (7, 3), (6, 5), (2,)


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    cfg = dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64", forget_bias=1.0,
               state_noise=1.5, bidirectional=True,
               head={"kind": "ctc", "outputs": len(ALPHABET) + 1, "per_step": True, "scale": list(SCALE)})
    m = build_model(cfg, seed=2)
    rng = np.random.default_rng(5)
    m.params["head.W"][...] = 3.0 * rng.standard_normal(m.params["head.W"].shape)
    m.params["head.b"][...] = 0.0
    folder = tmp_path_factory.mktemp("reader") / "run"
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 0, "task": {"task": "strokes", "head": "ctc"},
                     "train": {"cell": "ln-lstm"}, "text": {"alphabet": ALPHABET, "unknown": 0, "lines": 1}})
    lines = []
    for n in LENGTHS:
        pts = np.zeros((n, 3))
        pts[:, 0] = rng.uniform(-1, 1, n) * SCALE[0]
        pts[:, 1] = rng.uniform(-1, 1, n) * SCALE[1]
        pts[:, 2] = rng.random(n) < 0.3
        lines.append(pts)
    return str(folder), lnrnn.load_run(str(folder)).model, lines


def by_hand(model, lines, batch, key=lambda i: i, lengths=True):
    out = []
    for i, s in enumerate(range(0, len(lines), batch)):
        part = [ln / np.array([SCALE[0], SCALE[1], 1.0]) for ln in lines[s:s + batch]]
        L = np.array([len(p) for p in part])
        x = np.zeros((L.max(), len(part), 3))
        for b, p in enumerate(part):
            x[:len(p), b] = p
        y, _ = model.stack.forward(x, model.noise_state(len(part), (2, key(i))), training=False,
                                   lengths=L if lengths else None, keep=False)
        logits = model.head.linear(y)                                  # (T,B,C)
        for b in range(len(part)):
            best = logits[:L[b], b].argmax(axis=1)
            kept = [c for t, c in enumerate(best) if c != 0 and (t == 0 or c != best[t - 1])]
            out.append("".join(ALPHABET[c - 1] for c in kept))
    return out


def test_read_is_the_best_path_of_each_batch_under_its_own_noise(reader):
    folder, model, lines = reader
    want = by_hand(model, lines, 2)
    assert lnrnn.read(folder, lines, batch_size=2) == want
    assert sum(map(len, want)) > 5 and len(set("".join(want))) > 2   # varied: a wrong class map shows
    assert by_hand(model, lines, 2, key=lambda i: 0) != want         # each batch's key matters
    assert by_hand(model, lines, 2, lengths=False) != want           # each row's own end matters
