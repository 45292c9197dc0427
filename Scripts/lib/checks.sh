# What the scripts beside Scripts/test share (test-package, test-slurm, test-container): numbered checks, a closing
# "N passed, M failed" line that Scripts/test adds up, and Debian packages installed when missing.
# Source it after setting `checks_label` (e.g. "slurm test"); `sudo` is "" for root, else "sudo".
passed=0 failed=0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# Everything the script and the builds it starts put in the temporary folder (SwiftPM leaves TemporaryDirectory.*
# folders and lock files behind) goes into one folder of its own, removed by `checks_cleanup`.
checks_tmp="$(mktemp -d "${TMPDIR:-/tmp}/frameprobe-checks.XXXXXX")"
export TMPDIR="$checks_tmp"
checks_log="$checks_tmp/check.log"
checks_cleanup() { $sudo rm -rf "$checks_tmp"; }
trap checks_cleanup EXIT

# check NAME COMMAND...: runs the command (its output kept, and shown when it fails), counts and reports it.
check() {
  local name="$1"; shift
  if "$@" > "$checks_log" 2>&1; then
    passed=$((passed + 1)); echo "$checks_label passed: $name"
  else
    failed=$((failed + 1)); echo "$checks_label FAILED: $name" >&2; cat "$checks_log" >&2
  fi
}

# fail NAME: a step the checks cannot go on without failed.
fail() { failed=$((failed + 1)); echo "$checks_label FAILED: $1" >&2; }

# finish: the closing line; the exit status says whether everything passed.
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

# install_missing PACKAGE...: apt-get installs those not installed yet (nothing happens when all are).
install_missing() {
  local package missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2
}
