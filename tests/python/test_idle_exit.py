"""idle_exit on the host backend, where CPU threads stand in for the resident kernels: after a
pause longer than the window the next exchange launches them again (Exchange.relaunches counts
it) and is still right; back-to-back exchanges relaunch nothing; "never" keeps them; bad values
are refused on every rank. test_coexistence.py does the same on a GPU with the array libraries'
device-wide waits."""

import math
import re
import time

import numpy as np
import pytest
from mpi4py import MPI

import haloflag
from haloflag import _core
from ghost_check import agree, fill, wrong_cells

SHAPE = (6, 10, 12)
# Long enough that a loaded, oversubscribed CI machine never stalls this long between two
# back-to-back exchanges, short enough to wait out in a test.
WINDOW = 0.25


def _exchange(exchange, field, geometry, epoch):
    fill(field, geometry, 0, epoch, whole=True)
    exchange.run()
    agree(wrong_cells(field, geometry, 0, epoch))


def _pause_until_relaunched(exchange, field, geometry, epoch, pause, comm):
    """Pauses past the window, then runs a checked exchange, until that exchange relaunched the
    kernels on every rank; each further pause doubles, 5 in all. On an idle machine the first
    does; where other jobs share the cores, a host lane's watcher (a thread that yields between
    its polls) may see its window pass much later. Returns the last exchange's epoch."""
    before = exchange.relaunches
    for _ in range(5):
        time.sleep(pause)
        epoch += 1
        _exchange(exchange, field, geometry, epoch)
        if comm.allreduce(exchange.relaunches > before, op=MPI.LAND):
            return epoch
        pause *= 2
    agree(f"relaunches still {exchange.relaunches} after pauses of up to {pause / 2} s")
    return epoch


def test_default_is_the_cpp_default():
    assert haloflag.DEFAULT_IDLE_EXIT == _core.DEFAULT_IDLE_EXIT_S
    assert 0 < haloflag.DEFAULT_IDLE_EXIT < 1


def test_pause_relaunches_and_a_loop_does_not(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    field = np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [field], backend="host", strategy="resident",
                           idle_exit=WINDOW) as exchange:
        _exchange(exchange, field, geometry, 1)
        epoch = _pause_until_relaunched(exchange, field, geometry, 1, WINDOW * 2, comm)
        paused = exchange.relaunches
        for _ in range(50):
            exchange.run()
        agree("" if exchange.relaunches == paused else
              f"50 back-to-back exchanges relaunched {exchange.relaunches - paused} times")
        agree(wrong_cells(field, geometry, 0, epoch))


def test_default_window_relaunches(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    field = np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [field], backend="host") as exchange:
        _exchange(exchange, field, geometry, 1)
        _pause_until_relaunched(exchange, field, geometry, 1, 0.05, comm)


@pytest.mark.parametrize("strategy, idle_exit", [("resident", "never"), ("resident", 1e300),
                                                 ("stream_notify", 0.01)])
def test_no_relaunches(comm, strategy, idle_exit):
    """idle_exit="never" (or a window of ages) keeps the kernels; a strategy without resident
    kernels never relaunches."""
    geometry = haloflag.Geometry(SHAPE, comm)
    field = np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [field], backend="host", strategy=strategy,
                           idle_exit=idle_exit) as exchange:
        _exchange(exchange, field, geometry, 1)
        time.sleep(0.3)
        _exchange(exchange, field, geometry, 2)
        for _ in range(20):
            exchange.run()
        agree("" if exchange.relaunches == 0 else f"relaunches {exchange.relaunches}, not 0")


@pytest.mark.parametrize("bad", [0, -1, "soon", math.nan, math.inf, 1e-9, True, None])
def test_bad_idle_exit_on_one_rank(comm, bad):
    """One rank's bad value is refused on every rank, naming that rank and the value."""
    geometry = haloflag.Geometry(SHAPE, comm)
    field = [np.zeros(geometry.field_shape)]
    idle_exit = bad if comm.rank == 0 else 0.01
    with pytest.raises(haloflag.ConfigError, match=r"rank 0: idle_exit must be a positive number "
                       r"of seconds .* not " + re.escape(repr(bad))):
        haloflag.Exchange(geometry, field, backend="host", idle_exit=idle_exit)


def test_bad_idle_exit_on_every_rank(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with pytest.raises(haloflag.ConfigError, match=f"rank {comm.size - 1}: idle_exit"):
        haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)], idle_exit=-0.5)
