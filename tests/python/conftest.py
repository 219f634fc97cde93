"""Shared fixtures for the ascsim / add_custom tests.

Run with:  PYTHONPATH=<build>/python /usr/bin/python3 -m pytest tests/python -q
"""
import numpy as np
import pytest

import ascsim


@pytest.fixture
def rng():
    """A fixed-seed generator per test, so every failure reproduces."""
    return np.random.default_rng(20240607)


@pytest.fixture(autouse=True)
def restore_settings():
    """Every test starts and ends with the same settings: whatever a test changes (SoC, strict,
    serial, timeout, sanitize) is restored by ascsim.settings() when it ends."""
    with ascsim.settings():
        yield


def uniform(rng, shape, dtype, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape).astype(dtype)
