"""``lnrnn sample``'s --bias check: an infinite or NaN bias is one Error line and exit 2 before any run is
loaded (sigma = exp(sigma_hat - b) would be 0 for every point); 0 and a finite positive bias pass it."""
import pytest

from test_cli import assert_clean_error, invoke


@pytest.mark.parametrize("bias", ["inf", "nan", "-1"])
def test_a_bias_that_is_not_finite_and_positive_is_refused(tmp_path, bias):
    r = invoke("sample", "--checkpoint", tmp_path / "none", "--bias", bias, "--out", tmp_path / "s.png")
    assert_clean_error(r, f"--bias must be 0 or positive, not {float(bias)}.")
    assert not (tmp_path / "s.png").exists()


@pytest.mark.parametrize("bias", ["0", "1e300"])
def test_a_finite_bias_passes_on_to_the_run(tmp_path, bias):
    r = invoke("sample", "--checkpoint", tmp_path / "none", "--bias", bias, "--out", tmp_path / "s.png")
    assert r.exit_code != 0 and "--bias" not in r.output        # the missing run is what stops it
