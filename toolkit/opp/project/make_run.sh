#!/bin/bash
# make_run.sh <staging> <out.run> <vendor>: the custom_opp_<os>_<arch>.run of a custom-operator
# project built by ascsim's skeleton: a shell installer with the staging tree (packages/vendors/
# <vendor>/...) appended as a tar.gz. The installer puts vendors/<vendor> where CANN's package
# install puts it (its scripts/install.sh): --install-path=<dir> -> <dir>/vendors/<vendor> (and a
# bin/set_env.bash there adding it to ASCEND_CUSTOM_OPP_PATH); else $ASCEND_CUSTOM_OPP_PATH ->
# there/vendors/<vendor>; else $ASCEND_OPP_PATH/vendors/<vendor>, with <vendor> first in
# vendors/config.ini's load_priority.
set -e
staging=$1
out=$2
vendor=$3
if [ ! -d "$staging/packages/vendors/$vendor" ]; then
  echo "make_run.sh: $staging/packages/vendors/$vendor does not exist" >&2
  exit 1
fi
cat > "$out" <<HEADER
#!/bin/bash
# An ascsim custom-operator package (vendor $vendor). Run it to install; --help for options.
vendor=$vendor
HEADER
cat >> "$out" <<'BODY'
install_path=""
for arg in "$@"; do
  case "$arg" in
    --install-path=*) install_path="${arg#*=}"; install_path="${install_path%/}" ;;
    --help|-h)
      echo "usage: $0 [--install-path=<dir>] [--quiet]"
      echo "installs vendors/$vendor into <dir>, \$ASCEND_CUSTOM_OPP_PATH or \$ASCEND_OPP_PATH/vendors"
      exit 0 ;;
  esac
done
log() { echo "[ascsim] [$(date +'%Y-%m-%d %H:%M:%S')] $1"; }
if [ -n "$install_path" ]; then
  case "$install_path" in /*) ;; *) log "[ERROR] use an absolute path for --install-path"; exit 1 ;; esac
  target="$install_path/vendors"
  config=0
elif [ -n "$ASCEND_CUSTOM_OPP_PATH" ]; then
  target="${ASCEND_CUSTOM_OPP_PATH%%:*}/vendors"
  config=0
elif [ -n "$ASCEND_OPP_PATH" ]; then
  target="$ASCEND_OPP_PATH/vendors"
  config=1
else
  log "[ERROR] env ASCEND_OPP_PATH does not exist (source <toolkit>/bin/setenv.bash)"
  exit 1
fi
mkdir -p "$target" || { log "[ERROR] cannot create $target"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
line=$(awk '/^__ASCSIM_PAYLOAD__$/ { print NR + 1; exit 0 }' "$0")
tail -n +"$line" "$0" | tar xzf - -C "$tmp" || { log "[ERROR] the package is damaged"; exit 1; }
rm -rf "$target/$vendor"
mkdir -p "$target/$vendor"
cp -r "$tmp/packages/vendors/$vendor/." "$target/$vendor/"
if [ "$config" = 1 ]; then
  cfg="$target/config.ini"
  others=""
  if [ -f "$cfg" ]; then
    others=$(sed -n 's/^load_priority=//p' "$cfg" | tr ',' '\n' | grep -vx "$vendor" | paste -sd, -)
  fi
  if [ -n "$others" ]; then echo "load_priority=$vendor,$others" > "$cfg"; else echo "load_priority=$vendor" > "$cfg"; fi
fi
if [ -n "$install_path" ]; then
  mkdir -p "$target/$vendor/bin"
  cat > "$target/$vendor/bin/set_env.bash" <<ENV
export ASCEND_CUSTOM_OPP_PATH=$target/$vendor:\${ASCEND_CUSTOM_OPP_PATH}
ENV
fi
log "SUCCESS: vendors/$vendor installed in $target"
exit 0
__ASCSIM_PAYLOAD__
BODY
tar czf - -C "$staging" packages >> "$out"
chmod +x "$out"
echo "ascsim: wrote $out"
