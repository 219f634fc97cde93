#!/usr/bin/env python3
"""A LLaMA-style transformer block on CPU whose RMSNorm is the Ascend C kernel rms_norm_custom
(torch.ops.ascsim.rms_norm_custom), against the same block with PyTorch's RMSNorm: forward and
backward, eager and torch.compile(fullgraph=True); then the kernel's profile (its estimated
device time per call on the simulated Ascend 910B).

    PYTHONPATH=build/python python examples/torch/llama_block.py [--backend aot_eager|inductor]
                                                                 [--dim 256] [--seq 64]

Prints the largest differences and the profile; exits non-zero when a comparison fails.
"""
import argparse
import copy
import math
import sys

import torch
import torch.nn.functional as F

import ascsim
import ascsim.torch  # noqa: F401  (registers torch.ops.ascsim.*)


class RMSNorm(torch.nn.Module):
    """LLaMA's RMSNorm: x / sqrt(mean(x^2) + eps) * weight; `ascsim` picks the kernel."""

    def __init__(self, dim, eps=1e-6, ascsim_kernel=True):
        super().__init__()
        self.eps = eps
        self.ascsim_kernel = ascsim_kernel
        self.weight = torch.nn.Parameter(torch.ones(dim))

    def forward(self, x):
        if self.ascsim_kernel:
            return torch.ops.ascsim.rms_norm_custom(x, self.weight, self.eps)
        return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)


def rotary(x, cos, sin):
    """Rotary position embedding on (batch, heads, seq, head_dim), the half-split form."""
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


class Block(torch.nn.Module):
    def __init__(self, dim=256, heads=4, hidden=688, max_seq=256, ascsim_kernel=True):
        super().__init__()
        self.heads = heads
        self.attention_norm = RMSNorm(dim, ascsim_kernel=ascsim_kernel)
        self.ffn_norm = RMSNorm(dim, ascsim_kernel=ascsim_kernel)
        self.wq, self.wk, self.wv, self.wo = (torch.nn.Linear(dim, dim, bias=False)
                                              for _ in range(4))
        self.w1 = torch.nn.Linear(dim, hidden, bias=False)
        self.w2 = torch.nn.Linear(hidden, dim, bias=False)
        self.w3 = torch.nn.Linear(dim, hidden, bias=False)
        head_dim = dim // heads
        freqs = 1.0 / (10000 ** (torch.arange(0, head_dim // 2).float() * 2 / head_dim))
        angles = torch.outer(torch.arange(max_seq).float(), freqs)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def attention(self, x):
        b, s, d = x.shape
        q, k, v = (w(x).view(b, s, self.heads, d // self.heads).transpose(1, 2)
                   for w in (self.wq, self.wk, self.wv))
        cos, sin = self.cos[:s], self.sin[:s]
        q, k = rotary(q, cos, sin), rotary(k, cos, sin)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.wo(out.transpose(1, 2).reshape(b, s, d))

    def forward(self, x):
        h = x + self.attention(self.attention_norm(x))
        n = self.ffn_norm(h)
        return h + self.w2(F.silu(self.w1(n)) * self.w3(n))


def forward_backward(model, x):
    x = x.detach().clone().requires_grad_()
    model.zero_grad()
    out = model(x)
    out.pow(2).mean().backward()
    grads = {name.removeprefix("_orig_mod."): p.grad.detach().clone()
             for name, p in model.named_parameters()}  # compiled modules prefix the names
    return out.detach(), x.grad.detach(), grads


def compare(label, got, want, rtol, atol):
    out, dx, grads = got
    ref_out, ref_dx, ref_grads = want
    worst = max([(out - ref_out).abs().max().item(), (dx - ref_dx).abs().max().item()] +
                [(grads[k] - ref_grads[k]).abs().max().item() for k in grads])
    ok = (torch.allclose(out, ref_out, rtol=rtol, atol=atol)
          and torch.allclose(dx, ref_dx, rtol=rtol, atol=atol)
          and all(torch.allclose(grads[k], ref_grads[k], rtol=rtol, atol=atol) for k in grads))
    print(f"{label:<52} max |diff| {worst:.3e}  {'ok' if ok else 'FAILED'}")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="aot_eager", choices=["aot_eager", "inductor"])
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--seq", type=int, default=64)
    parser.add_argument("--batch", type=int, default=2)
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    ours = Block(dim=args.dim, hidden=int(args.dim * 8 / 3 // 8 * 8), ascsim_kernel=True)
    with torch.no_grad():  # RMSNorm weights other than 1, so that gamma matters
        for norm in (ours.attention_norm, ours.ffn_norm):
            norm.weight.copy_(torch.rand(args.dim) + 0.5)
    theirs = copy.deepcopy(ours)
    for norm in (theirs.attention_norm, theirs.ffn_norm):
        norm.ascsim_kernel = False
    x = torch.randn(args.batch, args.seq, args.dim)

    ok = True
    reference = forward_backward(theirs, x)
    eager = forward_backward(ours, x)
    ok &= compare("eager: ascsim RMSNorm vs PyTorch RMSNorm", eager, reference, 1e-5, 1e-5)
    compiled = torch.compile(ours, fullgraph=True, backend=args.backend)
    ok &= compare(f"compiled ({args.backend}, fullgraph) vs eager", forward_backward(compiled, x),
                  eager, 1e-5, 1e-5)

    # float16 activations through the kernel's half path (PyTorch's block in float32 as the
    # reference): the kernel rounds once, so the difference is a few half-precision ulps.
    weight = ours.attention_norm.weight.detach()
    with torch.no_grad():
        h16 = torch.ops.ascsim.rms_norm_custom(x.half(), weight.half(), 1e-6).float()
        h32 = F.rms_norm(x.half().float(), (args.dim,), weight.half().float(), 1e-6)
    worst = (h16 - h32).abs().max().item()
    half_ok = torch.allclose(h16, h32, rtol=2e-3, atol=2e-3)
    print(f"{'RMSNorm float16 (kernel) vs float32 (PyTorch)':<52} max |diff| {worst:.3e}  "
          f"{'ok' if half_ok else 'FAILED'}")
    ok &= half_ok

    # The device's view: every launch of the forward and backward pass, estimated by the cost
    # model (the backward of RMSNorm is PyTorch's, so only the forward launches the kernel).
    with ascsim.profile() as prof:
        forward_backward(ours, x)
    launches = [s for s in prof.summary() if s["kernel"] == "rms_norm_custom"]
    print(f"\nprofile of one forward + backward ({args.batch} x {args.seq} tokens, dim {args.dim},"
          f" float32, {launches[0]['soc'] if launches else '?'}):")
    print(prof)
    per_call = sum(s["estimated_us"] for s in launches) / max(len(launches), 1)
    print(f"rms_norm_custom: {len(launches)} launches, estimated {per_call:.2f} us of device "
          f"time per call (+{launches[0]['launch_overhead_us']:.0f} us launch overhead), "
          f"bound: {launches[0]['bound']}")
    ok &= len(launches) == 2 and all(math.isfinite(s["estimated_us"]) for s in launches)
    print("llama block:", "passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
