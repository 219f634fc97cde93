"""SoC selection, memory statistics and the other module-level settings."""
import gc

import numpy as np
import pytest

import add_custom
from conftest import uniform


def test_default_soc_and_known_profiles():
    names = add_custom.list_socs()
    assert {"Ascend910B1", "Ascend910B3", "Ascend310P3"} <= set(names)
    soc = add_custom.get_soc()
    for key in ("name", "arch", "vector_cores", "ub_bytes", "l1_bytes", "has_data_copy_pad"):
        assert key in soc


@pytest.mark.parametrize("name,arch,cores,ub,l1,pad", [
    ("Ascend910B1", 2201, 48, 192 * 1024, 512 * 1024, True),
    ("Ascend910B3", 2201, 40, 192 * 1024, 512 * 1024, True),
    ("Ascend310P3", 2002, 8, 256 * 1024, 1024 * 1024, False),
])
def test_set_soc_changes_the_profile(name, arch, cores, ub, l1, pad):
    add_custom.set_soc(name)
    soc = add_custom.get_soc()
    assert (soc["name"], soc["arch"], soc["vector_cores"], soc["ub_bytes"], soc["l1_bytes"],
            soc["has_data_copy_pad"]) == (name, arch, cores, ub, l1, pad)


def test_unknown_soc_lists_known_names():
    before = add_custom.get_soc()
    with pytest.raises(add_custom.InvalidArgumentError, match="Ascend910B1.*Ascend310P3"):
        add_custom.set_soc("Ascend999")
    assert add_custom.get_soc() == before


def test_kernels_run_on_every_soc(rng):
    # Aligned inputs run on all profiles (310P has no DataCopyPad: odd lengths are checked by the
    # C++ tests of the kernels, not here).
    x = uniform(rng, (8, 2048), np.float16)
    for name in add_custom.list_socs():
        add_custom.set_soc(name)
        np.testing.assert_array_equal(add_custom.run_add_custom(x, x), x + x)


def test_memory_stats_output_freed_returns_in_use(rng):
    gc.collect()
    before = add_custom.memory_stats()
    assert set(before) == {"in_use_bytes", "cached_bytes", "peak_bytes", "allocations"}
    x = uniform(rng, (1 << 20,), np.float32)
    z = add_custom.run_add_custom(x, x)
    during = add_custom.memory_stats()
    assert during["in_use_bytes"] >= before["in_use_bytes"] + x.nbytes
    assert during["allocations"] == before["allocations"] + 1
    assert during["peak_bytes"] >= during["in_use_bytes"]
    del z
    after = add_custom.memory_stats()
    assert after["in_use_bytes"] == before["in_use_bytes"]
    assert after["allocations"] == before["allocations"]
    assert after["cached_bytes"] >= x.nbytes  # kept by the caching pool for the next launch


def test_repeated_launches_reuse_cached_memory(rng):
    x = uniform(rng, (1 << 18,), np.float32)
    add_custom.run_add_custom(x, x)
    cached = add_custom.memory_stats()["cached_bytes"]
    for _ in range(50):
        add_custom.run_add_custom(x, x)
    stats = add_custom.memory_stats()
    assert stats["cached_bytes"] == cached  # each output reused the previous one's block


def test_output_is_the_device_allocation_without_a_copy(rng):
    x = uniform(rng, (1000,), np.float32)
    z = add_custom.run_add_custom(x, x)
    # NumPy views the DeviceMalloc block directly; the capsule frees it when z goes.
    assert type(z.base).__name__ == "PyCapsule"
    assert z.flags.owndata is False and z.flags.writeable and z.flags.c_contiguous
    assert z.ctypes.data % 512 == 0  # the device allocator's alignment, not NumPy's


def test_inputs_are_not_counted_as_device_allocations(rng):
    gc.collect()
    before = add_custom.memory_stats()["allocations"]
    x = uniform(rng, (4096,), np.float32)
    z = add_custom.run_gelu_custom(x)
    assert add_custom.memory_stats()["allocations"] == before + 1  # the output only
    del z


def test_failed_launch_frees_its_output():
    gc.collect()
    before = add_custom.memory_stats()
    x = np.ones(16384, np.float16)
    with pytest.raises(add_custom.KernelError):
        add_custom.testing.run_add_with_length(x, x, 4 * 16384)
    gc.collect()
    assert add_custom.memory_stats()["in_use_bytes"] == before["in_use_bytes"]


def test_release_cached_memory():
    add_custom.run_add_custom(np.ones(1 << 16, np.float32), np.ones(1 << 16, np.float32))
    add_custom.release_cached_memory()
    assert add_custom.memory_stats()["cached_bytes"] == 0


def test_strict_and_serial_flags_round_trip():
    for value in (True, False):
        add_custom.set_strict(value)
        assert add_custom.get_strict() is value
        add_custom.set_serial(value)
        assert add_custom.get_serial() is value
    assert add_custom.worker_count() >= 1


@pytest.mark.parametrize("kwargs,match", [
    ({"strict": "false"}, r"strict must be a bool \(True or False\), got str 'false'"),
    ({"strict": 1}, r"strict must be a bool \(True or False\), got int 1"),
    ({"serial": "no"}, r"serial must be a bool \(True or False\), got str 'no'"),
    ({"serial": None, "strict": []}, r"strict must be a bool \(True or False\), got list"),
    ({"soc": 123}, r"soc: expected a SoC name \(str\), got int 123"),
    ({"soc": "Ascend999"}, r"unknown SoC 'Ascend999'"),
    ({"timeout": "abc"}, r"timeout: expected seconds \(a number >= 0\), got str 'abc'"),
    ({"timeout": -1}, r"timeout"),
    ({"sanitize": 3}, r"sanitize: expected"),
    ({"soc": "Ascend310P3", "strict": "yes"}, r"strict"),
])
def test_invalid_settings_raise_and_change_nothing(kwargs, match):
    import ascsim
    before = ascsim.get_settings()
    with pytest.raises(ascsim.InvalidArgumentError, match=match):
        with ascsim.settings(**kwargs):
            pytest.fail("the with block must not run")
    assert ascsim.get_settings() == before
    for name, value in kwargs.items():
        setter = getattr(ascsim, "set_" + name, None)
        if setter is not None and name != "sanitize" and value is not None and \
                not (name == "soc" and value == "Ascend310P3"):
            with pytest.raises(ascsim.InvalidArgumentError):
                setter(value)
    assert ascsim.get_settings() == before


def test_numpy_bools_and_numbers_are_valid_settings():
    import ascsim
    with ascsim.settings(strict=np.bool_(True), serial=False, timeout=np.float32(2.5)) as s:
        assert s["strict"] is True and s["serial"] is False and s["timeout"] == 2.5


@pytest.mark.parametrize("value", [None, 2, 0, 1.0, "yes"])
def test_flags_must_be_bools(value):
    for setter in (add_custom.set_strict, add_custom.set_serial):
        with pytest.raises(add_custom.InvalidArgumentError, match="must be a bool"):
            setter(value)


def test_flags_accept_numpy_bools():
    add_custom.set_strict(np.bool_(True))
    assert add_custom.get_strict() is True
    add_custom.set_strict(np.bool_(False))
    assert add_custom.get_strict() is False
