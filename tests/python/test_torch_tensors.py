"""CPU tensors as device memory (python/ascsim/torch/_tensors.py): every dtype reaches a loaded
kernel without a copy, the registry sees tensors as it sees NumPy arrays, results of the shipped
kernels come back as tensors over the device buffers, and what cannot be device memory is
refused with a clear error."""
import gc

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import add_custom  # noqa: E402
import ascsim  # noqa: E402
import ascsim.torch  # noqa: E402
import torch_kernels  # noqa: E402

DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.int16,
          torch.int32, torch.int64, torch.uint8, torch.bool]


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return torch_kernels.load(tmp_path_factory)


def sample(dtype, n, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.rand(n, generator=g) > 0.5
    if dtype.is_floating_point:
        return (torch.randn(n, generator=g) * 100).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(info.min, info.max, (n,), generator=g, dtype=torch.int64).to(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", [1, 33, 4096])
def test_every_dtype_reaches_a_kernel_byte_for_byte(kernels, dtype, n):
    src = sample(dtype, n)
    dst = torch.empty_like(src)
    kernels.copy_bytes_custom(src, dst, n * src.element_size(), block_dim=4)
    assert torch.equal(dst, src)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_as_array_is_the_tensors_memory(dtype):
    t = sample(dtype, 10)
    a = ascsim.torch.as_array(t)
    assert a.ctypes.data == t.data_ptr() and a.nbytes == t.numel() * t.element_size()
    assert a.shape == (10,)
    back = ascsim.torch.as_tensor(a, dtype)
    assert back.dtype == dtype and back.data_ptr() == t.data_ptr() and torch.equal(back, t)


def test_bfloat16_travels_as_its_bits(kernels):
    x = torch.randn(160, dtype=torch.bfloat16)
    a = ascsim.torch.as_array(x)
    assert a.dtype == np.uint16
    np.testing.assert_array_equal(a, x.view(torch.uint16).numpy())
    y = torch.empty_like(x)
    kernels.scale_bf16_custom(x, y, 3.0, x.numel(), block_dim=4)
    # float math rounded to nearest even, exactly what torch does for bfloat16 * 3
    assert torch.equal(y, (x.float() * 3).to(torch.bfloat16))


def test_a_typed_pointer_checks_the_tensors_dtype(kernels):
    with pytest.raises(ascsim.InvalidArgumentError, match="dtype .* does not match the kernel's "
                                                          "element type; expected float32"):
        kernels.scale_inplace_custom(torch.zeros(8, dtype=torch.float16), 2.0, 8, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match="expected int32"):
        kernels.add_one_i32_custom(torch.zeros(8, dtype=torch.int64), 8, block_dim=1)


def test_writes_land_in_the_tensor_and_views_of_one_storage(kernels):
    base = torch.arange(64, dtype=torch.float32)
    view = base[8:24]  # a view into a larger storage
    kernels.scale_inplace_custom(view, 10.0, view.numel(), block_dim=2)
    expected = torch.arange(64, dtype=torch.float32)
    expected[8:24] *= 10
    assert torch.equal(base, expected)
    # Two views of one storage in flight on two streams share one registration.
    a, b = base[:32], base[32:]
    s1, s2 = ascsim.Stream(), ascsim.Stream()
    kernels.scale_inplace_custom(a, 2.0, 32, block_dim=2, stream=s1)
    kernels.scale_inplace_custom(b, 3.0, 32, block_dim=2, stream=s2)
    s1.synchronize()
    s2.synchronize()
    expected[:32] *= 2
    expected[32:] *= 3
    assert torch.equal(base, expected)


def test_an_overrun_past_the_storage_faults(kernels):
    t = torch.zeros(16, dtype=torch.float32)
    with pytest.raises(ascsim.KernelError, match="outside its device allocation"):
        kernels.scale_inplace_custom(t, 2.0, 64, block_dim=1)
    kernels.scale_inplace_custom(t, 2.0, 16, block_dim=1)  # usable afterwards


def test_a_one_element_tensor_is_a_scalar_argument(kernels):
    t = torch.ones(8)
    kernels.scale_inplace_custom(t, torch.tensor(4.0), torch.tensor(8), block_dim=1)
    assert torch.equal(t, torch.full((8,), 4.0))


def test_what_is_not_device_memory_is_refused(kernels):
    f = kernels.scale_inplace_custom
    with pytest.raises(ascsim.InvalidArgumentError, match="is not contiguous .*pass .contiguous"):
        f(torch.zeros(8, 8).t(), 2.0, 64, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError,
                       match="is on device meta; ascsim simulates the NPU on the host and takes "
                             "CPU tensors only"):
        f(torch.zeros(8, device="meta"), 2.0, 8, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match="has layout torch.sparse_coo"):
        f(torch.zeros(8).to_sparse(), 2.0, 8, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match="has dtype torch.complex64"):
        f(torch.zeros(8, dtype=torch.complex64), 2.0, 8, block_dim=1)
    with pytest.raises(ascsim.InvalidArgumentError, match="argument 'x'"):
        f(torch.zeros(8, 8).t(), 2.0, 64, block_dim=1)
    t = torch.ones(8, requires_grad=True)  # autograd is bypassed: the kernel sees the memory
    with torch.no_grad():
        f(t, 2.0, 8, block_dim=1)
    assert torch.equal(t.detach(), torch.full((8,), 2.0))


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
def test_shipped_kernels_take_and_return_tensors(dtype):
    x = torch.randn(8, 2048).to(dtype)
    y = torch.randn(8, 2048).to(dtype)
    z = add_custom.run_add_custom(x, y)
    assert isinstance(z, torch.Tensor) and z.dtype == dtype and torch.equal(z, x + y)
    g = add_custom.run_gelu_custom(x)
    np.testing.assert_array_equal(g.numpy(), add_custom.run_gelu_custom(x.numpy()))
    dx = add_custom.run_gelu_custom_backward(y, x)
    np.testing.assert_array_equal(dx.numpy(), add_custom.run_gelu_custom_backward(y.numpy(),
                                                                                  x.numpy()))
    gamma = torch.randn(2048).to(dtype)
    out, rstd = add_custom.run_rms_norm_custom(x, gamma, 1e-5, return_rstd=True)
    assert isinstance(out, torch.Tensor) and rstd.dtype == torch.float32
    np.testing.assert_array_equal(out.numpy(),
                                  add_custom.run_rms_norm_custom(x.numpy(), gamma.numpy(), 1e-5))


def test_matmul_takes_tensors():
    a = torch.randn(33, 20).half()
    b = torch.randn(20, 17).half()
    c = add_custom.run_matmul_custom(a, b, out_dtype=torch.float16, block_dim=1)
    assert isinstance(c, torch.Tensor) and c.dtype == torch.float16 and c.shape == (33, 17)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=2e-3, atol=2e-2)


def test_results_are_the_device_buffers_not_copies():
    x = torch.randn(1 << 20)
    before = ascsim.memory_stats()["in_use_bytes"]
    z = add_custom.run_add_custom(x, x)
    assert ascsim.memory_stats()["in_use_bytes"] - before == x.numel() * 4
    del z
    gc.collect()
    assert ascsim.memory_stats()["in_use_bytes"] == before


def test_inputs_are_used_in_place_on_a_stream():
    x = torch.randn(4096)
    s = add_custom.Stream()
    z = add_custom.run_add_custom(x, x, stream=s)
    del x  # the launch keeps the tensor's memory alive
    gc.collect()
    s.synchronize()
    assert torch.isfinite(z).all()


def bf16_ulp(t):
    """One unit in the last place of bfloat16 values (8 significant bits)."""
    t = t.double().abs().clamp_min(1e-30)
    return torch.exp2(torch.floor(torch.log2(t)) - 7)


@pytest.mark.parametrize("n", [1, 17, 4097, 100003])
def test_bfloat16_tensors_run_the_bfloat16_kernels(n):
    g = torch.Generator().manual_seed(n)
    x = (torch.randn(n, generator=g) * 3).bfloat16()
    y = torch.randn(n, generator=g).bfloat16()
    z = add_custom.run_add_custom(x, y)
    assert z.dtype == torch.bfloat16 and torch.equal(z, x + y)  # float sum rounded once, as torch
    gelu = add_custom.run_gelu_custom(x)
    exact = torch.nn.functional.gelu(x.double(), approximate="tanh")
    assert gelu.dtype == torch.bfloat16
    assert ((gelu.double() - exact).abs() <= bf16_ulp(exact) + 1e-6).all()
    dx = add_custom.run_gelu_custom_backward(y, x)
    xd = x.double().requires_grad_()
    torch.nn.functional.gelu(xd, approximate="tanh").backward(y.double())
    assert ((dx.double() - xd.grad).abs() <= bf16_ulp(xd.grad) + 1e-6).all()


def test_bfloat16_on_a_stream_and_errors():
    x = torch.randn(4096).bfloat16()
    s = add_custom.Stream()
    z = add_custom.run_add_custom(x, x, stream=s)
    s.synchronize()
    assert torch.equal(z, x + x)
    with pytest.raises(ascsim.InvalidArgumentError,
                       match="run_add_custom: x, y must all be bfloat16 tensors when one is; y is "
                             "torch.float32"):
        add_custom.run_add_custom(x, x.float())
    with pytest.raises(ascsim.InvalidArgumentError, match="run_gelu_custom_backward: the inputs "
                                                          r"must have the same shape; got \(4\,\)"):
        add_custom.run_gelu_custom_backward(x[:4], x[:8])
    with pytest.raises(ascsim.InvalidArgumentError, match="is not contiguous"):
        add_custom.run_gelu_custom(x.view(64, 64).t())
    with ascsim.settings(soc="Ascend310P3"):  # no bfloat16 on the 310P
        with pytest.raises(ascsim.KernelError, match="Cast bfloat16_t -> float is not a "
                                                     "conversion Ascend310P3 offers"):
            add_custom.run_gelu_custom(x)
    with pytest.raises(ascsim.InvalidArgumentError,
                       match="run_rms_norm_custom: x has dtype torch.bfloat16; expected float16 "
                             "or float32"):
        add_custom.run_rms_norm_custom(x.view(64, 64), x[:64])


def test_shipped_kernel_argument_errors_for_tensors():
    x = torch.zeros(8)
    with pytest.raises(ascsim.InvalidArgumentError, match="run_gelu_custom: x has dtype "
                                                          "torch.float64"):
        add_custom.run_gelu_custom(x.double())
    with pytest.raises(ascsim.InvalidArgumentError, match="run_add_custom: x is not contiguous"):
        add_custom.run_add_custom(torch.zeros(4, 4).t(), torch.zeros(4, 4))
    with pytest.raises(ascsim.InvalidArgumentError, match="x and y must have the same shape"):
        add_custom.run_add_custom(x, torch.zeros(4))
    # NumPy and tensors mix: the result is a tensor
    z = add_custom.run_add_custom(x, np.ones(8, np.float32))
    assert isinstance(z, torch.Tensor) and torch.equal(z, torch.ones(8))


def test_tensors_for_struct_and_gm_parameters_of_a_tiled_kernel(tmp_path):
    import load_scenario
    path = tmp_path / "axpy_custom.cpp"
    path.write_text(load_scenario.KERNEL)
    mod = ascsim.load(str(path), build_dir=str(tmp_path / "cache"))
    x = torch.arange(2048, dtype=torch.float32)
    y = torch.ones(2048)
    z = torch.zeros(2048)
    tiling = torch.tensor([256, 128], dtype=torch.int32)  # AxpyTilingData's 8 bytes
    mod.axpy_custom(x, y, z, torch.tensor(0.5), tiling, block_dim=8)
    assert torch.equal(z, 0.5 * x + 1)
    with pytest.raises(ascsim.InvalidArgumentError, match="expected exactly 8 bytes"):
        mod.axpy_custom(x, y, z, 0.5, torch.zeros(3, dtype=torch.int32), block_dim=8)
