#!/usr/bin/python3
"""The seed's test, in the style of the official Ascend C pybind sample, on ascsim.

Run:  PYTHONPATH=<build>/python /usr/bin/python3 examples/python/test_add_custom.py
  or  PYTHONPATH=<build>/python /usr/bin/python3 -m pytest examples/python/test_add_custom.py
"""
import unittest

import numpy as np

import add_custom


class TestCustomAdd(unittest.TestCase):
    def test_add_custom_ops(self):
        length = [8, 2048]
        x = np.random.uniform(-1, 1, length).astype(np.float16)
        y = np.random.uniform(-1, 1, length).astype(np.float16)
        z = add_custom.run_add_custom(x, y)
        expected = x + y
        self.assertEqual(z.shape, expected.shape)
        self.assertEqual(z.dtype, expected.dtype)
        self.assertTrue(np.array_equal(z, expected))


if __name__ == "__main__":
    unittest.main()
