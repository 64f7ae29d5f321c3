"""``lnrnn predict`` and ``lnrnn export``, and the Python entry points behind them (``lnrnn.load_run``,
``evaluate_run``, ``predict``, ``sample_run``, ``export_run``).

Predict: the classes written for the t10k IDX images of a run score exactly the accuracy ``lnrnn eval``
reports on them (same inputs, same initial states); a .npy of the same sequences gives the same file;
wrong shapes, pickled arrays, unknown extensions and non-classifier runs end in one line.
Export: the safetensors file is read back (our reader, and the ``safetensors`` package when installed) and
every tensor is the documented transform of a model parameter; the exported plain-LSTM/RNN weights, run
through PyTorch's LSTM/RNN equations (in NumPy here; through ``torch.nn.LSTM`` itself when torch is
installed), give lnrnn's forward.
"""
import json
import os
import struct

import numpy as np
import pytest

import lnrnn
from lnrnn.data.idx import IMAGES_MAGIC, LABELS_MAGIC, read_idx
from lnrnn.interop.export import read_safetensors

from test_cli import assert_clean_error, assert_ok, invoke
from test_data import fake_mnist

TRAIN = ["--hidden", "6", "--batch-size", "20", "--epochs", "1", "-q"]


@pytest.fixture(scope="module")
def mnist_runs(tmp_path_factory):
    """Tiny mnist-rows runs (T=28, I=28) of a plain LSTM (2 layers), an LN-LSTM and a plain RNN on fake IDX files."""
    base = tmp_path_factory.mktemp("predict")
    data = fake_mnist(base / "mnist", n_train=40, n_test=23)
    runs = {}
    for cell, layers in (("lstm", 2), ("ln-lstm", 1), ("rnn", 1)):
        out = base / cell
        assert_ok(invoke("train", "--task", "mnist-rows", "--data-dir", data, "--cell", cell, "--layers", layers,
                         *TRAIN, "--out", out))
        runs[cell] = out
    return data, runs


def t10k(data):
    return (read_idx(os.path.join(data, "t10k-images-idx3-ubyte.gz"), IMAGES_MAGIC),
            read_idx(os.path.join(data, "t10k-labels-idx1-ubyte.gz"), LABELS_MAGIC))


# ---- predict ----

def test_predictions_score_what_eval_reports(mnist_runs, tmp_path):
    data, runs = mnist_runs
    run = runs["ln-lstm"]
    images, labels = t10k(data)
    r = invoke("predict", "--checkpoint", run, "--data-dir", os.path.join(data, "t10k-images-idx3-ubyte.gz"),
               "--out", tmp_path / "p.csv")
    assert_ok(r)
    lines = (tmp_path / "p.csv").read_text().splitlines()
    assert lines[0] == "index,class,probability" and len(lines) == 1 + len(images)
    rows = [line.split(",") for line in lines[1:]]
    assert [int(i) for i, _, _ in rows] == list(range(len(images)))
    classes, prob = np.array([int(c) for _, c, _ in rows]), np.array([float(p) for _, _, p in rows])
    assert np.all((prob > 0) & (prob <= 1)) and np.all(prob >= 0.1 - 1e-6)  # the argmax of 10 classes
    ev = json.loads(invoke("eval", "--checkpoint", run, "--json").stdout)  # validation = these t10k images
    assert np.mean(classes == labels) == pytest.approx(ev["acc"], abs=1e-12)
    # the Python entry point gives the same classes and probabilities
    x = images.reshape(len(images), 28, 28).astype(np.float32) / np.float32(255)
    p = lnrnn.predict(lnrnn.load_run(run), x, batch_size=7)  # batching does not matter
    assert np.array_equal(p.classes, classes) and np.allclose(p.probability, prob, rtol=1e-5)
    assert np.allclose(p.probabilities.sum(1), 1)
    assert lnrnn.evaluate_run(run).metrics["acc"] == pytest.approx(ev["acc"])


def test_npy_inputs_and_outputs(mnist_runs, tmp_path):
    data, runs = mnist_runs
    run = runs["lstm"]
    images, _ = t10k(data)
    np.save(tmp_path / "seq.npy", images.reshape(-1, 28, 28))          # uint8: scaled like the task's own
    assert_ok(invoke("predict", "--checkpoint", run, "--data-dir", data, "--out", tmp_path / "folder.npy"))
    assert_ok(invoke("predict", "--checkpoint", run, "--data-dir", tmp_path / "seq.npy", "--out", tmp_path / "a.npy"))
    a = np.load(tmp_path / "a.npy", allow_pickle=False)
    assert a.dtype.names == ("index", "class", "probability") and len(a) == len(images)
    folder = np.load(tmp_path / "folder.npy", allow_pickle=False)      # t10k then train images, by file name
    assert len(folder) == len(images) + 40 and np.array_equal(folder["class"][:len(images)], a["class"])
    expect = lnrnn.predict(lnrnn.load_run(run), images.reshape(-1, 28, 28) / 255.0)
    assert np.array_equal(a["class"], expect.classes)


def test_bad_inputs_end_in_one_line(mnist_runs, tmp_path):
    data, runs = mnist_runs
    run = runs["lstm"]
    np.save(tmp_path / "flat.npy", np.zeros((4, 784), np.float32))      # (N,T): one input per step, model reads 28
    assert_clean_error(invoke("predict", "--checkpoint", run, "--data-dir", tmp_path / "flat.npy",
                              "--out", tmp_path / "p.csv"), "does not fit")
    np.save(tmp_path / "obj.npy", np.array([np.zeros(3), None], dtype=object), allow_pickle=True)
    assert_clean_error(invoke("predict", "--checkpoint", run, "--data-dir", tmp_path / "obj.npy",
                              "--out", tmp_path / "p.csv"), "without pickle")
    np.save(tmp_path / "nan.npy", np.full((2, 28, 28), np.nan, np.float32))
    assert_clean_error(invoke("predict", "--checkpoint", run, "--data-dir", tmp_path / "nan.npy",
                              "--out", tmp_path / "p.csv"), "NaN")
    assert_clean_error(invoke("predict", "--checkpoint", run, "--data-dir", tmp_path / "missing.npy",
                              "--out", tmp_path / "p.csv"), "does not exist")
    assert_clean_error(invoke("predict", "--checkpoint", run, "--data-dir", data, "--out", tmp_path / "p.txt"),
                       "--out must end in .csv or .npy")
    assert_clean_error(invoke("predict", "--checkpoint", tmp_path, "--data-dir", data, "--out", tmp_path / "p.csv"),
                       "checkpoint")
    assert not os.path.exists(tmp_path / "p.csv")


def test_predict_gives_a_regression_runs_values(tmp_path):
    out = tmp_path / "adding"
    assert_ok(invoke("train", "--task", "adding", "--steps", 5, "--cell", "lstm", *TRAIN, "--max-steps", 1,
                     "--out", out))
    x = np.random.default_rng(0).random((3, 5, 2)).astype(np.float32)
    x[:, :, 1] = 0
    x[:, :2, 1] = 1                                                 # the adding task's markers
    np.save(tmp_path / "x.npy", x)
    assert_ok(invoke("predict", "--checkpoint", out, "--data-dir", tmp_path / "x.npy", "--out", tmp_path / "p.csv"))
    lines = (tmp_path / "p.csv").read_text().splitlines()
    values = lnrnn.predict(out, x).values
    assert lines[0] == "index,value" and [float(v.split(",")[1]) for v in lines[1:]] == pytest.approx(values[:, 0],
                                                                                                      rel=1e-5)


# ---- export ----

def pytorch_rnn_forward(t, x, layers, cell):
    """PyTorch's nn.LSTM / nn.RNN (tanh) equations on batch-first x (N,T,I) with the exported tensors."""
    h_seq = x.astype(np.float64)
    for k in range(layers):
        Wi, Wh = t[f"rnn.weight_ih_l{k}"], t[f"rnn.weight_hh_l{k}"]
        bias = t[f"rnn.bias_ih_l{k}"] + t[f"rnn.bias_hh_l{k}"]
        H = Wh.shape[1]
        N, T, _ = h_seq.shape
        h, c, out = np.zeros((N, H)), np.zeros((N, H)), []
        for s in range(T):
            a = h_seq[:, s] @ Wi.T + h @ Wh.T + bias
            if cell == "lstm":
                i, f, g, o = np.split(a, 4, axis=1)                      # PyTorch's gate order
                sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
                c = sig(f) * c + sig(i) * np.tanh(g)
                h = sig(o) * np.tanh(c)
            else:
                h = np.tanh(a)
            out.append(h)
        h_seq = np.stack(out, axis=1)
    return h_seq, h_seq[:, -1] @ t["head.weight"].T + t["head.bias"]


@pytest.mark.parametrize("cell,layers", [("lstm", 2), ("rnn", 1)])
def test_exported_plain_weights_run_as_pytorch_would(mnist_runs, tmp_path, cell, layers):
    _, runs = mnist_runs
    path = tmp_path / "w.safetensors"
    r = invoke("export", "--checkpoint", runs[cell], "--out", path)
    assert_ok(r)
    assert f"load into torch.nn.{cell.upper()}" in r.stdout
    t, meta = read_safetensors(path)
    run = lnrnn.load_run(runs[cell])
    names = {f"rnn.{w}_l{k}" for k in range(layers) for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}
    assert set(t) == names | {"head.weight", "head.bias"}
    G = (4 if cell == "lstm" else 1) * 6
    assert t["rnn.weight_ih_l0"].shape == (G, 28) and t["rnn.weight_hh_l0"].shape == (G, 6)
    assert json.loads(meta["model_config"]) == run.config and meta["pytorch_compatible"] == "true"
    p = run.model.params
    assert np.array_equal(t["rnn.weight_ih_l0"], p["rnn.l0.Wx"].T) and np.array_equal(t["head.weight"], p["head.W"].T)
    x = np.random.default_rng(1).random((5, 9, 28)).astype(np.float32)
    y, logits = pytorch_rnn_forward(t, x, layers, cell)
    ours, _ = run.model.stack.forward(np.ascontiguousarray(x.transpose(1, 0, 2)), training=False)  # (T,B,H)
    np.testing.assert_allclose(y.transpose(1, 0, 2), ours, atol=2e-5)
    np.testing.assert_allclose(logits, run.model.head.linear(ours[-1]), atol=2e-5)


def test_normalized_cells_export_every_parameter_under_its_documented_name(mnist_runs, tmp_path):
    _, runs = mnist_runs
    run = lnrnn.load_run(runs["ln-lstm"])
    shapes = lnrnn.export_run(run, tmp_path / "ln.safetensors")
    t, meta = read_safetensors(tmp_path / "ln.safetensors")
    assert {k: v.shape for k, v in t.items()} == shapes and meta["pytorch_compatible"] == "false"
    p = run.model.params
    for ours, theirs in (("gx", "norm_ih_weight"), ("bx", "norm_ih_bias"), ("gh", "norm_hh_weight"),
                         ("bh", "norm_hh_bias"), ("gc", "norm_cell_weight"), ("bc", "norm_cell_bias"),
                         ("b", "bias_ih")):
        assert np.array_equal(t[f"rnn.{theirs}_l0"], p[f"rnn.l0.{ours}"]), ours
    assert not t["rnn.bias_hh_l0"].any()
    assert len(t) == len(p) + 1                               # every parameter once, plus the zero bias_hh
    # the layout on disk: 8-byte length, JSON header, tensors back to back, little-endian
    raw = (tmp_path / "ln.safetensors").read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    b, e = header["rnn.norm_cell_weight_l0"]["data_offsets"]
    assert header["rnn.norm_cell_weight_l0"]["dtype"] == "F32" and (8 + n) % 8 == 0
    assert np.array_equal(np.frombuffer(raw[8 + n + b:8 + n + e], "<f4"), p["rnn.l0.gc"])
    assert max(v["data_offsets"][1] for k, v in header.items() if k != "__metadata__") == len(raw) - 8 - n


def test_export_reads_back_with_the_safetensors_package(mnist_runs, tmp_path):
    st = pytest.importorskip("safetensors.numpy")
    _, runs = mnist_runs
    lnrnn.export_run(runs["lstm"], tmp_path / "w.safetensors")
    theirs, ours = st.load_file(str(tmp_path / "w.safetensors")), read_safetensors(tmp_path / "w.safetensors")[0]
    assert theirs.keys() == ours.keys() and all(np.array_equal(theirs[k], ours[k]) for k in ours)


def test_torch_lstm_loads_the_export(mnist_runs, tmp_path):
    torch = pytest.importorskip("torch")
    _, runs = mnist_runs
    run = lnrnn.load_run(runs["lstm"])
    lnrnn.export_run(run, tmp_path / "w.safetensors")
    t = read_safetensors(tmp_path / "w.safetensors")[0]
    lstm = torch.nn.LSTM(28, 6, num_layers=2, batch_first=True)
    lstm.load_state_dict({k[len("rnn."):]: torch.from_numpy(v) for k, v in t.items() if k.startswith("rnn.")},
                         strict=True)
    x = np.random.default_rng(2).random((4, 7, 28)).astype(np.float32)
    with torch.no_grad():
        y = lstm(torch.from_numpy(x))[0].numpy()
    ours, _ = run.model.stack.forward(np.ascontiguousarray(x.transpose(1, 0, 2)), training=False)
    np.testing.assert_allclose(y.transpose(1, 0, 2), ours, atol=2e-5)


def test_export_bad_input(mnist_runs, tmp_path):
    _, runs = mnist_runs
    r = invoke("export", "--checkpoint", runs["lstm"], "--format", "onnx", "--out", tmp_path / "w.onnx")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert_clean_error(invoke("export", "--checkpoint", tmp_path / "nothing", "--out", tmp_path / "w.safetensors"),
                       "checkpoint")
    assert not os.path.exists(tmp_path / "w.safetensors")


# ---- sampling through the API ----

def test_sample_run_is_sample_strokes_of_the_runs_model():
    from lnrnn.api import Run
    from lnrnn.model.models import build_model
    from lnrnn.sample import sample_strokes
    model = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=1, dtype="float64",
                             forget_bias=1.0, head={"kind": "mdn", "components": 2, "per_step": True,
                                                    "scale": [2.0, 3.0]}))
    run = Run("memory", {}, model)
    a = lnrnn.sample_run(run, steps=6, count=2, bias=0.5, seed=3)
    b = sample_strokes(model, 6, 2, 0.5, 3)
    assert len(a) == 2 and all(np.array_equal(u, v) and u.shape == (6, 3) for u, v in zip(a, b))
    with pytest.raises(lnrnn.errors.UserError, match="steps must be at least 1"):
        lnrnn.sample_run(run, steps=0)
