"""The CUDA twins' machinery, beside the ops in lnrnn/kernels: what the CUDA side must know before
``numba.cuda`` is imported (``cuda_env``), device arrays and launch sizes (``arrays_cuda``), a tiled
shared-memory GEMM and column reductions (``gemm_cuda``), cuBLAS and CUDA graphs through PyTorch or CuPy
where installed (``graphs_cuda``), and the device functions a block of threads runs on one row (``rows_cuda``).

An op's ``*_cuda`` module imports what it needs from here; nothing here imports an op.
"""
