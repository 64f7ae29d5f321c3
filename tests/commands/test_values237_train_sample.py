"""lnrnn train and lnrnn sample, the commands' plumbing by value (round 237 of the planted bugs,
tests/mutants/mutants_values237.py): train's one line for a full disk mid-run (and a traceback for what is no
file system's refusal), --epochs' default named in the help and reaching the trainer; sample's refusals before
any run is read, word for word, at the cap's edge, in the plural of the lines (not of --count), and under the
option's own name, with nothing written."""
import errno
import os

import pytest

import lnrnn.training.train
from test_cli import assert_clean_error, assert_ok, invoke


def flat(text):
    return " ".join(text.split())


def option_help(help_text, option):
    """The words of ``option``'s entry in a command's --help (up to the next option)."""
    words = flat(help_text)
    start = words.index(option + " ")
    nxt = words.find(" --", start + len(option))
    return words[start:nxt]


# ---- lnrnn train

def test_a_full_disk_mid_run_is_one_line_that_says_how_to_go_on(tmp_path, monkeypatch):
    out = tmp_path / "run"
    failed = out / "updates.jsonl"

    def full(cfg, **kw):
        raise OSError(errno.ENOSPC, "No space left on device", str(failed))
    monkeypatch.setattr(lnrnn.training.train, "train", full)
    line = assert_clean_error(invoke("train", "--out", out, "-q"), "cannot write")
    assert line == (f"Error: cannot write {failed} (No space left on device): free some space there, then continue "
                    f"with `lnrnn train --out {out} --resume` (its last checkpoint is kept).")
    assert not out.exists()


def test_an_error_that_is_no_refusal_of_the_file_system_stays_a_traceback(tmp_path, monkeypatch):
    def missing(cfg, **kw):
        raise OSError(errno.ENOENT, "No such file or directory", str(tmp_path / "x"))
    monkeypatch.setattr(lnrnn.training.train, "train", missing)
    r = invoke("train", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 1 and isinstance(r.exception, OSError) and r.exception.errno == errno.ENOENT


def test_epochs_default_is_named_in_the_help_and_reaches_the_trainer(tmp_path, monkeypatch):
    r = invoke("train", "--help")
    assert_ok(r)
    # the command's own docstring: "20 epochs" with no options
    assert option_help(r.output, "--epochs") == "--epochs INTEGER Passes over the training set. [default: 20]"
    seen = []
    monkeypatch.setattr(lnrnn.training.train, "train", lambda cfg, **kw: seen.append(cfg.epochs))
    assert_ok(invoke("train", "--out", tmp_path / "a", "-q"))
    assert_ok(invoke("train", "--out", tmp_path / "b", "-q", "--epochs", 3))
    assert seen == [20, 3]


# ---- lnrnn sample: refusals before any run is read (the run folder named here does not exist)

def refused(tmp_path, *args):
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "no-run", "--out", out, *args)
    assert not out.exists() and sorted(os.listdir(tmp_path)) == []
    return r


@pytest.mark.parametrize("steps, words", [(20_001, "20,001"), (125_000, "125,000")])
def test_steps_past_the_cap_are_refused_in_thousands(tmp_path, steps, words):
    line = assert_clean_error(refused(tmp_path, "--steps", steps), "--steps")
    assert line == (f"Error: --steps {words} is more than the 20,000 points a sample may have (each is one step of "
                    "the model); pass --no-cap to draw them anyway.")


def test_steps_at_the_cap_pass_the_check(tmp_path):
    r = refused(tmp_path, "--steps", 20_000)
    assert r.exit_code != 0 and "--steps" not in r.stderr, r.stderr  # it goes on to the (missing) run


@pytest.mark.parametrize("count, texts, words", [
    (1, ["ab", "ba"], "--count 1 does not match the 2 --text lines"),
    (3, ["ab"], "--count 3 does not match the 1 --text line"),
    (1, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"], "--count 1 does not match the 11 --text lines"),
])
def test_count_against_text_lines_counts_the_lines(tmp_path, count, texts, words):
    args = [a for t in texts for a in ("--text", t)]
    line = assert_clean_error(refused(tmp_path, "--count", count, *args), "--count")
    assert line == f"Error: {words}: each line is one row; leave --count out."


def test_a_missing_prime_is_refused_under_its_own_option(tmp_path):
    prime = tmp_path / "p" / "prime.npy"
    line = assert_clean_error(refused(tmp_path, "--prime-strokes", prime, "--prime-text", "ab"), "prime")
    assert line == f"Error: --prime-strokes {prime}: no such file."


def test_a_prime_that_is_no_numpy_file_is_refused_under_its_own_option(tmp_path):
    prime = tmp_path / "prime.npy"
    prime.write_bytes(b"not numpy at all")
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "no-run", "--out", out, "--prime-strokes", prime,
               "--prime-text", "ab")
    line = assert_clean_error(r, "prime")
    assert line == f"Error: --prime-strokes {prime} cannot be read as stroke-3 (it is not a NumPy file)."
    assert sorted(os.listdir(tmp_path)) == ["prime.npy"]
