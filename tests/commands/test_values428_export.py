"""lnrnn export's options (lnrnn/commands/export.py): --out naming a folder that exists is refused by click word for
word with exit 2 and nothing written in the folder (a trailing separator alike); --format's one choice is its
default and --help shows it."""
import pytest

from test_cli import invoke


@pytest.mark.parametrize("trailing", ["", "/"])
def test_an_out_that_is_a_folder_is_refused_and_nothing_written(tmp_path, trailing):
    folder = tmp_path / "weights"
    folder.mkdir()
    out = str(folder) + trailing
    r = invoke("export", tmp_path / "run", "--out", out)
    assert r.exit_code == 2
    assert r.stderr.splitlines()[-1] == (f"Error: Invalid value for '--out': File '{out}' is a directory. "
                                        "('main export --help' lists the options.)")
    assert list(folder.iterdir()) == []


def test_the_format_default_is_shown_in_help():
    r = invoke("export", "--help")
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "--format [safetensors] File format. [default: safetensors]" in text
