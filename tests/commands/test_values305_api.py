"""The public API's documented defaults, each against the same call with the documented value written out:
evaluate_run on 'val' (its docstring; lnrnn eval's --set default), sample_run drawing 700 points, 1 sample, bias
0, seed 0 (lnrnn sample's shown defaults) into the sampler, export_run writing safetensors (the only format
lnrnn.interop.export documents: an 8-byte little-endian header length, then that JSON header)."""
import json
import struct

import pytest

import lnrnn.sample
from lnrnn.api import evaluate_run, export_run, load_run, sample_run
from test_values_eval_predict import _run


@pytest.fixture(scope="module")
def clf(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("api305") / "clf", {"task": "digits"}, 1, 10)


def test_evaluate_run_defaults_to_the_validation_set(clf):
    got = evaluate_run(clf)
    want = evaluate_run(clf, which="val")
    assert got.which == "val"
    assert got.sequences == want.sequences
    assert got.metrics == want.metrics


def test_sample_run_passes_the_documented_defaults_on(clf, monkeypatch):
    seen = {}

    def sampler(model, steps, count, bias, seed, progress=None, text=None, prime=None, alphabet=None):
        seen.update(steps=steps, count=count, bias=bias, seed=seed, text=text, prime=prime)
        return []

    monkeypatch.setattr(lnrnn.sample, "text_inputs", lambda *a, **k: (None, None, None))
    monkeypatch.setattr(lnrnn.sample, "sample_strokes", sampler)
    assert sample_run(load_run(clf)) == []
    assert seen == dict(steps=700, count=1, bias=0.0, seed=0, text=None, prime=None)


def test_export_run_writes_safetensors_by_default(clf, tmp_path):
    path = tmp_path / "w.safetensors"
    shapes = export_run(clf, path)
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    assert {k: tuple(v["shape"]) for k, v in header.items() if k != "__metadata__"} == \
        {k: tuple(s) for k, s in shapes.items()}
    assert len(raw) == 8 + n + sum(v["data_offsets"][1] - v["data_offsets"][0] for k, v in header.items()
                                   if k != "__metadata__")

