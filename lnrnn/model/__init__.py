"""The model: what a network is, above the kernels and below training.

    cells.py    the cell registry: every cell x norm, its parameters, initialization, kernels and adapters
    functional.py  one layer as pure functions over arrays, run by the layers and the bindings alike
    layers.py   RecurrentLayer / RecurrentStack (and Graves's skip stack): validation, masks, chunks
    heads.py    classifier, regression, mixture density and CTC heads: loss sums, gradient, metrics
    decode.py   CTC decoding: best path and prefix beam search
    models.py   SequenceModel = stack + head; truncated BPTT; model configs
    flat.py     one contiguous buffer for all parameters, another for all gradients

Nothing here knows of training, run folders or the command line.
"""
