"""Exits with exchanges still open, one of them with an exchange in flight: the package's atexit
hook must close them while MPI is still initialized. Run under mpiexec; exit status 0 passes."""

import atexit
import os

from mpi4py import MPI


def check_closed_by_the_hook():
    # Registered before haloflag's hook, so it runs after it (atexit runs last in, first out).
    if not (left_open.closed and in_flight.closed):
        print(f"rank {MPI.COMM_WORLD.rank}: an exchange was still open after haloflag's exit hook",
              flush=True)
        os._exit(3)
    print(f"rank {MPI.COMM_WORLD.rank}: haloflag closed both exchanges at exit", flush=True)


atexit.register(check_closed_by_the_hook)

import numpy as np  # noqa: E402

import haloflag  # noqa: E402
from ghost_check import agree, fill, wrong_cells  # noqa: E402

geometry = haloflag.Geometry((6, 10, 12))
a, b = np.zeros(geometry.field_shape), np.zeros(geometry.field_shape)
fill(a, geometry, 0, 1, whole=True)
left_open = haloflag.Exchange(geometry, [a])
left_open.run()
agree(wrong_cells(a, geometry, 0, 1))
in_flight = haloflag.Exchange(geometry, [b], progress="thread")
in_flight.start()
MPI.COMM_WORLD.Barrier()
print(f"rank {MPI.COMM_WORLD.rank}: exiting with two exchanges open", flush=True)
