"""lnrnn's Python API (lnrnn/api.py) on tiny runs trained here with lnrnn.fit (a few updates of a hidden-4 LSTM on
random arrays), against definitions: a Run's step, epoch and description are the updates and finished epochs the
training was told to make; predict's probabilities are the softmax of the head over a NumPy LSTM run here to each
row's last valid step (classes their row-wise argmax, a per-step prediction's lengths those it was made with);
evaluate_run's loss and accuracy are those of predict's probabilities of the true classes over the validation
arrays and their lengths, its count the set's rows, a data_dir override holds for that call only and data of
another input size are refused as a mismatch; export_run of a run folder writes the model's arrays under the
documented names (weights transposed, bias_hh zero) with the run's step; fit refuses its fixed options and unknown
ones before writing anything and writes every array it was given; require_reader refuses a CTC run without a
stroke scale."""
import json
import os
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import lnrnn
from lnrnn.api import Run, require_reader
from lnrnn.errors import CheckpointError, UserError

N, NV, T, I, C, HID = 12, 5, 5, 2, 3, 4


def _arrays(seed=0, n=N, nv=NV, inputs=I):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, T, inputs)).astype(np.float32)
    xv = rng.standard_normal((nv, T, inputs)).astype(np.float32)
    return dict(x=x, y=rng.integers(0, C, n), lengths=rng.integers(1, T + 1, n),
                x_val=xv, y_val=np.arange(nv) % C, lengths_val=np.array([5, 2, 3, 1, 4][:nv]))


@pytest.fixture(scope="module")
def clf(tmp_path_factory):
    """A classifier stopped after 2 updates, inside its first epoch (batches of 5 over 12 rows)."""
    out = tmp_path_factory.mktemp("api50") / "clf"
    a = _arrays()
    lnrnn.fit(**a, cell="lstm", out=str(out), max_steps=2, hidden=HID, batch_size=5)
    return str(out), a


@pytest.fixture(scope="module")
def per_step(tmp_path_factory):
    """A per-step classifier of two layers trained one whole epoch (3 updates)."""
    out = tmp_path_factory.mktemp("api50") / "step"
    rng = np.random.default_rng(1)
    x = rng.standard_normal((N, T, I)).astype(np.float32)
    y = rng.integers(0, C, (N, T))
    lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID, layers=2, batch_size=4,
              x_val=x[:4], y_val=y[:4])
    return str(out), x


# ---- by hand ----
def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _lstm(params, x):
    """The layers of a plain LSTM stack over x (N,T,I) from zero states -> h (N,T,H) of the top layer (gates
    [i|f|g|o]); a row's steps past its length do not reach its earlier ones."""
    h_seq = x.astype(np.float64)
    k = 0
    while f"rnn.l{k}.Wx" in params:
        Wx, Wh, b = (params[f"rnn.l{k}.{n}"].astype(np.float64) for n in ("Wx", "Wh", "b"))
        n_, hid = x.shape[0], Wh.shape[0]
        h, c, out = np.zeros((n_, hid)), np.zeros((n_, hid)), []
        for t in range(x.shape[1]):
            a = h_seq[:, t] @ Wx + h @ Wh + b
            i, f, g, o = _sigmoid(a[:, :hid]), _sigmoid(a[:, hid:2 * hid]), np.tanh(a[:, 2 * hid:3 * hid]), \
                _sigmoid(a[:, 3 * hid:])
            c = f * c + i * g
            h = o * np.tanh(c)
            out.append(h)
        h_seq = np.stack(out, axis=1)
        k += 1
    return h_seq


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _probabilities(run, x, lengths):
    """Each row's class probabilities at its last valid step."""
    p = run.model.params
    h = _lstm(p, x)[np.arange(len(x)), np.asarray(lengths) - 1]
    return _softmax(h @ p["head.W"].astype(np.float64) + p["head.b"])


# ---- Run ----
def test_a_run_stopped_inside_its_first_epoch_says_so(clf):
    folder, _ = clf
    run = lnrnn.load_run(Path(folder))
    assert isinstance(run.path, str) and run.path == folder
    assert (run.step, run.epoch) == (2, 0)
    assert run.describe() == f"lstm (hidden {HID}, 1 layer) after 0 finished epochs, 2 updates"
    assert repr(run) == f"Run({folder!r}: {run.describe()})"


def test_a_run_of_one_whole_epoch_says_so(per_step):
    run = lnrnn.load_run(per_step[0])
    assert (run.step, run.epoch) == (3, 1)      # 12 rows in batches of 4
    assert run.describe() == f"lstm (hidden {HID}, 2 layers) after 1 finished epoch, 3 updates"


# ---- predict ----
def test_predict_is_the_heads_softmax_at_each_rows_last_step(clf):
    folder, a = clf
    run = lnrnn.load_run(folder)
    p = lnrnn.predict(run, a["x"], a["lengths"], batch_size=5)
    want = _probabilities(run, a["x"], a["lengths"])
    np.testing.assert_allclose(p.probabilities, want, rtol=2e-5, atol=1e-6)
    assert p.classes.shape == (N,) and p.classes.dtype == np.int64
    np.testing.assert_array_equal(p.classes, want.argmax(1))
    np.testing.assert_array_equal(p.probability, p.probabilities[np.arange(N), p.classes])
    full = lnrnn.predict(run, a["x"])                     # no lengths: every row to T
    np.testing.assert_allclose(full.probabilities, _probabilities(run, a["x"], np.full(N, T)), rtol=2e-5, atol=1e-6)


def test_per_step_predictions_carry_the_lengths_they_were_made_with(per_step):
    folder, x = per_step
    run = lnrnn.load_run(folder)
    p = lnrnn.predict(run, x)
    assert p.lengths.dtype == np.int64
    np.testing.assert_array_equal(p.lengths, np.full(N, T))
    h = _lstm(run.model.params, x)
    probs = _softmax(h @ run.model.params["head.W"].astype(np.float64) + run.model.params["head.b"])   # (N,T,C)
    np.testing.assert_allclose(p.probabilities, probs, rtol=2e-5, atol=1e-6)
    np.testing.assert_array_equal(p.classes, probs.argmax(-1))
    lengths = np.array([1, 5, 2, 3] * 3, np.int32)
    q = lnrnn.predict(run, x, lengths)
    assert q.lengths.dtype == np.int64
    np.testing.assert_array_equal(q.lengths, lengths)
    np.testing.assert_array_equal(q.classes == -1, np.arange(T)[None, :] >= lengths[:, None])


# ---- evaluate_run ----
def test_evaluate_is_predicts_cross_entropy_and_accuracy_over_the_validation_arrays(clf):
    folder, a = clf
    run = lnrnn.load_run(folder)
    ev = lnrnn.evaluate_run(run)
    pv = _probabilities(run, a["x_val"], a["lengths_val"])
    assert (ev.which, ev.sequences) == ("val", NV)
    np.testing.assert_allclose(ev.metrics["loss"], -np.mean(np.log(pv[np.arange(NV), a["y_val"]])), rtol=1e-5)
    np.testing.assert_allclose(ev.metrics["acc"], np.mean(pv.argmax(1) == a["y_val"]))
    tr = lnrnn.evaluate_run(run, "train")
    pt = _probabilities(run, a["x"], a["lengths"])
    assert (tr.which, tr.sequences) == ("train", N)
    np.testing.assert_allclose(tr.metrics["loss"], -np.mean(np.log(pt[np.arange(N), a["y"]])), rtol=1e-5)


def test_a_data_dir_override_holds_for_its_call_only(clf, tmp_path):
    folder, a = clf
    run = lnrnn.load_run(folder)
    b = _arrays(seed=5, n=7, nv=3)
    np.savez(tmp_path / "other.npz", **b)
    before = json.dumps(run.meta["task"], sort_keys=True)
    ev = lnrnn.evaluate_run(run, "val", data_dir=tmp_path / "other.npz")
    pv = _probabilities(run, b["x_val"], b["lengths_val"])
    assert ev.sequences == 3
    np.testing.assert_allclose(ev.metrics["loss"], -np.mean(np.log(pv[np.arange(3), b["y_val"]])), rtol=1e-5)
    assert json.dumps(run.meta["task"], sort_keys=True) == before
    assert lnrnn.evaluate_run(run, "val").sequences == NV and lnrnn.evaluate_run(run, "train").sequences == N


def test_data_of_another_input_size_are_a_mismatch(clf, tmp_path):
    folder, _ = clf
    np.savez(tmp_path / "wide.npz", **_arrays(seed=6, n=7, nv=3, inputs=I + 1))
    with pytest.raises(CheckpointError) as e:
        lnrnn.evaluate_run(folder, data_dir=tmp_path / "wide.npz")
    assert str(e.value) == (f"checkpoint {folder} expects {I} inputs and a classifier head with {C} outputs, but "
                            f"npz has {I + 1} inputs and needs a classifier head with {C} outputs.")


# ---- export_run ----
def test_export_run_of_a_folder_writes_the_models_arrays_under_their_names(clf, tmp_path):
    from lnrnn.interop.export import read_safetensors

    folder, _ = clf
    run = lnrnn.load_run(folder)
    got = lnrnn.export_run(folder, str(tmp_path / "w.safetensors"))
    p = run.model.params
    want = {"rnn.weight_ih_l0": p["rnn.l0.Wx"].T, "rnn.weight_hh_l0": p["rnn.l0.Wh"].T, "rnn.bias_ih_l0": p["rnn.l0.b"],
            "rnn.bias_hh_l0": np.zeros_like(p["rnn.l0.b"]), "head.weight": p["head.W"].T, "head.bias": p["head.b"]}
    assert got == {k: v.shape for k, v in want.items()}
    tensors, meta = read_safetensors(str(tmp_path / "w.safetensors"))
    assert set(tensors) == set(want)
    for k, v in want.items():
        np.testing.assert_array_equal(tensors[k], v)
    assert meta["step"] == "2" and json.loads(meta["model_config"]) == run.config


# ---- fit ----
@pytest.mark.parametrize("option, value", [("task", "mnist"), ("steps", 3), ("batch", 8), ("hidden_size", 4)])
def test_fit_refuses_fixed_and_unknown_options_before_writing(tmp_path, option, value):
    a = _arrays()
    with pytest.raises(UserError, match=rf"^fit\(\) takes no training option {option!r}; the options are: .*"
                                        r"\bbatch_size\b.*\bepochs\b"):
        lnrnn.fit(a["x"], a["y"], out=str(tmp_path / "r"), **{option: value})
    assert not (tmp_path / "r").exists()


def test_fit_writes_every_array_it_was_given(clf):
    folder, a = clf
    with np.load(os.path.join(folder, "data.npz")) as z:
        assert set(z.files) == set(a)
        for k in a:
            np.testing.assert_array_equal(z[k], a[k])


# ---- require_reader ----
def test_a_ctc_run_without_a_stroke_scale_is_not_a_reader():
    head = SimpleNamespace(kind="ctc", scale=None, O=4)
    run = Run("r", {"text": {"alphabet": "abc"}, "task": {"task": "npz"}, "train": {}}, SimpleNamespace(head=head))
    with pytest.raises(UserError, match=r"^the run in r is not a handwriting reader \(it has a ctc head on npz\)"):
        require_reader(run)
    with pytest.raises(UserError, match="is not a handwriting reader"):
        lnrnn.read(run, np.zeros((4, 3)))
