"""Round 319: lnrnn predict and lnrnn train hand their paths on and refuse bad ones before any work. predict
(its run, readers and model faked by test_values215's fixture) loads the run named by --checkpoint, not --out;
train (its trainer faked to fail if reached) refuses an --out that is an existing file and a --config that is a
folder with click's own sentence word for word, exit 2 and nothing written."""
import lnrnn.api
import lnrnn.training.train

from test_cli import invoke
from test_values215_predict_plot import N, _never, fake_predict  # noqa: F401  (a fixture)


def test_predict_loads_the_run_named_by_checkpoint(fake_predict, tmp_path, monkeypatch):  # noqa: F811
    run = lnrnn.api.load_run("anything")
    asked = []
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path, **k: asked.append(path) or run)
    out = tmp_path / "out" / "p.csv"
    r = invoke("predict", "--checkpoint", tmp_path / "run", "--input", tmp_path / "seqs.npy", "--out", out)
    assert r.exit_code == 0, r.output
    assert asked == [str(tmp_path / "run")]


def test_train_refuses_an_out_that_is_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(lnrnn.training.train, "train", _never)
    path = tmp_path / "run"
    path.write_text("mine\n")
    r = invoke("train", "--out", path, "--epochs", 1)
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines()[-1] == (f"Error: Invalid value for '--out': Directory '{path}' is a file. "
                                        "('main train --help' lists the options.)")
    assert path.read_text() == "mine\n" and [p.name for p in tmp_path.iterdir()] == ["run"]


def test_train_refuses_a_config_that_is_a_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(lnrnn.training.train, "train", _never)
    (tmp_path / "cfg").mkdir()
    r = invoke("train", "--config", tmp_path / "cfg", "--out", tmp_path / "run")
    assert r.exit_code == 2, r.output
    folder = tmp_path / "cfg"
    assert r.stderr.splitlines()[-1] == (f"Error: Invalid value for '--config': File '{folder}' is a directory. "
                                        "('main train --help' lists the options.)")
    assert [p.name for p in tmp_path.iterdir()] == ["cfg"] and list((tmp_path / "cfg").iterdir()) == []
