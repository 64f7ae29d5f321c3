"""Every reader of .npz files on an archive of numpy.savez_compressed (the form lnrnn's own stroke files take)
whose compressed bytes are damaged inside a member, where reading the member raises zlib.error, not an OSError or
zipfile's BadZipFile: the npz task's file, a strokes file, lnrnn read's lines and a sampler's --prime-strokes each
refuse it in one sentence naming the file, and lnrnn train --task npz exits with one Error line."""
import zipfile
import zlib

import numpy as np
import pytest

from lnrnn import sample
from lnrnn.data import arrays, stroke_files
from lnrnn.errors import UserError

from test_cli import assert_clean_error, invoke
from test_values170_stroke_files import refusal  # the text of the DataError a call raises


def stroke3(n, seed=0):
    rng = np.random.default_rng(seed)
    return np.c_[rng.standard_normal((n, 2)).round(2), rng.integers(0, 2, n)].astype(np.float64)


def damaged(path, **named):
    """Write named arrays with numpy.savez_compressed, then invert 60 bytes inside the first member's compressed
    data (the zip structure and the member's header stay whole) -> path."""
    np.savez_compressed(path, **named)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.infolist()[0]
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    assert info.compress_type == zipfile.ZIP_DEFLATED and info.compress_size > 400
    for k in range(start + 200, start + 260):
        raw[k] ^= 0xFF
    path.write_bytes(bytes(raw))
    with np.load(path) as f, pytest.raises(zlib.error):      # what numpy meets: neither OSError nor BadZipFile
        f[info.filename[:-len(".npy")]]
    return path


def test_the_npz_task_file(tmp_path):
    rng = np.random.default_rng(1)
    path = damaged(tmp_path / "d.npz", x=rng.standard_normal((200, 10, 3)).round(2), y=rng.integers(0, 3, 200))
    got = refusal(arrays.read_file, str(path))
    assert got.startswith(f"{path} is a damaged .npz file (") and got.endswith(").")
    assert "decompressing" in got


def test_a_strokes_file(tmp_path):
    path = damaged(tmp_path / "s.npz", strokes=stroke3(3000), lengths=np.array([1000, 2000]))
    got = refusal(stroke_files.load, str(path))
    assert got.startswith(f"{path} is a damaged .npz file (") and got.endswith(").")


def test_the_lines_lnrnn_read_takes(tmp_path):
    path = damaged(tmp_path / "lines.npz", points=stroke3(3000), lengths=np.array([3000]))
    got = refusal(stroke_files.read_lines, str(path))
    assert got.startswith(f"{path} is not a readable .npz/.npy file (") and got.endswith(").")


def test_a_prime_for_the_sampler(tmp_path):
    path = damaged(tmp_path / "prime.npz", points=stroke3(3000), lengths=np.array([3000]))
    with pytest.raises(UserError) as e:
        sample.read_stroke3(str(path), "--prime-strokes")
    assert str(e.value) == f"--prime-strokes {path} cannot be read as stroke-3 (it is not a NumPy file)."


def test_lnrnn_train_on_it_says_one_line(tmp_path):
    rng = np.random.default_rng(2)
    path = damaged(tmp_path / "d.npz", x=rng.standard_normal((200, 10, 3)).round(2), y=rng.integers(0, 3, 200))
    out = tmp_path / "run"
    line = assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, "--out", out, "-q"),
                              f"{path} is a damaged .npz file (")
    assert "Traceback" not in line
