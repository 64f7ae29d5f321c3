"""lnrnn gradcheck's refusals word for word through click's CliRunner, before any check runs: a size below 1
names the option and the value given (not another option's), a negative tolerance names the tolerance given
(not the default); each exits with status 2 and no traceback."""
import pytest
from click.testing import CliRunner

from lnrnn.cli import main


@pytest.mark.parametrize("opt,value", [("--hidden", "0"), ("--input", "-2"), ("--layers", "0"),
                                       ("--max-elems", "-1")])
def test_a_size_below_one_names_its_option_and_value(opt, value):
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", opt, value, "-q"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == f"Error: {opt} must be at least 1, got {value}."
    assert "Traceback" not in r.output and "max relative error" not in r.output


@pytest.mark.parametrize("value,shown", [("-1", "-1.0"), ("-0.5", "-0.5"), ("nan", "nan")])
def test_a_bad_tolerance_names_the_value_given(value, shown):
    r = CliRunner().invoke(main, ["gradcheck", "--cell", "rnn", "--tolerance", value, "-q"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == (f"Error: --tolerance must be a finite number of at least 0, "
                                                 f"not {shown}.")
    assert "Traceback" not in r.output and "max relative error" not in r.output
