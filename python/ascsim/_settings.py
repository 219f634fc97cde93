"""Process-wide settings (one table in libascsim, shared by every module and program) and
context managers that change them for a while and restore them."""
from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, Optional, Union

from . import _core

SanitizeSpec = Union[str, bool, None]


def _sanitize_string(spec: SanitizeSpec) -> str:
    if spec is None or spec is False:
        return ""
    if spec is True:
        return "all"
    if not isinstance(spec, str):
        raise _core.InvalidArgumentError(
            f"sanitize: expected 'race,init,sync' (any subset), 'all', True, None or False, "
            f"got {type(spec).__name__} {spec!r}")
    return spec


def set_strict(strict: bool) -> None:
    """Strict mode turns simulator warnings into kernel errors (default: ASCSIM_STRICT=1)."""
    _core.set_strict(strict)  # bool or numpy.bool_ only: None or 2 raise InvalidArgumentError


def get_strict() -> bool:
    return _core.get_strict()


def set_serial(serial: bool) -> None:
    """Serial mode runs the blocks of a launch in order on one thread, for debugging (default:
    ASCSIM_SERIAL=1)."""
    _core.set_serial(serial)  # bool or numpy.bool_ only


def get_serial() -> bool:
    return _core.get_serial()


def set_timeout(seconds: float) -> None:
    """Launch timeout in seconds, like the device's AI-core timeout: a launch still running after
    it fails with ascsim.TimeoutError (KernelError kind 'timeout') at its blocks' next kernel API
    call. 0 turns it off. Default: ASCSIM_TIMEOUT, else 300."""
    _core.set_timeout(seconds)


def get_timeout() -> float:
    """The launch timeout in seconds (0 = off)."""
    return _core.get_timeout()


def set_soc(name: str) -> None:
    """Select the SoC profile new launches use (e.g. 'Ascend910B1', 'Ascend310P3'); an unknown
    name raises InvalidArgumentError listing the known ones."""
    _core.set_soc(name)


def get_soc() -> Dict[str, Any]:
    """The current SoC profile as a dict (name, arch, vector_cores, ub_bytes, ...)."""
    return _core.get_soc()


def list_socs() -> list:
    """Names of the known SoC profiles."""
    return _core.list_socs()


def set_sanitize(spec: SanitizeSpec) -> None:
    """Turn the sanitizer checks on for launches issued from now on: 'race', 'init', 'sync' (any
    comma-separated subset), 'all' or True; None, False or '' turn them off (default:
    ASCSIM_SANITIZE). An unknown word raises InvalidArgumentError naming it."""
    _core.set_sanitize(_sanitize_string(spec))


def get_sanitize() -> str:
    """The sanitizer checks on, as 'race,init,sync' names ('' when off)."""
    return _core.get_sanitize()


def get_settings() -> Dict[str, Any]:
    """Every setting a launch reads: soc (name), strict, serial, timeout, sanitize."""
    return _core.get_settings()


@contextlib.contextmanager
def settings(*, soc: Optional[str] = None, strict: Optional[bool] = None,
             serial: Optional[bool] = None, timeout: Optional[float] = None,
             sanitize: SanitizeSpec = ...) -> Iterator[Dict[str, Any]]:  # type: ignore[assignment]
    """Change settings for the ``with`` block and restore all of them at its end (also on an
    exception). Arguments left out keep their value; all given values are installed at once, so
    an invalid one changes nothing. Launches queued on a stream inside the block keep the
    settings of the moment they were queued.

        with ascsim.settings(soc="Ascend310P3", strict=True):
            mod.my_kernel(x, y, block_dim=8)
    """
    saved = _core.get_settings()
    changes: Dict[str, Any] = {}  # checked by _core (bool("false") would be True)
    if soc is not None:
        changes["soc"] = soc
    if strict is not None:
        changes["strict"] = strict
    if serial is not None:
        changes["serial"] = serial
    if timeout is not None:
        changes["timeout"] = timeout
    if sanitize is not ...:
        changes["sanitize"] = _sanitize_string(sanitize)
    _core.set_settings(changes)
    try:
        yield _core.get_settings()
    finally:
        _core.set_settings(saved)


@contextlib.contextmanager
def sanitize(spec: SanitizeSpec = "all") -> Iterator[str]:
    """``with ascsim.sanitize("race,init"):`` turns sanitizer checks on for the block and
    restores the previous value after it."""
    with settings(sanitize=spec) as values:
        yield values["sanitize"]
