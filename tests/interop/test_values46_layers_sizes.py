"""The bindings' constructors read their sizes with one rule (lnrnn.model.layers.check_sizes, the layers' own): a whole number of at least
1, given as an int, a NumPy integer or an integral float, and kept as an int; a bool (which built a model of
hidden size 1 from hidden_size=True), a string, None, a fraction or a number below 1 is a ValueError naming the
class or function and the argument (None was int()'s TypeError). lnrnn.jax.init_stats took a fraction as its
floor (max_steps=2.5 kept 2 rows)."""
import numpy as np
import pytest

from lnrnn.model.layers import check_sizes

BAD = [0, -1, 2.5, True, False, "4", None, float("nan"), float("inf")]


@pytest.mark.parametrize("v", BAD)
def test_a_size_that_is_not_a_positive_whole_number_is_refused_by_name(v):
    with pytest.raises(ValueError) as e:
        check_sizes("Thing", width=v)
    assert str(e.value) == f"Thing: width must be a positive integer, not {v!r}."


def test_good_sizes_come_back_as_ints_in_order():
    got = check_sizes("Thing", a=3, b=np.int64(5), c=4.0, d=np.float32(2))
    assert got == {"a": 3, "b": 5, "c": 4, "d": 2} and list(got) == ["a", "b", "c", "d"]
    assert all(type(v) is int for v in got.values())


@pytest.mark.parametrize("v", [True, None, "3", 2.5])
def test_torch_modules_and_cells_refuse_the_same_sizes(v):
    torch = pytest.importorskip("torch")
    import lnrnn.torch as lt

    for make, what in ((lambda: lt.LSTM(3, v), "LSTM"), (lambda: lt.RNN(v, 4), "RNN"),
                       (lambda: lt.LSTM(3, 4, num_layers=v), "LSTM"), (lambda: lt.LSTMCell(3, v), "LSTMCell")):
        with pytest.raises(ValueError, match=f"^{what}: "):
            make()
    m = lt.LSTM(np.int64(3), 4.0, num_layers=np.int32(2))
    assert (m.input_size, m.hidden_size, m.num_layers) == (3, 4, 2)
    assert all(type(s) is int for s in (m.input_size, m.hidden_size, m.num_layers))
    assert m(torch.zeros(2, 1, 3))[0].shape == (2, 1, 4)


def test_jax_init_and_init_stats_refuse_by_their_names_and_take_integral_floats():
    jax = pytest.importorskip("jax")
    import lnrnn.jax as lj

    key = jax.random.PRNGKey(0)
    with pytest.raises(ValueError, match=r"^init: hidden_size must be a positive integer, not True\.$"):
        lj.init(key, "lstm", "ln", 3, True)
    with pytest.raises(ValueError, match=r"^init_stats: max_steps must be a positive integer, not 2\.5\.$"):
        lj.init_stats("lstm", "bn", 4, max_steps=2.5)
    with pytest.raises(ValueError, match=r"^init_stats: num_layers must be a positive integer, not 0\.$"):
        lj.init_stats("lstm", "bn", 4, num_layers=0)
    stats = lj.init_stats("lstm", "bn", 4.0, max_steps=np.int64(3), num_layers=2)
    assert stats and all(a.shape[0] == 3 for a in stats.values())
    assert lj.init(key, "lstm", "ln", 3.0, 4) .keys() == lj.init(key, "lstm", "ln", 3, 4).keys()
