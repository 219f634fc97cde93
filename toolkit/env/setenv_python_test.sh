#!/bin/bash
# <P>/bin/setenv.bash and the Python the official run.sh scripts call (`python3`, which must
# import numpy): a first python3 on PATH without numpy (a pyenv or venv one) is put behind one
# that has it; with none that has it, sourcing says so at once. A fake python3 stands in for the
# one without numpy.
#   setenv_python_test.sh PREFIX     (an installed toolkit)
set -u
prefix="$1"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

mkdir -p "${work}/nonumpy"
cat > "${work}/nonumpy/python3" <<'FAKE'
#!/bin/sh
echo "ModuleNotFoundError: No module named 'numpy' (a python3 without numpy)" >&2
exit 1
FAKE
chmod +x "${work}/nonumpy/python3"
check='import numpy, sys; print("numpy", sys.executable)'

# 1. The first python3 lacks numpy: after setenv.bash, `python3` imports it.
out="$(PATH="${work}/nonumpy:${PATH}" bash -c 'source "$0/bin/setenv.bash" && python3 -c "$1"' \
       "${prefix}" "${check}" 2>&1)"
case "${out}" in
  numpy\ *) ;;
  *) fail "a first python3 without numpy was not replaced: ${out}" ;;
esac

# 2. The first python3 has numpy: PATH keeps it first (nothing is put before it).
first="$(command -v python3)"
if "${first}" -c 'import numpy' 2>/dev/null; then
  got="$(bash -c 'source "$0/bin/setenv.bash" && command -v python3' "${prefix}")"
  [ "${got}" = "${first}" ] || fail "python3 with numpy (${first}) was replaced by ${got}"
fi

# 3. No python3 with numpy anywhere (a copy of setenv.bash whose own choice is the fake one, and
# a PATH with only the fake): one line at once on stderr naming the problem and the fix.
mkdir -p "${work}/prefix/bin" "${work}/tools"
sed -e "s|^_ascsim_built_python=.*|_ascsim_built_python=\"${work}/nonumpy/python3\"|" \
    -e "s|^_ascsim_system_pythons=.*|_ascsim_system_pythons=|" \
    "${prefix}/bin/setenv.bash" > "${work}/prefix/bin/setenv.bash"
grep -q "^_ascsim_built_python=\"${work}/nonumpy/python3\"" "${work}/prefix/bin/setenv.bash" ||
  fail "the test could not set the copy's own Python"
ln -s "$(command -v dirname)" "${work}/tools/dirname"
err="$(PATH="${work}/nonumpy:${work}/tools" /bin/bash -c \
       'source "$0/bin/setenv.bash"; echo sourced' "${work}/prefix" 2>&1 >/dev/null)"
out="$(PATH="${work}/nonumpy:${work}/tools" /bin/bash -c \
       'source "$0/bin/setenv.bash"; echo sourced' "${work}/prefix" 2>/dev/null)"
[ "${out}" = "sourced" ] || fail "sourcing failed without a numpy Python: ${out}"
case "${err}" in
  *"cannot import numpy"*"python3 -m pip install numpy"*) ;;
  *) fail "no message about numpy: ${err}" ;;
esac

[ "${failures}" -eq 0 ] && echo "setenv.bash python3: ok"
exit "${failures}"
