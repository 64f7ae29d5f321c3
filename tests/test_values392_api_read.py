"""``lnrnn.read`` with a beam (lnrnn/api.py) against each line read alone: the reader of test_values_api_read
(bidirectional, initial-state noise, ragged lines in batches of two) read with beam 3 gives, for every line,
the prefix beam search of that line's own log-probabilities over its own steps (its batch's forward with the
row lengths and evaluation's noise draw, the rows cut at their lengths and searched one at a time). The same
search over the padded steps of the shorter rows is checked to read something else, so a beam search handed
the batch without its lengths shows."""
import numpy as np

import lnrnn
from lnrnn.data.strokes import classes_to_text
from lnrnn.model.decode import beam_search
from test_values_api_read import ALPHABET, SCALE, reader  # noqa: F401 (the fixture)


def _rows_by_hand(model, lines, batch, beam, own_steps=True):
    out = []
    for i, s in enumerate(range(0, len(lines), batch)):
        part = [ln / np.array([SCALE[0], SCALE[1], 1.0]) for ln in lines[s:s + batch]]
        L = np.array([len(p) for p in part], np.int64)
        x = np.zeros((L.max(), len(part), 3))
        for b, p in enumerate(part):
            x[:len(p), b] = p
        y, _ = model.stack.forward(x, model.noise_state(len(part), (2, i)), training=False, lengths=L, keep=False)
        logp = model.head.log_probs(y, L)                                   # (T,B,C)
        for b in range(len(part)):
            T = L[b] if own_steps else L.max()
            row = logp[:T, b:b + 1]
            labels = beam_search(np.ascontiguousarray(row), beam, np.array([T], np.int64))
            out.append(classes_to_text(labels[0], ALPHABET))
    return out


def test_beam_reading_searches_each_line_over_its_own_steps(reader):  # noqa: F811
    folder, model, lines = reader
    got = lnrnn.read(folder, lines, beam=3, batch_size=2)
    assert got == _rows_by_hand(model, lines, 2, 3)
    assert got != _rows_by_hand(model, lines, 2, 3, own_steps=False)   # the padded steps would read otherwise
