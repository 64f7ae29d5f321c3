"""lnrnn read's option checks, made before any run is loaded (no training here: cheap): --beam and
--batch-size below 1 and an --out that cannot be a file are each refused in one line, exit 2, whatever
the run folder holds; --beam 1 and --batch-size 1 pass the checks and reach the run."""
import pytest
from click.testing import CliRunner

from lnrnn.cli import main


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result, words):
    assert result.exit_code == 2, result.output + repr(result.exception)
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], result.stderr


@pytest.mark.parametrize("args, words", [
    (("--beam", 0), "--beam must be at least 1"),
    (("--beam", -3), "--beam must be at least 1"),
    (("--batch-size", 0), "--batch-size must be at least 1"),
])
def test_counts_below_one_are_refused_before_the_run(tmp_path, args, words):
    one_error(invoke("read", "--checkpoint", tmp_path / "no-run", "--input", tmp_path / "x.npy", *args), words)


@pytest.mark.parametrize("args", [("--beam", 1), ("--batch-size", 1)])
def test_counts_of_one_reach_the_run(tmp_path, args):
    one_error(invoke("read", "--checkpoint", tmp_path / "no-run", "--input", tmp_path / "x.npy", *args),
              "no checkpoint")


def test_out_that_cannot_be_a_file_is_refused_first(tmp_path):
    (tmp_path / "file").write_text("")
    (tmp_path / "folder").mkdir()
    for out, words in ((tmp_path / "file" / "t.txt", "is a file, not a folder"),
                       (tmp_path / "folder", "is a directory"),
                       (str(tmp_path / "new") + "/", "names a folder")):
        one_error(invoke("read", "--checkpoint", tmp_path / "no-run", "--input", tmp_path / "x.npy", "--beam", 0,
                         "--out", out), words)
