"""lnrnn train's --bptt alias and lnrnn data mnist's refusals, by value (round 263 of the planted bugs,
tests/mutants/mutants_values263.py). The trainer and the downloads are stand-ins that record their calls
(test_values245_train_data's and test_values237_data's). --tbptt and its alias --bptt both reach the trainer's
config; a --mirror that is no http(s) URL is refused quoting it, and a --dest under a file names that file;
each refusal is one 'Error:' line read word for word, with nothing downloaded and nothing made."""
import os

from test_cli import assert_clean_error, assert_ok, invoke
from test_values237_data import MIRROR, recorded  # noqa: F401 - recorded is a fixture
from test_values245_train_data import trainer


def test_tbptt_and_its_alias_bptt_reach_the_trainer(tmp_path, monkeypatch):
    seen = trainer(monkeypatch)
    assert_ok(invoke("train", "--out", tmp_path / "a", "-q", "--tbptt", 5))
    assert_ok(invoke("train", "--out", tmp_path / "b", "-q", "--bptt", 7))
    assert [c.tbptt for c in seen] == [5, 7]
    assert os.listdir(tmp_path) == []


def test_a_mirror_that_is_no_web_address_is_refused_quoted(tmp_path, recorded):  # noqa: F811
    dest = tmp_path / "d"
    for mirror in ("ftp://example.org/mnist", "mirror.invalid/mnist"):
        r = invoke("data", "mnist", "--dest", dest, "--mirror", mirror, "-q")
        line = assert_clean_error(r, "--mirror")
        assert line == f"Error: --mirror must be an http:// or https:// URL, not '{mirror}'."
    assert recorded == [] and os.listdir(tmp_path) == []


def test_a_dest_under_a_file_names_that_file(tmp_path, recorded):  # noqa: F811
    (tmp_path / "blocker").write_bytes(b"x")
    dest = tmp_path / "blocker" / "d" / "mnist"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "-q")
    line = assert_clean_error(r, "--dest")
    assert line == (f"Error: {tmp_path / 'blocker'} is a file, not a folder, so --dest {dest} cannot be made there; "
                    "choose another --dest.")
    assert recorded == [] and os.listdir(tmp_path) == ["blocker"]
    assert (tmp_path / "blocker").read_bytes() == b"x"
