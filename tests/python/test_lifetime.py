"""close(), the context manager, and handles that outlive their exchange."""

import numpy as np
import pytest

import haloflag
from haloflag import exchange as exchange_module

SHAPE = (6, 10, 12)


def test_context_manager_closes(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)]) as exchange:
        assert exchange in exchange_module._open.values()
        exchange.run()
    assert exchange.closed and exchange not in exchange_module._open.values()
    with pytest.raises(haloflag.UsageError, match="closed"):
        exchange.run()
    with pytest.raises(haloflag.UsageError, match="closed"):
        exchange.start()
    exchange.close()  # twice: nothing happens


def test_context_manager_closes_on_error(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    with pytest.raises(KeyError):
        with haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)]) as exchange:
            raise KeyError("inside the block")
    assert exchange.closed


def test_handle_after_close(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    exchange = haloflag.Exchange(geometry, [np.zeros(geometry.field_shape)])
    handle = exchange.start()
    handle.wait()
    exchange.close()
    with pytest.raises(haloflag.UsageError, match="destroyed"):
        handle.wait()
    with pytest.raises(haloflag.UsageError):
        handle.test()
    assert handle.epoch == 1


def test_field_sets_are_made_once(comm):
    geometry = haloflag.Geometry(SHAPE, comm)
    a, b = np.zeros(geometry.field_shape), np.zeros(geometry.field_shape)
    with haloflag.Exchange(geometry, [a]) as exchange:
        for _ in range(3):
            exchange.start(fields=[b]).wait()
        assert len(exchange._sets) == 1
        with pytest.raises(haloflag.ConfigError, match="element sizes"):
            exchange.start(fields=[np.zeros(geometry.field_shape, np.float32)])
