# <P>/set_env.sh: the name CANN's toolkit folder gives its environment script. It is the same as
# <P>/bin/setenv.bash, which it sources from the folder this file is in.
# shellcheck source=/dev/null
source "$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)/bin/setenv.bash"
