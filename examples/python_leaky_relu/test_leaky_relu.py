#!/usr/bin/python3
"""leaky_relu_custom from Python three ways, all on one runtime: ascsim.load(), the CMake
kernel module (ascsim_add_kernel_module) and the user's own pybind11 module (ACLRT_LAUNCH_KERNEL).

    PYTHONPATH=<build>/python:<build>/examples/python_leaky_relu python3 test_leaky_relu.py
"""
import os
import unittest
import warnings

import numpy as np

import ascsim
import leaky_relu_ext
import leaky_relu_kernels

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, os.pardir, "leaky_relu", "leaky_relu_custom.cpp")
N = 8 * 8 * 2 * 256  # blocks x tiles x buffers x tile, as the kernel splits it


def reference(x, alpha):
    return np.where(x >= 0, x, x * np.float32(alpha)).astype(np.float32)


class LeakyReluFromPython(unittest.TestCase):
    def setUp(self):
        self.x = np.random.default_rng(3).uniform(-2, 2, N).astype(np.float32)

    def test_own_pybind11_module(self):
        y = leaky_relu_ext.run_leaky_relu_custom(self.x, 0.1)
        np.testing.assert_array_equal(y, reference(self.x, 0.1))

    def test_cmake_kernel_module(self):
        y = np.zeros_like(self.x)
        leaky_relu_kernels.leaky_relu_custom(self.x, y, N, 0.1, block_dim=8)
        np.testing.assert_array_equal(y, reference(self.x, 0.1))

    def test_load(self):
        mod = ascsim.load(KERNEL)
        y = np.zeros_like(self.x)
        mod.leaky_relu_custom(self.x, y, N, 0.1, block_dim=8)
        np.testing.assert_array_equal(y, reference(self.x, 0.1))

    def test_one_profiler_sees_all_three(self):
        y = np.zeros_like(self.x)
        with ascsim.profile() as prof:
            leaky_relu_ext.run_leaky_relu_custom(self.x, 0.1)
            leaky_relu_kernels.leaky_relu_custom(self.x, y, N, 0.1, block_dim=8)
        self.assertEqual([s["kernel"] for s in prof.summary()], ["leaky_relu_custom"] * 2)

    def test_own_module_errors_are_ascsim_errors_naming_the_soc(self):
        # One block for 2^19 floats: tiles of 32768 floats, 4 buffers of 128 KiB, more than the
        # 256 KiB Unified Buffer of the profile the settings chose (one settings table for every
        # module, also this one's).
        x = np.ones(1 << 19, np.float32)
        with ascsim.settings(soc="Ascend310P3"), warnings.catch_warnings():
            warnings.simplefilter("ignore", ascsim.SimulatorWarning)  # compiled for 2201
            with self.assertRaises(ascsim.KernelError) as info:
                leaky_relu_ext.run_leaky_relu_custom(x, 0.1, 1)
        self.assertIn("leaky_relu_custom: block 0/1", str(info.exception))
        self.assertIn("Ascend310P3", str(info.exception))

if __name__ == "__main__":
    unittest.main()
