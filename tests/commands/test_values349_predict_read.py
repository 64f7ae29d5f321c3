"""Round 349: lnrnn predict and lnrnn read through click's CliRunner. predict on a digits classifier (64 steps of
one pixel, values in [0, 1]): sequences of 10 steps refused word for word, non-zero exit and no --out written, unless
--force (a warning, then the table); two --input files read in order, counted in the summary; --batch-size -3
refused naming -3; a CTC head without a stroke scale reported as 'predicted label sequences'. read: --beam -2
refused naming -2 with nothing written, and two --input files transcribed in the order given as lnrnn.read does."""
import csv

import numpy as np
import pytest

import lnrnn
import lnrnn.api
from lnrnn.model.models import build_model
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import invoke
from test_values_api_read import reader  # noqa: F401 (the fixture)
from test_values125_read_eval import _lines_file
from test_values349_eval_export import digits_run  # noqa: F401 (the fixture)


def _npy(path, x):
    np.save(path, np.asarray(x, dtype=np.float32))
    return path


def test_predict_refuses_another_length_unless_forced(digits_run, tmp_path):  # noqa: F811
    a = _npy(tmp_path / "a.npy", np.full((3, 10, 1), 0.5))
    out = tmp_path / "new" / "p.csv"
    r = invoke("predict", "--checkpoint", digits_run, "--input", a, "--out", out, "-q")
    assert r.exit_code != 0
    assert r.stderr.splitlines()[-1] == (
        f"Error: the sequences of {a} cannot be what the run in {digits_run} was trained on: they have 10 steps "
        "where the training sequences had 64; scale or cut them as its training data were, or pass --force to "
        "predict anyway.")
    assert not (tmp_path / "new").exists()
    r = invoke("predict", "--checkpoint", digits_run, "--input", a, "--out", out, "-q", "--force")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0].startswith("Warning: the sequences of ")
    assert len(out.read_text().splitlines()) == 1 + 3


def test_predict_reads_every_input_in_order(digits_run, tmp_path):  # noqa: F811
    rng = np.random.default_rng(0)
    xa, xb = rng.random((3, 64, 1)), rng.random((2, 64, 1))
    a, b = _npy(tmp_path / "a.npy", xa), _npy(tmp_path / "b.npy", xb)
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", digits_run, "--input", b, "--input", a, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Wrote the predicted classes of 5 sequences to {out} ({b}: 2; {a}: 3).\n"
    rows = list(csv.DictReader(out.open()))
    assert [int(row["index"]) for row in rows] == [0, 1, 2, 3, 4]
    want = lnrnn.api.predict(lnrnn.load_run(digits_run), np.concatenate([xb, xa]).astype(np.float32))
    assert [int(row["class"]) for row in rows] == list(np.argmax(want.probabilities, axis=1))


def test_predict_refuses_a_batch_size_below_one_naming_it(digits_run, tmp_path):  # noqa: F811
    a = _npy(tmp_path / "a.npy", np.full((2, 64, 1), 0.5))
    out = tmp_path / "new" / "p.csv"
    r = invoke("predict", "--checkpoint", digits_run, "--input", a, "--out", out, "--batch-size", -3)
    assert r.exit_code != 0
    assert r.stderr.splitlines()[-1] == "Error: --batch-size must be at least 1, not -3."
    assert not (tmp_path / "new").exists()


def test_predict_names_a_ctc_heads_outputs_label_sequences(tmp_path):
    m = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float32",
                         forget_bias=1.0, head={"kind": "ctc", "outputs": 4, "per_step": True}), seed=0)
    folder = tmp_path / "ctc"
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 0, "train": {"cell": "ln-lstm"}})
    a = _npy(tmp_path / "a.npy", np.random.default_rng(1).random((2, 6, 2)))
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", folder, "--input", a, "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Wrote the predicted label sequences of 2 sequences to {out} ({a}: 2).\n"
    assert out.read_text().splitlines()[0] == "index,labels"


def test_read_refuses_a_beam_below_one_naming_it(reader, tmp_path):  # noqa: F811
    folder, _, lines = reader
    out = tmp_path / "new" / "t.txt"
    r = invoke("read", "--checkpoint", folder, "--input", _lines_file(lines, tmp_path), "--beam", -2, "--out", out)
    assert r.exit_code != 0
    assert r.stderr.splitlines()[-1] == "Error: --beam must be at least 1 (1: best path), not -2."
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("beam", [1, 3])
def test_read_transcribes_every_input_in_the_order_given(reader, tmp_path, beam):  # noqa: F811
    folder, _, lines = reader
    (tmp_path / "a").mkdir()
    a = _lines_file(lines[2:], tmp_path / "a")
    b = tmp_path / "b.npy"
    np.save(b, lines[0])
    r = invoke("read", "--checkpoint", folder, "--input", b, "--input", a, "--beam", beam, "-q")
    assert r.exit_code == 0, r.output
    want = lnrnn.read(folder, [lines[0]] + lines[2:], beam=beam)
    assert len(want) == 4 and r.stdout == "".join(t + "\n" for t in want)
