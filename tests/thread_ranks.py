"""A group of ranks on threads for the synchronized kernels' tests (lnrnn/kernels/bn_sync.py): each rank's reduce
leaves a copy of its buffer, all wait, all add the copies in rank order (so every rank holds the same sums), all
wait again before any writes its next buffer. A group of one reduces nothing (the identity)."""
import threading


class Group:
    """reduce_for(r): rank r's reduce(buf), in place, for a group of n ranks."""

    def __init__(self, n, timeout=120):
        self.slots = [None] * n
        self.barrier = threading.Barrier(n, timeout=timeout)

    def reduce_for(self, r):
        if len(self.slots) == 1:
            return lambda buf: None

        def reduce(buf):
            self.slots[r] = buf.copy()
            self.barrier.wait()
            total = self.slots[0].copy()
            for s in self.slots[1:]:
                total += s
            self.barrier.wait()  # every rank has read every slot before any writes the next buffer
            buf[:] = total
        return reduce


def run_ranks(n, job):
    """job(reduce, r) on one thread per rank of a Group(n) -> the results in rank order; the first error of any
    rank is raised (the others' barriers broken so that none waits for it)."""
    group = Group(n)
    results, errors = [None] * n, []

    def rank(r):
        try:
            results[r] = job(group.reduce_for(r), r)
        except BaseException as e:  # noqa: B036  (re-raised below)
            errors.append(e)
            group.barrier.abort()

    workers = [threading.Thread(target=rank, args=(r,)) for r in range(n)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise errors[0]
    return results
