"""lnrnn/commands/data.py (``lnrnn data mnist``) against a throw-away HTTP server, on a stand-in MNIST of one
small file (its checksum computed here): the URL a --mirror without its trailing slash gives, and a file
already in --dest that does not verify is downloaded again, not kept."""
import hashlib

import numpy as np
import pytest

from lnrnn.commands import data as data_cmd
from lnrnn.data.idx import write_idx

from test_cli import assert_ok, invoke, mirror  # noqa: F401 - mirror: a fixture, a throw-away HTTP server

NAME = "t10k-labels-idx1-ubyte.gz"
LABELS = np.array([3, 1, 4, 1, 5], np.uint8)


@pytest.fixture
def small_mnist(monkeypatch, mirror):  # noqa: F811
    """The mirror serves NAME (5 labels); data mnist --subset test asks for it alone, and knows its checksum."""
    root, url = mirror
    write_idx(root / NAME, LABELS)
    raw = bytes([0, 0, 8, 1]) + (5).to_bytes(4, "big") + LABELS.tobytes()  # the IDX content, uncompressed
    monkeypatch.setattr(data_cmd, "MNIST", {NAME: (hashlib.md5(raw).hexdigest(), (5,), "", "")})
    monkeypatch.setitem(data_cmd.SUBSETS, "test", [NAME])
    return root, url


def test_a_mirror_without_its_trailing_slash(tmp_path, small_mnist):
    root, url = small_mnist
    bare = url.rstrip("/")
    r = invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", bare, "--subset", "test", "-q")
    assert_ok(r)
    assert f"downloaded from {bare}/{NAME}" in r.stdout
    assert (tmp_path / "d" / NAME).read_bytes() == (root / NAME).read_bytes()


def test_a_present_file_is_kept_only_when_it_verifies(tmp_path, small_mnist):
    root, url = small_mnist
    dest = tmp_path / "d"
    dest.mkdir()
    write_idx(dest / NAME, LABELS[::-1].copy())       # the right shape, other labels
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert "downloaded from" in r.stdout and "already present" not in r.stdout
    assert (dest / NAME).read_bytes() == (root / NAME).read_bytes()
    (root / NAME).unlink()                            # a second run reads nothing from the mirror
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert f"{dest / NAME}: already present and verified." in r.stdout
