"""The commands' hand-offs, value for value: lnrnn info names the per-step product from the per-step choice
(REC) and the weight gradients' from theirs (DWH), and each module's BLAS from its own build configuration;
lnrnn eval --split evaluates on the split asked for (its count of sequences by hand); lnrnn predict checks --out
before it reads the run (a wrong suffix and a missing run: the suffix is named, nothing written) and its
closing line counts each input's rows; lnrnn plot's default title spells the configuration's fields; lnrnn
train's options without a value are TrainConfig's defaults."""
import dataclasses
import json

import numpy as np
import numpy
import pytest
import scipy
from test_cli import invoke
from test_values_eval_predict import _run

import lnrnn.kernels.cpu.blas as blas
from lnrnn import backend
from lnrnn.cli import main
from lnrnn.commands import info, plot
from lnrnn.training.runconfig import TrainConfig


@pytest.fixture(scope="module")
def clf(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("runs") / "clf", {"task": "digits"}, 1, 10)


def _one(lines, start):
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, lines
    return found[0]


@pytest.mark.parametrize("rec,dwh", [("rgemm", "blas"), ("blas", "rgemm")])
def test_info_names_each_products_own_choice(monkeypatch, rec, dwh):
    monkeypatch.setattr(info, "_threading", lambda: ("workqueue", 1, 1))
    monkeypatch.setattr(backend, "cuda_usable", lambda: (False, "none here"))
    monkeypatch.setattr(blas, "REC", rec)
    monkeypatch.setattr(blas, "DWH", dwh)
    lines = info.info_lines()
    products = _one(lines, "lnrnn kernels multiply with: ")
    want = "rgemm" if rec == "rgemm" else "the BLAS"
    assert f"the per-step products with {want}: {blas.REC_WHY}" in products
    grads = _one(lines, "weight gradients (dWh, dWx)")
    assert ("blocks in L2 on rgemm" if dwh == "rgemm" else "large blocks on the BLAS") in grads
    assert _one(lines, "CUDA: ") == "CUDA: not usable: none here"


def test_info_gives_each_modules_own_blas(monkeypatch):
    def config(name, version):
        return lambda mode=None: {"Build Dependencies": {"blas": {"name": name, "version": version}}}
    monkeypatch.setattr(numpy, "show_config", config("blas-of-numpy", "1.1"))
    monkeypatch.setattr(scipy, "show_config", config("blas-of-scipy", "2.2"))
    got = info._blas()
    assert "numpy built against blas-of-numpy 1.1" in got
    assert "scipy built against blas-of-scipy 2.2" in got


def test_eval_hands_its_split_on(clf):
    for which, n in (("val", 50), ("train", 100)):
        r = invoke("eval", "--checkpoint", clf, "--json", "--split", "100/50", "--set", which)
        assert r.exit_code == 0, r.output
        got = json.loads(r.stdout)
        assert (got["set"], got["sequences"]) == (which, n)


def test_predict_checks_out_before_it_reads_the_run(tmp_path):
    np.save(tmp_path / "x.npy", np.zeros((2, 64)))
    r = invoke("predict", "--checkpoint", tmp_path / "no-such-run", "--input", tmp_path / "x.npy",
               "--out", tmp_path / "p.txt")
    assert r.exit_code == 2
    assert "--out must end in" in r.stderr and "p.txt" in r.stderr and "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.npy"]


def test_predicts_closing_line_counts_each_inputs_rows(clf, tmp_path):
    from sklearn.datasets import load_digits
    x = load_digits().images[:5].reshape(5, 64) / 16
    np.save(tmp_path / "a.npy", x[:3])
    np.save(tmp_path / "b.npy", x[3:])
    r = invoke("predict", "--checkpoint", clf, "--input", tmp_path / "a.npy", "--input", tmp_path / "b.npy",
               "--out", tmp_path / "p.csv", "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip().endswith(f"({tmp_path / 'a.npy'}: 3; {tmp_path / 'b.npy'}: 2).")
    assert r.stdout.startswith("Wrote the predicted classes of 5 sequences to ")


def test_plots_title_spells_the_configuration(tmp_path):
    c = {"cell": "bn-lstm", "hidden": 24, "layers": 3, "task": "adding", "optimizer": "adam", "lr": 0.002,
         "batch-size": 16, "seed": 5}
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "config.json").write_text(json.dumps(c))
    assert plot._config_title([str(tmp_path / "r")]) == \
        "bn-lstm H=24 on adding (3 layers, adam lr 0.002, batch 16, seed 5)"


def test_trains_options_default_to_train_config():
    params = main.commands["train"].make_context("train", []).params
    d = TrainConfig()
    shared = [f.name for f in dataclasses.fields(TrainConfig) if f.name in (
        "task", "data_dir", "split", "steps", "charset", "allow_pickle", "cell", "hidden", "layers", "init", "skip",
        "bidirectional", "window", "window_norm", "forget_bias", "dtype", "eval_batch_size", "device")]
    assert len(shared) == 18
    for name in shared:
        assert params[name] == getattr(d, name), name
    assert params["dtype"] == "float32"
    r = invoke("train", "--dtype", "float16")
    assert r.exit_code == 2 and "float16" in r.stderr and "Traceback" not in r.output
