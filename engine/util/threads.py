"""One pool of compute threads per process: the model's.

The engine's own numpy products are small (a question against a few thousand exemplar rows), but
above a size OpenBLAS runs them on its own threads, which then spin beside torch's and slow the
next model call (measured: the question embedding went from 11 to 25 ms once the exemplar bank
passed ~1,300 rows). BLAS is kept to one thread; torch keeps its pool.
"""

from __future__ import annotations

from threadpoolctl import threadpool_limits


def single_threaded_blas() -> None:
    """Limit BLAS libraries loaded in this process (numpy's OpenBLAS) to one thread."""
    threadpool_limits(limits=1, user_api="blas")
