"""Bad input is refused on every rank with an exception naming what is wrong, even when only one
rank gives it; a missed deadline is a haloflag.TimeoutError; nothing hangs."""

import threading
import time

import numpy as np
import pytest
from mpi4py import MPI

import haloflag

SHAPE = (6, 10, 12)


def test_wrong_shape_on_one_rank(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    shape = geometry.field_shape if comm.rank else (1, 2, 3)
    with pytest.raises(haloflag.ConfigError, match=r"rank 0: field 0: shape \(1, 2, 3\)") as caught:
        haloflag.Exchange(geometry, [np.zeros(shape)])
    assert caught.value.kind == "config" and isinstance(caught.value, ValueError)


def test_dtype_over_16_bytes(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    wide = np.dtype([("a", np.float64), ("b", np.float64), ("c", np.float64)])
    with pytest.raises(haloflag.ConfigError, match="24-byte elements; haloflag exchanges elements of 1 to 16"):
        haloflag.Exchange(geometry, [np.zeros(geometry.field_shape, wide)])


def test_object_dtype(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with pytest.raises(haloflag.ConfigError, match="dtype object holds Python objects"):
        haloflag.Exchange(geometry, [np.empty(geometry.field_shape, object)])


def test_not_an_array_and_not_a_list(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with pytest.raises(haloflag.ConfigError, match="field 1: list is not an array"):
        haloflag.Exchange(geometry, [np.zeros(geometry.field_shape), [1, 2]])
    with pytest.raises(TypeError, match="fields must be a list of arrays"):
        haloflag.Exchange(geometry, np.zeros(geometry.field_shape)[0, 0, 0])


def test_non_contiguous_rows(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    fz, fy, fx = geometry.field_shape
    strided = np.zeros((fz, fy, 2 * fx))[:, :, ::2]
    with pytest.raises(haloflag.ConfigError, match=r"the last axis \(x\) must be contiguous"):
        haloflag.Exchange(geometry, [strided])


def test_element_sizes_differ_between_ranks(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    dtype = np.float64 if comm.rank == 0 else np.float32
    fields = [np.zeros(geometry.field_shape), np.zeros(geometry.field_shape, dtype)]
    with pytest.raises(haloflag.ConfigError,
                       match="field 1 has 8-byte elements on rank 0 but 4-byte elements on rank 1"):
        haloflag.Exchange(geometry, fields)


def test_geometry_for_another_number_of_ranks(comm):
    with pytest.raises(haloflag.GeometryError) as caught:
        haloflag.Geometry(SHAPE, comm, rank_grid=(1, 1, comm.size + 1))
    assert caught.value.kind == "geometry" and str(comm.size) in str(caught.value)


def test_bad_arguments(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    field = [np.zeros(geometry.field_shape)]
    with pytest.raises(haloflag.ConfigError, match="rank 0: .*'bogus'"):
        haloflag.Exchange(geometry, field, strategy="bogus" if comm.rank == 0 else "resident")
    with pytest.raises(haloflag.ConfigError, match="timeout must be a positive number"):
        haloflag.Exchange(geometry, field, timeout=-1)
    with pytest.raises(haloflag.ConfigError, match="backend 'cuda' needs GPU arrays"):
        haloflag.Exchange(geometry, field, backend="cuda")
    with pytest.raises(haloflag.GeometryError, match="three entries"):
        haloflag.Geometry((4, 4), comm)


def test_stream_on_host_is_refused(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)]) as exchange:
        with pytest.raises(haloflag.UsageError, match="host backend: use start"):
            exchange.start(0)
        with pytest.raises(haloflag.UsageError, match="host backend"):
            exchange.wait(0)
        exchange.run()  # still usable after the refusals


def test_timeout_releases_the_gil(comm):
    """Rank 0 exchanges alone and passes its deadline; meanwhile a Python thread of its own runs,
    so the wait does not hold the GIL."""
    geometry = haloflag.Geometry(SHAPE, comm)
    with haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)], timeout=0.5,
                           transport="mpi") as exchange:
        if comm.rank == 0:
            ticks, done = [0], threading.Event()

            def count():
                while not done.is_set():
                    ticks[0] += 1
                    time.sleep(0.001)

            counter = threading.Thread(target=count)
            counter.start()
            began = time.monotonic()
            with pytest.raises(haloflag.TimeoutError) as caught:
                exchange.run()
            done.set()
            counter.join()
            assert isinstance(caught.value, TimeoutError) and caught.value.kind == "timeout"
            assert 0.4 < time.monotonic() - began < 10
            # Holding the GIL, run() would let the thread tick once at most; a loaded machine
            # may stretch each 1 ms sleep a lot, so a few ticks are proof enough.
            assert ticks[0] >= 3, f"the Python thread ran {ticks[0]} times while run() waited"
            with pytest.raises(haloflag.Error):
                exchange.run()  # a failed exchange stays failed
        comm.Barrier()


def test_abort(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)]) as exchange:
        exchange.run()
        exchange.abort("stopped by the test")
        with pytest.raises(haloflag.Error, match="stopped by the test"):
            exchange.run()
