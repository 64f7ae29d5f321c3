"""lnrnn sample --prime-strokes names a file: a folder given there (with or without a trailing separator) is
refused as a directory by the option itself, one line naming the option, and nothing is written (before, a folder
was taken for a file of the wrong kind: "must be a .npz ... or a .npy stroke-3 file", which it may well hold).
test_sample_text's one-layer synthesis run; a good prime file inside the same folder is accepted by the same
command."""
import os

import numpy as np
import pytest

from test_sample_text import invoke, one_line_error, save_run, text_model


@pytest.mark.parametrize("trailing", [False, True])
def test_a_folder_as_prime_strokes_is_refused_as_a_directory(tmp_path, trailing):
    run = save_run(tmp_path / "run", text_model())
    folder = tmp_path / "primes"
    folder.mkdir()
    np.save(folder / "good.npy", np.array([[0, 0, 0], [1, 2, 1]], np.float32))
    out = tmp_path / "out.png"
    given = str(folder) + (os.sep if trailing else "")
    r = invoke("sample", "--checkpoint", run, "--steps", 5, "--out", out, "--text", "ab",
               "--prime-strokes", given, "--prime-text", "ab")
    one_line_error(r, "--prime-strokes", "is a directory")
    assert not out.exists()
    ok = invoke("sample", "--checkpoint", run, "--steps", 5, "--out", out, "--text", "ab",
                "--prime-strokes", folder / "good.npy", "--prime-text", "ab")
    assert ok.exit_code == 0, ok.output
    assert out.exists()
