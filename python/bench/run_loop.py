"""The Python side of scripts/bench/bench_python_overhead.sh: a loop of Exchange.run() timed exactly as
python/bench/run_loop.cpp times its C++ loop (same geometry, strategy, fields and clock).

    mpiexec -n 2 python python/bench/run_loop.py Z Y X ITERATIONS WARMUP ROUNDS BACKEND(auto|host)

Prints one JSON line per round: the slowest rank's time per exchange. On a GPU the field is a
CuPy array, else a PyTorch tensor.
"""

import json
import sys

import numpy as np
from mpi4py import MPI

import haloflag


def field(geometry, backend):
    if backend == "host" or not haloflag.gpu_backend():
        return np.zeros(geometry.field_shape), "host"
    device = haloflag.bind_gpu()
    try:
        import cupy
        cupy.cuda.Device(device).use()
        return cupy.zeros(geometry.field_shape), haloflag.gpu_backend() + " (cupy)"
    except ImportError:
        import torch
        return torch.zeros(geometry.field_shape, dtype=torch.float64,
                           device=f"cuda:{device}"), haloflag.gpu_backend() + " (torch)"


def main():
    z, y, x, iterations, warmup, rounds = (int(a) for a in sys.argv[1:7])
    comm = MPI.COMM_WORLD
    geometry = haloflag.Geometry((z, y, x), comm)
    array, backend = field(geometry, sys.argv[7])
    with haloflag.Exchange(geometry, [array], strategy="resident") as exchange:
        run = exchange.run  # looked up once, as a tight loop would
        for round_ in range(rounds):
            for _ in range(warmup):
                run()
            comm.Barrier()
            began = MPI.Wtime()
            for _ in range(iterations):
                run()
            slowest = comm.allreduce((MPI.Wtime() - began) / iterations, op=MPI.MAX)
            if comm.rank == 0:
                print(json.dumps({"loop": "python", "round": round_, "backend": backend,
                                  "ranks": comm.size, "us_per_exchange": round(slowest * 1e6, 4)}),
                      flush=True)


if __name__ == "__main__":
    main()
