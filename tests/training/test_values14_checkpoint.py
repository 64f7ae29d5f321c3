"""lnrnn/training/checkpoint.py's refusals of a checkpoint that is not today's or not this model's: a
description of an older format version (or of none), an arrays file that holds an array its description
does not list (its digest made to match), and another model's refusal naming a setting that only the
request has."""
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training import checkpoint as ck

MODEL = {"cell": "lstm", "norm": "ln", "hidden_size": 8, "num_layers": 1}


def saved(tmp_path):
    arrays = {"param/rnn.l0.Wx": np.arange(12, dtype=np.float32).reshape(3, 4)}
    ck.save_checkpoint(tmp_path, arrays, {"model": MODEL, "step": 3})
    desc = os.path.join(tmp_path, ck.DESCRIPTION)
    with open(desc) as f:
        return desc, json.load(f)


def rewrite(desc, meta):
    with open(desc, "w") as f:
        json.dump(meta, f)


@pytest.mark.parametrize("version", [0, None, ck.VERSION + 1])
def test_a_description_of_another_format_version_is_refused(tmp_path, version):
    desc, meta = saved(tmp_path)
    if version is None:
        del meta["version"]
    else:
        meta["version"] = version
    rewrite(desc, meta)
    with pytest.raises(CheckpointError, match="format version"):
        ck.load_checkpoint(str(tmp_path))


def test_an_arrays_file_with_an_array_the_description_does_not_list_is_refused(tmp_path):
    desc, meta = saved(tmp_path)
    npz = os.path.join(tmp_path, meta["arrays_file"])
    with np.load(npz) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["param/rnn.l0.extra"] = np.zeros(2, np.float32)
    with open(npz, "wb") as f:
        np.savez(f, **arrays)
    meta["arrays_sha256"] = ck._sha256(npz)          # the digest matches: only the listing tells
    rewrite(desc, meta)
    with pytest.raises(CheckpointError, match="does not hold the arrays"):
        ck.load_checkpoint(str(tmp_path))


def test_another_models_refusal_names_a_setting_only_the_request_has(tmp_path):
    saved(tmp_path)
    with pytest.raises(CheckpointError, match=r"skip None in the checkpoint vs True requested"):
        ck.load_checkpoint(str(tmp_path), expected_model=dict(MODEL, skip=True))
    assert ck.model_mismatch({"a": 1}, {"a": 1, "b": 2}) == "b None in the checkpoint vs 2 requested"
    assert ck.model_mismatch({"a": 1, "b": 2}, {"a": 1}) == "b 2 in the checkpoint vs None requested"
