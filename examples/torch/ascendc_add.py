#!/usr/bin/env python3
"""The torch.library sample of asc-devkit (examples/02_features/01_triple_chevron_notation/
torch_library: TORCH_LIBRARY(ascendc_ops) with "ascendc_add(Tensor x, Tensor y) -> Tensor" over the
add_custom kernel), on ascsim: no NPU, no torch_npu, no C++ built against torch.

The kernel is the seed's own kernel/add_custom.cpp, compiled by ascsim.load; ascsim.torch.register
defines the operator with the sample's schema, a CPU implementation that launches the kernel on
the tensors' memory (8 blocks, totalLength = numel, as the sample's host code) and a fake one for
torch.compile. Then the sample's test (torch.ops.ascendc_ops.ascendc_add against torch.add) and a
compiled model calling the operator.

    PYTHONPATH=build/python python examples/torch/ascendc_add.py   # in a venv with torch
"""
import os
import sys
import unittest

import torch

import ascsim
import ascsim.torch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

kernels = ascsim.load(os.path.join(REPO, "kernel", "add_custom.cpp"),
                      extra_cflags=[f"-I{os.path.join(REPO, 'kernel', 'include')}"])


def _check(x, y):
    if x.dtype != torch.float16 or y.dtype != torch.float16 or x.shape != y.shape:
        raise ValueError(f"ascendc_add takes two float16 tensors of one shape, got {x.dtype} "
                         f"{tuple(x.shape)} and {y.dtype} {tuple(y.shape)}")


def _outputs(x, y):
    _check(x, y)  # also when traced: torch.compile fails early, as the device would at run time
    return torch.empty(x.shape, dtype=x.dtype)


ascendc_add = ascsim.torch.register(
    "ascendc_ops::ascendc_add(Tensor x, Tensor y) -> Tensor", kernels.add_custom,
    outputs=_outputs, launch_args=lambda x, y, z: (x, y, z, x.numel()), block_dim=8)


class TestCustomAdd(unittest.TestCase):
    def test_add_custom_ops(self):
        length = [8, 2048]
        x = torch.rand(length, device="cpu", dtype=torch.float16)
        y = torch.rand(length, device="cpu", dtype=torch.float16)
        output = torch.ops.ascendc_ops.ascendc_add(x, y)
        cpuout = torch.add(x, y)
        self.assertTrue(torch.allclose(output, cpuout, rtol=1e-3, atol=1e-3))
        self.assertTrue(torch.equal(output, cpuout))  # half + half rounds the same way

    def test_opcheck(self):
        x = torch.rand(3, 100, dtype=torch.float16)
        result = torch.library.opcheck(ascendc_add, (x, x))
        self.assertEqual(set(result.values()), {"SUCCESS"}, result)

    def test_in_a_compiled_model(self):
        def model(x, y):
            return torch.ops.ascendc_ops.ascendc_add(x * 2, y).relu()

        x = torch.randn(4, 512, dtype=torch.float16)
        y = torch.randn(4, 512, dtype=torch.float16)
        compiled = torch.compile(model, fullgraph=True, backend="aot_eager")
        self.assertTrue(torch.equal(compiled(x, y), model(x, y)))

    def test_bad_input_is_refused(self):
        with self.assertRaises(ValueError):
            torch.ops.ascendc_ops.ascendc_add(torch.zeros(4), torch.zeros(4))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:], verbosity=2)
