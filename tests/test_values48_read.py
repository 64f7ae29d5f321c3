"""Reading with a prefix beam search (lnrnn.read and ``lnrnn read --beam``) against a reading written here: the
reader of test_values_api_read (a bidirectional stack with state noise, alphabet '?abcde', offset scale
(2, 0.5)) reads five ragged lines in batches of two; by hand, each batch's lines are divided by the scale,
padded, run through the stack with the noise of evaluation's batch i and each row's length, the logits are
h W + b and their log-softmax is taken here, and each row's own steps (never the padding) go to the prefix
beam search's spec of width 3; the best labelling's classes c map to character c - 1. The beam's reading is
checked to differ from the best path's and from a search over the padded steps, so that a reader that
dropped --beam or the lengths shows. The progress bar counts lines."""
import numpy as np
from click.testing import CliRunner

import lnrnn
from lnrnn.cli import main
from lnrnn.model.decode import prefix_beam_search
from test_values_api_read import ALPHABET, SCALE, reader  # noqa: F401 (the fixture)

WIDTH = 3


def log_softmax(x):
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def by_hand(model, lines, batch, width, padded=False):
    out = []
    W, bias = model.params["head.W"], model.params["head.b"]
    for i, s in enumerate(range(0, len(lines), batch)):
        part = [ln / np.array([SCALE[0], SCALE[1], 1.0]) for ln in lines[s:s + batch]]
        L = np.array([len(p) for p in part])
        x = np.zeros((L.max(), len(part), 3))
        for b, p in enumerate(part):
            x[:len(p), b] = p
        y, _ = model.stack.forward(x, model.noise_state(len(part), (2, i)), training=False, lengths=L, keep=False)
        logp = log_softmax(y @ W + bias)                                   # (T,B,C)
        for b in range(len(part)):
            steps = np.zeros_like(logp[:, b]) if padded else logp[:L[b], b]
            if padded:                                                   # log p 0 for every class past the end
                steps[:L[b]] = logp[:L[b], b]
            if width == 1:
                best = steps.argmax(axis=1)
                lab = [c for t, c in enumerate(best) if c != 0 and (t == 0 or c != best[t - 1])]
            else:
                lab = prefix_beam_search(steps, width)[0][0]
            out.append("".join(ALPHABET[c - 1] for c in lab))
    return out


def test_read_with_a_beam_searches_each_rows_own_steps(reader):
    folder, model, lines = reader
    want = by_hand(model, lines, 2, WIDTH)
    assert lnrnn.read(folder, lines, beam=WIDTH, batch_size=2) == want
    assert by_hand(model, lines, 2, WIDTH, padded=True) != want          # the padding would change the reading


class Bar:
    def __init__(self):
        self.steps = []

    def update(self, n):
        self.steps.append(n)


def test_progress_counts_lines(reader):
    folder, model, lines = reader
    bar = Bar()
    lnrnn.read(folder, lines, batch_size=2, progress=bar)
    assert bar.steps == [2, 2, 1]


def test_the_command_reads_with_its_beam(reader, tmp_path):
    folder, model, lines = reader
    np.savez(tmp_path / "lines.npz", points=np.concatenate(lines), lengths=[len(ln) for ln in lines])
    want = by_hand(model, lines, 2, WIDTH)
    assert want != by_hand(model, lines, 2, 1)                           # the beam reads otherwise than best path
    res = CliRunner().invoke(main, ["read", "--checkpoint", folder, "--input", str(tmp_path / "lines.npz"),
                                    "--beam", str(WIDTH), "--batch-size", "2", "-q"])
    assert res.exit_code == 0, res.output + repr(res.exception)
    assert res.stdout.splitlines() == want
