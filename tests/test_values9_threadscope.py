"""lnrnn/threadscope.py by value: starting the kernels' threads leaves a user's own OMP_WAIT_POLICY as it
was, and an unset one unset."""
import os

from lnrnn import threadscope


def test_a_users_wait_policy_is_left_as_it_was(monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", "active")
    threadscope.start_kernel_threads()
    assert os.environ["OMP_WAIT_POLICY"] == "active"
    monkeypatch.delenv("OMP_WAIT_POLICY")
    threadscope.start_kernel_threads()
    assert "OMP_WAIT_POLICY" not in os.environ
