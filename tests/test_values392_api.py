"""lnrnn/api.py's ``sample_run`` and ``fit`` where they hand work on, checked with the work they hand to
recorded: several text lines with count 1 draw one sample per line (count becomes the number of lines; a
count that is neither 1 nor that number is refused word for word); priming strokes given as a pathlib.Path
are read from the file (as a str path is), not taken as an array; ``fit`` without ``out`` trains in the
first free default folder (``rundir.fresh_default``), its data file written there."""
import os
import pathlib
from types import SimpleNamespace

import numpy as np
import pytest

import lnrnn.sample
import lnrnn.training.rundir
import lnrnn.training.train
from lnrnn import api
from lnrnn.api import Run
from lnrnn.errors import UserError


def _writer():
    return Run("w", {"text": {"alphabet": "?ab"}, "task": {"task": "strokes-hershey"}, "train": {}},
               SimpleNamespace(conditioned=True))


@pytest.fixture
def recorded(monkeypatch):
    calls = {}

    def text_inputs(model, record, lines, prime_strokes=None, prime_text=None, **kw):
        calls["prime_strokes"] = prime_strokes
        codes = None if lines is None else [np.arange(1, len(s) + 1) for s in lines]
        return codes, None, record["alphabet"]

    def sample_strokes(model, steps, count=1, bias=0.0, seed=0, **kw):
        calls["count"] = count
        return ["drawn"] * count
    monkeypatch.setattr(lnrnn.sample, "text_inputs", text_inputs)
    monkeypatch.setattr(lnrnn.sample, "sample_strokes", sample_strokes)
    return calls


def test_several_lines_with_count_one_draw_one_sample_each(recorded):
    out = api.sample_run(_writer(), steps=5, text=["ab", "b", "aab"])
    assert recorded["count"] == 3 and len(out) == 3
    api.sample_run(_writer(), steps=5, text=["ab", "b", "aab"], count=3)
    assert recorded["count"] == 3
    with pytest.raises(UserError) as e:
        api.sample_run(_writer(), steps=5, text=["ab", "b", "aab"], count=2)
    assert str(e.value) == "count is 2 but text holds 3 lines: each line is one sample (leave count at 1)."


@pytest.mark.parametrize("as_path", [str, pathlib.Path])
def test_priming_strokes_named_by_a_path_are_read_from_the_file(recorded, tmp_path, as_path):
    pts = np.array([[1.0, 2.0, 0.0], [0.5, -1.0, 1.0], [2.0, 0.0, 0.0]])
    np.save(tmp_path / "prime.npy", pts)
    api.sample_run(_writer(), steps=5, prime_strokes=as_path(tmp_path / "prime.npy"))
    np.testing.assert_array_equal(recorded["prime_strokes"], pts)


def test_fit_without_out_trains_in_the_first_free_default_folder(monkeypatch, tmp_path):
    fresh = str(tmp_path / "runs" / "run")
    seen = {}
    monkeypatch.setattr(lnrnn.training.rundir, "fresh_default", lambda: fresh)
    monkeypatch.setattr(lnrnn.training.train, "train", lambda cfg, quiet=True: seen.setdefault("cfg", cfg))
    monkeypatch.setattr(api, "load_run", lambda out: ("loaded", out))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 4, 2))
    y = np.array([0, 1, 0, 1, 1, 0])
    assert api.fit(x, y) == ("loaded", fresh)
    assert seen["cfg"].out == fresh and seen["cfg"].data_dir == os.path.join(fresh, api.DATA_FILE)
    assert os.path.isfile(os.path.join(fresh, api.DATA_FILE))


def test_predict_reads_a_bn_run_with_its_population_statistics():
    from lnrnn.model.models import build_model
    cfg = dict(cell="lstm", norm="bn", input_size=2, hidden_size=4, num_layers=1, dtype="float64", forget_bias=1.0,
               head={"kind": "classifier", "outputs": 3})
    m = build_model(cfg, seed=3)
    rng = np.random.default_rng(1)
    for n, b in m.stack.layers[0].buffers.items():   # population statistics far from any batch's: rm*, rv*
        b[...] = 2.0 + rng.random(b.shape) if n.startswith("rv") else rng.standard_normal(b.shape)
    x = rng.standard_normal((5, 4, 2))         # (N,T,I)
    run = Run("bn", {"task": {"task": "digits"}, "train": {}}, m)
    got = api.predict(run, x, batch_size=3)
    logits = []
    for s in (0, 3):                           # by hand: inference forwards, the batches of predict
        xb = np.ascontiguousarray(x[s:s + 3].transpose(1, 0, 2))
        y, _ = m.stack.forward(xb, m.noise_state(xb.shape[1], (2, s // 3)), training=False, keep=False)
        logits.append(m.head.linear(y[-1]))
    z = np.concatenate(logits)
    p = np.exp(z - z.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(got.probabilities, p, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(got.classes, p.argmax(1))


def test_predict_reads_ragged_sequences_with_a_ctc_head_over_their_own_steps():
    from lnrnn.model.models import build_model
    C = 5
    cfg = dict(cell="lstm", norm="ln", input_size=2, hidden_size=4, num_layers=1, dtype="float64", forget_bias=1.0,
               head={"kind": "ctc", "outputs": C, "per_step": True})
    m = build_model(cfg, seed=4)
    rng = np.random.default_rng(2)
    m.params["head.W"][...] = 4.0 * rng.standard_normal(m.params["head.W"].shape)
    x = rng.standard_normal((3, 9, 2))                                  # (N,T,I)
    lengths = np.array([9, 3, 5])
    got = api.predict(Run("ctc", {"task": {"task": "npz"}, "train": {}}, m), x, lengths=lengths)
    y, _ = m.stack.forward(np.ascontiguousarray(x.transpose(1, 0, 2)), m.noise_state(3, (2, 0)), training=False,
                           lengths=lengths, keep=False)
    logits = m.head.linear(y)                                           # (T,N,C)

    def collapse(best):
        return [int(c) for t, c in enumerate(best) if c != 0 and (t == 0 or c != best[t - 1])]
    want = [collapse(logits[:lengths[b], b].argmax(1)) for b in range(3)]
    assert [list(map(int, r)) for r in got.labels] == want
    assert want != [collapse(logits[:, b].argmax(1)) for b in range(3)]  # the padded steps would read otherwise
