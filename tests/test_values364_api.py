"""The public API (lnrnn/api.py), nineteenth pass, against values and sentences worked out here: the head
phrases of evaluate_run's mismatch sentence as its docstring writes them; read's refusal of a bad line of a list
naming it counted from 1 (and a single bad array naming 'strokes'), word for word, on a Run built in the test
around a bare reader head; read batching lines by the run's evaluation batch size (not its training batch)
and by an explicit batch_size, counted through a progress recorder; fit's refusal of an unknown option listing
TrainConfig's fields less the ones fit fixes (written out here); predict of a per-step regression run with
ragged lengths against lnrnn.reference's LSTM run row by row and the head's W, b, NaN past each length."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn import api
from lnrnn.errors import UserError
from lnrnn.model.heads import CTCHead
from lnrnn.model.models import build_model
from test_values169_functional import ref_lstm


class Recorder:
    def __init__(self):
        self.calls = []

    def update(self, n, **fields):
        self.calls.append(n)


def test_head_words_of_each_kind_of_head():
    assert api._head_words({"kind": "classifier", "outputs": 10, "per_step": False}) == \
        "classifier head with 10 outputs"
    assert api._head_words({"kind": "regression", "outputs": 1}) == "regression head with 1 output"
    assert api._head_words({"kind": "mdn", "components": 20, "per_step": True}) == "mdn head with 20 components"
    assert api._head_words({"kind": "mdn", "components": 1}) == "mdn head with 1 component"


def bare_reader():
    head = CTCHead(4, 6, scale=[1.0, 2.0])                     # 5 characters + the blank
    return api.Run("runs/r364", {"task": {"task": "strokes-hershey"}, "text": {"alphabet": "abcde"}},
                   SimpleNamespace(head=head, config={"input_size": 3}))


def test_read_names_a_bad_line_of_a_list_counting_from_one():
    good = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 1.0], [0.0, 1.0, 0.0]])
    with pytest.raises(UserError) as e:
        api.read(bare_reader(), [good, np.zeros((2, 2))])
    assert str(e.value) == ("line 2 of strokes must be an (N,3) stroke-3 array (dx, dy, pen) of at least one point, "
                            "not shape (2, 2).")
    with pytest.raises(UserError) as e:
        api.read(bare_reader(), [np.full((2, 3), np.nan), good])
    assert str(e.value) == "line 1 of strokes hold NaN or infinite values; a stroke-3 array is finite."


def test_read_of_one_array_checks_it_as_one_line():
    bad = np.array([[1.0, 0.0, 0.5], [0.5, 0.5, 1.0]])        # one (N,3) line whose pen is not 0 or 1
    with pytest.raises(UserError) as e:
        api.read(bare_reader(), bad)
    assert str(e.value) == ("strokes have pen values other than 0 and 1 (column 3 of stroke-3: 1 where the pen lifts "
                            "after the point).")


def reader_run(train):
    m = build_model(dict(cell="lstm", norm="none", input_size=3, hidden_size=3, num_layers=1, dtype="float64",
                         forget_bias=1.0, head={"kind": "ctc", "outputs": 4, "scale": [2.0, 2.0]}), seed=3)
    return api.Run("runs/r364-reader", {"task": {"task": "strokes-hershey"}, "text": {"alphabet": "abc"},
                                         "train": train}, m)


def lines_of(n):
    rng = np.random.default_rng(4)
    out = []
    for i in range(n):
        a = rng.standard_normal((3 + i, 3))
        a[:, 2] = (np.arange(3 + i) % 2)
        out.append(a)
    return out


def test_read_batches_lines_by_the_runs_evaluation_batch():
    run = reader_run({"cell": "lstm", "eval_batch_size": 2, "batch_size": 3})
    rec = Recorder()
    texts = api.read(run, lines_of(5), progress=rec)
    assert rec.calls == [2, 2, 1]
    assert len(texts) == 5 and all(isinstance(t, str) and set(t) <= set("abc") for t in texts)
    rec = Recorder()
    assert api.read(run, lines_of(5), batch_size=4, progress=rec) == texts    # the same lines, other batches
    assert rec.calls == [4, 1]


def test_fit_refuses_an_unknown_option_listing_what_it_takes(tmp_path):
    from dataclasses import fields

    from lnrnn.training.runconfig import TrainConfig
    fixed = {"task", "data_dir", "charset", "allow_pickle", "steps", "out", "cell", "objective"}
    want = sorted({f.name for f in fields(TrainConfig)} - fixed)
    assert {"epochs", "hidden", "eval_every", "patience", "split"} <= set(want)
    with pytest.raises(UserError) as e:
        api.fit(np.zeros((4, 3, 2)), np.array([0, 1, 0, 1]), out=str(tmp_path / "r"), bogus=1)
    assert str(e.value) == f"fit() takes no training option 'bogus'; the options are: {', '.join(want)}."
    assert not (tmp_path / "r").exists()


def test_predict_of_a_per_step_regression_run_against_the_reference():
    I, H, O, N, T = 2, 3, 2, 3, 4
    m = build_model(dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                         forget_bias=1.0, head={"kind": "regression", "outputs": O, "per_step": True,
                                                "tolerance": 0.1}), seed=5)
    rng = np.random.default_rng(6)
    m.params["head.b"][...] = rng.standard_normal(O)
    run = api.Run("runs/r364-reg", {"task": {"task": "npz"}, "train": {"cell": "lstm"}}, m)
    x = rng.standard_normal((N, T, I))
    lengths = np.array([4, 1, 3])
    got = api.predict(run, x, lengths, batch_size=2)
    assert isinstance(got, api.Values)
    assert got.values.shape == (N, T, O) and got.values.dtype == np.float64
    np.testing.assert_array_equal(got.lengths, lengths)
    p = {n: m.params["rnn.l0." + n] for n in ("Wx", "Wh", "b")}
    W, b = m.params["head.W"], m.params["head.b"]
    for n, L in enumerate(lengths):
        y, _, _ = ref_lstm(x[n, :L, None, :], np.zeros((1, H)), np.zeros((1, H)), p)   # (L,1,H)
        np.testing.assert_allclose(got.values[n, :L], y[:, 0] @ W + b, rtol=1e-9, atol=1e-12)
        assert np.isnan(got.values[n, L:]).all()
