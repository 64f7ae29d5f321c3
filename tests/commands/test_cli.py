"""The `lnrnn` command line through click's CliRunner: runs, exact resume, and one clean sentence
(non-zero exit, no traceback, nothing saved lost) for every bad input a user can give."""
import gzip
import http.server
import json
import os
import shutil
import signal
import threading
from xml.etree import ElementTree

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.cli import main
from lnrnn.data.idx import write_idx
from lnrnn.model.models import SequenceModel

from test_data import SHARED_MNIST, fake_mnist, needs_shared

TINY = ["--task", "digits", "--split", "200/100", "--hidden", "8", "--batch-size", "32", "--epochs", "2", "-q"]
TIME_KEYS = {"time_s", "samples_per_s", "compile_s"}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_ok(result):
    assert result.exit_code == 0, result.output + repr(result.exception)


def assert_clean_error(result, words, code=2):
    """Non-zero exit, no traceback, one `Error:` line that contains ``words``."""
    assert result.exit_code == code, result.output + repr(result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert words in errors[0], errors[0]
    return errors[0]


def final_state(out):
    meta, arrays = load_checkpoint(str(out))
    metrics = [{k: v for k, v in r.items() if k not in TIME_KEYS} for r in meta["metrics"]]
    return meta, arrays, metrics


def assert_same_run(a, b):
    meta_a, arr_a, met_a = final_state(a)
    meta_b, arr_b, met_b = final_state(b)
    assert meta_a["step"] == meta_b["step"] and meta_a["epoch"] == meta_b["epoch"]
    assert arr_a.keys() == arr_b.keys()
    for k in arr_a:
        assert np.array_equal(arr_a[k], arr_b[k]), k
    assert met_a == met_b
    lines = [json.loads(x) for x in open(os.path.join(b, "metrics.jsonl"))]
    assert [{k: v for k, v in r.items() if k not in TIME_KEYS} for r in lines] == met_a


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    """The uninterrupted tiny run every resume test must reproduce."""
    out = tmp_path_factory.mktemp("ref") / "run"
    r = invoke("train", *TINY, "--out", out)
    assert_ok(r)
    return out


# ---------------------------------------------------------------------------------------------
# commands that work
# ---------------------------------------------------------------------------------------------
def test_help_shows_defaults():
    for cmd in (["--help"], ["train", "--help"], ["eval", "--help"], ["data", "mnist", "--help"],
                ["info", "--help"], ["plot", "--help"]):
        r = invoke(*cmd)
        assert_ok(r)
    r = invoke("train", "--help")
    assert "[default: ln-lstm]" in r.output and "[default: digits-binary]" in r.output and "--resume" in r.output


def test_info():
    r = invoke("info")
    assert_ok(r)
    for words in ("lnrnn 0.1.0", "numba", "threading layer", "BLAS", "CUDA:"):
        assert words in r.output


def test_train_outputs_and_eval(reference_run):
    out = reference_run
    assert sorted(f for f in os.listdir(out) if not f.endswith(".npz")) == \
        ["best", "checkpoint.json", "config.json", "learning_curve.svg", "metrics.csv", "metrics.jsonl", "updates.jsonl"]
    records = [json.loads(x) for x in open(out / "metrics.jsonl")]
    assert [r["epoch"] for r in records] == [1, 2] and records[-1]["step"] == 14
    svg = (out / "learning_curve.svg").read_text()
    assert "<svg" in svg[:2000] and "accuracy" in svg and "validation" in svg
    ElementTree.fromstring(svg)  # well-formed XML
    r = invoke("eval", "--checkpoint", out, "--json")
    assert_ok(r)
    res = json.loads(r.stdout)
    assert res["accuracy"] == pytest.approx(records[-1]["val_acc"]) and res["sequences"] == 100
    assert res["loss"] == pytest.approx(records[-1]["val_loss"], rel=1e-6)
    r = invoke("eval", "--checkpoint", out / "checkpoint.json")
    assert_ok(r)
    assert "accuracy" in r.stdout and "100 sequences" in r.stdout


def test_progress_bar_and_summary(tmp_path):
    r = invoke("train", *TINY[:-1], "--epochs", "1", "--out", tmp_path / "run")
    assert_ok(r)
    assert "samples/s" in r.stderr and "val loss" in r.stderr
    assert r.stdout.startswith("Training ln-lstm (hidden 8") and "Done: 1 epoch, 7 updates" in r.stdout
    assert ", 1 epoch, seed " in r.stdout.splitlines()[0]  # the start line says "1 epoch", not "1 epochs"
    q = invoke("train", *TINY, "--epochs", "1", "--out", tmp_path / "quiet")
    assert_ok(q)
    assert q.stderr == ""


def test_resume_after_max_steps_is_exact(tmp_path, reference_run):
    out = tmp_path / "run"
    r = invoke("train", *TINY, "--out", out, "--max-steps", 10)   # 7 updates per epoch: stops mid epoch 2
    assert_ok(r)
    assert "Stopped (reached --max-steps 10)" in r.stdout and "--resume" in r.stdout
    assert load_checkpoint(str(out))[0]["step"] == 10
    r = invoke("train", "--out", out, "--resume", "-q")
    assert_ok(r)
    assert_same_run(reference_run, out)


def test_resume_at_epoch_boundary_is_exact(tmp_path, reference_run):
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--out", out, "--max-steps", 7))
    assert_ok(invoke("train", "--out", out, "--resume", "--epochs", 2, "-q"))
    assert_same_run(reference_run, out)


def test_ctrl_c_saves_and_resume_is_exact(tmp_path, monkeypatch, reference_run):
    original = SequenceModel.loss_and_grad
    calls = []

    def interrupted(self, x, labels, *args, **kw):
        calls.append(1)
        if len(calls) == 4:
            os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C does; the loop finishes this update
        return original(self, x, labels, *args, **kw)

    monkeypatch.setattr(SequenceModel, "loss_and_grad", interrupted)
    out = tmp_path / "run"
    r = invoke("train", *TINY, "--out", out)
    assert_clean_error(r, "interrupted (SIGINT) at epoch 1, update 4", code=130)
    assert load_checkpoint(str(out))[0]["step"] == 4
    monkeypatch.setattr(SequenceModel, "loss_and_grad", original)
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(reference_run, out)


def test_nan_loss_stops_and_keeps_last_good_checkpoint(tmp_path, monkeypatch):
    original = SequenceModel.loss_and_grad
    calls = []

    def diverging(self, x, labels, *args, **kw):
        calls.append(1)
        means = original(self, x, labels, *args, **kw)
        return {**means, "loss": float("nan")} if len(calls) == 10 else means

    monkeypatch.setattr(SequenceModel, "loss_and_grad", diverging)
    out = tmp_path / "run"
    r = invoke("train", *TINY, "--out", out)
    msg = assert_clean_error(r, "the training loss became nan at epoch 2, update 10", code=3)
    assert "last good checkpoint (update 7)" in msg
    meta, _ = load_checkpoint(str(out))
    assert meta["step"] == 7 and len(open(out / "metrics.jsonl").readlines()) == 1


def test_plot_several_runs(tmp_path, reference_run):
    other = tmp_path / "other"
    shutil.copytree(reference_run, other)
    r = invoke("plot", reference_run, other, "--out", tmp_path / "both.svg", "--x", "epoch")
    assert_ok(r)
    svg = (tmp_path / "both.svg").read_text()
    assert "run (final validation accuracy" in svg and "other (final" in svg
    ElementTree.fromstring(svg)
    assert_clean_error(invoke("plot", tmp_path, "--out", tmp_path / "x.svg"), "has no metrics.jsonl")


def test_mnist_rows_from_a_data_dir(tmp_path):
    d = fake_mnist(tmp_path / "m", n_train=40, n_test=20)
    r = invoke("train", "--task", "mnist-rows", "--data-dir", d, "--hidden", "8", "--batch-size", "20",
               "--epochs", "1", "--cell", "lstm", "-q", "--out", tmp_path / "run")
    assert_ok(r)
    assert "row by row (28 steps of 28)" in r.stdout
    assert_ok(invoke("eval", "--checkpoint", tmp_path / "run"))


# ---------------------------------------------------------------------------------------------
# bad input: one sentence, non-zero exit, no traceback
# ---------------------------------------------------------------------------------------------
def test_missing_data_dir_and_files(tmp_path):
    assert_clean_error(invoke("train", "--task", "mnist", "--out", tmp_path / "r"), "pass --data-dir")
    (tmp_path / "empty").mkdir()
    msg = assert_clean_error(invoke("train", "--task", "pmnist", "--data-dir", tmp_path / "empty",
                                    "--out", tmp_path / "r"), "train-images-idx3-ubyte[.gz]")
    assert "lnrnn data mnist --dest DIR" in msg
    d = fake_mnist(tmp_path / "t10k_only", n_train=None)
    assert_clean_error(invoke("train", "--task", "mnist", "--data-dir", d, "--out", tmp_path / "r"),
                       "pass --split 8000/2000")
    assert not os.path.exists(tmp_path / "r")


@pytest.mark.parametrize("fault,words", [
    ("magic", "bad magic number"), ("truncated", "is truncated"), ("gzip", "damaged or truncated gzip"),
    ("count", "20 images but"),
])
def test_bad_idx_files(tmp_path, fault, words):
    d = fake_mnist(tmp_path / "m", n_train=None)
    images = os.path.join(d, "t10k-images-idx3-ubyte.gz")
    raw = gzip.decompress(open(images, "rb").read())
    if fault == "magic":
        open(images, "wb").write(gzip.compress(b"\x00\x00\x08\x07" + raw[4:]))
    elif fault == "truncated":
        open(images, "wb").write(gzip.compress(raw[:-100]))
    elif fault == "gzip":
        open(images, "wb").write(gzip.compress(raw)[:200])
    else:
        write_idx(os.path.join(d, "t10k-labels-idx1-ubyte.gz"), np.zeros(21, np.uint8))
    assert_clean_error(invoke("train", "--task", "mnist", "--data-dir", d, "--split", "10/5",
                              "--out", tmp_path / "r"), words)


@pytest.mark.parametrize("args,words", [
    (["--cell", "gru"], "Invalid value for '--cell'"),
    (["--task", "imagenet"], "Invalid value for '--task'"),
    (["--optimizer", "lbfgs"], "Invalid value for '--optimizer'"),
    (["--hidden", "0"], "--hidden must be at least 1, not 0."),
    (["--layers", "0"], "--layers must be at least 1"),
    (["--lr", "-0.1"], "--lr must be a positive number, not -0.1."),
    (["--lr", "nan"], "--lr must be a positive number"),
    (["--epochs", "0"], "--epochs must be at least 1"),
    (["--clip", "-1"], "--clip must be 0 (off) or positive"),
    (["--split", "200/100", "--batch-size", "500"], "--batch-size 500 is larger than the 200 training sequences"),
    (["--split", "2000/100"], "--split 2000/100 asks for 2100 samples but the digits data set holds only 1797."),
    (["--split", "half"], "--split must be TRAIN/VAL counts"),
    (["--steps", "5"], "task digits-binary does not take --steps."),
    (["--tbptt", "0"], "--tbptt must be at least 1 step, not 0."),
    (["--state-noise", "-0.1"], "--state-noise must be 0 (off) or a positive standard deviation"),
    (["--state-noise", "inf"], "--state-noise must be 0 (off) or a positive standard deviation"),
    (["--clip-output", "0"], "--clip-output must be a positive number, not 0.0."),
    (["--clip-output", "100"], "--clip-output clips a mixture density head's derivatives; digits-binary has a classifier"),
    (["--charset", "kana"], "task digits-binary does not take --charset."),
    (["--allow-pickle"], "task digits-binary does not take --allow-pickle."),
    (["--init", "zeros"], "Invalid value for '--init'"),
])
def test_bad_numbers_and_names(tmp_path, args, words):
    r = invoke("train", *args, "--out", tmp_path / "r")
    assert_clean_error(r, words)
    assert not os.path.exists(tmp_path / "r" / "checkpoint.json")


def test_device_cuda_is_refused_clearly(tmp_path, monkeypatch):
    from lnrnn import backend  # the tests run with the CUDA simulator on: pretend there is no GPU
    monkeypatch.setattr(backend, "cuda_usable", lambda: (False, "no NVIDIA GPU with a working CUDA driver was found"))
    msg = assert_clean_error(invoke("train", *TINY, "--device", "cuda", "--out", tmp_path / "r"), "--device cuda:")
    assert "train with --device cpu" in msg


def test_resume_with_nothing_to_resume(tmp_path):
    assert_clean_error(invoke("train", "--out", tmp_path / "nothing", "--resume"),
                       "there is no checkpoint in")


def test_existing_run_is_not_overwritten(tmp_path, reference_run):
    out = tmp_path / "run"
    shutil.copytree(reference_run, out)
    before = (out / "checkpoint.json").read_bytes()
    assert_clean_error(invoke("train", *TINY, "--out", out), "already holds a run; pass --resume")
    assert (out / "checkpoint.json").read_bytes() == before


def test_checkpoint_from_another_model(tmp_path, reference_run):
    out = tmp_path / "run"
    shutil.copytree(reference_run, out)
    before = (out / "checkpoint.json").read_bytes()
    msg = assert_clean_error(invoke("train", "--out", out, "--resume", "--hidden", "16"),
                             "was trained with --hidden 8, not 16")
    assert "drop --hidden" in msg
    assert (out / "checkpoint.json").read_bytes() == before
    # a description that does not fit its arrays
    record = json.loads(before)
    record["model"]["hidden_size"] = 16
    (out / "checkpoint.json").write_text(json.dumps(record))
    assert_clean_error(invoke("eval", "--checkpoint", out), "does not describe a model lnrnn can rebuild")
    assert_clean_error(invoke("train", "--out", out, "--resume"), "does not match the model")


def test_corrupt_checkpoint(tmp_path, reference_run):
    out = tmp_path / "run"
    shutil.copytree(reference_run, out)
    npz = out / json.loads((out / "checkpoint.json").read_text())["arrays_file"]
    npz.write_bytes(npz.read_bytes()[:100])
    assert_clean_error(invoke("eval", "--checkpoint", out), "is corrupt")
    assert_clean_error(invoke("train", "--out", out, "--resume"), "is corrupt")
    (out / "checkpoint.json").write_text("{not json")
    assert_clean_error(invoke("eval", "--checkpoint", out), "is corrupt")
    assert_clean_error(invoke("eval", "--checkpoint", tmp_path / "absent"), "no checkpoint at")


# ---------------------------------------------------------------------------------------------
# lnrnn data mnist, against a throw-away HTTP server on 127.0.0.1
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def mirror(tmp_path):
    root = tmp_path / "mirror"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(root), **k)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@needs_shared
def test_data_mnist_download_and_verify(tmp_path, mirror):
    root, url = mirror
    for name in ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"):
        raw = gzip.decompress(open(os.path.join(SHARED_MNIST, name), "rb").read())
        (root / name).write_bytes(gzip.compress(raw, compresslevel=1))  # another gzip of the same content
    dest = tmp_path / "dest"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert r.stdout.count("verified") == 2 and sorted(os.listdir(dest)) == \
        ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"]
    from lnrnn.files import umask
    for name in os.listdir(dest):  # downloads follow the umask like any other file (not mkstemp's 0600)
        assert os.stat(dest / name).st_mode & 0o777 == 0o666 & ~umask(), name
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert r.stdout.count("already present and verified") == 2
    # the downloaded files feed the loader directly
    assert_ok(invoke("train", "--task", "mnist-rows", "--data-dir", dest, "--split", "40/20", "--hidden", "4",
                     "--batch-size", "20", "--epochs", "1", "--cell", "rnn", "-q", "--out", tmp_path / "run"))
    # a wrong file (right shape, wrong pixels) is refused and not kept
    rng = np.random.default_rng(0)
    write_idx(root / "train-labels-idx1-ubyte.gz", rng.integers(0, 10, 60000).astype(np.uint8))
    write_idx(root / "train-images-idx3-ubyte.gz", np.zeros((60000, 28, 28), np.uint8))
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "train", "-q")
    assert_clean_error(r, "does not match the published MNIST checksum")
    assert not [n for n in os.listdir(dest) if n.startswith(("train", ".download"))]
    # a file of the wrong shape, then a file the mirror lacks
    write_idx(root / "train-images-idx3-ubyte.gz", np.zeros((10, 28, 28), np.uint8))
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "-q")
    assert_clean_error(r, "shape (10, 28, 28), not the (60000, 28, 28) of MNIST")
    (root / "train-images-idx3-ubyte.gz").unlink()
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "-q")
    assert_clean_error(r, "HTTP 404 for " + url + "train-images-idx3-ubyte.gz")
    assert sorted(os.listdir(dest)) == ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"]


def test_data_mnist_unreachable_or_missing(tmp_path, mirror):
    root, url = mirror
    assert_clean_error(invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", url, "-q"), "HTTP 404")
    assert_clean_error(invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", "http://127.0.0.1:9/", "-q"),
                       "could not download")
    assert_clean_error(invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", "ftp://x/"),
                       "--mirror must be an http:// or https:// URL")


def test_progress_bar_rendering():
    import io
    from lnrnn.training.progress import Progress, format_seconds

    class Tty(io.StringIO):
        def isatty(self):
            return True

    s = Tty()
    bar = Progress(100, "epoch 1/2", stream=s, min_interval=0)
    bar.update(50, loss=1.5, acc=0.25)
    bar.close("| val acc 30%")
    text = s.getvalue()
    assert text.startswith("\r") and "50/100" in text and "loss 1.5000" in text and "acc 25.0%" in text
    assert "ETA" in text and "samples/s" in text and text.endswith("| val acc 30%\033[K\n")
    quiet = Tty()
    q = Progress(10, "x", stream=quiet, quiet=True)
    q.update(5, loss=1.0)
    q.close("done")
    assert quiet.getvalue() == ""
    assert format_seconds(3725) == "1:02:05" and format_seconds(65) == "1:05"


def test_bn_statistics_survive_the_checkpoint(tmp_path):
    """eval (training=False, running BN statistics) of the saved run reproduces its last validation metrics."""
    out = tmp_path / "bn"
    assert_ok(invoke("train", "--cell", "bn-rnn", "--split", "100/50", "--hidden", "8", "--batch-size", "25",
                     "--epochs", "1", "-q", "--out", out))
    meta, arrays = load_checkpoint(str(out))
    assert any(k.startswith("buffer/") for k in arrays)
    res = json.loads(invoke("eval", "--checkpoint", out, "--json").stdout)
    assert res["loss"] == pytest.approx(meta["metrics"][-1]["val_loss"], rel=1e-6)
    assert res["accuracy"] == meta["metrics"][-1]["val_acc"]
