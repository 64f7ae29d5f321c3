"""Command refusals word for word, exit code non-zero and nothing written: lnrnn plot given one run folder twice ('a'
and './a': the first spelling named first), the MNIST check of lnrnn data naming the file's shape and MNIST's
published one ((10000,) for t10k labels)."""
import os

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.commands.data import verify
from lnrnn.data.idx import write_idx
from lnrnn.errors import DataError


def _refused(args, cwd):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        os.chdir(old)
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit), repr(result.exception)
    return [line for line in result.stderr.splitlines() if line.startswith("Error:")]


def test_plot_of_one_folder_twice_names_the_first_spelling_first(tmp_path):
    (tmp_path / "a").mkdir()
    errors = _refused(["plot", "a", "./a", "--out", "p.png"], tmp_path)
    assert errors == ["Error: a and ./a are the same run folder; give each run once."]
    assert sorted(os.listdir(tmp_path)) == ["a"] and os.listdir(tmp_path / "a") == []


def test_mnist_check_names_the_files_shape_and_mnists(tmp_path):
    path = tmp_path / "labels"
    write_idx(path, np.zeros(5, np.uint8))
    with pytest.raises(DataError) as e:
        verify(path, "t10k-labels-idx1-ubyte.gz")
    assert str(e.value) == "t10k-labels-idx1-ubyte.gz holds an array of shape (5,), not the (10000,) of MNIST."
