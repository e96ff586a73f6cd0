"""haloflag from Python: halo exchange of NumPy, CuPy and PyTorch arrays over MPI (docs/python.md).

    from mpi4py import MPI
    import haloflag
    geometry = haloflag.Geometry((64, 64, 64))           # (z, y, x), over MPI.COMM_WORLD
    u = numpy.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [u]) as exchange:
        exchange.run()                                   # u's ghost cells hold the neighbours'
"""

import atexit
from typing import Any, Optional

from mpi4py import MPI  # initializes MPI (thread level multiple) before anything of ours runs

from . import _core
from .errors import (CoResidencyError, ConfigError, Error, GeometryError, GpuError, MpiError,
                     OtherError, PeerError, TimeoutError, UsageError)
from .exchange import DEFAULT_IDLE_EXIT, Exchange, Handle, close_all
from .geometry import Geometry, Neighbour

__all__ = ["Geometry", "Neighbour", "Exchange", "Handle", "DEFAULT_IDLE_EXIT", "bind_gpu",
           "gpu_backend", "Error", "ConfigError", "GeometryError", "CoResidencyError",
           "PeerError", "TimeoutError", "MpiError", "GpuError", "UsageError", "OtherError"]


def bind_gpu(comm: Any = None, gpu: Optional[int] = None) -> int:
    """Makes this rank's GPU current and returns its index: `gpu` when given, else the rank's
    rank on its node modulo the visible GPUs (the C++ halo::bind_gpu). Collective over `comm`
    (MPI.COMM_WORLD by default). Call it before allocating the fields."""
    comm = MPI.COMM_WORLD if comm is None else comm
    return _core.bind_gpu(comm.py2f(), -1 if gpu is None else int(gpu))


def gpu_backend() -> str:
    """The GPU backend of this build ("cuda" or "hip"), or "" where it has only the host's."""
    return _core.gpu_backend()


# Python's atexit hooks run before mpi4py finalizes MPI, so an exchange still open at exit
# frees its communicator and stops its kernels while MPI is still there.
atexit.register(close_all)
