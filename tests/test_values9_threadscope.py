"""lnrnn/threadscope.py by value: starting the kernels' threads leaves a user's own OMP_WAIT_POLICY as it
was, and an unset one unset; a scoped call runs on one BLAS thread and gives the caller's counts back."""
import os

from lnrnn import threadscope


def test_a_users_wait_policy_is_left_as_it_was(monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", "active")
    threadscope.start_kernel_threads()
    assert os.environ["OMP_WAIT_POLICY"] == "active"
    monkeypatch.delenv("OMP_WAIT_POLICY")
    threadscope.start_kernel_threads()
    assert "OMP_WAIT_POLICY" not in os.environ


def test_a_scoped_call_runs_on_one_blas_thread_and_gives_the_counts_back():
    """lnrnn.predict, evaluate_run, read and sample are ``scoped``: inside, every BLAS runs one thread (a chunk
    thread's BLAS would otherwise ask for every core); after, the counts the caller had set are back."""
    from threadpoolctl import threadpool_info, threadpool_limits

    def counts():
        return sorted((p["filepath"], p["num_threads"]) for p in threadpool_info() if p["user_api"] == "blas")

    seen = []

    @threadscope.scoped
    def probe(a, b=0):
        seen.append(counts())
        return a + b

    threadscope.prepare_process()
    threadscope._blas_controller()  # loads the BLAS libraries the kernels call, so they are counted below
    with threadpool_limits(2, user_api="blas"):
        before = counts()
        assert any(n == 2 for _, n in before), before  # lnrnn's own MKL may stay at one thread
        assert probe(5, b=2) == 7
        assert counts() == before
    assert seen[0] and {n for _, n in seen[0]} == {1}, seen[0]
