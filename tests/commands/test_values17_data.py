"""lnrnn/commands/data.py (``lnrnn data mnist``) against a throw-away HTTP server serving a stand-in MNIST of one
small file (test_values_data's fixture): a --mirror without http:// or https:// is refused before anything is
fetched, a file of the wrong item count is refused for its shape, a download that breaks off or does not verify
leaves nothing in --dest, and the closing hint passes the folder to --data-dir."""
import urllib.request

import numpy as np

from lnrnn.data.idx import write_idx

from test_cli import assert_ok, invoke, mirror  # noqa: F401 - mirror: a fixture, a throw-away HTTP server
from test_values_data import LABELS, NAME, small_mnist  # noqa: F401 - small_mnist: a fixture


def errors(result):
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output + repr(result.exception)
    return [line for line in result.stderr.splitlines() if line.startswith("Error:")]


def test_a_mirror_needs_its_scheme(tmp_path, small_mnist):
    for bad in ("httpmirror/", "https:/mirror/", "ftp://mirror/"):
        r = invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", bad, "--subset", "test", "-q")
        assert any("--mirror must be an http:// or https:// URL" in e for e in errors(r)), r.stderr


def test_a_file_of_another_item_count_is_refused_for_its_shape(tmp_path, small_mnist):
    root, url = small_mnist
    write_idx(root / NAME, np.append(LABELS, 9).astype(np.uint8))  # 6 labels, MNIST says 5
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert any("holds an array of shape (6,), not the (5,)" in e for e in errors(r)), r.stderr
    assert list(dest.iterdir()) == []


def test_a_download_that_does_not_verify_leaves_nothing(tmp_path, small_mnist):
    root, url = small_mnist
    write_idx(root / NAME, LABELS[::-1].copy())  # the right shape, other labels
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert any("checksum" in e for e in errors(r)), r.stderr
    assert list(dest.iterdir()) == []


def test_a_download_that_breaks_off_leaves_nothing(tmp_path, small_mnist, monkeypatch):
    class Broken:
        headers = {"Content-Length": "100"}
        sent = False

        def read(self, n):
            if self.sent:
                raise OSError("connection reset by peer")
            self.sent = True
            return b"\x1f\x8b" + bytes(10)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(urllib.request, "urlopen", lambda url, timeout=None: Broken())
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", "https://example.invalid/", "--subset", "test", "-q")
    assert any("broke off" in e for e in errors(r)), r.stderr
    assert list(dest.iterdir()) == []


def test_the_hint_names_the_folder(tmp_path, small_mnist):
    root, url = small_mnist
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert r.stdout.splitlines()[-1] == f"Use it with: lnrnn train --task mnist --data-dir {dest}"
