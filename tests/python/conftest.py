"""Shared fixtures for the add_custom tests.

Run with:  PYTHONPATH=<build>/bindings /usr/bin/python3 -m pytest tests/python -q
"""
import numpy as np
import pytest

import add_custom


@pytest.fixture
def rng():
    """A fixed-seed generator per test, so every failure reproduces."""
    return np.random.default_rng(20240607)


@pytest.fixture(autouse=True)
def restore_settings():
    """Every test starts and ends with the same global settings."""
    strict, serial, soc = add_custom.get_strict(), add_custom.get_serial(), add_custom.get_soc()
    yield
    add_custom.set_strict(strict)
    add_custom.set_serial(serial)
    add_custom.set_soc(soc["name"])


def uniform(rng, shape, dtype, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape).astype(dtype)
