#!/usr/bin/env python3
"""The pybind sample's test (Ascend samples, CppExtensions: `import add_custom;
add_custom.run_add_custom(x, y)` in a torch_npu TestCase) as a plain unittest on ascsim: CPU
tensors go in and a tensor comes out (no copy either way), compared with torch.allclose.

    PYTHONPATH=build/python python examples/torch/test_add_custom.py   # in a venv with torch
"""
import unittest

import torch

import add_custom


class TestCustomAdd(unittest.TestCase):
    def test_add_custom_ops(self):
        length = [8, 2048]
        x = torch.rand(length, device="cpu", dtype=torch.float16)
        y = torch.rand(length, device="cpu", dtype=torch.float16)
        output = add_custom.run_add_custom(x, y)
        cpuout = torch.add(x, y)
        self.assertIsInstance(output, torch.Tensor)
        self.assertEqual(output.shape, cpuout.shape)
        self.assertEqual(output.dtype, cpuout.dtype)
        self.assertTrue(torch.allclose(output, cpuout, rtol=1e-3, atol=1e-3))

    def test_add_custom_ops_float32(self):
        x = torch.rand(3, 1000)
        y = torch.rand(3, 1000)
        self.assertTrue(torch.allclose(add_custom.run_add_custom(x, y), x + y))


if __name__ == "__main__":
    unittest.main(verbosity=2)
