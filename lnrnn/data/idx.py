"""IDX files (the MNIST / Fashion-MNIST format), gzip-compressed or raw.

IDX layout: a 4-byte magic ``0x00 0x00 <type code> <ndim>``, then ``ndim`` big-endian uint32
dimensions, then the data, big-endian, row-major. Whether a file is gzip-compressed is decided by
its first two bytes (0x1f 0x8b), not by its name. Every failure is a ``DataError`` naming the file.
"""
import gzip
import math
import os
import zlib

import numpy as np

from lnrnn.errors import DataError

# IDX type code -> big-endian numpy dtype.
_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
_DTYPE_CODES = {np.dtype(v).newbyteorder("=").str.lstrip("<>|="): k for k, v in _IDX_TYPES.items()}

# Magic numbers of the MNIST-family files: uint8 with 3 dimensions (images), 1 dimension (labels).
IMAGES_MAGIC, LABELS_MAGIC = 2051, 2049
# The four standard files of MNIST and Fashion-MNIST (both use the same names).
MNIST_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "t10k": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}
GET_DATA_HINT = "get them with `lnrnn data mnist --dest DIR` (see data/README.md)"


def _read_bytes(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise DataError(f"IDX file {path} does not exist.") from None
    except OSError as e:
        raise DataError(f"cannot read IDX file {path}: {e.strerror or e}.") from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as e:
            raise DataError(f"{path} is a damaged or truncated gzip file ({e}); download it again.") from None
    return raw


def parse_idx(raw, name="<bytes>", magic=None):
    """Decode the bytes of an (uncompressed) IDX file into a native-endian array.

    ``magic``: the 4-byte magic number the file must have (2051 MNIST images, 2049 labels).
    """
    if len(raw) < 4:
        raise DataError(f"{name} is too short to be an IDX file ({len(raw)} bytes).")
    if magic is not None and int.from_bytes(raw[:4], "big") != magic:
        raise DataError(f"{name} has a bad magic number ({int.from_bytes(raw[:4], 'big')}, expected {magic}); "
                        "it is not the IDX file its name says.")
    zero, code, ndim = raw[:2], raw[2], raw[3]
    if zero != b"\x00\x00" or code not in _IDX_TYPES or ndim == 0:
        raise DataError(f"{name} is not an IDX file (bad magic number 0x{raw[:4].hex()}).")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise DataError(f"{name} is truncated inside its IDX header.")
    dims = tuple(int.from_bytes(raw[4 + 4 * k: 8 + 4 * k], "big") for k in range(ndim))
    dtype = np.dtype(_IDX_TYPES[code])
    expected = header + math.prod(dims) * dtype.itemsize  # Python ints: a huge header cannot wrap around
    if len(raw) < expected:
        raise DataError(f"{name} is truncated: its header promises shape {dims} ({expected} bytes) "
                        f"but it holds {len(raw)} bytes; download it again.")
    if len(raw) > expected:
        raise DataError(f"{name} has {len(raw) - expected} bytes after the {dims} array its header "
                        "describes; it is not a valid IDX file.")
    arr = np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims)
    return arr.astype(dtype.newbyteorder("="))  # native byte order, owns its memory


def read_idx(path, magic=None):
    """Read an IDX file (gzip or raw) -> ndarray in native byte order (see ``parse_idx``)."""
    return parse_idx(_read_bytes(path), str(path), magic)


def write_idx(path, arr, compress=None):
    """Write ``arr`` as an IDX file; gzip it when ``compress`` (default: path ends with .gz)."""
    arr = np.asarray(arr)
    key = arr.dtype.newbyteorder("=").str.lstrip("<>|=")
    if key not in _DTYPE_CODES:
        raise ValueError(f"IDX cannot store dtype {arr.dtype}")
    code = _DTYPE_CODES[key]
    head = bytes([0, 0, code, arr.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in arr.shape)
    data = head + np.ascontiguousarray(arr, dtype=_IDX_TYPES[code]).tobytes()
    if compress is None:
        compress = str(path).endswith(".gz")
    if compress:
        data = gzip.compress(data, mtime=0)
    with open(path, "wb") as f:
        f.write(data)


def _find(data_dir, stem):
    """Path of ``stem`` in data_dir as ``stem.gz``, ``stem``, or the ``x-images.idx3-ubyte`` spelling."""
    alt = stem.replace("-idx", ".idx")
    for name in (stem + ".gz", stem, alt + ".gz", alt):
        p = os.path.join(data_dir, name)
        if os.path.isfile(p):
            return p
    return None


def mnist_files_present(data_dir, split):
    """True when both files of ``split`` ('train' or 't10k') are in data_dir."""
    return all(_find(data_dir, s) is not None for s in MNIST_FILES[split])


def load_mnist_split(data_dir, split):
    """Images uint8 (N, H, W) and labels int64 (N,) of the 'train' or 't10k' files in data_dir."""
    if data_dir is None:
        raise DataError(f"this task reads MNIST-family IDX files: pass --data-dir DIR ({GET_DATA_HINT}).")
    if not os.path.isdir(data_dir):
        raise DataError(f"data directory {data_dir} does not exist ({GET_DATA_HINT}).")
    img_stem, lab_stem = MNIST_FILES[split]
    paths = [_find(data_dir, s) for s in (img_stem, lab_stem)]
    missing = [s + "[.gz]" for s, p in zip((img_stem, lab_stem), paths) if p is None]
    if missing:
        raise DataError(f"{data_dir} lacks {' and '.join(missing)}; {GET_DATA_HINT}.")
    images, labels = read_idx(paths[0], IMAGES_MAGIC), read_idx(paths[1], LABELS_MAGIC)
    if images.ndim != 3 or images.dtype != np.uint8:
        raise DataError(f"{paths[0]} should hold uint8 images (N, rows, cols), not {images.dtype} {images.shape}.")
    if labels.ndim != 1 or labels.dtype != np.uint8:
        raise DataError(f"{paths[1]} should hold uint8 labels (N,), not {labels.dtype} {labels.shape}.")
    if len(images) != len(labels):
        raise DataError(f"{paths[0]} holds {len(images)} image{'s' * (len(images) != 1)} but {paths[1]} holds "
                        f"{len(labels)} label{'s' * (len(labels) != 1)}; the two files do not belong together.")
    if labels.size and labels.max() > 9:
        raise DataError(f"{paths[1]} holds label {int(labels.max())}; MNIST-family labels are 0-9.")
    return images, labels.astype(np.int64)
