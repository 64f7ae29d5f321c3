"""lnrnn/commands/data.py (``lnrnn data mnist``): a file with the gzip magic that is damaged anywhere (its header,
its compressed data, its end) is a DataError naming it, so a damaged file in --dest is downloaded again and a
damaged download is refused in one line with nothing kept; a --dest that exists but cannot be written is
refused in one line before anything is fetched (run where folder permissions apply: as root, in a child without
the capabilities that override them)."""
import gzip
import os
import shutil
import subprocess
import sys

import pytest

from lnrnn.commands import data as data_cmd
from lnrnn.errors import DataError

from test_cli import assert_ok, invoke, mirror  # noqa: F401 - mirror: a fixture, a throw-away HTTP server
from test_values_data import NAME, small_mnist  # noqa: F401 - small_mnist: a fixture

GOOD = gzip.compress(bytes([0, 0, 8, 1]) + (5).to_bytes(4, "big") + bytes([3, 1, 4, 1, 5]))
DAMAGED = {
    "method": b"\x1f\x8b\x00" + GOOD[3:],                   # an unknown compression method in the header
    "magic": GOOD[:2],                                       # the magic and nothing else
    "data": GOOD[:10] + b"\xff" * (len(GOOD) - 18) + GOOD[-8:],   # the deflate stream garbled
    "end": GOOD[:-6],                                        # cut short
}


@pytest.mark.parametrize("how", list(DAMAGED))
def test_a_damaged_gzip_file_is_a_data_error(tmp_path, small_mnist, how):
    path = tmp_path / NAME
    path.write_bytes(DAMAGED[how])
    with pytest.raises(DataError, match=NAME):
        data_cmd.verify(str(path), NAME)


@pytest.mark.parametrize("how", ["method", "magic"])
def test_a_damaged_file_in_dest_is_downloaded_again(tmp_path, small_mnist, how):
    root, url = small_mnist
    dest = tmp_path / "d"
    dest.mkdir()
    (dest / NAME).write_bytes(DAMAGED[how])
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert "downloaded from" in r.stdout
    assert (dest / NAME).read_bytes() == (root / NAME).read_bytes()


@pytest.mark.parametrize("how", ["method", "magic"])
def test_a_damaged_download_is_one_line_and_leaves_nothing(tmp_path, small_mnist, how):
    root, url = small_mnist
    (root / NAME).write_bytes(DAMAGED[how])
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert r.exit_code != 0 and "Traceback" not in r.output, r.output + repr(r.exception)
    errors = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(errors) == 1 and "damaged gzip file" in errors[0], r.stderr
    assert os.listdir(dest) == []


def _unprivileged(args):
    argv = [sys.executable, "-m", "lnrnn.cli", *map(str, args)]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: folder permissions cannot be made to apply")
        argv = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] + argv
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_a_read_only_dest_is_refused_before_any_download(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    try:
        for dest in (ro, ro / "new"):
            # a mirror nobody answers: had the command tried to download, it would say so instead
            code, stdout, stderr = _unprivileged(["data", "mnist", "--dest", dest, "--mirror", "http://127.0.0.1:9/",
                                                  "--subset", "test", "-q"])
            assert code == 2 and stdout == "" and "Traceback" not in stderr, stderr
            errors = [ln for ln in stderr.splitlines() if ln.strip()]
            assert len(errors) == 1 and f"cannot write to {ro}" in errors[0] and "--dest" in errors[0], stderr
            assert "download" not in errors[0]
            assert os.listdir(ro) == []
    finally:
        os.chmod(ro, 0o755)
