"""Training: a run's settings, its loop, and everything a run folder holds.

    plan.py         a TrainConfig resolved once into what a run needs (cell row, task spec, memory estimate)
    train.py        the training loop: updates, evaluation at epoch ends, checkpoints, resume, signals
    evaluation.py   the one evaluate of a model on a task; a model rebuilt from a checkpoint
    optim.py        SGD, RMSProp, Adam over the flat parameter buffer; clipping; the schedule
    checkpoint.py   checkpoints without pickle: .npz arrays plus a JSON description
    rundir.py       the run folder: its files, lock, writability check, default names, the update log
    runconfig.py    TrainConfig (a run's settings), --config files and a run's config.json
    memory.py       the fits-in-memory estimate and check
    prewarm.py      cold start: the first update's backward loop compiled in a second process
    progress.py     the progress bar on stderr
    plot.py         learning curves of run folders
    distributed.py  data-parallel training on MPI
"""
