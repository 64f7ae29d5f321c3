"""The CPU kernels' machinery, beside the ops in lnrnn/kernels: which BLAS runs the matrix products and
which per-step product the time loops call (``blas``), lnrnn's own register-blocked per-step product
(``rgemm``), the threaded GEMMs over row chunks (``gemm``), how a batch is split over threads into fixed
row blocks and how those threads meet (``threads``), and the passes over one row that every cell's time
loop shares (``rows``).

An op module imports what it needs from here; nothing here imports an op.
"""
