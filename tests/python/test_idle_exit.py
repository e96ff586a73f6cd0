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

import haloflag
from haloflag import _core
from ghost_check import agree, fill, wrong_cells

SHAPE = (6, 10, 12)
# Long enough that a loaded, oversubscribed CI machine never stalls this long between two
# back-to-back exchanges, short enough to wait out in a test.
WINDOW = 0.1


def _exchange(exchange, field, geometry, epoch):
    fill(field, geometry, 0, epoch, whole=True)
    exchange.run()
    agree(wrong_cells(field, geometry, 0, epoch))


def test_default_is_the_cpp_default():
    assert haloflag.DEFAULT_IDLE_EXIT == _core.DEFAULT_IDLE_EXIT_S
    assert 0 < haloflag.DEFAULT_IDLE_EXIT < 1


def test_pause_relaunches_and_a_loop_does_not(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    field = np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [field], backend="host", strategy="resident",
                           idle_exit=WINDOW) as exchange:
        _exchange(exchange, field, geometry, 1)
        before = exchange.relaunches
        time.sleep(WINDOW * 20)
        _exchange(exchange, field, geometry, 2)
        paused = exchange.relaunches
        agree("" if paused >= before + 1 else
              f"relaunches {before} before a pause of {WINDOW * 20} s and {paused} after it")
        for _ in range(50):
            exchange.run()
        agree("" if exchange.relaunches == paused else
              f"50 back-to-back exchanges relaunched {exchange.relaunches - paused} times")
        agree(wrong_cells(field, geometry, 0, 2))


def test_default_window_relaunches(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    field = np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [field], backend="host") as exchange:
        _exchange(exchange, field, geometry, 1)
        before = exchange.relaunches
        time.sleep(max(haloflag.DEFAULT_IDLE_EXIT * 20, 0.2))
        _exchange(exchange, field, geometry, 2)
        agree("" if exchange.relaunches >= before + 1 else
              f"relaunches {exchange.relaunches} after a pause, {before} before it")


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
