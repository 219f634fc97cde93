"""The seed's test, as the official pybind sample writes it: [8, 2048] float16, z == x + y."""
import numpy as np

import add_custom


def test_add_custom_seed_shape_float16():
    np.random.seed(0)
    x = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    y = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    z = add_custom.run_add_custom(x, y)
    assert z.dtype == np.float16 and z.shape == (8, 2048)
    np.testing.assert_array_equal(z, x + y)
