"""--split TRAIN/VAL: one parser for every task (the classification tasks and the stroke readers)."""
from lnrnn.errors import UserError


def parse_split(text):
    """'8000/2000' -> (8000, 2000); None -> None. Raises UserError on anything else."""
    if text is None:
        return None
    parts = str(text).split("/")
    try:
        a, b = (int(p) for p in parts)
    except ValueError:
        raise UserError(f"--split must be TRAIN/VAL counts such as 8000/2000, not {text!r}.") from None
    if a <= 0 or b <= 0:
        raise UserError(f"--split needs positive counts, not {text!r}.")
    return a, b
