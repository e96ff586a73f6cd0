"""Values of every cell from its global index, and the check that every ghost cell of a field
holds its neighbour's value after an exchange (or was left alone where no neighbour writes it).
"""

import numpy as np
from mpi4py import MPI

SENTINEL = -7  # what ghost cells hold before an exchange; stays where nothing is received


def owned_values(geometry, var, epoch, dtype):
    """The owned cells of variable `var` at `epoch`: a number from the global (z, y, x) index,
    exact in every dtype the tests use (small domains)."""
    return _values(geometry, var, epoch, dtype,
                   [np.arange(s, s + n) for s, n in zip(geometry.owned_start, geometry.owned_shape)])


def _values(geometry, var, epoch, dtype, axes):
    nz, ny, nx = geometry.global_shape
    z, y, x = np.meshgrid(*axes, indexing="ij")
    flat = (z * ny + y) * nx + x
    return ((flat * 7 + var * 3 + epoch * 11) % 30000 + 1).astype(dtype)


def fill(field, geometry, var, epoch, whole=False):
    """Owned cells of `field` for `epoch`; with whole, every ghost cell set to SENTINEL first."""
    if whole:
        field[...] = np.array(SENTINEL).astype(field.dtype)
    field[geometry.owned] = owned_values(geometry, var, epoch, field.dtype)


def expected(geometry, var, epoch, dtype):
    """The whole field after an exchange: every cell's value from its wrapped global index;
    SENTINEL across a non-periodic boundary and, for faces_only, in edge and corner ghosts."""
    axes, outside = [], []
    for axis in range(3):
        local = np.arange(geometry.field_shape[axis]) - geometry.ghost[axis]
        g = local + geometry.owned_start[axis]
        n = geometry.global_shape[axis]
        outside.append(((g < 0) | (g >= n)) & (not geometry.periodic[axis]))
        axes.append(g % n)
    values = _values(geometry, var, epoch, dtype, axes)
    ghost_axes = sum(np.meshgrid(*[(np.arange(geometry.field_shape[a]) < geometry.ghost[a]) |
                                   (np.arange(geometry.field_shape[a]) >=
                                    geometry.ghost[a] + geometry.owned_shape[a])
                                   for a in range(3)], indexing="ij"))
    untouched = np.logical_or.reduce(np.meshgrid(*outside, indexing="ij"))
    if geometry.faces_only:
        untouched |= ghost_axes > 1
    values[untouched] = np.array(SENTINEL).astype(dtype)
    return values


def wrong_cells(field, geometry, var, epoch):
    """A description of the first wrong cells, or "" when every cell is right."""
    want = expected(geometry, var, epoch, field.dtype)
    bad = np.argwhere(np.asarray(field) != want)
    if len(bad) == 0:
        return ""
    first = [tuple(int(i) for i in b) for b in bad[:3]]
    return (f"variable {var}, epoch {epoch}: {len(bad)} wrong cells, first {first}: got "
            f"{[field[c] for c in first]}, want {[want[c] for c in first]}")


def agree(problem, comm=MPI.COMM_WORLD):
    """Every rank's problem: asserts on every rank when any rank has one."""
    problems = comm.allgather(problem)
    found = [f"rank {r}: {p}" for r, p in enumerate(problems) if p]
    assert not found, "; ".join(found)
