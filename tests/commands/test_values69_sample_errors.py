"""lnrnn/commands/sample.py: option combinations that cannot work are refused in one line naming the option, before
the run is read (the --checkpoint below does not exist, so any later refusal would name it instead) and with
no picture, .npz or judge file written: --count that is not the number of --text lines, --prime-strokes and
--prime-text apart, --judge-out without --judge (with --text given or not), --attention or --judge without
--text, a --steps or --count below 1, a --bias that is negative or NaN."""
import os

import numpy as np
import pytest

from test_cli import assert_clean_error, invoke


def sample(tmp_path, *args):
    return invoke("sample", "--checkpoint", tmp_path / "no-run", "--out", tmp_path / "s.svg", *args)


def assert_nothing_written(tmp_path, *keep):
    assert sorted(os.listdir(tmp_path)) == sorted(keep)


@pytest.mark.parametrize("count", [1, 3, 4])
def test_a_count_other_than_the_lines_is_refused(tmp_path, count):
    line = assert_clean_error(sample(tmp_path, "--text", "ab", "--text", "cd", "--count", count), "--count")
    assert f"--count {count}" in line and "2 --text lines" in line
    assert_nothing_written(tmp_path)


@pytest.mark.parametrize("given,needed", [("--prime-strokes", "--prime-text"), ("--prime-text", "--prime-strokes")])
def test_a_prime_needs_its_points_and_its_text(tmp_path, given, needed):
    np.save(tmp_path / "p.npy", np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 1.0]], np.float32))
    value = tmp_path / "p.npy" if given == "--prime-strokes" else "hello"
    line = assert_clean_error(sample(tmp_path, "--text", "ab", given, value), given)
    assert f"{given} needs {needed}" in line
    assert_nothing_written(tmp_path, "p.npy")


@pytest.mark.parametrize("texts", [(), ("--text", "ab")])
def test_judge_out_needs_judge(tmp_path, texts):
    line = assert_clean_error(sample(tmp_path, *texts, "--judge-out", tmp_path / "j.json"), "--judge-out")
    assert "--judge READER_RUN_FOLDER" in line
    assert_nothing_written(tmp_path)


@pytest.mark.parametrize("args,words", [
    (("--attention",), "--attention"),
    (("--judge", "elsewhere"), "--judge"),
    (("--steps", 0), "--steps must be at least 1"),
    (("--count", 0), "--count must be at least 1"),
    (("--bias", -0.5), "--bias"),
    (("--bias", "nan"), "--bias"),
])
def test_values_and_combinations_that_cannot_work(tmp_path, args, words):
    assert_clean_error(sample(tmp_path, *args), words)
    assert_nothing_written(tmp_path)
