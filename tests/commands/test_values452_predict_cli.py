"""lnrnn predict --help shows the default of every option that has one, as it is
(test_values446_sample_cli_defaults' check of one command), its --batch-size of 500 sequences a forward pass
word for word in the help the command prints."""
from test_cli import invoke
from test_values125_train_options import _squash
from test_values446_sample_cli_defaults import assert_defaults_in_help


def test_predict_batch_size_shows_500():
    assert_defaults_in_help(("predict",))
    helped = _squash(invoke("predict", "--help").output)
    assert "--batch-size INTEGER Sequences per forward pass (affects memory only). [default: 500]" in helped
