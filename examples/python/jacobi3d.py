"""A 3-D Jacobi iteration on a periodic grid split over MPI ranks, with haloflag exchanging the
halos: CuPy on a GPU (PyTorch where CuPy is missing), NumPy on the host.

Each iteration exchanges the ghost cells of the current field and averages every owned cell's six
neighbours into the other field. Two variants, each timed per iteration (but the first, which
also loads the update's kernels):
  conventional:    exchange.run(), then the update, as most stencil codes do;
  stream-ordered:  start(stream) and wait(stream) on the array library's stream, so the loop never
                   waits on the host (GPU only).
Rank 0 checks both against a single-rank NumPy reference of the whole grid. The exchange's
resident kernels leave the GPU when no exchange has started for idle_exit, so the update's
kernels load at their first launch beside them; each variant prints how many times its exchange
launched its kernels again.

    mpiexec -n 2 python examples/python/jacobi3d.py [--shape Z Y X] [--iterations N]
            [--library auto|cupy|torch|numpy]
"""

import argparse
import contextlib
import time

import numpy as np
from mpi4py import MPI

import haloflag


def initial(geometry):
    """The starting field (owned cells) from each cell's global index, the same for any split."""
    z, y, x = np.meshgrid(*[np.arange(s, s + n) for s, n in
                            zip(geometry.owned_start, geometry.owned_shape)], indexing="ij")
    return np.sin(0.3 * z) + np.cos(0.2 * y) * np.sin(0.1 * x + 1.0)


def reference(shape, iterations):
    """The same iteration on one rank: the global field with periodic neighbours (np.roll)."""
    z, y, x = np.meshgrid(*[np.arange(n) for n in shape], indexing="ij")
    u = np.sin(0.3 * z) + np.cos(0.2 * y) * np.sin(0.1 * x + 1.0)
    for _ in range(iterations):
        u = sum(np.roll(u, shift, axis) for axis in range(3) for shift in (1, -1)) / 6.0
    return u


def update(source, target):
    """target's owned cells = the average of source's six neighbours (ghost width 1). Plain
    slicing, so NumPy, CuPy and PyTorch arrays all take it."""
    c = slice(1, -1)
    target[c, c, c] = (source[:-2, c, c] + source[2:, c, c] + source[c, :-2, c] +
                       source[c, 2:, c] + source[c, c, :-2] + source[c, c, 2:]) / 6.0


class Library:
    """The array library: how to make, copy back and order work on its arrays."""

    def __init__(self, name, device):
        self.name = name
        if name == "cupy":
            import cupy
            cupy.cuda.Device(device).use()
            self.xp, self.stream = cupy, cupy.cuda.Stream(non_blocking=True)
        elif name == "torch":
            import torch
            torch.cuda.set_device(device)
            self.xp, self.stream = torch, torch.cuda.Stream()
        else:
            self.xp, self.stream = np, None

    def array(self, host):
        if self.name == "cupy":
            return self.xp.asarray(host)
        if self.name == "torch":
            return self.xp.from_numpy(host).cuda()
        return host.copy()

    def to_host(self, array):
        if self.name == "cupy":
            return self.xp.asnumpy(array)
        return array.cpu().numpy() if self.name == "torch" else array

    def on_stream(self):
        if self.name == "numpy":
            return contextlib.nullcontext()
        return self.stream if self.name == "cupy" else self.xp.cuda.stream(self.stream)

    def synchronize(self):
        """Waits for the work queued on the current stream. A device-wide synchronize would be
        right too, but it also waits for the resident kernels to leave the GPU (idle_exit after
        the last start), and the next exchange then launches them again."""
        if self.name == "cupy":
            self.xp.cuda.get_current_stream().synchronize()
        elif self.name == "torch":
            self.xp.cuda.current_stream().synchronize()


def pick_library(requested):
    if requested != "auto":
        return requested
    if not haloflag.gpu_backend() or haloflag._core.gpu_count()[0] == 0:
        return "numpy"
    for name in ("cupy", "torch"):
        try:
            __import__(name)
            return name
        except ImportError:
            pass
    return "numpy"


def fields_for(geometry, lib):
    """The two buffers, both holding the starting field."""
    host = np.zeros(geometry.field_shape)
    host[geometry.owned] = initial(geometry)
    return lib.array(host), lib.array(host)


def conventional(geometry, lib, iterations):
    a, b = fields_for(geometry, lib)
    with haloflag.Exchange(geometry, [a]) as exchange:

        def step(number):
            current, other = (a, b) if number % 2 == 0 else (b, a)
            lib.synchronize()  # start() reads the fields now: the last update must be done
            exchange.start(fields=[current]).wait()
            update(current, other)

        elapsed = timed(geometry, iterations, step, lib.synchronize)
        relaunches = exchange.relaunches
    return lib.to_host(b if iterations % 2 else a), elapsed, relaunches


def stream_ordered(geometry, lib, iterations):
    a, b = fields_for(geometry, lib)
    with haloflag.Exchange(geometry, [a], progress="thread") as exchange:

        def step(number):
            current, other = (a, b) if number % 2 == 0 else (b, a)
            exchange.start(lib.stream, fields=[current])  # after the last update on the stream
            exchange.wait(lib.stream)                     # the update sees the ghost cells
            update(current, other)

        with lib.on_stream():
            elapsed = timed(geometry, iterations, step, lib.stream.synchronize)
        exchange.wait()
        relaunches = exchange.relaunches
    return lib.to_host(b if iterations % 2 else a), elapsed, relaunches


def timed(geometry, iterations, step, synchronize):
    """Runs the steps and returns the seconds per step, from the second on: the first also
    compiles and loads the update's kernels (CuPy and PyTorch do that at a kernel's first launch,
    with the exchange's resident kernels on the GPU)."""
    if iterations == 0:
        return 0.0
    step(0)
    synchronize()
    geometry.comm.Barrier()
    began = time.perf_counter()
    for number in range(1, iterations):
        step(number)
    synchronize()
    return (time.perf_counter() - began) / max(iterations - 1, 1)


def check(geometry, result, want, name):
    """Rank 0 puts every rank's owned block into the global field and compares it with `want`."""
    blocks = geometry.comm.gather((geometry.owned_start, result[geometry.owned]), root=0)
    if geometry.comm.rank != 0:
        return True
    got = np.empty_like(want)
    for start, block in blocks:
        got[tuple(slice(s, s + n) for s, n in zip(start, block.shape))] = block
    error = float(np.abs(got - want).max())
    ok = error < 1e-12
    print(f"{name}: max difference from the single-rank reference {error:.2e}: "
          f"{'ok' if ok else 'WRONG'}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", type=int, nargs=3, default=None, metavar=("Z", "Y", "X"))
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--library", default="auto", choices=["auto", "cupy", "torch", "numpy"])
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    name = pick_library(args.library)
    device = haloflag.bind_gpu(comm) if name != "numpy" else None
    lib = Library(name, device)
    shape = tuple(args.shape or ((256, 256, 256) if name != "numpy" else (48, 48, 48)))
    geometry = haloflag.Geometry(shape, comm)
    want = reference(shape, args.iterations) if comm.rank == 0 else None
    variants = [("conventional", conventional)]
    if name != "numpy":
        variants.append(("stream-ordered", stream_ordered))
    ok = True
    for variant, run in variants:
        result, per_step, relaunches = run(geometry, lib, args.iterations)
        slowest = comm.allreduce(per_step, op=MPI.MAX)
        relaunches = comm.allreduce(relaunches, op=MPI.MAX)
        if comm.rank == 0:
            print(f"{variant} ({name}, {comm.size} ranks, {shape}): "
                  f"{slowest * 1e6:.1f} us per iteration, "
                  f"kernels relaunched {relaunches} times")
        ok = check(geometry, result, want, variant) and ok
    if not comm.bcast(ok, root=0):
        comm.Abort(1)


if __name__ == "__main__":
    main()
