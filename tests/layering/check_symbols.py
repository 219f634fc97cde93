"""The layer rule at link level: every symbol a layer's objects use is defined by that layer, by a
layer it sees (src/CMakeLists.txt, ascsim_layer SEES), or outside the library (libstdc++, libc,
Highway, ...). The include check (check_layers.cmake) cannot see a call through a public header
declaring a function that an upper layer defines; this one reads the object files.

The manifest has one line per layer: `<layer>:<seen layer>,...:<object>;<object>;...`
(tests/CMakeLists.txt writes it with file(GENERATE) from the layer targets).

Edges known and not yet removed are listed in an allow file (--allow, known_edges.txt): lines
`<using layer> <defining layer> <regex on the demangled symbol>`, `#` comments giving the reason.
An entry no reference matches any more fails too, so the list only shrinks with the code.

Exit status 0 when the rule holds, 1 with one line per upward (or sideways) reference:
  aicore -> runtime: ascsim::DeviceMalloc(unsigned long) used by aicore/matmul_server.cpp.o, defined
  in runtime (runtime/device_memory.cpp.o)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict

# nm types that define a symbol other objects can bind to (upper case: global; 'u': unique
# global; 'i': GNU indirect function). Lower-case t/d/b/r are file-local.
DEFINED = set("TDBRVWCGSiu")
UNDEFINED = set("Uwv")


class Layer:
    def __init__(self, name, sees, objects):
        self.name = name
        self.sees = sees
        self.objects = objects


def read_manifest(path):
    layers = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(":", 2)
            if len(parts) != 3:
                raise SystemExit(f"{path}: bad line (want layer:sees:objects): {line}")
            name, sees, objects = parts
            layers.append(Layer(name, [s for s in sees.split(",") if s],
                                [o for o in objects.split(";") if o]))
    return layers


def symbols(nm, objects):
    """(defined, undefined) global symbol sets per object, mangled names."""
    defined, undefined = defaultdict(set), defaultdict(set)
    if not objects:
        return defined, undefined
    # -A: each line starts with the object's name; -P: "name type value size".
    out = subprocess.run([nm, "-A", "-P", "--no-sort"] + objects, check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        # "<file>: <name> <type> [value size]"; names are mangled, so no spaces in them.
        head, sep, rest = line.rpartition(": ")
        if not sep:
            continue
        fields = rest.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind in DEFINED:
            defined[head].add(name)
        elif kind in UNDEFINED:
            undefined[head].add(name)
    return defined, undefined


def short(obj):
    """src/aicore/matmul_server.cpp.o rather than the whole CMakeFiles path."""
    head, sep, tail = obj.partition(".dir/")
    return tail if sep else os.path.basename(obj)


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), check=True, capture_output=True,
                         text=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def read_allow(path):
    """[(user, definer, compiled regex, line number)] from an allow file."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) != 3:
                raise SystemExit(f"{path}:{number}: want '<user> <definer> <symbol regex>'")
            try:
                entries.append((parts[0], parts[1], re.compile(parts[2]), number))
            except re.error as e:
                raise SystemExit(f"{path}:{number}: bad regex {parts[2]!r}: {e}")
    return entries


def check(layers, nm):
    """The violations, as (using layer, symbol, using objects, {defining layer: objects})."""
    by_name = {layer.name: layer for layer in layers}
    for layer in layers:
        for seen in layer.sees:
            if seen not in by_name:
                raise SystemExit(f"layer {layer.name} sees {seen}, which the manifest lacks")
        for obj in layer.objects:
            if not os.path.exists(obj):
                raise SystemExit(f"layer {layer.name}: object {obj} does not exist (build first)")
    definers = defaultdict(lambda: defaultdict(list))  # symbol -> layer -> objects
    uses = {}  # layer -> symbol -> objects
    for layer in layers:
        defined, undefined = symbols(nm, layer.objects)
        for obj, names in defined.items():
            for name in names:
                definers[name][layer.name].append(obj)
        per_symbol = defaultdict(list)
        for obj, names in undefined.items():
            for name in names:
                per_symbol[name].append(obj)
        uses[layer.name] = per_symbol
    violations = []
    for layer in layers:
        allowed = {layer.name, *layer.sees}
        for name, objs in sorted(uses[layer.name].items()):
            where = definers.get(name)
            if not where or any(d in allowed for d in where):
                continue  # outside the library, or defined by this layer or one it sees
            violations.append((layer.name, name, sorted(objs), dict(where)))
    return violations


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--allow", help="known edges not yet removed (see the module comment)")
    parser.add_argument("--extra", action="append", default=[], metavar="LAYER=OBJECT",
                        help="add an object to a layer (the planted-call test)")
    args = parser.parse_args(argv)
    layers = read_manifest(args.manifest)
    by_name = {layer.name: layer for layer in layers}
    for extra in args.extra:
        name, _, obj = extra.partition("=")
        if name not in by_name or not obj:
            raise SystemExit(f"--extra {extra}: want LAYER=OBJECT with a layer of the manifest")
        by_name[name].objects.append(obj)
    violations = check(layers, args.nm)
    pretty = demangle([v[1] for v in violations])
    allow = read_allow(args.allow) if args.allow else []
    used_entries = set()
    known, unknown = [], []
    for v in violations:
        user, name, _, where = v
        entry = next((e for e in allow if e[0] == user and e[1] in where
                      and e[2].search(pretty[name])), None)
        if entry is None:
            unknown.append(v)
        else:
            used_entries.add(entry[3])
            known.append(v)
    for user, name, objs, where in known:
        print(f"known edge ({os.path.basename(args.allow)}): {user} -> {','.join(sorted(where))}: "
              f"{pretty[name]}")
    stale = [e for e in allow if e[3] not in used_entries]
    for user, definer, regex, number in stale:
        print(f"{args.allow}:{number}: no {user} -> {definer} reference matches "
              f"{regex.pattern!r} any more: remove the entry")
    violations = unknown
    for user, name, objs, where in violations:
        used_by = ", ".join(short(o) for o in objs)
        defined_in = "; ".join(
            f"{d} ({', '.join(sorted(short(o) for o in objs_d))})"
            for d, objs_d in sorted(where.items()))
        target = ",".join(sorted(where))
        print(f"{user} -> {target}: {pretty[name]} used by {used_by}, defined in {defined_in}")
    count = sum(len(layer.objects) for layer in layers)
    if violations or stale:
        print(f"layer rule broken at link level: {len(violations)} reference(s) to a layer the "
              f"user does not see (src/CMakeLists.txt, ascsim_layer SEES)")
        return 1
    print(f"layer rule holds at link level: {len(layers)} layers, {count} objects, "
          f"{len(known)} known reference(s) allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
