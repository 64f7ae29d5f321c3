"""``lnrnn data mnist``: download the four standard MNIST files and verify them.

Verification: the MD5 of each file's *uncompressed* content must equal the published value (so any
mirror's gzip recompression is fine), and its IDX header must give the expected shape. The MD5 and
SHA-256 of the canonical .gz files are listed too (``MNIST``) for reference; they are the values
published by torchvision and TensorFlow Datasets for yann.lecun.com / ossci-datasets copies.
A file is written under its final name only after it verified (temp file + rename).
"""
import gzip
import hashlib
import os
import tempfile
import urllib.error
import urllib.request
import zlib

import click

from lnrnn.data.idx import IMAGES_MAGIC, LABELS_MAGIC, parse_idx
from lnrnn.errors import DataError, UserError
from lnrnn.training.progress import Progress

DEFAULT_MIRROR = "https://ossci-datasets.s3.amazonaws.com/mnist/"
# name: (md5 of uncompressed content, shape, md5 of the .gz, sha256 of the .gz)
MNIST = {
    "train-images-idx3-ubyte.gz": ("6bbc9ace898e44ae57da46a324031adb", (60000, 28, 28),
                                   "f68b3c2dcbeaaa9fbdd348bbdeb94873",
                                   "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"),
    "train-labels-idx1-ubyte.gz": ("a25bea736e30d166cdddb491f175f624", (60000,),
                                   "d53e105ee54ea40749a09fcbcd1e9432",
                                   "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c"),
    "t10k-images-idx3-ubyte.gz": ("2646ac647ad5339dbf082846283269ea", (10000, 28, 28),
                                  "9fb629c4189551a2d022fa330f9573f3",
                                  "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6"),
    "t10k-labels-idx1-ubyte.gz": ("27ae3e4e09519cfbb04c329615203637", (10000,),
                                  "ec29112dd5afa0611ce80d1b7f02629c",
                                  "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6"),
}
SUBSETS = {"all": list(MNIST), "train": [n for n in MNIST if n.startswith("train")],
           "test": [n for n in MNIST if n.startswith("t10k")]}
TIMEOUT_S = 60


def verify(path, name):
    """Raise DataError unless ``path`` holds the genuine content of MNIST file ``name``."""
    md5, shape = MNIST[name][:2]
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as e:
            raise DataError(f"{name} is a damaged gzip file ({e}); download it again.") from None
    arr = parse_idx(raw, name, IMAGES_MAGIC if "images" in name else LABELS_MAGIC)
    if arr.shape != shape:
        raise DataError(f"{name} holds an array of shape {arr.shape}, not the {shape} of MNIST.")
    if hashlib.md5(raw).hexdigest() != md5:
        raise DataError(f"{name} does not match the published MNIST checksum (MD5 {md5} of its content); "
                        "the mirror serves different data.")


class _WriteFailed(Exception):
    """Writing the downloaded bytes failed (args[0]: the OSError), as opposed to reading them."""


def download(url, dest_path, quiet):
    """Stream url into a temp file beside dest_path; returns the temp path."""
    try:
        resp = urllib.request.urlopen(url, timeout=TIMEOUT_S)  # noqa: S310 - http(s) checked by caller
    except urllib.error.HTTPError as e:
        raise UserError(f"the mirror answered HTTP {e.code} for {url}; check --mirror.") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise UserError(f"could not download {url} ({reason}); check your network or --mirror.") from None
    total = int(resp.headers.get("Content-Length") or 0)
    bar = Progress(total or None, os.path.basename(dest_path), quiet=quiet, unit="bytes")  # None: size unknown
    fd, tmp = tempfile.mkstemp(prefix=".download-", dir=os.path.dirname(dest_path))
    from lnrnn.files import umask
    os.fchmod(fd, 0o666 & ~umask())  # the mode open() would give (mkstemp alone: owner-only)
    try:
        with os.fdopen(fd, "wb") as f, resp:
            while True:
                chunk = resp.read(1 << 16)
                if not chunk:
                    break
                try:
                    f.write(chunk)
                    f.flush()  # a full disk shows here, not as a read error at close
                except OSError as e:
                    try:  # closed now: the with-block's close would flush the failed bytes again and fail
                        f.close()
                    except OSError:
                        pass
                    raise _WriteFailed(e) from None
                bar.update(len(chunk))
    except _WriteFailed as w:
        from lnrnn.files import space_hint

        os.unlink(tmp)
        e = w.args[0]
        raise UserError(f"cannot write {dest_path} ({e.strerror or e}): {space_hint(e)} or choose another --dest; "
                        "nothing was kept.") from None
    except (OSError, urllib.error.URLError) as e:
        os.unlink(tmp)
        raise UserError(f"the download of {url} broke off ({e}); run the command again.") from None
    except BaseException:
        os.unlink(tmp)
        raise
    bar.total = max(bar.done, 1)
    bar.close()
    return tmp


def check_dest(dest):
    """Create the folder --dest, or raise a UserError saying why it cannot be written (before any download)."""
    if not str(dest).strip():
        raise UserError(f"--dest {str(dest)!r} names no folder; give the folder to download into.")
    from lnrnn.files import nearest_existing, write_error

    probe = nearest_existing(os.path.abspath(dest))
    if not os.path.isdir(probe):
        raise UserError(f"{probe} is a file, not a folder, so --dest {dest} cannot be made there; choose another "
                        "--dest.")
    e = write_error(probe)
    if e is None:
        try:
            os.makedirs(dest, exist_ok=True)
        except OSError as err:
            e = err
    if e is not None:
        where = "" if probe == os.path.abspath(dest) else f", where --dest {dest} would be created"
        raise UserError(f"cannot write to {probe}{where} ({e.strerror or e}); choose another --dest or make it "
                        "writable.")


@click.group("data")
def data():
    """Download data sets."""


@data.command("mnist")
@click.option("--dest", required=True, type=click.Path(file_okay=False),
              help="Folder to put the four .gz files in (created if needed); pass it to --data-dir.")
@click.option("--mirror", default=DEFAULT_MIRROR, show_default=True,
              help="Base URL serving train-images-idx3-ubyte.gz and the three other files.")
@click.option("--subset", type=click.Choice(list(SUBSETS)), default="all", show_default=True,
              help="Which files: all four, the 60k training pair, or the 10k test (t10k) pair.")
@click.option("--quiet", "-q", is_flag=True, default=False, help="No progress bar on stderr.")
def mnist(dest, mirror, subset, quiet):
    """Download the standard MNIST IDX files and verify their checksums.

    Files already in DEST that verify are kept; nothing is written under its final name before it
    verified. Fashion-MNIST uses the same file names and format: see data/README.md.
    """
    if not mirror.startswith(("http://", "https://")):
        raise UserError(f"--mirror must be an http:// or https:// URL, not {mirror!r}.")
    check_dest(dest)
    for name in SUBSETS[subset]:
        path = os.path.join(dest, name)
        if os.path.isfile(path):
            try:
                verify(path, name)
                click.echo(f"{path}: already present and verified.")
                continue
            except DataError:
                pass  # replace it with a fresh copy
        url = mirror.rstrip("/") + "/" + name
        tmp = download(url, path, quiet)
        try:
            verify(tmp, name)
        except DataError:
            os.unlink(tmp)
            raise
        os.replace(tmp, path)
        click.echo(f"{path}: downloaded from {url}, content MD5 {MNIST[name][0]} verified.")
    click.echo(f"Use it with: lnrnn train --task mnist --data-dir {dest}")
