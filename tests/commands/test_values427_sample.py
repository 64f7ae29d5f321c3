"""lnrnn sample's documented defaults and its --no-cap flag (lnrnn/commands/sample.py), with the run, the sampler
and the drawing replaced by test_values400_sample_command's recording stand-ins (nothing is sampled).

With no option but the run, the sampler is asked for what --help and docs/commands.md promise: 4 samples of 700
points, bias 0, seed 0, drawn to samples.png in the working folder; --seed 0 is the same request as no --seed, so
the same picture. --no-cap is a flag: it takes no value, so the option after it is read as its own (--steps 20,001
then passes the cap), where without it that many steps are refused."""
import pytest

import lnrnn.api

from test_cli import invoke
from test_values400_sample_command import calls  # noqa: F401  (the stand-ins, a fixture)

DEFAULTS = dict(steps=700, count=4, bias=0.0, seed=0)


@pytest.fixture
def asked(monkeypatch, calls):  # noqa: F811
    """Every keyword the sampler was asked with (the stand-in records a few), in order."""
    got, inner = [], lnrnn.api.sample_run

    def sample_run(run, steps, count, bias, seed, **kw):
        got.append(dict(steps=steps, count=count, bias=bias, seed=seed))
        return inner(run, steps, count, bias, seed, **kw)

    monkeypatch.setattr(lnrnn.api, "sample_run", sample_run)
    return got


def test_no_options_ask_for_the_documented_defaults(tmp_path, monkeypatch, calls, asked):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    r = invoke("sample", "--checkpoint", tmp_path / "run", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert asked == [DEFAULTS]
    assert calls["draw"] == ["samples.png"]


def test_seed_zero_is_the_request_without_a_seed(tmp_path, calls, asked):  # noqa: F811
    for extra in ([], ["--seed", 0], ["--seed", 1]):
        r = invoke("sample", "--checkpoint", tmp_path / "run", *extra, "--out", tmp_path / "s.png", "-q")
        assert r.exit_code == 0, r.output + repr(r.exception)
    assert [a["seed"] for a in asked] == [0, 0, 1]
    assert asked[0] == asked[1] != asked[2]


def test_no_cap_is_a_flag_and_lets_more_steps_through(tmp_path, calls, asked):  # noqa: F811
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--no-cap", "--steps", 20001, "--count", 1,
               "--out", tmp_path / "s.png", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert [a["steps"] for a in asked] == [20001]
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 20001, "--count", 1,
               "--out", tmp_path / "s.png", "-q")
    assert r.exit_code != 0 and "--no-cap" in r.stderr
    assert len(asked) == 1
