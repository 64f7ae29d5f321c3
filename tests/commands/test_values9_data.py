"""lnrnn/commands/data.py by value: each --subset names exactly its pair of files, and a downloaded file gets
the mode open() would give under the user's umask (mkstemp alone makes it owner-only), on a throw-away HTTP
server serving a stand-in MNIST file (its checksum computed here)."""
import hashlib
import os
import stat

import numpy as np
import pytest

from lnrnn.commands import data as data_cmd
from lnrnn.data.idx import write_idx

from test_cli import assert_ok, invoke, mirror  # noqa: F401 - mirror: a fixture, a throw-away HTTP server

NAME = "t10k-labels-idx1-ubyte.gz"


def test_each_subset_is_its_pair_of_files():
    train = ["train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"]
    test = ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"]
    assert sorted(data_cmd.SUBSETS["train"]) == train
    assert sorted(data_cmd.SUBSETS["test"]) == test
    assert sorted(data_cmd.SUBSETS["all"]) == sorted(train + test)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640)])
def test_a_downloaded_file_gets_the_mode_the_umask_gives(tmp_path, monkeypatch, mirror, mask, mode):  # noqa: F811
    root, url = mirror
    labels = np.array([2, 7, 1], np.uint8)
    write_idx(root / NAME, labels)
    raw = bytes([0, 0, 8, 1]) + (3).to_bytes(4, "big") + labels.tobytes()
    monkeypatch.setattr(data_cmd, "MNIST", {NAME: (hashlib.md5(raw).hexdigest(), (3,), "", "")})
    monkeypatch.setitem(data_cmd.SUBSETS, "test", [NAME])
    old = os.umask(mask)
    try:
        r = invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", url, "--subset", "test", "-q")
    finally:
        os.umask(old)
    assert_ok(r)
    assert stat.S_IMODE(os.stat(tmp_path / "d" / NAME).st_mode) == mode
