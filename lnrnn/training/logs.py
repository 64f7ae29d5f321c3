"""A run's validation log in the formats other tools read: ``metrics.csv`` beside ``metrics.jsonl`` (one row
per evaluation, the same fields), and TensorBoard scalars in ``RUN/tensorboard/`` when the ``tensorboard``
package is importable (the optional extra; nothing needs it).

    write_csv(path, rows)                 # columns: every key of the rows, in order of first appearance
    tb = TensorBoardLog.open(out)         # None without the tensorboard package
    tb.add(rows, step_key="step")         # scalars train/<m>, val/<m> (and lr) at each row's update
"""
import csv
import io
import os

CSV_FILE = "metrics.csv"
TENSORBOARD_DIR = "tensorboard"


def write_csv(path, rows):
    """rows (dicts) -> a CSV file, written atomically; a row lacking a column leaves its cell empty."""
    from lnrnn.files import atomic_write_text
    columns = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()})
    atomic_write_text(path, buf.getvalue())


def tensorboard_available():
    try:
        from tensorboard.compat.proto import event_pb2, summary_pb2  # noqa: F401
        from tensorboard.summary.writer.event_file_writer import EventFileWriter  # noqa: F401
    except Exception:  # not installed, or an install that cannot load (protobuf mismatch): no scalars
        return False
    return True


class TensorBoardLog:
    """Scalars for TensorBoard through the tensorboard package's own event writer (no torch, no tensorflow)."""

    def __init__(self, folder):
        from tensorboard.summary.writer.event_file_writer import EventFileWriter
        self.writer = EventFileWriter(folder)

    @classmethod
    def open(cls, out):
        return cls(os.path.join(out, TENSORBOARD_DIR)) if tensorboard_available() else None

    def add(self, rows):
        import time

        from tensorboard.compat.proto import event_pb2, summary_pb2
        for r in rows:
            values = []
            for k, v in r.items():
                split, _, m = k.partition("_")
                if split in ("train", "val") and m and isinstance(v, (int, float)):
                    values.append(summary_pb2.Summary.Value(tag=f"{split}/{m}", simple_value=float(v)))
                elif k == "lr":
                    values.append(summary_pb2.Summary.Value(tag="lr", simple_value=float(v)))
            if values:
                self.writer.add_event(event_pb2.Event(wall_time=time.time(), step=int(r["step"]),
                                                      summary=summary_pb2.Summary(value=values)))
        self.writer.flush()

    def close(self):
        self.writer.close()
