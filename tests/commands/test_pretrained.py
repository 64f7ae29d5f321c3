"""The runs shipped with the package (``lnrnn.pretrained``): each loads verified wherever a run folder is read
(``pretrained:NAME``), carries its README with credit and licence, stays small; the writer writes a text and
the reader judges it from a fresh install; an unknown name is one line naming the shipped ones."""
import os

import pytest
from test_cli import invoke

from lnrnn.api import load_run
from lnrnn.errors import CheckpointError
from lnrnn.pretrained import HERE, PREFIX, names, resolve


def test_the_package_ships_a_writer_and_its_reader_each_verified_credited_and_small():
    assert {"hershey", "hershey-reader"} <= set(names())
    total = 0
    for name in names():
        folder = os.path.join(HERE, name)
        total += sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
        readme = open(os.path.join(folder, "README.md")).read()
        assert readme.startswith(f"# {PREFIX}{name}\n")
        assert "Hershey" in readme and "licence" in readme
        assert "lnrnn train" in readme or "bench/reader_curves.py" in readme
        run = load_run(f"{PREFIX}{name}")                 # hash, names and shapes verified
        assert run.path == f"{PREFIX}{name}"
        assert f"{run.step:,} updates" in readme
    assert total <= 10 * 2 ** 20
    writer, reader = load_run("pretrained:hershey"), load_run("pretrained:hershey-reader")
    assert writer.config["window"] and writer.config.get("window_norm") == "none"
    assert writer.config["norm"] == "ln"
    assert reader.model.head.kind == "ctc" and reader.config.get("bidirectional")
    assert writer.task_spec["task"] == reader.task_spec["task"] == "strokes-hershey"


def test_the_stated_judged_cer_is_the_measured_one():
    """README and the writer's own README state the character error rate bench/pretrained.py measured for
    the shipped writer (bench/results/pretrained_hershey.json, of the same update), rounded as printed."""
    import json
    import re
    root = os.path.dirname(os.path.dirname(HERE))
    record = json.load(open(os.path.join(root, "bench", "results", "pretrained_hershey.json")))
    assert record["step"] == load_run("pretrained:hershey").step
    cer = {b: f"{v['summary']['cer']:.2f}" for b, v in record["biases"].items()}
    readme = open(os.path.join(root, "README.md")).read()
    m = re.search(r"character error rate of (\d\.\d\d) at bias 2 \((\d\.\d\d) at 0\.5\)", readme)
    assert m and (m.group(1), m.group(2)) == (cer["2"], cer["0.5"])
    own = open(os.path.join(HERE, "hershey", "README.md")).read()
    assert f"character error rate {cer['0.5']} at bias 0.5, {cer['2']} at bias 2" in own


def test_resolve_leaves_other_paths_alone_and_refuses_an_unknown_name(tmp_path):
    assert resolve(tmp_path) == str(tmp_path)
    assert resolve("runs/x") == "runs/x"
    assert resolve("pretrained:hershey") == os.path.join(HERE, "hershey")
    for bad in ("pretrained:nope", "pretrained:", "pretrained:../hershey"):
        with pytest.raises(CheckpointError, match="the package ships: .*hershey"):
            resolve(bad)


def test_sample_writes_and_judges_with_the_shipped_runs(tmp_path):
    out = tmp_path / "hello.png"
    r = invoke("sample", "--checkpoint", "pretrained:hershey", "--text", "hello", "--steps", 60, "--bias", 2,
               "--judge", "pretrained:hershey-reader", "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert out.stat().st_size > 0
    assert "Read by the reader in pretrained:hershey-reader" in r.output and "'hello' ->" in r.output


def test_an_unknown_pretrained_name_is_one_line():
    r = invoke("sample", "--checkpoint", "pretrained:writer", "--text", "hi", "--out", "never.png")
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert r.output.strip().splitlines() == ["Error: no pretrained run 'writer'; the package ships: "
                                             f"{', '.join(names())}."]
    assert not os.path.exists("never.png")


def test_init_from_reads_the_shipped_writer_and_refuses_an_unknown_name(tmp_path):
    """--init-from pretrained:hershey reads the writer's checkpoint (its parameters, as load_run's); an
    unknown name is one line."""
    import numpy as np
    from lnrnn.training.finetune import read_source

    source = read_source("pretrained:hershey")
    params = load_run("pretrained:hershey").model.params
    for name, value in params.items():
        assert np.array_equal(source.arrays[f"param/{name}"], value), name
    r = invoke("train", "--init-from", "pretrained:writer", "--task", "strokes-synthetic", "--split", "8/4",
               "--max-steps", 1, "-q", "--out", tmp_path / "bad")
    assert r.exit_code != 0 and r.output.strip().splitlines() == [
        f"Error: --init-from pretrained:writer: no pretrained run 'writer'; the package ships: {', '.join(names())}."]
    assert not (tmp_path / "bad" / "checkpoint.json").exists()
