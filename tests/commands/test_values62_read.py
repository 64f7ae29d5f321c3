"""What ``lnrnn read`` prints and refuses, with the reader of test_values_api_read (alphabet '?abcde', five
ragged lines) and its best-path reading made by hand there (test_values_api_read.by_hand: the stack run here,
each row's argmax over its own steps collapsed and mapped to the alphabet): the transcriptions go to stdout,
one per line and nothing else there; -q leaves stderr empty, without it the progress bar counts the lines on
stderr; --out writes the same lines and says so on stderr; a run that is not a reader is refused, naming the
run, before any input is read (a missing input file is not what is reported)."""
import numpy as np
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.model.models import build_model
from lnrnn.training.checkpoint import save_checkpoint
from test_values_api_read import by_hand, reader  # noqa: F401 (the fixture)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def lines_file(lines, folder):
    path = folder / "lines.npz"
    np.savez(path, points=np.concatenate(lines), lengths=[len(ln) for ln in lines])
    return path


def test_transcriptions_go_to_stdout_alone_and_quiet_leaves_stderr_empty(reader, tmp_path):
    folder, model, lines = reader
    want = by_hand(model, lines, 2)
    assert len(set(want)) > 1 and all(want)                     # distinct, non-empty readings
    res = invoke("read", "--checkpoint", folder, "--input", lines_file(lines, tmp_path), "--batch-size", 2, "-q")
    assert res.exit_code == 0, res.output + repr(res.exception)
    assert res.stdout.splitlines() == want
    assert res.stderr == ""


def test_without_quiet_the_progress_counts_lines_on_stderr(reader, tmp_path):
    folder, model, lines = reader
    res = invoke("read", "--checkpoint", folder, "--input", lines_file(lines, tmp_path), "--batch-size", 2)
    assert res.exit_code == 0, res.output + repr(res.exception)
    assert res.stdout.splitlines() == by_hand(model, lines, 2)
    assert "read" in res.stderr and f"{len(lines)}/{len(lines)}" in res.stderr
    assert not any(t in res.stderr.splitlines() for t in by_hand(model, lines, 2))


def test_out_writes_the_lines_and_says_so_on_stderr(reader, tmp_path):
    folder, model, lines = reader
    out = tmp_path / "new" / "texts.txt"
    res = invoke("read", "--checkpoint", folder, "--input", lines_file(lines, tmp_path), "--batch-size", 2, "-q",
                 "--out", out)
    assert res.exit_code == 0, res.output + repr(res.exception)
    assert out.read_text(encoding="utf-8") == "".join(t + "\n" for t in by_hand(model, lines, 2))
    assert res.stdout == ""
    assert res.stderr.strip() == f"Wrote the transcriptions of {len(lines)} lines to {out}."


def test_a_reader_without_its_alphabet_is_refused_before_the_inputs_are_read(tmp_path):
    """A CTC run with a stroke scale but without an alphabet (what the reader's checkpoint holds less its text):
    refused in one line naming the run as corrupt, although the input file does not exist either."""
    cfg = dict(cell="lstm", norm="ln", input_size=3, hidden_size=2, num_layers=1, dtype="float64", forget_bias=1.0,
               head={"kind": "ctc", "outputs": 4, "per_step": True, "scale": [1.0, 1.0]})
    m = build_model(cfg, seed=1)
    folder = tmp_path / "run"
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 0, "task": {"task": "strokes", "head": "ctc"},
                     "train": {"cell": "ln-lstm"}})
    res = invoke("read", "--checkpoint", folder, "--input", tmp_path / "missing.npy")
    assert res.exit_code != 0 and "Traceback" not in res.output
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1 and errors[0] == (
        f"Error: the run in {folder} reads handwriting, but its checkpoint does not record the alphabet of its "
        "training texts (distinct characters, one per CTC class); it is corrupt."), res.stderr
    assert "missing.npy" not in res.stderr
