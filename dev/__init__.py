"""Kernel variants kept outside the package (as llm.c keeps its in dev/): each one is correct, lost to the
kernel lnrnn ships, and stays runnable. A variant checks itself against the package's kernels and times
itself when run as a script; its tests run in the suite (``from dev import <variant>``: the repository root is
on pytest's path).

    lstm_persistent_cuda.py   the LN-LSTM's time loops as persistent grids of cooperating blocks
                              (1.5-8x slower than lnrnn.kernels.lstm_cuda on an H200)
"""
