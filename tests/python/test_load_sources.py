"""Kernel sources ascsim.load() must take as the toolkit does: one
kernel scanner for both (the toolkit's ascsim-launch-transform, C++), kernels in namespaces,
extern "C" blocks and #if / #else branches, parameters named like load()'s own keywords, code in
`#if 0`, and sources in encodings other than UTF-8, whose bytes must reach the compiler as they
are."""
import inspect
import os
import textwrap

import numpy as np
import pytest

import ascsim
from ascsim import _codegen

BODY = r'''
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    for (uint32_t i = 0; i < n; ++i) {
        xGm.SetValue(i, xGm.GetValue(i) + VALUE);
    }
}
'''

SOURCE = r'''
#include "kernel_operator.h"

namespace ops {
#define VALUE 1.0f
extern "C" __global__ __aicore__ void in_namespace(GM_ADDR x, uint32_t n)
''' + BODY + r'''
#undef VALUE
}  // namespace ops

extern "C" {
#define VALUE 2.0f
__global__ __aicore__ void in_extern_c_block(GM_ADDR x, uint32_t n)
''' + BODY + r'''
#undef VALUE
}

#define VALUE 3.0f
#if defined(ASCSIM_NO_SUCH_MACRO)
extern "C" __global__ __aicore__ void per_branch(GM_ADDR x, uint32_t n, float unused)
#else
extern "C" __global__ __aicore__ void per_branch(GM_ADDR y, uint32_t count)
#endif
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)y, count);
    for (uint32_t i = 0; i < count; ++i) {
        xGm.SetValue(i, xGm.GetValue(i) + VALUE);
    }
}
#undef VALUE

#define VALUE 5.0f
#ifdef ASCSIM_NO_SUCH_MACRO
extern "C" __global__ __aicore__ void whole_branch(GM_ADDR x) {}
#else
extern "C" __global__ __aicore__ void whole_branch(GM_ADDR x, uint32_t n)
''' + BODY + r'''
#endif
#undef VALUE

// Parameters named like load()'s keyword-only arguments.
extern "C" __global__ __aicore__ void keyword_names(GM_ADDR block_dim, uint32_t stream)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)block_dim, stream);
    for (uint32_t i = 0; i < stream; ++i) {
        xGm.SetValue(i, xGm.GetValue(i) + 4.0f);
    }
}

#if 0
it's an old note, and an old launch: in_namespace<<<8>>>(x);
extern "C" __global__ __aicore__ void removed(GM_ADDR x) {}
#endif
'''


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    work = tmp_path_factory.mktemp("load_sources")
    (work / "shapes_custom.cpp").write_text(SOURCE)
    return ascsim.load(str(work / "shapes_custom.cpp"), build_dir=str(work / "cache"))


def test_kernels_in_namespaces_blocks_and_branches_all_load(mod):
    assert mod.__all__ == ["in_namespace", "in_extern_c_block", "per_branch", "whole_branch",
                           "keyword_names"]
    for kernel, value in [(mod.in_namespace, 1), (mod.in_extern_c_block, 2)]:
        x = np.zeros(8, np.float32)
        kernel(x, 8, block_dim=1)
        assert x.tolist() == [value] * 8
    x = np.zeros(8, np.float32)
    mod.per_branch(x, 8, block_dim=1)  # the #else branch is the one compiled
    assert x.tolist() == [3] * 8
    assert [p["name"] for p in mod.per_branch.params] == ["y", "count"]
    mod.whole_branch(x, 8, block_dim=1)
    assert x.tolist() == [8] * 8
    assert "removed" not in mod.__all__


def test_parameters_named_block_dim_or_stream(mod):
    x = np.zeros(8, np.float32)
    mod.keyword_names(x, 8, block_dim=1)
    assert x.tolist() == [4] * 8
    params = list(inspect.signature(mod.keyword_names).parameters)
    assert params[-2:] == ["block_dim", "stream"]
    assert len(set(params)) == len(params)
    assert [p["name"] for p in mod.keyword_names.params] == ["block_dim", "stream"]


def test_one_scanner_the_toolkits(tmp_path):
    # The Python parser is gone: ascsim.load scans with ascsim-launch-transform.
    assert not hasattr(_codegen, "find_kernels")
    assert not hasattr(_codegen, "parse_params")
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE)
    kernels = _codegen.scan_kernels(str(src))
    assert [(k.name, k.qualified_name) for k in kernels] == [
        ("in_namespace", "ops::in_namespace"), ("in_extern_c_block", "in_extern_c_block"),
        ("per_branch", "per_branch"), ("per_branch", "per_branch"),
        ("whole_branch", "whole_branch"), ("whole_branch", "whole_branch"),
        ("keyword_names", "keyword_names")]
    assert [(p.name, p.type) for p in kernels[2].params] == [
        ("x", "GM_ADDR"), ("n", "uint32_t"), ("unused", "float")]
    assert kernels[0].line == 6


GBK_SOURCE = '''
#include "kernel_operator.h"

// 把字符串的字节写到 GM（GBK 编码的源文件）
static const char kText[] = "中文字节";

extern "C" __global__ __aicore__ void text_custom(GM_ADDR out)
{
    AscendC::GlobalTensor<uint8_t> outGm;
    outGm.SetGlobalBuffer((__gm__ uint8_t *)out, sizeof(kText));
    for (uint32_t i = 0; i < sizeof(kText); ++i) {
        outGm.SetValue(i, static_cast<uint8_t>(kText[i]));
    }
}

#ifndef ASCENDC_CPU_DEBUG
void text_custom_do(uint32_t blockDim, void *stream, uint8_t *out)
{
    text_custom<<<blockDim, nullptr, stream>>>(out);
}
#endif
'''


def test_a_gbk_source_with_a_launch_wrapper_keeps_its_bytes(tmp_path):
    (tmp_path / "text_custom.cpp").write_bytes(GBK_SOURCE.encode("gbk"))
    mod = ascsim.load(str(tmp_path / "text_custom.cpp"), build_dir=str(tmp_path / "cache"))
    expected = "中文字节".encode("gbk") + b"\0"
    out = np.zeros(len(expected), np.uint8)
    mod.text_custom(out, block_dim=1)
    assert out.tobytes() == expected


def test_an_if_0_group_in_a_launch_syntax_file(tmp_path):
    source = textwrap.dedent(r'''
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void nothing_custom(GM_ADDR x) {}
        #if 0
        // The old way: it's kept here for reference.
        nothing_custom<<<8>>>(x);
        #endif
        void nothing_custom_do(uint32_t blockDim, void *stream, uint8_t *x)
        {
            nothing_custom<<<blockDim, nullptr, stream>>>(x);
        }
        ''')
    (tmp_path / "nothing_custom.cpp").write_text(source)
    mod = ascsim.load(str(tmp_path / "nothing_custom.cpp"), build_dir=str(tmp_path / "cache"))
    mod.nothing_custom(np.zeros(8, np.uint8), block_dim=2)
