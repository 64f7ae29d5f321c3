"""Reading handwriting: `lnrnn train --head ctc` on stroke tasks with text, `lnrnn read` and `lnrnn.read`.

One tiny strokes-hershey reader (16 units, 3 updates) and one tiny IAM-OnDB reader (written here in its
XML format, 1 update) are trained once for the module. The reader's best-path transcriptions of its own
validation lines, drawn again from their source, give the character error rate the run logged: the class
to character map, the blank, and the preprocessing (glitch steps, offset scale, whole lines) all enter
that figure. Hershey tests skip without the hershey-fonts package, unless LNRNN_REQUIRE_EXTRAS=1."""
import importlib.util
import json
import os

import numpy as np
import pytest

import lnrnn
from lnrnn.data import hershey
from lnrnn.data import strokes as S
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import UserError
from lnrnn.model import models
from lnrnn.textmetrics import edit_distance
from lnrnn.training.rundir import read_jsonl

import test_strokes_data as sd   # the IAM-OnDB writer
from test_cli import TINY, assert_clean_error, assert_ok, invoke

REQUIRE = os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1"
needs_hershey = pytest.mark.skipif(not (importlib.util.find_spec("HersheyFonts") is not None or REQUIRE),
                                   reason="hershey-fonts is not installed (pip install 'lnrnn[hershey]')")
N_TRAIN, N_VAL = 24, 8
READER = ["--task", "strokes-hershey", "--head", "ctc", "--split", f"{N_TRAIN}/{N_VAL}", "--hidden", 16,
          "--layers", 1, "--batch-size", 8, "--max-steps", 3, "-q"]


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    if importlib.util.find_spec("HersheyFonts") is None and not REQUIRE:
        pytest.skip("hershey-fonts is not installed")
    out = tmp_path_factory.mktemp("reader") / "run"
    assert_ok(invoke("train", *READER, "--out", out))
    return str(out)


@pytest.fixture(scope="module")
def val_lines():
    """The reader's validation lines as the task draws them (source units, before normalization) and texts."""
    lines, texts, _ = hershey.make_lines(np.random.default_rng([S.DATA_SEED, 1]), N_VAL)
    return lines, texts


def meta_of(run):
    return json.load(open(os.path.join(run, "checkpoint.json")))


def last_row(run):
    return read_jsonl(os.path.join(run, "metrics.jsonl"))[-1]


@needs_hershey
def test_reader_keeps_alphabet_scale_and_reports_loss_and_cer(reader):
    meta = meta_of(reader)
    task = load_task(meta["task"])
    alphabet = meta["text"]["alphabet"]
    assert meta["task"]["head"] == "ctc" and alphabet == task.alphabet and alphabet[0] == S.UNKNOWN
    assert meta["model"]["head"] == {"kind": "ctc", "outputs": len(alphabet) + 1, "per_step": True,
                                     "scale": task.scale}
    assert "window" not in meta["model"]                    # a reader reads the text; it is not given it
    row = last_row(reader)
    assert {"train_loss", "train_cer", "val_loss", "val_cer"} <= set(row)
    res = invoke("eval", "--checkpoint", reader, "--json")
    assert_ok(res)
    got = json.loads(res.stdout)
    assert got["cer"] == row["val_cer"] and got["loss"] == pytest.approx(row["val_loss"], rel=1e-5)
    assert "character error rate" in invoke("eval", "--checkpoint", reader).stdout


@needs_hershey
def test_read_gives_the_cer_the_run_reported(reader, val_lines):
    """Best path over the validation lines, compared with their texts (a character the training texts
    never used is the unknown symbol, as the run's labels hold it), per line and in all."""
    lines, texts = val_lines
    alphabet = meta_of(reader)["text"]["alphabet"]
    read = lnrnn.read(reader, lines)
    assert len(read) == N_VAL and all(isinstance(t, str) for t in read)
    assert set("".join(read)) <= set(alphabet) and len(set("".join(read))) > 5  # varied: a wrong map shows
    labels = ["".join(alphabet[k] for k in S.encode_text(t, alphabet)) for t in texts]
    edits = [edit_distance(r, t) for r, t in zip(read, labels)]
    assert sum(edits) / sum(len(t) for t in labels) == last_row(reader)["val_cer"]
    # each line alone: its edit distance is what the head counts for it
    run = lnrnn.load_run(reader)
    task = load_task(run.task_spec)
    for i in range(N_VAL):
        x, y, n = task.batch("val", [i])
        sums, _ = run.model.loss_sums(x, y, n)
        assert sums["cer"] == edits[i]


@needs_hershey
def test_read_command_prints_and_writes(reader, val_lines, tmp_path):
    lines, _ = val_lines
    np.savez(tmp_path / "lines.npz", points=np.concatenate(lines[:5]), lengths=[len(ln) for ln in lines[:5]])
    np.save(tmp_path / "one.npy", lines[6])
    expected = lnrnn.read(reader, lines[:5] + [lines[6]])
    res = invoke("read", "--checkpoint", reader, "--input", tmp_path / "lines.npz", "--input",
                 tmp_path / "one.npy", "-q")
    assert_ok(res)
    assert res.stdout.splitlines() == expected
    out = tmp_path / "new" / "deeper" / "texts.txt"
    assert_ok(invoke("read", "--checkpoint", reader, "--input", tmp_path / "lines.npz", "--input",
                     tmp_path / "one.npy", "--out", out, "-q"))
    assert out.read_text(encoding="utf-8").splitlines() == expected
    short = lines[0][:40]
    beam = lnrnn.read(reader, short, beam=2)
    assert len(beam) == 1 and set(beam[0]) <= set(meta_of(reader)["text"]["alphabet"])


@needs_hershey
def test_evaluation_in_time_chunks_scores_whole_lines(reader, monkeypatch):
    """With inference chunks of a few steps the CTC head still scores each whole line: the same figures."""
    row = last_row(reader)
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 64)         # 8 steps per chunk for the 8 lines
    got = lnrnn.evaluate_run(reader).metrics
    assert got["cer"] == row["val_cer"] and got["loss"] == pytest.approx(row["val_loss"], rel=1e-5)
    run = lnrnn.load_run(reader)
    x, y, n = load_task(run.task_spec).batch("train", np.arange(4))
    with pytest.raises(ValueError, match="whole sequences"):
        run.model.loss_and_grad(x, y, n, tbptt=50)


@pytest.mark.parametrize("args, words", [
    (["--task", "digits", "--head", "ctc"], "carry none"),
    (["--task", "strokes-synthetic", "--head", "ctc"], "carry none"),
    (["--task", "digits", "--head", "mdn"], "drop --head"),
    (["--task", "strokes-hershey", "--head", "ctc", "--tbptt", 50], "--tbptt 50"),
    (["--task", "strokes-hershey", "--head", "ctc", "--window", 3], "--window 3"),
    (["--task", "strokes-hershey", "--head", "ctc", "--best-metric", "acc"], "--best-metric acc"),
])
def test_train_refuses_what_a_reader_cannot_be(args, words, tmp_path):
    if "strokes-hershey" in args and importlib.util.find_spec("HersheyFonts") is None and not REQUIRE:
        pytest.skip("hershey-fonts is not installed")
    res = invoke("train", *args, "--hidden", 4, "--layers", 1, "--max-steps", 1, "--split", "8/4", "--batch-size", 4,
                 "-q", "--out", tmp_path / "run")
    assert_clean_error(res, words)
    assert not (tmp_path / "run" / "checkpoint.json").exists()


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    line = np.array([[0, 0, 0], [1.5, 2, 0], [3, -1, 1]], np.float64)
    nan = line.copy()
    nan[1, 0] = np.nan
    np.save(d / "nan.npy", nan)
    np.save(d / "two.npy", line[:, :2])
    np.savez(d / "empty.npz", points=line, lengths=[3, 0])
    np.savez(d / "other.npz", x=line)
    (d / "text.npy").write_text("not numpy")
    (d / "line.csv").write_text("0,0,0\n")
    np.save(d / "ok.npy", line)
    return d


@needs_hershey
@pytest.mark.parametrize("name, words", [
    ("nan.npy", "NaN"), ("two.npy", "(N, 3)"), ("empty.npz", "line 2 has no point"), ("other.npz", "points"),
    ("text.npy", "not a NumPy"), ("line.csv", "not a stroke file"), ("missing.npy", "no such file"),
])
def test_read_refuses_bad_input_in_one_line(reader, bad_files, name, words):
    assert_clean_error(invoke("read", "--checkpoint", reader, "--input", bad_files / name), words)


@needs_hershey
def test_read_refuses_bad_options_before_any_work(reader, bad_files, tmp_path):
    (tmp_path / "file").write_text("")
    # --out is checked before the run is even looked for
    assert_clean_error(invoke("read", "--checkpoint", tmp_path / "no-run", "--input", bad_files / "ok.npy",
                              "--out", tmp_path / "file" / "t.txt"), "is a file, not a folder")
    assert_clean_error(invoke("read", "--checkpoint", reader, "--input", bad_files / "ok.npy", "--beam", 0),
                       "--beam must be at least 1")
    with pytest.raises(UserError, match="pen values"):
        lnrnn.read(reader, np.array([[0, 0, 2.0]]))
    with pytest.raises(UserError, match="beam"):
        lnrnn.read(reader, np.array([[0, 0, 1.0]]), beam=0)
    # predict would skip the normalization: it sends a reader to read (sequences it could run: (N,T,3))
    np.save(tmp_path / "seqs.npy", np.load(bad_files / "ok.npy")[None])
    assert_clean_error(invoke("predict", "--checkpoint", reader, "--input", tmp_path / "seqs.npy", "--out",
                              tmp_path / "p.csv"), "use lnrnn read")


def test_read_refuses_a_run_that_is_not_a_reader(tmp_path):
    out = tmp_path / "digits"
    assert_ok(invoke("train", *TINY, "--epochs", 1, "--max-steps", 1, "--out", out))
    np.save(tmp_path / "ok.npy", np.array([[0, 0, 0], [1.0, 1.0, 1.0]]))
    assert_clean_error(invoke("read", "--checkpoint", out, "--input", tmp_path / "ok.npy"),
                       "is not a handwriting reader")


# ---------------------------------------------------------------- IAM-OnDB: line XML, glitches, short lines

@pytest.fixture(scope="module")
def iam_reader(tmp_path_factory):
    data = tmp_path_factory.mktemp("iam")
    written = sd.write_iam(data, glitch=True)
    out = tmp_path_factory.mktemp("iamrun") / "run"
    assert_ok(invoke("train", "--task", "strokes", "--data-dir", data, "--head", "ctc", "--hidden", 8, "--layers",
                     1, "--batch-size", 4, "--max-steps", 1, "-q", "--out", out))
    return str(data), written, str(out)


def test_iam_line_xml_reads_as_the_task_normalized_it(iam_reader):
    """Each validation line's XML file, read by `lnrnn read`, gives what lnrnn.read gives for the line the
    task built from it (glitch step dropped, scaled), brought back to board units; the description counts
    the lines too short for their labels."""
    data, written, out = iam_reader
    run = lnrnn.load_run(out)
    task = load_task(run.task_spec)
    names = task.sets["val"].names
    assert any(n.endswith("-02") for n in names)          # a line with a glitch step is among them
    scale = np.array(run.config["head"]["scale"] + [1.0])
    built = [task.line("val", i).astype(np.float64) * scale for i in range(len(names))]
    files = [os.path.join(data, "lineStrokes", n[:3], n[:7], n + ".xml") for n in names]
    res = invoke("read", "--checkpoint", out, *[a for f in files for a in ("--input", f)], "-q")
    assert_ok(res)
    assert res.stdout.splitlines() == lnrnn.read(run, built)
    def needed(text):  # one step per label, and a blank between two equal neighbours
        codes = S.encode_text(text, task.alphabet)
        return len(codes) + int(np.sum(codes[1:] == codes[:-1]))
    short = {w: sum(len(task.line(w, i)) < needed(task.text(w, i)) for i in range(task.size(w)))
             for w in ("train", "val")}
    assert short["train"] > 0 and task.extra["unalignable"] == short
    assert f"{short['train']} train / {short['val']} validation lines have fewer points" in task.description


def test_iam_without_transcriptions_cannot_be_read(tmp_path):
    sd.write_iam(tmp_path, ascii_dir=False)
    with pytest.raises(UserError, match="carry none"):
        load_task(task_spec("strokes", str(tmp_path), head="ctc"))
