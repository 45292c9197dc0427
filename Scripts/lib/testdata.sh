# The test-data folder (real footage from other repositories, kept outside this one), found in one place:
# FRAMEPROBE_TEST_DATA when set, otherwise ../shared/devdata beside the checkout when it exists.
# Source this file; `testdata_dir` prints the folder, or says why there is none on stderr and returns 1.
testdata_dir() {
  local root candidate
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  if [ -n "${FRAMEPROBE_TEST_DATA:-}" ]; then
    candidate="$FRAMEPROBE_TEST_DATA"
    [ -d "$candidate" ] || { echo "FRAMEPROBE_TEST_DATA=$candidate is not a folder" >&2; return 1; }
  else
    candidate="$root/../shared/devdata"
    [ -d "$candidate" ] || { echo "no test-data folder: FRAMEPROBE_TEST_DATA is unset and $(cd "$root/.." && pwd)/shared/devdata does not exist" >&2; return 1; }
  fi
  (cd "$candidate" && pwd)
}
