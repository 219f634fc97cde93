"""ascsim: Ascend C kernels on a simulated NPU, from Python.

    import ascsim, numpy as np
    mod = ascsim.load("my_kernel.cpp")          # every extern "C" __global__ __aicore__ kernel
    mod.my_kernel(x, y, z, n, block_dim=8)      # NumPy arrays are GM memory, in place
    with ascsim.profile() as prof:              # the cost model's estimate of each launch
        mod.my_kernel(x, y, z, n, block_dim=8)
    print(prof, prof.explain())

One runtime per process (libascsim.so): the `add_custom` package (the shipped kernels), modules
from ascsim.load() and C++ programs share the profiler, settings, streams, errors and warnings.
Errors derive from ascsim.Error (RuntimeError); kernel faults raise ascsim.KernelError; non-fatal
device traps are issued as ascsim.SimulatorWarning.
"""
from __future__ import annotations

import os as _os
from typing import Any, Dict

from . import _core
from ._core import (BuildError, DeviceMemoryError, Error, InvalidArgumentError, KernelError,
                    OutOfBoundsError, QueueMisuseError, SimulatorWarning, StrictWarningError,
                    SyncMisuseError, TimeoutError, UbOverflowError)
from ._core import Stream
from ._loader import Kernel, default_build_root, load
from ._op_loader import Operator, load_op
from ._plot import explain_bound
from ._profile import Profile, profile
from ._settings import (get_sanitize, get_serial, get_settings, get_soc, get_strict,
                        get_timeout, list_socs, sanitize, set_sanitize, set_serial, set_soc,
                        set_strict, set_timeout, settings)

__version__: str = _core.__version__

Stream.__module__ = "ascsim"


def memory_stats() -> Dict[str, int]:
    """Device memory statistics: in_use_bytes, cached_bytes, peak_bytes, allocations."""
    return _core.memory_stats()


def release_cached_memory() -> None:
    """Return the device memory cached for reuse to the host."""
    _core.release_cached_memory()


def worker_count() -> int:
    """Host threads that run blocks in parallel."""
    return _core.worker_count()


def get_include() -> str:
    """The folder of ascsim's C++ headers (kernel_operator.h, acl/acl.h, ascsim/*.h)."""
    from ._loader import _build_config
    return _build_config()["include_dirs"][0]


def get_cmake_dir() -> str:
    """The folder of ascsim's CMake package (for -Dascsim_DIR=...), when this copy has one."""
    from ._loader import _build_config
    return _os.path.join(_build_config()["library_dir"], "cmake", "ascsim")


def _load_library_into(namespace: Dict[str, Any], path: str) -> None:
    """Fills a module's namespace with the kernels of a kernel-module library: used by the
    <name>.py files that the CMake function ascsim_add_kernel_module() generates."""
    from ._loader import module_from_library
    module_from_library(path, namespace.get("__name__", "kernels"), namespace=namespace)


__all__ = [
    "__version__",
    # your own kernels
    "load", "Kernel", "default_build_root",
    # custom-operator projects and packages
    "load_op", "Operator",
    # launches and profiling
    "Stream", "profile", "Profile", "explain_bound",
    # settings
    "set_soc", "get_soc", "list_socs", "set_strict", "get_strict", "set_serial", "get_serial",
    "set_timeout", "get_timeout", "set_sanitize", "get_sanitize", "sanitize", "settings",
    "get_settings",
    # device memory and the host
    "memory_stats", "release_cached_memory", "worker_count", "get_include", "get_cmake_dir",
    # errors and warnings
    "Error", "InvalidArgumentError", "OutOfBoundsError", "DeviceMemoryError", "UbOverflowError",
    "QueueMisuseError", "SyncMisuseError", "StrictWarningError", "TimeoutError", "KernelError",
    "BuildError", "SimulatorWarning",
]
