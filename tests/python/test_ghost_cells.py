"""Every ghost cell after an exchange holds the value computed from its global index: NumPy
fields of several dtypes, padded views, mixed dtypes, faces_only, non-periodic axes, each
strategy, start()/wait() handles and double buffering through start(fields=...)."""

import numpy as np
import pytest

import haloflag
from ghost_check import agree, fill, wrong_cells

SHAPE = (6, 10, 12)  # (z, y, x): split in two or four along x and y


def exchange_and_check(geometry, fields, epochs=3, **options):
    with haloflag.Exchange(geometry, fields, **options) as exchange:
        for epoch in range(1, epochs + 1):
            for var, field in enumerate(fields):
                fill(field, geometry, var, epoch, whole=(epoch == 1))
            exchange.run()
            problems = [wrong_cells(f, geometry, v, epoch) for v, f in enumerate(fields)]
            agree("; ".join(p for p in problems if p))
        assert exchange.epoch == epochs


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_dtype(comm, dtype):
    geometry = haloflag.Geometry(SHAPE, comm)
    exchange_and_check(geometry, [np.zeros(geometry.field_shape, dtype)])


def test_padded_view(comm):
    """A view into larger arrays: rows and planes padded, the padding left alone."""
    geometry = haloflag.Geometry(SHAPE, comm, ghost=(1, 2, 1))
    fz, fy, fx = geometry.field_shape
    base = np.full((fz + 1, fy + 3, fx + 5), 99.0)
    field = base[1:, 2:2 + fy, 3:3 + fx]
    assert not field.flags.c_contiguous
    exchange_and_check(geometry, [field])
    padding = base.copy()
    padding[1:, 2:2 + fy, 3:3 + fx] = 99.0
    agree("" if (padding == 99.0).all() else "the padding around the view was written")


def test_mixed_dtypes(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    dtypes = [np.float64, np.float32, np.int16, np.uint8, np.complex128, np.int64]
    exchange_and_check(geometry, [np.zeros(geometry.field_shape, d) for d in dtypes])


def test_faces_only(comm):
    geometry = haloflag.Geometry(SHAPE, comm, faces_only=True)
    assert all(sum(map(abs, n.direction)) == 1 for n in geometry.neighbours)
    exchange_and_check(geometry, [np.zeros(geometry.field_shape)])


def test_non_periodic_and_wide_ghosts(comm):
    geometry = haloflag.Geometry(SHAPE, comm, periodic=(True, False, False), ghost=2)
    exchange_and_check(geometry, [np.zeros(geometry.field_shape), np.zeros(geometry.field_shape, np.float32)])


@pytest.mark.parametrize("strategy", ["resident", "stream_notify", "comb_fused", "stacked_notify"])
def test_strategies(comm, strategy):
    geometry = haloflag.Geometry(SHAPE, comm)
    exchange_and_check(geometry, [np.zeros(geometry.field_shape)], strategy=strategy)


def test_transport_mpi_and_progress_thread(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    exchange_and_check(geometry, [np.zeros(geometry.field_shape)], transport="mpi", progress="thread")


def test_rank_grid_and_geometry_properties(comm):
    geometry = haloflag.Geometry((4, 6, 8), comm, rank_grid=(1, 1, comm.size))
    assert geometry.rank_grid == (1, 1, comm.size)
    assert geometry.owned_shape == (4, 6, 8 // comm.size)
    assert geometry.owned_start == (0, 0, comm.rank * (8 // comm.size))
    assert geometry.field_shape == (6, 8, 8 // comm.size + 2)
    assert len(geometry.neighbours) == 26


def test_start_handles_and_double_buffering(comm):
    """start() and start(fields=...) alternate between two arrays, as Jacobi does."""
    geometry = haloflag.Geometry(SHAPE, comm)
    a, b = np.zeros(geometry.field_shape), np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [a]) as exchange:
        for epoch in range(1, 5):
            target = a if epoch % 2 else b
            fill(target, geometry, 0, epoch, whole=True)
            handle = exchange.start(fields=[target]) if target is b else exchange.start()
            assert handle.epoch == epoch
            handle.wait()
            assert handle.test()
            agree(wrong_cells(target, geometry, 0, epoch))
        fill(a, geometry, 0, 9)
        handle = exchange.start()
        while not exchange.progress():
            pass
        agree(wrong_cells(a, geometry, 0, 9))
        exchange.start()
        exchange.wait()
        assert exchange.epoch == 6
