"""Data sets: MNIST-family IDX files, online handwriting strokes and the built-in sequence tasks.

Sequences are stored sample-major (N, T, I) in their native dtype and handed to models time-major
(T, B, I) one batch at a time, scaled to floats (see ``tasks.TaskData.batch``). Stroke tasks keep
variable-length lines end to end and hand out padded batches with lengths (``strokes.StrokeTask.batch``).
"""
from lnrnn.data.idx import read_idx, write_idx, load_mnist_split, mnist_files_present, MNIST_FILES
from lnrnn.data.tasks import TASKS, TaskData, load_task, parse_split, task_spec
from lnrnn.data.strokes import StrokeTask, to_stroke3, to_strokes

__all__ = ["read_idx", "write_idx", "load_mnist_split", "mnist_files_present", "MNIST_FILES",
           "TASKS", "TaskData", "load_task", "parse_split", "task_spec", "StrokeTask", "to_stroke3", "to_strokes"]
