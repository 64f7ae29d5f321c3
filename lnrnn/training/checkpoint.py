"""Checkpoints without pickle: arrays in ``.npz`` plus a JSON description, written atomically.

A checkpoint in directory ``DIR`` is two files:

    DIR/checkpoint.json            the description (the commit record): format and version, model
                                   config, task spec, train config, optimizer kind/hyper-parameters/step,
                                   epoch, step, RNG state, metrics history, and the name, SHA-256, and
                                   per-array shape/dtype of the arrays file
    DIR/checkpoint-<step>-<tag>.npz  every array (parameters, buffers, optimizer slots), read with
                                   ``allow_pickle=False``

Saving writes a new, uniquely named npz (temp file + fsync + ``os.replace``), then replaces the JSON
the same way, then deletes arrays files the JSON no longer names. A crash at any point leaves the
previous checkpoint or the new one complete, never a mix. Files get the permissions the user's umask
gives any new file (``mkstemp`` alone would make them owner-only). Two runs must not save into one
folder at once: ``lnrnn.training.rundir.RunLock`` keeps them apart. A run also keeps ``DIR/best/`` (the
checkpoint of its best validation metric: model arrays only, ``"best"`` in its description) and, with
``--keep N``, its last N checkpoints in ``DIR/checkpoints/update-<step>/``; each is a checkpoint folder.
Loading verifies the hash, names, shapes and dtypes, and (when asked) that the model config matches; every problem is a ``CheckpointError``.
"""
import hashlib
import json
import os
import secrets

import numpy as np

from lnrnn.errors import DAMAGED_NUMPY_FILE, CheckpointError, too_large, whole_number
from lnrnn.files import atomic_write, atomic_write_text

FORMAT = "lnrnn-checkpoint"
VERSION = 1
DESCRIPTION = "checkpoint.json"


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def save_checkpoint(directory, arrays, meta):
    """Save ``arrays`` (dict name -> ndarray) and ``meta`` (JSON-able dict) as DIR's checkpoint. A save that
    cannot be written (a full disk, a read-only folder) is a CheckpointError naming DIR, what it needs
    and the checkpoint kept there; the new arrays file is removed, the previous checkpoint stays whole."""
    name = f"checkpoint-{int(meta.get('step', 0)):09d}-{secrets.token_hex(4)}.npz"
    npz_path = os.path.join(directory, name)
    arrays = {k: np.asarray(v, order="C") for k, v in arrays.items()}  # not ascontiguousarray: it makes () (1,)
    try:
        os.makedirs(directory, exist_ok=True)
        atomic_write(npz_path, lambda f: np.savez(f, **arrays))
        record = dict(meta)
        record.update(format=FORMAT, version=VERSION, arrays_file=name, arrays_sha256=_sha256(npz_path),
                      arrays={k: [list(v.shape), v.dtype.str] for k, v in arrays.items()})
        atomic_write_text(os.path.join(directory, DESCRIPTION), json.dumps(record, indent=1) + "\n")
    except OSError as e:
        if os.path.exists(npz_path):
            os.unlink(npz_path)  # the description still names the previous arrays file
        raise _save_error(directory, meta, arrays, e) from None
    _drop_other_arrays(directory, name)
    return os.path.join(directory, DESCRIPTION)


def _save_error(directory, meta, arrays, e):
    """The CheckpointError of a failed save: where, why, what it needs, and what was kept."""
    from lnrnn.files import space_hint
    from lnrnn.training.memory import format_bytes

    size = format_bytes(sum(v.nbytes for v in arrays.values()))
    try:
        with open(os.path.join(directory, DESCRIPTION), "rb") as f:
            kept = f"the checkpoint of update {json.loads(f.read().decode('utf-8'))['step']} there is kept whole"
    except (OSError, ValueError, KeyError, TypeError):
        kept = "nothing was written there"
    return CheckpointError(f"cannot save the checkpoint of update {meta.get('step', 0)} in {directory} "
                           f"({e.strerror or e}; it needs about {size}): {space_hint(e)}; {kept}.")


BEST_DIR = "best"            # RUN/best/: the checkpoint with the best validation metric (lnrnn.training.train)
PAST_DIR = "checkpoints"    # RUN/checkpoints/update-<step>/: the last --keep checkpoints


def keep_past(directory, keep):
    """Copy DIR's latest checkpoint into DIR/checkpoints/update-<step>/ (the arrays file hard-linked where the
    file system allows, else copied; each file written atomically) and delete all but the newest ``keep``
    of them (a copy that is already gone, removed by hand meanwhile, is no error). Each is a checkpoint any
    command loads (``--checkpoint DIR/checkpoints/update-000000140``)."""
    import shutil

    with open(os.path.join(directory, DESCRIPTION), "rb") as f:
        text = f.read().decode("utf-8")
    meta = json.loads(text)
    past = os.path.join(directory, PAST_DIR)
    dest = os.path.join(past, f"update-{int(meta['step']):09d}")
    name = meta["arrays_file"]
    tmp = os.path.join(dest, ".tmp-" + name)
    try:
        os.makedirs(dest, exist_ok=True)
        if not os.path.exists(os.path.join(dest, name)):
            try:
                os.link(os.path.join(directory, name), tmp)
            except OSError:
                shutil.copyfile(os.path.join(directory, name), tmp)
            os.replace(tmp, os.path.join(dest, name))
        atomic_write_text(os.path.join(dest, DESCRIPTION), text)
    except OSError as e:
        from lnrnn.files import space_hint

        shutil.rmtree(dest, ignore_errors=True)  # a half-made copy is no checkpoint
        raise CheckpointError(f"cannot keep a copy of the checkpoint of update {meta['step']} in {dest} "
                              f"({e.strerror or e}): {space_hint(e)}, or pass a smaller --keep; the run's own "
                              f"checkpoint in {directory} is saved.") from None
    _drop_other_arrays(dest, name)
    # the copies are the update-* folders: a file of such a name (a user's archive of one) is neither one nor deleted
    kept = sorted(d for d in os.listdir(past) if d.startswith("update-") and os.path.isdir(os.path.join(past, d)))
    for old in kept[:max(len(kept) - keep, 0)]:
        shutil.rmtree(os.path.join(past, old), ignore_errors=True)


def _drop_other_arrays(directory, name):
    """Delete the arrays files of ``directory`` other than ``name`` (superseded by its description)."""
    for old in os.listdir(directory):
        if old.startswith("checkpoint-") and old.endswith(".npz") and old != name:
            try:
                os.unlink(os.path.join(directory, old))
            except OSError:
                pass


def checkpoint_exists(directory):
    return os.path.isfile(os.path.join(directory, DESCRIPTION))


def model_mismatch(saved, expected):
    """'hidden_size 64 in the checkpoint vs 128 requested; ...' or '' when they agree."""
    diffs = [f"{k} {saved.get(k)!r} in the checkpoint vs {expected.get(k)!r} requested"
             for k in sorted(set(saved) | set(expected)) if saved.get(k) != expected.get(k)]
    return "; ".join(diffs)


def load_checkpoint(path, expected_model=None):
    """Load a checkpoint: ``path`` is its directory or any checkpoint* file in it -> (meta, arrays).

    ``expected_model``: a model config dict that ``meta['model']`` must equal. ``pretrained:NAME``: a run
    shipped with the package (``lnrnn.pretrained``).
    """
    from lnrnn.pretrained import resolve

    path = str(resolve(path))
    desc = os.path.join(path, DESCRIPTION) if os.path.isdir(path) else path
    sibling = os.path.join(os.path.dirname(path), DESCRIPTION)
    if not os.path.isdir(path) and os.path.basename(path).startswith("checkpoint") and os.path.isfile(sibling):
        desc = sibling  # e.g. runs/x/checkpoint.npz or an older checkpoint-*.npz: the run's description
    if not os.path.isfile(desc):
        raise CheckpointError(f"no checkpoint at {path} (expected {desc}); train one with "
                              "`lnrnn train --out DIR` first.")
    try:
        with open(desc, "rb") as f:
            meta = json.loads(f.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        if os.path.basename(desc) != DESCRIPTION:  # some other file named as the checkpoint
            raise CheckpointError(f"{desc} is not a run folder or its {DESCRIPTION}; give the folder `lnrnn train "
                                  "--out` wrote.") from None
        raise CheckpointError(f"checkpoint description {desc} is corrupt ({e}).") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{desc} is not an lnrnn checkpoint description.")
    if meta.get("version") != VERSION:
        raise CheckpointError(f"{desc} has checkpoint format version {meta.get('version')}; "
                              f"this lnrnn reads version {VERSION}.")
    try:
        name, listing, digest, model = (meta[k] for k in ("arrays_file", "arrays", "arrays_sha256", "model"))
    except KeyError as e:
        raise CheckpointError(f"checkpoint description {desc} lacks field {e}; it is corrupt.") from None
    listed = isinstance(listing, dict) and all(   # name -> [shape (a list of whole numbers), dtype string]
        isinstance(v, list) and len(v) == 2 and isinstance(v[0], list) and isinstance(v[1], str)
        and all(whole_number(n) for n in v[0]) for v in listing.values())
    sections = [(k, isinstance(meta.get(k, {}), dict)) for k in ("task", "train")] + \
        [("text", meta.get("text") is None or isinstance(meta["text"], dict))]   # read by every command
    for field, ok in (("arrays_file", isinstance(name, str)), ("arrays", listed), ("model", isinstance(model, dict)),
                      *sections):
        if not ok:
            raise CheckpointError(f"checkpoint description {desc} holds its {field} field in a form lnrnn does not "
                                  "write; it is corrupt.")
    npz_path = os.path.join(os.path.dirname(os.path.abspath(desc)), name)
    if expected_model is not None and model != expected_model:
        raise CheckpointError(f"checkpoint {desc} belongs to another model ({model_mismatch(model, expected_model)}).")
    if not os.path.isfile(npz_path):
        raise CheckpointError(f"checkpoint arrays file {npz_path} named by {desc} is missing.")
    if _sha256(npz_path) != digest:
        raise CheckpointError(f"checkpoint arrays file {npz_path} is corrupt (its SHA-256 does not match {desc}).")
    try:
        with np.load(npz_path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (ValueError, *DAMAGED_NUMPY_FILE) as e:
        raise CheckpointError(f"checkpoint arrays file {npz_path} cannot be read ({e}).") from None
    except MemoryError as e:
        raise CheckpointError(too_large(f"checkpoint arrays file {npz_path}", e)) from None
    if set(arrays) != set(listing):
        raise CheckpointError(f"checkpoint arrays file {npz_path} does not hold the arrays {desc} lists.")
    for k, (shape, dtype) in listing.items():
        if list(arrays[k].shape) != shape or arrays[k].dtype.str != dtype:
            raise CheckpointError(f"array {k} in {npz_path} is {arrays[k].dtype} {arrays[k].shape}, "
                                  f"not {dtype} {tuple(shape)} as {desc} says.")
    for k, a in arrays.items():  # a run that diverges stops without saving (lnrnn.training.stopping)
        if a.dtype.kind in "fc" and not np.all(np.isfinite(a)):
            raise CheckpointError(f"array {k} in {npz_path} holds NaN or infinite values; lnrnn saves no such "
                                  "state, so the checkpoint is corrupt.")
    return meta, arrays
