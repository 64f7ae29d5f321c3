"""The commands through click's CliRunner: lnrnn sample --attention without --text, and lnrnn export to a path
whose suffix disagrees with the format, to a name ending in a separator or to a folder (click's own check),
refused in one Error: line before the run is read (the run loader is a fake that fails the test if called),
nothing written; lnrnn train's failed write (a faked trainer raising ENOSPC) names the file the OS refused
and says how to resume; lnrnn data mnist verifies a gzip file by its decompressed content (IDX bytes and MD5
computed here) and, with a faked download, writes into a --dest that already exists."""
import errno
import gzip
import hashlib
import os
import struct

import pytest

import lnrnn.api
import lnrnn.commands.data as data_cmd
from test_cli import assert_clean_error, invoke


@pytest.fixture
def no_run(monkeypatch):
    def fail(*a, **k):
        raise AssertionError("the run was read before the options were checked")
    monkeypatch.setattr(lnrnn.api, "load_run", fail)


def test_sample_attention_needs_text_before_the_run_is_read(tmp_path, no_run):
    line = assert_clean_error(invoke("sample", "--checkpoint", tmp_path, "--out", tmp_path / "s.svg",
                                     "--attention"), "--attention")
    assert "--text" in line
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name,words", [("w.pt", "ends in .pt"), ("w", "has no suffix"),
                                        ("sub" + os.sep, "names a folder"), ("d", "is a directory")])
def test_export_refuses_a_path_before_the_run_is_read(tmp_path, no_run, name, words):
    (tmp_path / "d").mkdir()
    line = assert_clean_error(invoke("export", "--checkpoint", tmp_path, "--out", str(tmp_path) + os.sep + name), words)
    assert "--out" in line
    assert os.listdir(tmp_path) == ["d"]


def test_train_names_the_file_it_could_not_write(tmp_path, monkeypatch):
    import lnrnn.training.train as trainer
    bad = str(tmp_path / "run" / "checkpoint.npz")

    def full_disk(cfg, **k):
        raise OSError(errno.ENOSPC, "No space left on device", bad)
    monkeypatch.setattr(trainer, "train", full_disk)
    out = tmp_path / "run"
    result = invoke("train", "--task", "copy", "--out", out)
    line = assert_clean_error(result, "cannot write")          # a UserError: exit 2
    assert bad in line and "free some space" in line and f"--out {out} --resume" in line


def labels_idx(values):
    return struct.pack(">II", 2049, len(values)) + bytes(values)     # IDX: magic, count, then the bytes


@pytest.fixture
def tiny_mnist(monkeypatch):
    """MNIST's labels file made 6 labels long here, with its MD5 computed here."""
    raw = labels_idx([3, 1, 4, 1, 5, 9])
    name = "train-labels-idx1-ubyte.gz"
    monkeypatch.setitem(data_cmd.MNIST, name, (hashlib.md5(raw).hexdigest(), (6,)) + data_cmd.MNIST[name][2:])
    monkeypatch.setitem(data_cmd.SUBSETS, "train", [name])
    return name, raw


def test_a_gzip_file_is_verified_by_its_content(tmp_path, tiny_mnist):
    name, raw = tiny_mnist
    (tmp_path / name).write_bytes(gzip.compress(raw))
    data_cmd.verify(str(tmp_path / name), name)
    (tmp_path / "plain").write_bytes(raw)                 # not compressed: read as it is
    data_cmd.verify(str(tmp_path / "plain"), name)
    (tmp_path / "other").write_bytes(gzip.compress(labels_idx([3, 1, 4, 1, 5, 8])))
    with pytest.raises(data_cmd.DataError, match="checksum"):
        data_cmd.verify(str(tmp_path / "other"), name)


def test_mnist_downloads_into_a_dest_that_exists(tmp_path, tiny_mnist, monkeypatch):
    name, raw = tiny_mnist
    dest = tmp_path / "mnist"
    dest.mkdir()
    served = []

    def fake_download(url, dest_path, quiet):
        served.append(url)
        tmp = dest_path + ".part"
        with open(tmp, "wb") as f:
            f.write(gzip.compress(raw))
        return tmp
    monkeypatch.setattr(data_cmd, "download", fake_download)
    result = invoke("data", "mnist", "--dest", dest, "--subset", "train", "--mirror", "https://example.org/m")
    assert result.exit_code == 0, result.output
    assert served == ["https://example.org/m/" + name]
    assert sorted(os.listdir(dest)) == [name]
    assert gzip.decompress((dest / name).read_bytes()) == raw
