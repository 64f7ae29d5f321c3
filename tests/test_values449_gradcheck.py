"""lnrnn/gradcheck.py's check_stack with no options checks the problem its signature documents: a BN-LSTM stack's
check with every default left out is, error for error, the check with T 5, B 3, I 3, H 4, two layers, training,
seed 0, 40 elements, no lengths, the chunk from step 0 and no skip connections written out, and every forward it
runs starts at step 0 (watched at RecurrentStack.forward); a chunk from step 1 is another problem (other errors),
so the comparison can tell them apart."""
import pytest

from lnrnn import gradcheck
from lnrnn.model.layers import RecurrentStack

DOCUMENTED = dict(T=5, B=3, I=3, H=4, num_layers=2, training=True, seed=0, max_elems=40, lengths=None, t0=0,
                  skip=False)


@pytest.fixture
def starts(monkeypatch):
    seen = []
    real = RecurrentStack.forward

    def watch(self, x, state=None, training=False, *a, **k):
        seen.append((k.get("t0", 0), x.shape))
        return real(self, x, state, training, *a, **k)
    monkeypatch.setattr(RecurrentStack, "forward", watch)
    return seen


def test_check_stacks_defaults_are_the_documented_problem(starts):
    default = gradcheck.check_stack("lstm", "bn")
    assert starts and {s for s, _ in starts} == {0} and {x for _, x in starts} == {(5, 3, 3)}
    assert default == gradcheck.check_stack("lstm", "bn", **DOCUMENTED)
    from_1 = gradcheck.check_stack("lstm", "bn", **{**DOCUMENTED, "t0": 1})
    assert [n for n, _ in default] == [n for n, _ in from_1] and default != from_1
    assert max(e for _, e in default) < 1e-6
