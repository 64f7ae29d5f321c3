"""lnrnn/files.py and lnrnn/predict_io.py's output checks by value, on the shapes a path can take: a trailing
separator, a '..' out of a folder that does not exist (in the middle, at the end, absolute), a file where a folder
should be under another option's name, a read-only folder (sysfs, which refuses new files to every user), a suffix
alone or one that disagrees with the format, and folders that do not exist yet but cannot be made (a name longer
than the file system allows, a link to nowhere). Every refusal is compared word for word with the sentence written
out here, and nothing is left on disk; `lnrnn predict` refuses a bad --out before it looks at the run.

A folder that cannot be made (a name too long, a link to nowhere) and a file name too long are refused by the
early check too, not only when writing after the work."""
import errno
import os
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.errors import UserError
from lnrnn.files import check_output_file, write_output_file
from lnrnn.predict_io import check_out, write_predictions
from test_values_output_paths import here, listing  # noqa: F401  (here: a.txt and sub/ in a cwd)

SEP = os.sep
LONG = "d" * 300           # one name past the 255 bytes a Linux file system allows


def refusal(call, *args):
    with pytest.raises(UserError) as e:
        call(*args)
    return str(e.value)


@pytest.mark.parametrize("path,option", [(f"new{SEP}out{SEP}", "--npz"), (f"sub{SEP}", "--out"),
                                         (f"a.txt{SEP}", "--judge-out")])
def test_a_trailing_separator_is_a_folder_named_in_quotes(here, path, option):
    before = listing(here)
    assert refusal(check_output_file, path, option) == f"{option} '{path}' names a folder; give a file name."
    assert refusal(write_output_file, path, lambda f: f.write(b"x"), option) == \
        f"{option} '{path}' names a folder; give a file name."
    assert listing(here) == before


@pytest.mark.parametrize("path,missing", [
    (f"nope{SEP}..{SEP}p.csv", "nope"),                      # the step in the middle
    (f"sub{SEP}nope{SEP}..{SEP}..{SEP}p.csv", f"sub{SEP}nope"),  # the first missing folder of two steps
    (f"nope{SEP}..", "nope"),                                # the step is the path's last part
    (f"sub{SEP}..{SEP}nope{SEP}..{SEP}p.csv", f"sub{SEP}..{SEP}nope"),  # after a step that is fine
])
def test_a_step_up_out_of_a_missing_folder_names_that_folder(here, path, missing):
    before = listing(here)
    want = (f"--out {path} goes up ('..') from {missing}, which does not exist, so it cannot be written there; "
            "give the path without that step.")
    assert refusal(check_output_file, path) == want
    assert refusal(write_output_file, path, lambda f: f.write(b"x")) == want
    assert listing(here) == before


def test_a_step_up_absolute_and_one_out_of_a_folder_that_exists(here):
    path = os.path.join(os.getcwd(), "nope", "..", "p.csv")
    assert refusal(check_output_file, path, "--npz") == (
        f"--npz {path} goes up ('..') from {os.path.join(os.getcwd(), 'nope')}, which does not exist, so it cannot "
        "be written there; give the path without that step.")
    # 'sub/..' is the folder itself: the file lands beside sub/
    ok = os.path.join("sub", "..", "p.csv")
    assert check_output_file(ok) == ok and listing(here) == ["a.txt", "sub"]
    write_output_file(ok, lambda f: f.write(b"kept"))
    assert (here / "p.csv").read_bytes() == b"kept"
    # ending in '..' out of a folder that exists: the current folder, a folder
    assert refusal(check_output_file, os.path.join("sub", "..")) == \
        f"--out sub{SEP}.. is a folder; give a file name inside it."


@pytest.mark.parametrize("path", [f"a.txt{SEP}x.npz", f"a.txt{SEP}deeper{SEP}x.npz"])
def test_a_file_where_a_folder_should_be_is_named_with_the_option_given(here, path):
    ancestor = os.path.join(os.getcwd(), "a.txt")
    want = (f"{ancestor} is a file, not a folder, so --npz {path} cannot be written there; choose another --npz.")
    assert refusal(check_output_file, path, "--npz") == want
    assert refusal(write_output_file, path, lambda f: f.write(b"x"), "--npz") == want
    assert listing(here) == ["a.txt", "sub"] and (here / "a.txt").read_text() == "keep"


def sysfs_refuses_files():
    try:
        open(os.path.join("/sys", "lnrnn-values229-probe"), "xb").close()
    except OSError as e:
        return e.errno == errno.EACCES
    return False


@pytest.mark.skipif(not sysfs_refuses_files(), reason="needs Linux's sysfs, where no one may create a file")
def test_a_read_only_folder_is_named_with_where_the_file_would_be_made():
    top = os.path.join("/sys", "p.csv")
    assert refusal(check_output_file, top) == ("cannot write to /sys (Permission denied); choose another --out or "
                                               "make it writable.")
    deep = os.path.join("/sys", "lnrnn-values229", "deeper", "p.npz")
    assert refusal(check_output_file, deep, "--npz") == (
        f"cannot write to /sys, where --npz {deep} would be created (Permission denied); choose another --npz or "
        "make it writable.")
    assert refusal(check_out, top) == ("cannot write to /sys (Permission denied); choose another --out or make it "
                                       "writable.")
    assert not os.path.exists(os.path.join("/sys", "lnrnn-values229"))


@pytest.mark.parametrize("path,suffix", [(f"runs{SEP}.npy", ".npy"), (".CSV", ".CSV"), (f"new{SEP}.csv", ".csv")])
def test_a_suffix_alone_is_refused_naming_the_suffix_to_put_a_name_before(here, path, suffix):
    assert refusal(check_out, path) == f"--out '{path}' is a suffix alone; give the file a name before {suffix}."
    assert listing(here) == ["a.txt", "sub"]


@pytest.mark.parametrize("path", ["p.txt", "p.npz", f"new{SEP}p.csv.gz", "p", "p.csvx", "p.np"])
def test_a_suffix_that_disagrees_with_the_format_is_refused_word_for_word(here, path):
    assert refusal(check_out, path) == f"--out must end in .csv or .npy, not '{path}'."
    preds = SimpleNamespace(classes=[1], probability=[0.5])
    assert refusal(write_predictions, path, preds) == f"--out must end in .csv or .npy, not '{path}'."
    assert listing(here) == ["a.txt", "sub"]


def test_predictions_go_into_a_folder_made_only_when_written(here):
    path = os.path.join("new", "deeper", "P.CSV")
    check_out(path)
    assert listing(here) == ["a.txt", "sub"]              # checked: nothing made yet
    preds = SimpleNamespace(classes=[2, 0, 1], probability=[0.5, 0.25, 0.125])
    assert write_predictions(path, preds) == 3
    assert (here / path).read_text() == "index,class,probability\n0,2,0.5\n1,0,0.25\n2,1,0.125\n"


def test_predict_refuses_a_bad_out_before_it_reads_the_run(here):
    args = ["predict", "--checkpoint", "no-such-run", "--input", "no-such.npy", "--out"]
    for out, line in [("p.txt", "--out must end in .csv or .npy, not 'p.txt'."),
                      (f"nope{SEP}..{SEP}p.csv", f"--out nope{SEP}..{SEP}p.csv goes up ('..') from nope, which does "
                                                 "not exist, so it cannot be written there; give the path without "
                                                 "that step.")]:
        r = CliRunner().invoke(main, args + [out], prog_name="lnrnn")
        assert r.exit_code == 2 and r.stderr == f"Error: {line}\n", r.output
    assert listing(here) == ["a.txt", "sub"]


@pytest.mark.parametrize("err", [(errno.ENOSPC, "No space left on device"), (errno.EACCES, "Permission denied")])
def test_a_folder_that_cannot_be_made_is_refused_in_words_when_written(here, monkeypatch, err):
    """A folder that passed the early check but cannot be made when the file is written (the disk filled, the
    permissions changed meanwhile): the OSError's words, not its repr, and nothing written."""
    import lnrnn.files

    def refuse(folder, exist_ok=False):
        raise OSError(err[0], err[1], folder)
    monkeypatch.setattr(lnrnn.files.os, "makedirs", refuse)
    path = os.path.join("new", "p.csv")
    with pytest.raises(UserError) as e:
        write_output_file(path, lambda f: f.write(b"x"))
    assert str(e.value) == (f"cannot create the folder {os.path.join(os.getcwd(), 'new')} for --out {path} "
                            f"({err[1]}); choose another --out.")
    assert sorted(os.listdir(here)) == ["a.txt", "sub"]


@pytest.mark.parametrize("name", ["long", "link", "long-file"])
def test_a_folder_or_name_that_cannot_be_made_is_refused_by_the_early_check(here, name):
    """A folder name past the file system's 255 bytes, a link to nowhere where a folder would be made, a file name
    past 255 bytes: refused by check_output_file (before any work), word for word, nothing made."""
    if name == "link":
        os.symlink("nowhere", "link")
    path = {"long": os.path.join(LONG, "p.csv"), "link": os.path.join("link", "p.csv"),
            "long-file": os.path.join("sub", LONG + ".csv")}[name]
    before = listing(here)
    if name == "link":
        want = (f"{os.path.join(os.getcwd(), 'link')} is a link to nowhere, which does not exist, so --out {path} "
                "cannot be written there; choose another --out.")
    else:
        n = 300 + (4 if name == "long-file" else 0)
        want = f"--out {path} has a name of {n} bytes ({'d' * 16}...), longer than the 255 the file system allows; " \
               "choose a shorter --out."
    assert refusal(check_output_file, path) == want
    assert refusal(write_output_file, path, lambda f: f.write(b"x")) == want
    assert listing(here) == before
