"""``lnrnn data mnist`` by value (round 367 of the planted bugs, tests/mutants/mutants_values367.py), through
click's CliRunner against a throw-away mirror or a urlopen stand-in. Without --mirror the files are asked of the
documented default, the ossci-datasets copy over https, under their standard names. A download that cannot
start is one 'Error:' line naming the URL and the reason word for word (a URLError's own reason, an OSError
itself). A served file of the wrong shape is refused naming both shapes, the expected one being the MNIST test
set's 10000 images of 28 x 28 (whether it comes gzipped, or raw and larger than one 64 KiB chunk), and nothing is
kept in --dest. A file already in --dest that verifies is kept and the mirror, which no longer serves it, is not
asked."""
import gzip
import os
import urllib.error

import numpy as np

from lnrnn.commands import data as data_cmd
from lnrnn.data.idx import write_idx
from test_cli import assert_ok, invoke, mirror  # noqa: F401 - mirror: a fixture
from test_values221_sample_cli import exact_error
from test_values_data import NAME, small_mnist  # noqa: F401 - small_mnist: a fixture

IMAGES = "t10k-images-idx3-ubyte.gz"   # the first file --subset test asks for


def images_idx(n):
    """The uncompressed IDX bytes of n images of 28 x 28, written out by hand: magic 0x00000803, n, 28, 28."""
    pix = (np.arange(n * 28 * 28) % 251).astype(np.uint8)
    return bytes([0, 0, 8, 3]) + n.to_bytes(4, "big") + (28).to_bytes(4, "big") + (28).to_bytes(4, "big") + \
        pix.tobytes()


def refusing(monkeypatch, error):
    """urlopen records the URLs it is asked for and raises ``error``."""
    asked = []

    def urlopen(url, timeout=None):
        asked.append(url)
        raise error

    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", urlopen)
    return asked


def test_the_default_mirror_is_the_ossci_copy_over_https(tmp_path, monkeypatch):
    asked = refusing(monkeypatch, urllib.error.URLError("no route"))
    want = "https://ossci-datasets.s3.amazonaws.com/mnist/" + IMAGES
    r = invoke("data", "mnist", "--dest", tmp_path / "d", "--subset", "test", "-q")
    exact_error(r, f"could not download {want} (no route); check your network or --mirror.")
    assert asked == [want]
    helped = invoke("data", "mnist", "--help")
    # the help wraps the URL at its hyphen: compare without white space
    assert "[default:https://ossci-datasets.s3.amazonaws.com/mnist/]" in "".join(helped.stdout.split())


def test_a_url_error_names_its_reason_and_an_os_error_itself(tmp_path, monkeypatch):
    url = "http://mirror.invalid/m/"
    refusing(monkeypatch, urllib.error.URLError("Name or service not known"))
    r = invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", url, "--subset", "test", "-q")
    exact_error(r, f"could not download {url}{IMAGES} (Name or service not known); check your network or --mirror.")
    refusing(monkeypatch, TimeoutError("timed out"))
    r = invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", url, "--subset", "test", "-q")
    exact_error(r, f"could not download {url}{IMAGES} (timed out); check your network or --mirror.")
    assert os.listdir(tmp_path / "d") == []


def test_a_gzipped_file_of_two_images_is_refused_naming_the_10000_of_mnist(tmp_path, mirror):  # noqa: F811
    root, url = mirror
    (root / IMAGES).write_bytes(gzip.compress(images_idx(2)))
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    exact_error(r, f"{IMAGES} holds an array of shape (2, 28, 28), not the (10000, 28, 28) of MNIST.")
    assert r.stdout == "" and os.listdir(dest) == []


def test_a_raw_file_longer_than_one_chunk_is_read_whole(tmp_path, mirror):  # noqa: F811
    root, url = mirror
    raw = images_idx(100)                      # 78,416 bytes: more than 1 << 16
    assert len(raw) == 16 + 100 * 784 > 65536
    (root / IMAGES).write_bytes(raw)            # served as it is, not gzipped
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    exact_error(r, f"{IMAGES} holds an array of shape (100, 28, 28), not the (10000, 28, 28) of MNIST.")
    assert os.listdir(dest) == []


def test_a_verified_file_already_there_is_kept_without_asking(tmp_path, small_mnist):  # noqa: F811
    root, url = small_mnist
    dest = tmp_path / "d"
    dest.mkdir()
    write_idx(dest / NAME, np.array([3, 1, 4, 1, 5], np.uint8))   # the content small_mnist's checksum names
    os.utime(dest / NAME, (1, 1))
    (root / NAME).unlink()                      # the mirror would answer 404
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert r.stdout == (f"{dest / NAME}: already present and verified.\n"
                        f"Use it with: lnrnn train --task mnist --data-dir {dest}\n")
    assert os.listdir(dest) == [NAME] and os.stat(dest / NAME).st_mtime == 1
