"""ascsim.load()'s build cache and its inputs: the cache follows what
the compiler would include now (a new header that shadows the one found through -I rebuilds,
also in another process), paths with the characters g++'s dependency files escape, and clear
errors for arguments of the wrong type."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ascsim

KERNEL = r'''
#include "kernel_operator.h"
#include "value.h"

extern "C" __global__ __aicore__ void value_custom(GM_ADDR x)
{
    AscendC::GlobalTensor<int32_t> xGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 1);
    xGm.SetValue(0, VALUE);
}
'''


def value_of(path, build_dir, cflags):
    mod = ascsim.load(path, build_dir=build_dir, extra_cflags=cflags)
    x = np.zeros(1, np.int32)
    mod.value_custom(x, block_dim=1)
    return int(x[0])


def test_a_new_header_shadowing_the_include_path_one_rebuilds(tmp_path):
    src_dir, inc_dir = tmp_path / "src", tmp_path / "inc"
    src_dir.mkdir()
    inc_dir.mkdir()
    (src_dir / "value_custom.cpp").write_text(KERNEL)
    (inc_dir / "value.h").write_text("#define VALUE 1\n")
    path, cache, cflags = str(src_dir / "value_custom.cpp"), str(tmp_path / "cache"), [f"-I{inc_dir}"]
    assert value_of(path, cache, cflags) == 1
    # The compiler now finds value.h beside the source first (the quote include's own folder).
    (src_dir / "value.h").write_text("#define VALUE 2\n")
    assert value_of(path, cache, cflags) == 2
    # Another process, with the same cache, sees what its compiler would include too.
    (src_dir / "value.h").write_text("#define VALUE 3\n")
    code = textwrap.dedent(f"""
        import numpy as np, ascsim
        mod = ascsim.load({path!r}, build_dir={cache!r}, extra_cflags={cflags!r})
        x = np.zeros(1, np.int32)
        mod.value_custom(x, block_dim=1)
        print(int(x[0]))
        """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600)
    assert out.stdout.strip() == "3", out.stderr
    # Removing the shadowing header goes back to the include path's.
    os.remove(src_dir / "value.h")
    assert value_of(path, cache, cflags) == 1


def test_a_shadowing_header_in_an_earlier_include_folder_rebuilds(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (tmp_path / "value_custom.cpp").write_text(KERNEL.replace('"value.h"', "<value.h>"))
    (second / "value.h").write_text("#define VALUE 5\n")
    path, cache = str(tmp_path / "value_custom.cpp"), str(tmp_path / "cache")
    cflags = [f"-I{first}", f"-I{second}"]
    assert value_of(path, cache, cflags) == 5
    (first / "value.h").write_text("#define VALUE 6\n")
    assert value_of(path, cache, cflags) == 6


@pytest.mark.parametrize("inc_name,cache_name", [("inc#1 x", "ca$he:dir"), ("in$c:x", "ca che#2")])
def test_paths_with_characters_the_depfile_escapes(tmp_path, inc_name, cache_name):
    inc = tmp_path / inc_name
    inc.mkdir()
    (inc / "value.h").write_text("#define VALUE 7\n")
    (tmp_path / "value_custom.cpp").write_text(KERNEL)
    path, cache = str(tmp_path / "value_custom.cpp"), str(tmp_path / cache_name)
    assert value_of(path, cache, [f"-I{inc}"]) == 7
    (inc / "value.h").write_text("#define VALUE 8\n")  # the header is in the manifest
    assert value_of(path, cache, [f"-I{inc}"]) == 8


def test_extra_cflags_must_be_a_list_of_strings(tmp_path):
    (tmp_path / "value.h").write_text("#define VALUE 1\n")
    (tmp_path / "value_custom.cpp").write_text(KERNEL)
    path = str(tmp_path / "value_custom.cpp")
    for bad, shown in [("-O0", "str '-O0'"), (b"-O0", "bytes b'-O0'"), ([b"-O0"], "bytes b'-O0'"),
                       ([1], "int 1"), (None, "NoneType")]:
        with pytest.raises(ascsim.InvalidArgumentError, match=r"ascsim.load: extra_cflags") as e:
            ascsim.load(path, build_dir=str(tmp_path / "cache"), extra_cflags=bad)
        assert shown in str(e.value)


def test_bytes_and_pathlike_paths_are_paths(tmp_path):
    (tmp_path / "value.h").write_text("#define VALUE 9\n")
    (tmp_path / "value_custom.cpp").write_text(KERNEL)
    cache = tmp_path / "cache"
    for source in [os.fsencode(tmp_path / "value_custom.cpp"), tmp_path / "value_custom.cpp",
                   [os.fsencode(tmp_path / "value_custom.cpp")]]:
        mod = ascsim.load(source, build_dir=os.fsencode(cache))
        x = np.zeros(1, np.int32)
        mod.value_custom(x, block_dim=1)
        assert x[0] == 9


@pytest.mark.parametrize("kwargs,match", [
    ({"sources": 42}, r"ascsim.load: sources: expected a path or a list of paths, got int 42"),
    ({"sources": [42]}, r"ascsim.load: sources: expected a path .* got int 42"),
    ({"name": b"mod"}, r"ascsim.load: name: expected a str"),
    ({"build_dir": 3}, r"ascsim.load: build_dir: expected a path"),
    ({"verbose": "yes"}, r"ascsim.load: verbose: expected True or False"),
])
def test_wrong_argument_types_name_the_argument(tmp_path, kwargs, match):
    (tmp_path / "value_custom.cpp").write_text(KERNEL)
    args = {"sources": str(tmp_path / "value_custom.cpp"), "build_dir": str(tmp_path / "c")}
    args.update(kwargs)
    sources = args.pop("sources")
    with pytest.raises(ascsim.InvalidArgumentError, match=match):
        ascsim.load(sources, **args)
